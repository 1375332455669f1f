import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, coco, startCoco, startServer, type ServerProcess } from '../support/processes.js';

/**
 * `coco tournament --on-server` against a real cocod: the server's own bots, here three bot
 * programs registered for roshambo (`bots_for`) that always play one gesture, so every result is
 * known: rock beats scissors beats paper beats rock.
 */

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const BEATS: Readonly<Record<string, string>> = { rock: 'scissors', paper: 'rock', scissors: 'paper' };

let server: ServerProcess;
let dir: string;
const sweep = markTestProcesses();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coco-server-tournament-'));
  const games = join(dir, 'games');
  mkdirSync(join(games, 'gestures'), { recursive: true });
  // Each program's name is its last argument: ROCK, PAPER, SCISSORS.
  writeFileSync(join(games, 'gestures', 'game.json'), JSON.stringify({ bots_for: 'roshambo', bots: ['ROCK', 'PAPER', 'SCISSORS'].map((g) => ['python3', BOT, g]) }));
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

const ENTRANTS = ['--bot', 'rock=ROCK', '--bot', 'paper=PAPER', '--bot', 'scissors=SCISSORS'];
const GAME = ['tournament', 'roshambo', '--on-server', '-v', 'master', '-a', 'rounds=3', '-a', 'pace=0'];

test('the server plays a round robin of its bot programs: a line per match, then the table', async () => {
  const run = await coco(server.url, [...GAME, ...ENTRANTS, '--rounds', '2', '--concurrency', '3']);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const id = /^tournament ([0-9a-f]+) on the server \(http:\/\/[^)]+#\/tournaments\/\1\): 12 matches$/m.exec(run.stdout)?.[1];
  assert.ok(id, run.stdout);
  const lines = run.stdout.split('\n').filter((line) => /^Finished game \d+ /.test(line));
  assert.equal(lines.length, 12, run.stdout);
  const firstSeats = new Map<string, number>();
  for (const line of lines) {
    const [, a, b, outcome, match] = /^Finished game \d+ \((\w+) vs (\w+)\): (1-0|0-1) \{.*\}, match (\w+)$/.exec(line) ?? [];
    assert.ok(a && b && match, line);
    assert.equal(outcome, BEATS[a] === b ? '1-0' : '0-1', line);
    firstSeats.set(`${a}>${b}`, (firstSeats.get(`${a}>${b}`) ?? 0) + 1);
  }
  // Seats alternate strictly: every ordered pair played first twice (2 rounds).
  assert.deepEqual([...firstSeats.values()], [2, 2, 2, 2, 2, 2]);
  const rows = run.stdout.split('\n').filter((line) => /^\d+\s+(rock|paper|scissors)\s/.test(line));
  assert.equal(rows.length, 3);
  for (const row of rows) assert.deepEqual(row.trim().split(/\s+/).slice(5, 10), ['4', '8', '4', '0', '4'], row);
  // Ordinary matches: in the history, named after the tournament.
  const history = (await (await fetch(`${server.url.replace('ws:', 'http:')}api/history?limit=50`)).json()) as { matches: { name: string; players: string[]; reason: string }[] };
  const ours = history.matches.filter((m) => m.name.startsWith(`tour ${id} #`));
  assert.equal(ours.length, 12);
  // Recorded under the entrants' names, in the seats and in the game's own words ("rock wins 3-0"), not ServerBot$0/$1.
  assert.ok(ours.every((m) => m.players.length === 2 && m.players.every((name) => name in BEATS)), JSON.stringify(ours));
  assert.ok(ours.every((m) => m.players.some((name) => m.reason.includes(name)) && !m.reason.includes('ServerBot')), JSON.stringify(ours));
  assert.doesNotMatch(run.stdout, /ServerBot/);
});

test('refusals come back as coco errors: a wrong password (3), a bot the game lacks (3), a local-only flag (2)', async () => {
  const wrong = await coco(server.url, ['tournament', 'roshambo', '--on-server', '-v', 'nope', ...ENTRANTS]);
  assert.equal(wrong.code, 3);
  assert.match(wrong.stderr, /wrong verification password/);
  const lizard = await coco(server.url, [...GAME, '--bot', 'a=LIZARD', '--bot', 'b=ROCK']);
  assert.equal(lizard.code, 3);
  assert.match(lizard.stderr, /no such server bot \(bots: ROCK, PAPER, SCISSORS, null\)/);
  const usage = await coco(server.url, [...GAME, ...ENTRANTS, '--player', 'x=true']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--on-server plays server bots only/);
});

test('coco stop-tournament stops a running one: the follower sees it stopped; a second stop, an unknown id and a wrong password are refused (3)', async () => {
  // Slow matches (a gesture every 0.2 s for 100 rounds): still running when the stop comes.
  const follower = startCoco(server.url, ['tournament', 'roshambo', '--on-server', '-v', 'master', '-a', 'rounds=100', '-a', 'pace=0.2', ...ENTRANTS]);
  await follower.waitForOutput(/^tournament [0-9a-f]+ on the server/m);
  // The other tests' tournaments are over: the running one is this one.
  const list = (await (await fetch(`${server.url.replace('ws:', 'http:')}api/tournaments`)).json()) as { tournaments: { id: string; state: string }[] };
  const id = list.tournaments.find((t) => t.state === 'running')!.id;

  const usage = await coco(server.url, ['stop-tournament', id]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /needs the server's verification password/);
  const wrong = await coco(server.url, ['stop-tournament', id, '-v', 'nope']);
  assert.equal(wrong.code, 3);
  assert.match(wrong.stderr, /wrong verification password: stopping a tournament needs/);
  const unknown = await coco(server.url, ['stop-tournament', 'ffffffffff', '-v', 'master']);
  assert.equal(unknown.code, 3);
  assert.match(unknown.stderr, /no tournament "ffffffffff"/);

  const stopped = await coco(server.url, ['stop-tournament', id, '-v', 'master']);
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stdout, new RegExp(`^tournament ${id} stopped after \\d+ of 6 matches \\(\\d+ running matches end unfinished\\)$`, 'm'));
  const followed = await follower.done;
  assert.equal(followed.code, 1, followed.stderr + followed.stdout);
  assert.match(followed.stdout, /the tournament stopped: the tournament was stopped/);

  const again = await coco(server.url, ['stop-tournament', id, '-v', 'master']);
  assert.equal(again.code, 3);
  assert.match(again.stderr, new RegExp(`tournament ${id} is stopped already`));
});
