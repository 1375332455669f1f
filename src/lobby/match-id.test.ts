import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeMatchId, normalizeMatchId, randomMatchId } from './match-id.js';

test('ids are 13 characters of 0-9a-v, the base32 of 8 bytes', () => {
  assert.equal(encodeMatchId(new Uint8Array(8)), '0000000000000');
  assert.equal(encodeMatchId(new Uint8Array(8).fill(255)), 'vvvvvvvvvvvvu');
  for (let i = 0; i < 100; i++) assert.match(randomMatchId(), /^[0-9a-v]{12}[02468acegikmoqsu]$/);
});

test('ids are decoded case-insensitively and malformed ids are refused', () => {
  const id = randomMatchId();
  assert.deepEqual(normalizeMatchId(id.toUpperCase()), { ok: true, value: id });
  assert.equal(normalizeMatchId('short').ok, false);
  assert.equal(normalizeMatchId('wwwwwwwwwwwww').ok, false);
  assert.equal(normalizeMatchId('0000000000001').ok, false);
});
