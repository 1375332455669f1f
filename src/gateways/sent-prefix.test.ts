import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SentPrefix } from './sent-prefix.js';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

test('the bytes a front door sent ahead are dropped once, even split across chunks', () => {
  const sent = new SentPrefix('<protocol>\n  <joined roomId="R"/>');
  assert.equal(text(sent.strip(Buffer.from('<protocol>\n  <jo'))), '');
  assert.equal(text(sent.strip(Buffer.from('ined roomId="R"/>\n  <room'))), '\n  <room');
  assert.equal(text(sent.strip(Buffer.from('<protocol>'))), '<protocol>', 'only at the start');
});

test('a stream that does not begin with them is passed whole, held bytes included', () => {
  const sent = new SentPrefix('<protocol><observed/>');
  assert.equal(text(sent.strip(Buffer.from('<proto'))), '');
  assert.equal(text(sent.strip(Buffer.from('col><left/>'))), '<protocol><left/>');
  assert.equal(text(new SentPrefix('').strip(Buffer.from('x'))), 'x');
});
