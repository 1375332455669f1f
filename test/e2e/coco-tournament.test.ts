import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, coco, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { readResultLines, tableRows } from '../support/tournament-output.js';
import type { ResultLine } from '../../src/tournament/results-file.js';

/**
 * `coco tournament` against a real server: three fixed-gesture roshambo players in a round-robin
 * (rock beats scissors beats paper beats rock, so each wins 2 and loses 2), the results file, and
 * resuming after a results file was cut short or coco was killed mid-way.
 */

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const PLAYERS = ['--player', `rock=python3 ${BOT} ROCK`, '--player', `paper=python3 ${BOT} PAPER`, '--player', `scissors=python3 ${BOT} SCISSORS`];
const BEATS: Readonly<Record<string, string>> = { rock: 'scissors', paper: 'rock', scissors: 'paper' };
const PLAYER_NAMES = Object.keys(BEATS);

let server: ServerProcess;
let dir: string;
const sweep = markTestProcesses();

before(async () => {
  server = await startServer();
  dir = mkdtempSync(join(tmpdir(), 'coco-tournament-'));
});
after(async () => {
  try {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await sweep();
  }
});

/** Each result is what the gestures make it: the one whose gesture beats the other's won 3-0. */
function assertGestureResults(lines: readonly ResultLine[]): void {
  for (const line of lines) {
    const [a, b] = line.players as [string, string];
    assert.equal(line.outcome, BEATS[a] === b ? '1-0' : '0-1', JSON.stringify(line));
    assert.deepEqual(line.scores, BEATS[a] === b ? [3, 0] : [0, 3]);
    assert.deepEqual([line.crashed, line.timedOut, line.illegal], [[], [], []]);
  }
}

const GAME = ['tournament', 'roshambo', '-a', 'rounds=3', '-a', 'pace=0'];

