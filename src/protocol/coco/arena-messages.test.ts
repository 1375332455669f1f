import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeReply, decodeRequest, encodeReply, encodeRequest } from './json-codec.js';
import type { Reply } from './messages.js';

test('arena requests: ArenaEnter decodes with its concurrency (1 when absent), ArenaLeave with or without a body; bad fields are refused', () => {
  assert.deepEqual(decodeRequest('{"ArenaEnter":{"game":"roshambo","name":"amy","token":null,"concurrency":2}}'), { ok: true, value: { type: 'ArenaEnter', game: 'roshambo', name: 'amy', token: null, concurrency: 2 } });
  assert.deepEqual(decodeRequest('{"ArenaEnter":{"game":"roshambo","name":"amy"}}'), { ok: true, value: { type: 'ArenaEnter', game: 'roshambo', name: 'amy', token: null, concurrency: 1 } });
  assert.deepEqual(decodeRequest('"ArenaLeave"'), { ok: true, value: { type: 'ArenaLeave' } });
  assert.deepEqual(decodeRequest('{"ArenaLeave":{}}'), { ok: true, value: { type: 'ArenaLeave' } });
  assert.equal(decodeRequest('{"ArenaEnter":{"game":"roshambo","name":"amy","concurrency":-1}}').ok, false);
  assert.equal(decodeRequest('{"ArenaEnter":{"game":3,"name":"amy"}}').ok, false);
  const request = { type: 'ArenaEnter', game: 'g', name: 'n', token: 't', concurrency: 3 } as const;
  assert.deepEqual(decodeRequest(encodeRequest(request)), { ok: true, value: request });
});

test('arena replies: each one encodes and decodes back to itself', () => {
  const replies: Reply[] = [
    { type: 'ArenaEntered', info: { Ok: { game: 'roshambo', name: 'amy', args: { rounds: '10' }, players: 2 } } },
    { type: 'ArenaEntered', info: { Err: 'Game "x" has no arena on this server' } },
    { type: 'ArenaPaired', id: 'abc', password: 'pw', players: ['amy', 'bob'] },
    { type: 'ArenaResult', result: { id: 'abc', players: ['amy', 'bob'], scores: [3, 1.5], outcome: 'win', rating: 2.25, reason: 'done' } },
    { type: 'ArenaResult', result: { id: 'abc', players: ['amy', 'bob'], scores: null, outcome: 'none', rating: null, reason: 'not played' } },
    { type: 'ArenaHeld', until: 1_700_000_000_000, reason: 'failed' },
    { type: 'ArenaLeft' },
  ];
  for (const reply of replies) assert.deepEqual(decodeReply(encodeReply(reply, 2)), { ok: true, value: reply });
});
