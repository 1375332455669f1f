import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserialize, serialize } from 'node:v8';
import { ownBytes } from './own-bytes.js';

test('ownBytes copies a window on a larger block into a block of its own, and leaves a whole block as it is', () => {
  // What a record read from IPC holds: views into the whole message.
  const message = deserialize(serialize({ small: Buffer.from('hello'), other: new Uint8Array(4096) })) as { small: Uint8Array };
  assert.ok(message.small.buffer.byteLength > 4096);
  const own = ownBytes(message.small);
  assert.equal(own.toString(), 'hello');
  assert.equal(own.buffer.byteLength, 5);
  assert.notEqual(own.buffer, message.small.buffer);
  const whole = new Uint8Array([1, 2, 3]);
  const same = ownBytes(whole);
  assert.equal(same.buffer, whole.buffer);
  assert.deepEqual([...same], [1, 2, 3]);
});
