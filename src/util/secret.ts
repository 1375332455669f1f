import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Which secret a password attempt is checked against. Wrong passwords count per address *and*
 * secret, so that knowing one secret (one's own match password) never clears the back-off on
 * another (the master password). Doors that check the same secret (the master password through
 * GameNew and through the tournament API) use the same name: two doors must not double the guesses.
 */
export type SecretName = 'master' | 'socha-admin' | `match:${string}`;

/** The secret of match `id`'s password. */
export function matchSecret(id: string): SecretName {
  return `match:${id}`;
}

/** SHA-256 of a secret: what secretEquals compares, so that neither content nor length leaks. */
export function secretDigest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Whether `given` is `expected`, in time that depends on neither: both are hashed to 32 bytes and
 * compared with timingSafeEqual (which on its own would throw, and so leak, on unequal lengths).
 * `expected` may be its digest, computed once.
 */
export function secretEquals(given: string, expected: string | Buffer): boolean {
  const want = typeof expected === 'string' ? secretDigest(expected) : expected;
  return timingSafeEqual(secretDigest(given), want);
}
