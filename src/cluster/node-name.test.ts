import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uniqueNodeName } from './node-name.js';

test('node names: the host, the pid and a random part, so a reused pid makes a new name; odd host characters are dropped', () => {
  const one = uniqueNodeName('web-1.example', 4242);
  assert.match(one, /^web-1\.example-4242-[0-9a-f]{6}$/);
  assert.notEqual(uniqueNodeName('web-1.example', 4242), one);
  assert.match(uniqueNodeName('we b:1/x', 7), /^web1x-7-[0-9a-f]{6}$/);
  assert.match(uniqueNodeName('', 7), /^host-7-/);
});