test('a round-robin of three programs: a line per match, the table, and one JSON line per match', async () => {
  const results = join(dir, 'full.jsonl');
  const run = await coco(server.url, [...GAME, ...PLAYERS, '--concurrency', '2', '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  // 3 pairs, each in both seat orders.
  assert.equal(run.stdout.match(/^Started game \d of 6 \(\w+ vs \w+\), match \w+$/gm)?.length, 6, run.stdout);
  assert.equal(run.stdout.match(/^Finished game \d \(\w+ vs \w+\): (1-0|0-1) \{.+\}, match \w+$/gm)?.length, 6, run.stdout);
  // Three players: no head-to-head score line (that is for two).
  assert.doesNotMatch(run.stdout, /^Score of/m);
  assert.match(run.stdout, /^#\s+player\s+Elo\s+±95%\s+LOS\s+points\s+games\s+W\s+D\s+L\s+draws\s+crash\s+time\s+illegal\s+no result$/m);
  const rows = tableRows(run.stdout, PLAYER_NAMES, 5);
  assert.equal(rows.size, 3);
  for (const name of ['rock', 'paper', 'scissors']) assert.deepEqual(rows.get(name), ['2', '4', '2', '0', '2'], run.stdout);
  // A cycle: everyone is rated the same.
  assert.equal(run.stdout.match(/^\d\s+\S+\s+0\.0\s/gm)?.length, 3, run.stdout);
  assert.match(run.stdout, /^6 games, draw rate 0\.0%$/m);
  const lines = readResultLines(results);
  assert.deepEqual(lines.map((l) => l.pairing).sort(), [0, 1, 2, 3, 4, 5]);
  assertGestureResults(lines);
  // Each pair met twice, in matches the server recorded.
  const pairs = lines.map((l) => [...l.players].sort().join('-')).sort();
  assert.deepEqual(pairs, ['paper-rock', 'paper-rock', 'paper-scissors', 'paper-scissors', 'rock-scissors', 'rock-scissors']);
  // Each pair's two games were played in both seat orders, as the schedule asked.
  const orders = lines.map((l) => l.players.join('-')).sort();
  assert.deepEqual(orders, ['paper-rock', 'paper-scissors', 'rock-paper', 'rock-scissors', 'scissors-paper', 'scissors-rock']);
  for (const line of lines) assert.match(run.stdout, new RegExp(`match ${line.match}\\n`));
  assert.match((await coco(server.url, ['history', lines[0]!.match])).stdout, /^(rock|paper|scissors)\n/);
});

test('resume: with a results file cut short, only the missing matches are played', async () => {
  const full = readResultLines(join(dir, 'full.jsonl'));
  const results = join(dir, 'half.jsonl');
  const kept = full.slice(0, 3);
  // A kill while writing leaves a last line without its end: it is ignored and played again.
  writeFileSync(results, `${kept.map((l) => JSON.stringify(l)).join('\n')}\n${JSON.stringify(full[3]).slice(0, 40)}`);
  const run = await coco(server.url, [...GAME, ...PLAYERS, '--concurrency', '2', '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.match(/^Finished game \d /gm)?.length, 3, run.stdout);
  // The games played are the pairings missing from the file, numbered as in the schedule.
  for (const pairing of [0, 1, 2, 3, 4, 5].filter((p) => !kept.some((l) => l.pairing === p))) assert.match(run.stdout, new RegExp(`^Finished game ${pairing + 1} `, 'm'));
  const lines = readResultLines(results);
  assert.deepEqual(lines.slice(0, 3), kept);
  assert.deepEqual(lines.map((l) => l.pairing).sort(), [0, 1, 2, 3, 4, 5]);
  assertGestureResults(lines);
  for (const name of ['rock', 'paper', 'scissors']) assert.deepEqual(tableRows(run.stdout, PLAYER_NAMES, 5).get(name), ['2', '4', '2', '0', '2']);
  // Run again: nothing is left to play, and the table is the same.
  const again = await coco(server.url, [...GAME, ...PLAYERS, '--results', results]);
  assert.equal(again.code, 0, again.stderr);
  assert.doesNotMatch(again.stdout, /^(Started|Finished) game/m);
  assert.deepEqual(tableRows(again.stdout, PLAYER_NAMES, 5), tableRows(run.stdout, PLAYER_NAMES, 5));
});

test('resume: coco killed mid-way keeps what finished, and the re-run plays the rest', async () => {
  const results = join(dir, 'killed.jsonl');
  const slow = ['tournament', 'roshambo', '-a', 'rounds=3', '-a', 'pace=0.3'];
  const first = startCoco(server.url, [...slow, ...PLAYERS, '--results', results]);
  await first.waitForOutput(/^Finished game [^]*^Finished game /m);
  first.child.kill('SIGTERM');
  const stopped = await first.done;
  assert.equal(stopped.code, 143, stopped.stderr);
  const before = readResultLines(results);
  assert.ok(before.length >= 2 && before.length < 6, String(before.length));
  const rest = await coco(server.url, [...slow, ...PLAYERS, '--results', results]);
  assert.equal(rest.code, 0, rest.stderr);
  assert.equal(rest.stdout.match(/^Finished game \d /gm)?.length, 6 - before.length, rest.stdout);
  const lines = readResultLines(results);
  assert.deepEqual(lines.map((l) => l.pairing).sort(), [0, 1, 2, 3, 4, 5]);
  assertGestureResults(lines);
});

test("a server bot takes part under its tournament name; a program that dies is flagged with its match's id", async () => {
  const results = join(dir, 'bot.jsonl');
  const run = await coco(server.url, ['tournament', 'roshambo', '-a', 'rounds=3', '-a', 'pace=0', '--player', `rock=python3 ${BOT} ROCK`, '--player', `quitter=python3 ${BOT} PAPER --quit-after 1`, '--bot', 'house', '--format', 'gauntlet', '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  const lines = readResultLines(results);
  // Gauntlet: rock (the first player) against each other one, in both seat orders.
  assert.equal(lines.length, 4);
  assert.ok(lines.every((l) => l.players.includes('rock')));
  assert.equal(lines.filter((l) => l.players.includes('house')).length, 2);
  assert.ok(lines.every((l) => !l.players.some((name) => name.startsWith('ServerBot'))));
  // The game speaks of the bot's seat as ServerBot$0: the results and the lines say "house".
  assert.ok(lines.every((l) => !l.reason.includes('ServerBot')), JSON.stringify(lines));
  assert.doesNotMatch(run.stdout, /ServerBot/);
  const quit = lines.filter((l) => l.players.includes('quitter'));
  assert.ok(quit.every((l) => l.crashed.includes('quitter')), JSON.stringify(quit));
  for (const l of quit) assert.match(run.stdout, new RegExp(`^crash: quitter in match ${l.match}$`, 'm'));
  assert.match(run.stdout, /^\d\s+house\s/m);
});

test('the command line is checked before anything is played', async () => {
  const one = await coco(server.url, ['tournament', 'roshambo', '--player', 'a=true']);
  assert.equal(one.code, 2);
  assert.match(one.stderr, /at least 2 players/);
  const twice = await coco(server.url, ['tournament', 'roshambo', '--player', 'a=true', '--player', 'a=true']);
  assert.match(twice.stderr, /two players are named "a"/);
  const sprt = await coco(server.url, ['tournament', 'roshambo', '--player', 'a=true', '--player', 'b=true', '--player', 'c=true', '--sprt', 'elo1=10']);
  assert.match(sprt.stderr, /--sprt compares exactly 2 players/);
  const format = await coco(server.url, ['tournament', 'roshambo', '--player', 'a=true', '--player', 'b=true', '--format', 'knockout']);
  assert.match(format.stderr, /--format is one of round-robin, gauntlet, swiss/);
  const game = await coco(server.url, ['tournament', 'checkers', '--player', 'a=true', '--player', 'b=true']);
  assert.equal(game.code, 3);
  assert.match(game.stderr, /Game not found/);
});

test('--sprt stops scheduling once the test decides, and says which hypothesis it accepted', async () => {
  // "mixed" plays PAPER in 3 matches of 4 and SCISSORS in the 4th (a counter in a file; one match
  // at a time), so rock scores 1/4: each game moves the LLR by about -0.24 towards H0's -2.94.
  const counter = join(dir, 'counter');
  const mixed = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n + 1)) > ${counter}; if [ $((n % 4)) -eq 3 ]; then g=SCISSORS; else g=PAPER; fi; exec python3 ${BOT} $g`;
  const run = await coco(server.url, ['tournament', 'roshambo', '-a', 'rounds=1', '-a', 'pace=0', '--player', `rock=python3 ${BOT} ROCK`, '--player', `mixed=${mixed}`, '--rounds', '50', '--sprt', 'elo0=0', 'elo1=100']);
  assert.equal(run.code, 0, run.stderr);
  const played = run.stdout.match(/^Finished game \d+ /gm)?.length ?? 0;
  assert.ok(played > 5 && played < 100, `${played} games`);
  assert.match(run.stdout, /^SPRT elo0=0 elo1=100 alpha=0\.05 beta=0\.05: LLR -\d+\.\d\d \(-2\.94, 2\.94\), H0 accepted: rock is not 100 Elo stronger$/m);
});

test('swiss: two rounds of four players, each pair playing both games of a round, no pair twice', async () => {
  const results = join(dir, 'swiss.jsonl');
  const four = [...PLAYERS, '--player', `stone=python3 ${BOT} ROCK`];
  const run = await coco(server.url, [...GAME, ...four, '--format', 'swiss', '--rounds', '2', '--concurrency', '2', '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  const lines = readResultLines(results);
  assert.deepEqual(lines.map((l) => l.pairing).sort(), [0, 1, 2, 3, 4, 5, 6, 7]);
  const byPairing = lines.sort((x, y) => x.pairing - y.pairing).map((l) => [...l.players].sort().join('-'));
  // Pairings 2k and 2k+1 are the two games of one meeting; the 4 meetings are all different.
  for (let k = 0; k < 4; k++) assert.equal(byPairing[2 * k], byPairing[2 * k + 1]);
  assert.equal(new Set(byPairing).size, 4, byPairing.join(' '));
  assert.match(run.stdout, /^8 games, /m);
});

test("a results file of another tournament is refused, and more rounds with the same file play only the new ones", async () => {
  const results = join(dir, 'grow.jsonl');
  writeFileSync(results, readFileSync(join(dir, 'full.jsonl')));
  // Another order of the players schedules other games under the same numbers.
  const swapped = ['--player', PLAYERS[3]!, '--player', PLAYERS[1]!, '--player', PLAYERS[5]!];
  const refused = await coco(server.url, [...GAME, ...swapped, '--results', results]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /is another tournament's: its game \d was /);
  const more = await coco(server.url, [...GAME, ...PLAYERS, '--rounds', '2', '--concurrency', '3', '--results', results]);
  assert.equal(more.code, 0, more.stderr);
  assert.equal(more.stdout.match(/^Finished game \d+ /gm)?.length, 6, more.stdout);
  assert.deepEqual(readResultLines(results).map((l) => l.pairing).sort((a, b) => a - b), [...Array(12).keys()]);
  for (const name of ['rock', 'paper', 'scissors']) assert.deepEqual(tableRows(more.stdout, PLAYER_NAMES, 5).get(name), ['4', '8', '4', '0', '4']);
});

test('a program that does not answer within --timeout is counted under "time"', async () => {
  const results = join(dir, 'mute.jsonl');
  const run = await coco(server.url, [...GAME, '-t', '1', '--player', `rock=python3 ${BOT} ROCK`, '--player', 'mute=cat > /dev/null', '--results', results]);
  assert.equal(run.code, 0, run.stderr);
  const lines = readResultLines(results);
  assert.equal(lines.length, 2);
  // Roshambo's moves are simultaneous: rock, waiting for the round's end, may time out as well.
  for (const line of lines) assert.ok(line.timedOut.includes('mute') && line.crashed.length === 0, JSON.stringify(line));
  assert.match(run.stdout, /^\d\s+mute\s+(\S+\s+){9}0\s+2\s+0\s+0$/m);
  assert.match(run.stdout, /mute timed out/);
});

test('a --player whose program cannot start is refused before any match is made (exit 5)', async () => {
  const results = join(dir, 'missing.jsonl');
  const run = await coco(server.url, [...GAME, '--player', `rock=python3 ${BOT} ROCK`, '--player', 'missing=./no-such-bot --fast', '--results', results]);
  assert.equal(run.code, 5, run.stdout + run.stderr);
  assert.match(run.stderr, /^coco: player "missing": cannot start "\.\/no-such-bot": no such program, or not executable/m);
  assert.throws(() => readFileSync(results), /ENOENT/);
});

test("players' stderr stays off the console unless asked; two players get a running score line", async () => {
  const chatty = (gesture: string): string => `echo chatter-of-${gesture} >&2; exec python3 ${BOT} ${gesture}`;
  const two = ['--player', `rock=${chatty('ROCK')}`, '--player', `paper=${chatty('PAPER')}`];
  const quiet = await coco(server.url, [...GAME, ...two, '--rounds', '2']);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stdout + quiet.stderr, /chatter-of/);
  // paper beats rock in each of the 4 games, whichever seat it has.
  const scores = quiet.stdout.match(/^Score of rock vs paper: .*$/gm) ?? [];
  assert.deepEqual(scores, ['Score of rock vs paper: 0 - 1 - 0  [0.000] 1', 'Score of rock vs paper: 0 - 2 - 0  [0.000] 2', 'Score of rock vs paper: 0 - 3 - 0  [0.000] 3', 'Score of rock vs paper: 0 - 4 - 0  [0.000] 4']);

  const shown = await coco(server.url, [...GAME, ...two, '--stderr']);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stderr, /chatter-of-ROCK/);
  assert.match(shown.stderr, /chatter-of-PAPER/);

  const logs = mkdtempSync(join(dir, 'stderr-'));
  const filed = await coco(server.url, [...GAME, ...two, '--stderr-dir', logs]);
  assert.equal(filed.code, 0, filed.stderr);
  assert.doesNotMatch(filed.stdout + filed.stderr, /chatter-of/);
  // One file per player, appended to in each game it played (2 games), nobody else's in it.
  assert.equal(readFileSync(join(logs, 'rock.stderr'), 'utf8').match(/^chatter-of-\w+$/gm)?.join(), 'chatter-of-ROCK,chatter-of-ROCK');
  assert.equal(readFileSync(join(logs, 'paper.stderr'), 'utf8').match(/^chatter-of-\w+$/gm)?.join(), 'chatter-of-PAPER,chatter-of-PAPER');

  const nowhere = await coco(server.url, [...GAME, ...two, '--stderr-dir', join(dir, 'no-such-folder')]);
  assert.equal(nowhere.code, 2, nowhere.stderr);
  assert.match(nowhere.stderr, /--stderr-dir takes an existing folder/);
});
