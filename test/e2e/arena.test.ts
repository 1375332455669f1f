import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, coco, startCoco, startServer, type RunningCoco, type ServerProcess } from '../support/processes.js';

/**
 * The arena with real processes: cocod, `coco arena` clients and their programs. The programs are
 * roshambo players of known strength (examples/arena/roshambo_level.py: level k beats every lower
 * level), so the ranking the arena must reach is known in advance.
 */

const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
/** Exits with an error after reading the header: a crash in round 1, every game. */
const CRASHER = ['python3', '-c', 'import sys; [sys.stdin.readline() for _ in range(3)]; sys.exit(1)'];
const ARENA_ARGS = ['--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0'];

let server: ServerProcess;
const sweep = markTestProcesses();

before(async () => {
  server = await startServer([...ARENA_ARGS, '--limit', 'arena-failures=2', '--limit', 'arena-hold-seconds=600']);
});
after(async () => {
  try {
    await server?.stop();
  } finally {
    await sweep();
  }
});

function httpUrl(path: string): string {
  return `http://127.0.0.1:${server.port}${path}`;
}

function arena(name: string, program: readonly string[], extra: readonly string[] = []): RunningCoco {
  return startCoco(server.url, ['arena', 'roshambo', '-n', name, ...extra, '--', ...program]);
}

/** Resolves once `entrant` has printed the line of its `count`th finished game. */
function gamesDone(entrant: RunningCoco, count: number): Promise<void> {
  return entrant.waitForOutput(new RegExp(`^> game ${count} \\(`, 'm'));
}

test('four programs of known strength queued for a while end ranked in their order of strength; Ctrl-C leaves cleanly', async () => {
  const levels = [0, 1, 2, 3];
  const entrants = levels.map((level) => arena(`level${level}`, ['python3', LEVEL_BOT, String(level)]));
  await Promise.all(entrants.map((entrant) => gamesDone(entrant, 6)));
  // Ctrl-C: each leaves the queue once its game in progress is over, and exits 0.
  for (const entrant of entrants) entrant.child.kill('SIGINT');
  const runs = await Promise.all(entrants.map((entrant) => entrant.done));
  for (const run of runs) {
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^> SIGINT: leaving the queue/m);
    assert.match(run.stdout, /^> left the arena after \d+ games: \+\d+ =\d+ -\d+$/m);
  }
  // Every game line names a result, the opponent, the rating and the running score.
  assert.match(runs[3]!.stdout, /^> game 1 \(\w+\): win \d+-\d+ against level[012] \(.*\), rating -?\d+\.\d\d; score \+1 =0 -0$/m);
  const body = (await (await fetch(httpUrl('/api/arena/roshambo'))).json()) as { leaderboard: { player: string; games: number; wins: number }[]; queue: unknown[]; live: unknown[] };
  assert.deepEqual(body.leaderboard.map((row) => row.player), ['level3', 'level2', 'level1', 'level0'], JSON.stringify(body.leaderboard));
  assert.equal(body.leaderboard[3]!.wins, 0);
  assert.deepEqual(body.queue, [], 'everyone left the queue');
  // The same leaderboard from the command line and as CSV.
  const table = await coco(server.url, ['ratings', 'roshambo', '--arena']);
  assert.equal(table.code, 0, table.stderr);
  assert.deepEqual(table.stdout.split('\n').slice(2, 6).map((line) => line.trim().split(/\s+/)[1]), ['level3', 'level2', 'level1', 'level0']);
  const csv = await (await fetch(httpUrl('/api/arena/roshambo.csv'))).text();
  assert.match(csv, /^rank,player,rating,mu,sigma,games,wins,draws,losses,last_seen\r\n1,level3,/);
  // Each arena game is an ordinary match in the history, with the players in the seats they were given.
  const player = (await (await fetch(httpUrl('/api/arena/roshambo/level3'))).json()) as { games: { match_id: string; players: string[] }[] };
  const record = (await (await fetch(httpUrl(`/api/history/${player.games[0]!.match_id}`))).json()) as { players: string[]; game: string };
  assert.equal(record.game, 'roshambo');
  assert.deepEqual(record.players, player.games[0]!.players);
});

test('a program that crashes loses only its game, is held out after failing again, and the other entrant plays on', async () => {
  const steady = arena('steady', ['python3', LEVEL_BOT, '1']);
  const crashy = arena('crashy', CRASHER);
  await gamesDone(crashy, 2);
  const early = await Promise.race([crashy.waitForOutput(/held out of pairing/).then(() => null), crashy.done]);
  assert.equal(early, null, `held out after arena-failures crashes in a row: ${JSON.stringify(early)}`);
  crashy.child.kill('SIGINT');
  const crashed = await crashy.done;
  assert.equal(crashed.code, 0, crashed.stdout + crashed.stderr);
  assert.match(crashed.stdout, /^> game 1 \(\w+\): loss 0-1 against steady \(crashy retired in round 1\)/m);
  assert.match(crashed.stdout, /^> game 2 \(\w+\): loss 0-1 against steady/m);
  assert.match(crashed.stdout, /^> \w+: program exited with code 1 before the match ended; staying connected until the server ends the match$/m);
  await gamesDone(steady, 2);
  steady.child.kill('SIGINT');
  const played = await steady.done;
  assert.equal(played.code, 0, played.stdout + played.stderr);
  assert.match(played.stdout, /^> game 1 \(\w+\): win 1-0 against crashy/m);
});

test('an unknown game and a bad concurrency are refused with the server\'s words', async () => {
  const unknown = await coco(server.url, ['arena', 'nosuchgame', '-n', 'x', '--', 'python3', LEVEL_BOT]);
  assert.equal(unknown.code, 3, unknown.stderr);
  assert.match(unknown.stderr, /^coco: Game "nosuchgame" has no arena on this server/);
  const tooMany = await coco(server.url, ['arena', 'roshambo', '-n', 'x', '--concurrency', '99', '--', 'python3', LEVEL_BOT]);
  assert.equal(tooMany.code, 3, tooMany.stderr);
  assert.match(tooMany.stderr, /arena-games-per-name/);
});
