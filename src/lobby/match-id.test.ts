import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeMatchId, NODE_ID_SPACE, nodeMatchId, normalizeMatchId, randomMatchId } from './match-id.js';

test('ids are 13 characters of 0-9a-v, the base32 of 8 bytes', () => {
  assert.equal(encodeMatchId(new Uint8Array(8)), '0000000000000');
  assert.equal(encodeMatchId(new Uint8Array(8).fill(255)), 'vvvvvvvvvvvvu');
  for (let i = 0; i < 100; i++) assert.match(randomMatchId(), /^[0-9a-v]{12}[02468acegikmoqsu]$/);
});

test('ids are decoded case-insensitively and malformed ids are refused', () => {
  const id = randomMatchId();
  assert.deepEqual(normalizeMatchId(id.toUpperCase()), { ok: true, value: id });
});

test('a malformed id is refused with the reference decoder\'s text for its form', () => {
  const refusal = (text: string): string => {
    const result = normalizeMatchId(text);
    assert.equal(result.ok, false, text);
    return result.ok ? '' : result.error;
  };
  assert.equal(refusal('x'), 'Invalid ID: invalid length at 0');
  assert.equal(refusal('abc'), 'Invalid ID: invalid length at 2');
  assert.equal(refusal('00000000000000'), 'Invalid ID: invalid length at 13');
  assert.equal(refusal('wwwwwwwwwwwww'), 'Invalid ID: invalid symbol at 0');
  assert.equal(refusal('000000000000w'), 'Invalid ID: invalid symbol at 12');
  assert.equal(refusal('0000000000001'), 'Invalid ID: non-zero trailing bits at 12');
  assert.equal(refusal('short'), 'Invalid ID: non-zero trailing bits at 4');
  assert.equal(refusal(''), 'Invalid ID: wrong length');
  assert.equal(refusal('000000000000'), 'Invalid ID: wrong length');
});

test('a node of a cluster makes ids whose first three characters are its number, in the reference form', () => {
  for (const node of [0, 1, 2, 31, 32, 1000, NODE_ID_SPACE - 1]) {
    const id = nodeMatchId(node);
    assert.ok(normalizeMatchId(id).ok, id);
    const prefix = node.toString(32).padStart(3, '0');
    assert.equal(id.slice(0, 3), prefix, `node ${node}`);
  }
  assert.equal(nodeMatchId(NODE_ID_SPACE + 5).slice(0, 3), '005', 'numbers wrap around');
});
