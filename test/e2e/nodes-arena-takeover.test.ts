import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, startCoco, startServer, type RunningCoco, type ServerProcess } from '../support/processes.js';

// The arena of `cocod --nodes 2` when its pairing node dies under a waiting entrant connected to
// the other node: the entrant's door queues it again with the new pairing node, which counts its
// wait from when it first queued (docs/arena.md: a takeover loses nothing a waiting entrant would notice).
const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
const ARGS = ['--nodes', '2', '--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0', '--limit', 'arena-lease-seconds=2', '--limit', 'arena-lease-refresh-seconds=0.5'];
/** Entrants started before one lands on the node that does not pair (connections alternate between the nodes). */
const TRIES = 6;
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

interface QueueView {
  readonly queue: readonly { readonly name: string; readonly waiting_since: number | null }[];
}

/** The arena's queue as any node serves it, once it lists `name` (503 while the pairing node changes). */
async function queued(name: string): Promise<QueueView['queue'][number]> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/arena/roshambo`);
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
  const pairing = (await server.waitForLog(/(node-\d+\.\d+): arena: this node pairs the cluster's queue \(lease epoch 1\)/))[1]!;
  let lone: string | null = null;
  for (let i = 0; i < TRIES && lone === null; i++) {
    const name = `lone${i}`;
    const entrant = startCoco(server.url, ['arena', 'roshambo', '-n', name, '--', 'python3', LEVEL_BOT, '1']);
    entrants.push(entrant);
    const door = (await server.waitForLog(new RegExp(`arena: ${name} entered through node (node-\\d+\\.\\d+)`)))[1]!;
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
  const pid = Number(server.log().match(new RegExp(`node ${pairing.replace('.', '\\.')} started \\(pid (\\d+)\\)`))![1]);
  process.kill(pid, 'SIGKILL');
  const next = (await server.waitForLog(/(node-\d+\.\d+): arena: this node pairs the cluster's queue \(lease epoch 2\)/))[1]!;
  assert.notEqual(next, pairing);
  await server.waitForLog(new RegExp(`${next.replace('.', '\\.')}: arena: ${lone} entered through node`));
  const after = await queued(lone);
  assert.ok(after.waiting_since !== null && after.waiting_since < killedAt, `waiting since ${after.waiting_since}, before the takeover at ${killedAt} (first ${before.waiting_since})`);
});
