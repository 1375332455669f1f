import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryArenaStore } from '../arena/memory-arena-store.js';
import type { ArenaService } from '../arena/arena.js';
import { err } from '../util/result.js';
import { ArenaApi } from './arena-api.js';

/** An arena whose queue is on a pairing node that does not answer (a cluster during a takeover). */
const unreachable: ArenaService = {
  enter: async () => err('unused'),
  view: async (game) => {
    if (game !== 'roshambo') return null;
    throw new Error("the arena's pairing node (node-1) did not answer");
  },
  gameNames: () => ['roshambo'],
};

test('arena API: a queue that cannot be read now is a 503 with the reason; a game without an arena is a 404', async () => {
  const api = new ArenaApi(unreachable, new MemoryArenaStore());
  assert.deepEqual(await api.answer({ kind: 'arena', game: 'roshambo' }, undefined), {
    status: 503,
    json: { error: "the arena's queue cannot be read now: the arena's pairing node (node-1) did not answer" },
  });
  const missing = await api.answer({ kind: 'arena', game: 'chess' }, undefined);
  assert.equal(missing.status, 404);
});
