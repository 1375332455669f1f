/**
 * `bytes` in a memory block of their own: a Buffer over the same memory when `bytes` already spans
 * its whole block, else a copy. A typed array is often a window on a larger block: Node's 8 KiB
 * pool for a small Buffer, or the whole message for one read from IPC (v8.deserialize returns
 * views into the message, and a batch of messages is one). Keeping such a window keeps the whole
 * block alive, and posting it to a worker thread copies the whole block.
 */
export function ownBytes(bytes: Uint8Array): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return Buffer.from(bytes.buffer, 0, bytes.byteLength);
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  copy.set(bytes);
  return copy;
}
