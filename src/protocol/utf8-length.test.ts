import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Length } from './utf8-length.js';

test('utf8Length counts as Buffer.byteLength does, lone surrogates included', () => {
  for (const text of ['', 'abc', 'é', '€ and ü', '♞ knight', '𝄞 clef', 'a\ud800b', '\udc00', 'x\ud83d', '🎲🎲']) {
    assert.equal(utf8Length(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
  }
});
