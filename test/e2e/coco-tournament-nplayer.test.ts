import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { outcomeOf, type ResultLine } from '../../src/tournament/results-file.js';
import { ROOT, coco, startServer, type ServerProcess } from '../support/processes.js';
import { readResultLines, tableRows } from '../support/tournament-output.js';

/**
 * `coco tournament` of a game of more than 2 players against a real server: lowest-unique (an
 * external example game) at tables of 3, its example program as three entrants and the game's
 * server bot as a fourth; every table plays each rotation of its seats, the results file holds
 * the places, and a tournament cut short resumes.
 */

const EXAMPLE = join(ROOT, 'examples/external/lowest-unique');
const BOT = join(EXAMPLE, 'bot.py');
const NAMES = ['ann', 'bob', 'cyd', 'house'];
const TOURNAMENT = ['tournament', 'lowest-unique', '-n', '3', '-a', 'rounds=3', '-t', '60', '--player', `ann=python3 ${BOT}`, '--player', `bob=python3 ${BOT}`, '--player', `cyd=python3 ${BOT}`, '--bot', 'house', '--concurrency', '3'];

let server: ServerProcess;
let dir: string;
const sweep = markTestProcesses();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coco-tournament-n-'));
  // The example as it is but for a wide ready deadline: a Python interpreter starting on a busy
  // machine may take longer than the example's 3 s to say `ready`.
  const games = join(dir, 'games');
  cpSync(EXAMPLE, join(games, 'lowest-unique'), { recursive: true });
  const manifest = join(games, 'lowest-unique', 'game.json');
  writeFileSync(manifest, JSON.stringify({ ...(JSON.parse(readFileSync(manifest, 'utf8')) as object), ready_deadline: 300 }));
  server = await startServer(['--games', games]);
});
after(async () => {
  try {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await sweep();
  }
});

function assertWholeSchedule(lines: readonly ResultLine[]): void {
  // 4 tables of 3 (every 3 of the 4 entrants), each in its 3 rotations.
  assert.deepEqual(lines.map((l) => l.pairing).sort((a, b) => a - b), Array.from({ length: 12 }, (_, i) => i));
  for (const line of lines) {
    assert.equal(line.players.length, 3, JSON.stringify(line));
    assert.equal(line.outcome, outcomeOf(line.scores), JSON.stringify(line));
    assert.notEqual(line.outcome, '*', JSON.stringify(line));
    // Not `crashed`: bot.py exits as soon as it reads `end`, and on a loaded machine the server's
    // end of the match can reach coco more than END_GRACE_MS (src/cli/coco-connect.ts) later, when
    // coco reports the exit as early. The game's result stands either way.
    assert.deepEqual([line.timedOut, line.illegal], [[], []], JSON.stringify(line));
  }
  // Each entrant sits at 3 tables and in each seat once at each: 3 times in each seat.
  for (const name of NAMES) {
    assert.deepEqual([0, 1, 2].map((seat) => lines.filter((l) => l.players[seat] === name).length), [3, 3, 3], name);
  }
  // Each table (as a set of players) played 3 games, one per rotation of its seats.
  const tables = new Map<string, string[]>();
  for (const l of [...lines].sort((a, b) => a.pairing - b.pairing)) {
    const key = [...l.players].sort().join(' ');
    tables.set(key, [...(tables.get(key) ?? []), l.players.join(' ')]);
  }
  assert.equal(tables.size, 4);
  for (const orders of tables.values()) {
    const [a, b, c] = orders[0]!.split(' ');
    assert.deepEqual(orders, [`${a} ${b} ${c}`, `${b} ${c} ${a}`, `${c} ${a} ${b}`]);
  }
}

test('a round-robin of lowest-unique at tables of 3: every rotation of every table, places in the results, a table with places', async () => {
  const results = join(dir, 'full.jsonl');
  const run = await coco(server.url, [...TOURNAMENT, '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.match(/^Finished game \d+ \(\S+ vs \S+ vs \S+\): places \d-\d-\d /gm)?.length, 12, run.stdout);
  const lines = readResultLines(results);
  assertWholeSchedule(lines);
  assert.ok(!lines.some((l) => l.players.some((name) => name.startsWith('ServerBot'))));
  assert.match(run.stdout, /^#\s+player\s+Elo\s+±95%\s+LOS\s+points\s+games\s+W\s+D\s+L\s+place\s+draws\s/m);
  assert.match(run.stdout, /^12 games, draw rate \d+\.\d% \(first place shared\)/m);
  const rows = tableRows(run.stdout, NAMES, 6);
  assert.deepEqual([...rows.keys()].sort(), NAMES);
  // Each game hands out 3/2 points; each entrant played 9 games.
  const points = [...rows.values()].reduce((sum, cells) => sum + Number(cells[0]), 0);
  assert.ok(Math.abs(points - 18) < 0.05, `${points}`);
  for (const cells of rows.values()) {
    assert.equal(cells[1], '9');
    assert.equal(Number(cells[2]) + Number(cells[3]) + Number(cells[4]), 9);
  }
});

test('resume of the 3-seat round-robin: a file cut short plays only what is missing', async () => {
  const full = readResultLines(join(dir, 'full.jsonl'));
  const results = join(dir, 'half.jsonl');
  const kept = full.slice(0, 5);
  writeFileSync(results, `${kept.map((l) => JSON.stringify(l)).join('\n')}\n${JSON.stringify(full[5]).slice(0, 30)}`);
  const run = await coco(server.url, [...TOURNAMENT, '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.match(/^Finished game \d+ /gm)?.length, 7, run.stdout);
  const lines = readResultLines(results);
  assert.deepEqual(lines.slice(0, 5), kept);
  assertWholeSchedule(lines);
});

test('the command line of an n-player tournament is checked before anything is played', async () => {
  const few = await coco(server.url, ['tournament', 'lowest-unique', '-n', '3', '--player', 'a=true', '--player', 'b=true']);
  assert.equal(few.code, 2);
  assert.match(few.stderr, /a tournament of 3-player matches needs at least 3 players/);
  const sprt = await coco(server.url, ['tournament', 'lowest-unique', '-n', '3', '--player', 'a=true', '--player', 'b=true', '--player', 'c=true', '--sprt']);
  assert.equal(sprt.code, 2);
  assert.match(sprt.stderr, /--sprt is for 2-player matches, not 3-player ones/);
  // Without -n, the game's default (4, as GET /api/games tells).
  const byDefault = await coco(server.url, ['tournament', 'lowest-unique', '--player', 'a=true', '--player', 'b=true', '--player', 'c=true']);
  assert.equal(byDefault.code, 2);
  assert.match(byDefault.stderr, /a game of 4 players needs at least 4 entrants, not 3/);
  const sprtByDefault = await coco(server.url, ['tournament', 'lowest-unique', '--player', 'a=true', '--player', 'b=true', '--sprt']);
  assert.equal(sprtByDefault.code, 2);
  assert.match(sprtByDefault.stderr, /--sprt is for 2-player matches, not 4-player ones \(lowest-unique's default\)/);
  const huge = await coco(server.url, ['tournament', 'lowest-unique', '-n', '3', ...Array.from({ length: 30 }, (_, i) => ['--player', `p${i}=true`]).flat(), '--rounds', '300']);
  assert.equal(huge.code, 2);
  assert.match(huge.stderr, /is 3654000 matches: at most 1000000/);
});
