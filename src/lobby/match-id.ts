import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from '../util/result.js';

/**
 * Match ids as the reference makes them: the 8 bytes of a random 64-bit number in base32 with the
 * DNSSEC alphabet `0-9a-v`, no padding: 13 characters. Decoding ignores case.
 */
const ALPHABET = '0123456789abcdefghijklmnopqrstuv';
export const MATCH_ID_LENGTH = 13;

export function encodeMatchId(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export function randomMatchId(): string {
  return encodeMatchId(randomBytes(8));
}

/** Nodes whose match ids differ in their first characters (15 bits: three base32 characters). */
export const NODE_ID_SPACE = 1 << 15;

/**
 * An id of a match made by node number `node` of a cluster: its first 15 bits (its first three
 * characters) are the node's number, modulo NODE_ID_SPACE, the other 49 random. Two nodes whose
 * numbers differ in those bits never make the same id, however many matches they make; a reader
 * of the logs tells the node from the id; the id keeps the reference's form.
 */
export function nodeMatchId(node: number): string {
  const bytes = randomBytes(8);
  const prefix = node % NODE_ID_SPACE;
  bytes[0] = (prefix >>> 7) & 0xff;
  bytes[1] = ((prefix & 0x7f) << 1) | (bytes[1]! & 1);
  return encodeMatchId(bytes);
}

/**
 * The canonical (lower-case) form of an id, or why it is not one, in the reference's words: its
 * base32 decoder first refuses a length no byte string encodes to (`invalid length at N`, N the
 * longest decodable prefix), then a symbol outside the alphabet, then non-zero padding bits; a
 * decodable text of other than 8 bytes is `wrong length`.
 */
export function normalizeMatchId(text: string): Result<string> {
  const trailingBits = (5 * text.length) % 8;
  if (trailingBits >= 5) return err(`Invalid ID: invalid length at ${text.length - 1}`);
  const id = text.toLowerCase();
  for (let i = 0; i < id.length; i++) {
    if (!ALPHABET.includes(id[i]!)) return err(`Invalid ID: invalid symbol at ${i}`);
  }
  // The last symbol's lowest `trailingBits` bits are padding and must be zero.
  if (trailingBits > 0 && ALPHABET.indexOf(id[id.length - 1]!) & ((1 << trailingBits) - 1)) {
    return err(`Invalid ID: non-zero trailing bits at ${id.length - 1}`);
  }
  if (id.length !== MATCH_ID_LENGTH) return err('Invalid ID: wrong length');
  return ok(id);
}
