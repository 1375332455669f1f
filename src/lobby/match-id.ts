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

/** The canonical (lower-case) form of an id, or why it is not one. */
export function normalizeMatchId(text: string): Result<string> {
  if (text.length !== MATCH_ID_LENGTH) return err('Invalid ID: wrong length');
  const id = text.toLowerCase();
  for (let i = 0; i < id.length; i++) {
    if (!ALPHABET.includes(id[i]!)) return err(`Invalid ID: invalid symbol at ${i}`);
  }
  // 13 symbols carry 65 bits; the last one's lowest bit is padding and must be zero.
  if (ALPHABET.indexOf(id[MATCH_ID_LENGTH - 1]!) & 1) return err(`Invalid ID: non-zero trailing bits at ${MATCH_ID_LENGTH - 1}`);
  return ok(id);
}
