import type { BridgeMessage } from './seams.js';

/**
 * Bus messages as Redis pub/sub payloads. A payload is one batch: the sender's name, then each
 * message as a JSON header followed by its bytes field raw (seat bytes, spectator streams), so
 * game traffic crosses without base64's third more and without JSON arrays of numbers.
 *
 *   batch   = u16 nameLength, name (UTF-8), message*
 *   message = u32 headerLength, header (UTF-8 JSON), u32 bytesLength, bytes
 *
 * The header is the message without its binary field; `b` names that field ('bytes' or 'history').
 */

/** The binary field of each message type that has one. */
const BINARY_FIELD: Partial<Record<BridgeMessage['t'], 'bytes' | 'history'>> = {
  'to-player': 'bytes',
  'from-player': 'bytes',
  'stream-data': 'bytes',
  'stream-start': 'history',
  'vis-history': 'history',
};

const EMPTY = new Uint8Array(0);

export function encodeBatch(from: string, messages: readonly BridgeMessage[]): Buffer {
  const name = Buffer.from(from, 'utf8');
  const parts: Buffer[] = [];
  const head = Buffer.alloc(2);
  head.writeUInt16BE(name.length);
  parts.push(head, name);
  for (const message of messages) {
    const field = BINARY_FIELD[message.t];
    let bytes: Uint8Array = EMPTY;
    let header: object = message;
    if (field) {
      const { [field]: raw, ...rest } = message as unknown as Record<string, unknown>;
      bytes = raw as Uint8Array;
      header = rest;
    }
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const lengths = Buffer.alloc(4);
    lengths.writeUInt32BE(json.length);
    const bytesLength = Buffer.alloc(4);
    bytesLength.writeUInt32BE(bytes.byteLength);
    parts.push(lengths, json, bytesLength, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return Buffer.concat(parts);
}

/** The sender and its messages, or null when the payload is not a well-formed batch. */
export function decodeBatch(payload: Buffer): { from: string; messages: BridgeMessage[] } | null {
  try {
    let at = 0;
    const nameLength = payload.readUInt16BE(at);
    at += 2;
    if (at + nameLength > payload.length) return null;
    const from = payload.toString('utf8', at, at + nameLength);
    at += nameLength;
    const messages: BridgeMessage[] = [];
    while (at < payload.length) {
      const headerLength = payload.readUInt32BE(at);
      at += 4;
      if (at + headerLength > payload.length) return null;
      const header = JSON.parse(payload.toString('utf8', at, at + headerLength)) as Record<string, unknown>;
      at += headerLength;
      const bytesLength = payload.readUInt32BE(at);
      at += 4;
      if (at + bytesLength > payload.length) return null;
      if (typeof header['t'] !== 'string' || typeof header['key'] !== 'string') return null;
      const field = BINARY_FIELD[header['t'] as BridgeMessage['t']];
      // A copy: the payload buffer is ioredis's, and a seat may keep the bytes past this call.
      if (field) header[field] = new Uint8Array(payload.subarray(at, at + bytesLength));
      at += bytesLength;
      messages.push(header as unknown as BridgeMessage);
    }
    return { from, messages };
  } catch {
    return null;
  }
}
