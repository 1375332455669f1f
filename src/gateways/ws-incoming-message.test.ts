import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { FRAGMENT_OVERHEAD_BYTES, IncomingMessageTracker, gateSocketData } from './ws-incoming-message.js';

/** One client frame with its mask (zeros: the tracker never looks at payloads). */
function frame(fin: boolean, opcode: number, length: number): Buffer {
  const header =
    length < 126 ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | length])
    : length < 65536 ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, length >> 8, length & 0xff])
    : Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 127]), Buffer.from([0, 0, 0, 0, length >>> 24, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff])]);
  return Buffer.concat([header, Buffer.alloc(4), Buffer.alloc(length, 0x61)]);
}

test('a message in one frame is never held between chunks once it is whole', () => {
  const tracker = new IncomingMessageTracker();
  assert.equal(tracker.feed(frame(true, 1, 10)), 1);
  assert.equal(tracker.fragments, 0);
  assert.equal(tracker.heldBytes, 0);
});

test('fragments and held bytes are counted across chunks, with 16- and 64-bit lengths, until the final frame', () => {
  const tracker = new IncomingMessageTracker();
  const stream = Buffer.concat([frame(false, 2, 300), frame(false, 0, 70_000), frame(true, 10, 0), frame(false, 0, 5)]);
  // Fed in odd chunk sizes: headers split anywhere.
  for (let at = 0; at < stream.length; at += 7) tracker.feed(stream.subarray(at, at + 7));
  assert.equal(tracker.fragments, 3, 'the pong between fragments is no fragment');
  assert.equal(tracker.payloadBytes, 70_305);
  assert.equal(tracker.heldBytes, 70_305 + 3 * FRAGMENT_OVERHEAD_BYTES);
  const half = frame(true, 0, 100);
  tracker.feed(half.subarray(0, 56));
  assert.equal(tracker.fragments, 4);
  assert.equal(tracker.payloadBytes, 70_355, 'the part of a frame that arrived counts');
  tracker.feed(half.subarray(56));
  assert.equal(tracker.fragments, 0);
  assert.equal(tracker.heldBytes, 0);
});

test('feed reports the most fragments a message had within the chunk, even if it ended in it', () => {
  const tracker = new IncomingMessageTracker();
  const chunk = Buffer.concat([...Array.from({ length: 99 }, (_, i) => frame(false, i === 0 ? 1 : 0, 1)), frame(true, 0, 1), frame(true, 1, 1)]);
  assert.equal(tracker.feed(chunk), 100);
  assert.equal(tracker.fragments, 0);
});

test('empty fragments count, the final one too', () => {
  const tracker = new IncomingMessageTracker();
  assert.equal(tracker.feed(Buffer.concat([frame(false, 1, 0), frame(false, 0, 0), frame(true, 0, 0)])), 3);
  assert.equal(tracker.fragments, 0);
});

test('a claimed length counts only the bytes that arrived', () => {
  const tracker = new IncomingMessageTracker();
  tracker.feed(frame(false, 2, 1 << 20).subarray(0, 1000));
  assert.equal(tracker.payloadBytes, 1000 - 14);
});

test('headers read a byte at a time give the same counts as whole ones (7-bit, 16-bit and 64-bit lengths, masked)', () => {
  const stream = Buffer.concat([frame(false, 1, 125), frame(false, 0, 126), frame(false, 0, 65_536), frame(false, 9, 3), frame(false, 0, 0)]);
  const whole = new IncomingMessageTracker();
  whole.feed(stream);
  const byByte = new IncomingMessageTracker();
  for (let at = 0; at < stream.length; at++) byByte.feed(stream.subarray(at, at + 1));
  assert.equal(whole.fragments, 4, 'the ping between fragments is no fragment');
  assert.equal(whole.payloadBytes, 125 + 126 + 65_536);
  assert.deepEqual([byByte.fragments, byByte.payloadBytes, byByte.heldBytes], [whole.fragments, whole.payloadBytes, whole.heldBytes]);
});

test('a gated socket shows its gate each chunk before its data listeners, keeps a refused chunk from them, and passes other events with their arguments as they are', () => {
  const seen: string[] = [];
  const sockets = [new EventEmitter(), new EventEmitter()];
  sockets.forEach((socket, index) => {
    gateSocketData(socket, { admitChunk: (chunk) => (seen.push(`gate ${index} ${chunk.toString()}`), chunk.toString() !== 'no') });
    socket.on('data', (chunk: Buffer) => seen.push(`data ${index} ${chunk.toString()}`));
    socket.on('other', (...args: unknown[]) => seen.push(`other ${index} ${JSON.stringify(args)}`));
  });
  assert.equal(sockets[0]!.emit('data', Buffer.from('yes')), true);
  assert.equal(sockets[1]!.emit('data', Buffer.from('no')), false);
  sockets[1]!.emit('other');
  sockets[1]!.emit('other', 1);
  sockets[0]!.emit('other', 1, 2, 3);
  assert.deepEqual(seen, ['gate 0 yes', 'data 0 yes', 'gate 1 no', 'other 1 []', 'other 1 [1]', 'other 0 [1,2,3]']);
  // One emit for all gated sockets, not a closure each.
  assert.equal(sockets[0]!.emit, sockets[1]!.emit);
});
