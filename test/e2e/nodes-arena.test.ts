import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arenaOnTwoNodes } from '../support/arena-nodes.js';

// The arena of `cocod --nodes 2`: one node holds the pairing lease in the primary's hub, the
// entrants of both nodes queue there, the ratings go to the primary's store. Killed, the pairing
// node leaves the hub and the other node takes the lease at once; new entrants play on.
const arena = arenaOnTwoNodes();

test('cocod --nodes 2: entrants queue in one arena and are rated in the primary\'s store; the pairing node killed, the other pairs', async () => {
  const pairing = await arena.pairingNode(1);
  const level1 = arena.enter('level1', 1);
  const level2 = arena.enter('level2', 2);
  await level2.waitForOutput(/^> game \d+ \(\w+\): win \d+-\d+ against level1/m);
  await level1.waitForOutput(/^> game \d+ \(\w+\): loss \d+-\d+ against level2/m);
  const board = (await (await fetch(`http://127.0.0.1:${arena.server.port}/api/arena/roshambo`)).json()) as { leaderboard: { player: string }[] };
  assert.deepEqual(board.leaderboard.slice(0, 2).map((row) => row.player), ['level2', 'level1']);

  arena.kill(pairing);
  const next = await arena.pairingNode(2);
  assert.notEqual(next, pairing);
  // New entrants, on whichever node each connection lands: the strongest wins its games.
  const level3 = arena.enter('level3', 3);
  arena.enter('level0', 0);
  await level3.waitForOutput(/^> game \d+ \(\w+\): win \d+-\d+ against level[012]/m);
  level3.child.kill('SIGINT');
  const run = await level3.done;
  assert.equal(run.code, 0, run.stdout + run.stderr);
});
