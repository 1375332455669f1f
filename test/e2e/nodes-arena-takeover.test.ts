import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { arenaOnTwoNodes } from '../support/arena-nodes.js';

// The arena of `cocod --nodes 2` when its pairing node dies under a waiting entrant connected to
// the other node: the entrant's door queues it again with the new pairing node, which counts its
// wait from when it first queued (docs/arena.md: a takeover loses nothing a waiting entrant would notice).
/** Entrants started before one lands on the node that does not pair (connections alternate between the nodes). */
const TRIES = 6;
const arena = arenaOnTwoNodes();

interface QueueView {
  readonly queue: readonly { readonly name: string; readonly waiting_since: number | null }[];
}

/** The arena's queue as any node serves it, once it lists `name` (503 while the pairing node changes). */
async function queued(name: string): Promise<QueueView['queue'][number]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await fetch(`http://127.0.0.1:${arena.server.port}/api/arena/roshambo`);
    if (response.ok) {
      const found = ((await response.json()) as QueueView).queue.find((entry) => entry.name === name);
      if (found) return found;
    } else {
      await response.body?.cancel();
    }
    await delay(50);
  }
  throw new Error(`${name} never showed in the queue`);
}

test('cocod --nodes 2: the pairing node killed under a waiting entrant of the other node, the new pairing node counts its wait from when it first queued', async () => {
  const pairing = await arena.pairingNode(1);
  let lone: string | null = null;
  for (let i = 0; i < TRIES && lone === null; i++) {
    const name = `lone${i}`;
    const entrant = arena.enter(name, 1);
    const door = (await arena.server.waitForLog(new RegExp(`arena: ${name} entered through node (node-\\d+\\.\\d+)`)))[1]!;
    if (door !== pairing) lone = name;
    else {
      // On the node about to be killed its connection would go with it: leave, and try the next connection.
      entrant.child.kill('SIGKILL');
      await entrant.done;
    }
  }
  assert.ok(lone !== null, `no entrant of ${TRIES} landed on the node that does not pair`);
  const before = await queued(lone);
  assert.ok(before.waiting_since !== null);
  const killedAt = Date.now();
  arena.kill(pairing);
  const next = await arena.pairingNode(2);
  assert.notEqual(next, pairing);
  await arena.server.waitForLog(new RegExp(`${next.replace('.', '\\.')}: arena: ${lone} entered through node`));
  const after = await queued(lone);
  assert.ok(after.waiting_since !== null && after.waiting_since < killedAt, `waiting since ${after.waiting_since}, before the takeover at ${killedAt} (first ${before.waiting_since})`);
});
