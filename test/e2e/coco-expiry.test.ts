import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startCoco, startServer } from '../support/processes.js';

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');

/**
 * The lifetime of a waiting match on this test's server. A join resets it, and the player must join
 * before the match first expires: starting `coco` (a Node process) takes a fraction of a second on
 * an idle machine and a few seconds on a very busy one, so the margin is wide. The test then takes
 * one lifetime after the join; it has a file of its own so that the runner overlaps that wait with
 * other files.
 */
const LIFETIME_SECONDS = 15;

test('a waiting match expires while its player waits, and the player is told', async () => {
  const server = await startServer(['--expiry', String(LIFETIME_SECONDS)]);
  try {
    const id = await newMatch(server.url, ['roshambo']);
    const lonely = startCoco(server.url, ['connect', id, '--', 'python3', BOT, 'ROCK']);
    // Fails with coco's own words ("does not exist") should the join come after the first expiry.
    await lonely.waitForOutput(/> joined/);
    await server.waitForLog(new RegExp(`match ${id} expired`));
    const told = await lonely.done;
    assert.equal(told.code, 7);
    assert.match(told.stdout, /^> joined .*\n(.*\n)*> the match expired before it started \(create another with coco new\)\n$/);
    assert.doesNotMatch((await coco(server.url, ['lobby'])).stdout, new RegExp(id));
  } finally {
    await server.stop();
  }
});
