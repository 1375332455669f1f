import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, startCoco, startServer, type RunningCoco, type ServerProcess } from '../support/processes.js';

// The arena of `cocod --nodes 2`: one node holds the pairing lease in the primary's hub, the
// entrants of both nodes queue there, the ratings go to the primary's store. Killed, the pairing
// node leaves the hub and the other node takes the lease at once; new entrants play on.
const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
const ARGS = ['--nodes', '2', '--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0', '--limit', 'arena-lease-seconds=2', '--limit', 'arena-lease-refresh-seconds=0.5'];
let server: ServerProcess;
const entrants: RunningCoco[] = [];
const sweep = markTestProcesses();

before(async () => {
  server = await startServer(ARGS);
  await server.waitForLog(/listening on \S+ \(2 nodes/);
});
after(async () => {
  try {
    for (const entrant of entrants) entrant.child.kill('SIGKILL');
    await server?.stop();
  } finally {
    await sweep();
  }
});

function arena(name: string, level: number): RunningCoco {
  const entrant = startCoco(server.url, ['arena', 'roshambo', '-n', name, '--', 'python3', LEVEL_BOT, String(level)]);
  entrants.push(entrant);
  return entrant;
}

test('cocod --nodes 2: entrants queue in one arena and are rated in the primary\'s store; the pairing node killed, the other pairs', async () => {
  const pairing = (await server.waitForLog(/(node-\d+\.\d+): arena: this node pairs the cluster's queue \(lease epoch 1\)/))[1]!;
  const level1 = arena('level1', 1);
  const level2 = arena('level2', 2);
  await level2.waitForOutput(/^> game \d+ \(\w+\): win \d+-\d+ against level1/m);
  await level1.waitForOutput(/^> game \d+ \(\w+\): loss \d+-\d+ against level2/m);
  const board = (await (await fetch(`http://127.0.0.1:${server.port}/api/arena/roshambo`)).json()) as { leaderboard: { player: string }[] };
  assert.deepEqual(board.leaderboard.slice(0, 2).map((row) => row.player), ['level2', 'level1']);

  const pid = Number(server.log().match(new RegExp(`node ${pairing.replace('.', '\\.')} started \\(pid (\\d+)\\)`))![1]);
  process.kill(pid, 'SIGKILL');
  const next = (await server.waitForLog(/(node-\d+\.\d+): arena: this node pairs the cluster's queue \(lease epoch 2\)/))[1]!;
  assert.notEqual(next, pairing);
  // New entrants, on whichever node each connection lands: the strongest wins its games.
  const level3 = arena('level3', 3);
  arena('level0', 0);
  await level3.waitForOutput(/^> game \d+ \(\w+\): win \d+-\d+ against level[012]/m);
  level3.child.kill('SIGINT');
  const run = await level3.done;
  assert.equal(run.code, 0, run.stdout + run.stderr);
});
