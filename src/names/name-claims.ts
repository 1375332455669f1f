import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isValidUserName } from '../lobby/names.js';
import { HistoryUnavailableError, type NameClaimTable } from '../store/history-store.js';

/**
 * Claimed player names: a name registered on a server (`coco register NAME`) can be played only
 * by whoever holds its secret token. The arena and every front door that seats a player by name
 * ask `check` before the lobby seats it.
 */
export interface NameClaims {
  /** Claims `name`; resolves to the new secret token, or rejects with NameTaken. */
  register(name: string): Promise<string>;
  /** Replaces the token of `name` (given its current one); resolves to the new token. */
  rotate(name: string, token: string): Promise<string>;
  /** Frees a claimed name (operator only). */
  release(name: string): Promise<void>;
  /** null when `name` may be played with `token` (unclaimed, or the token matches);
   *  otherwise the refusal text to send. */
  check(name: string, token: string | undefined): Promise<string | null>;
}

/** register: the name is claimed already. */
export class NameTaken extends Error {
  constructor(readonly claimed: string) {
    super(`Name "${claimed}" is already claimed`);
    this.name = 'NameTaken';
  }
}

/** rotate, release: the name is not claimed. */
export class NameNotClaimed extends Error {
  constructor(readonly unclaimed: string) {
    super(`Name "${unclaimed}" is not claimed`);
    this.name = 'NameNotClaimed';
  }
}

/** rotate: the token given is not the name's. */
export class WrongToken extends Error {
  constructor(readonly claimed: string) {
    super(`Wrong token for name "${claimed}"`);
    this.name = 'WrongToken';
  }
}

/** register: the name breaks the player-name rule (the lobby would never seat it). */
export class InvalidName extends Error {
  constructor(readonly invalid: string) {
    super(`"${invalid}" is not a valid username`);
    this.name = 'InvalidName';
  }
}

/** 256 random bits: a token is never guessed, so a fast hash of it is as safe as a slow one. */
export const TOKEN_BYTES = 32;
/**
 * A token longer than this is wrong without being hashed (a real one is 43 characters of
 * base64url): what a peer sends as a token costs the server no more than a real one.
 */
export const TOKEN_MAX_CHARS = 128;

/** The texts a refused join carries (docs/protocol.md quotes them). */
export const claimRefusal = {
  noToken: (name: string): string => `Name "${name}" is claimed: playing it needs its token (coco register)`,
  wrongToken: (name: string): string => `Wrong token for name "${name}"`,
};

/** A fresh token: base64url text of TOKEN_BYTES random bytes. */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** What the store keeps of a token: its SHA-256 as lowercase hex. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` is the one whose digest is `digest`, in time that depends on neither. */
function tokenMatches(token: string, digest: string): boolean {
  if (token.length > TOKEN_MAX_CHARS) return false;
  const given = Buffer.from(tokenDigest(token), 'hex');
  const want = Buffer.from(digest, 'hex');
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * How many names' digests (or their being unclaimed) a server remembers from its lookups, so that
 * joins go on while the history's database is away (a PostgreSQL outage): the most recently
 * looked up are kept.
 */
export const NAME_CLAIM_CACHE_ENTRIES = 10_000;

/**
 * NameClaims over a table that keeps digests: a MemoryHistoryStore (or any NameClaimTable) in
 * memory, the history's SQLite file, or its PostgreSQL database, so that the claims live where
 * the ratings they protect live. Tokens are made here and never stored.
 */
export class StoredNameClaims implements NameClaims {
  /** The digest each name had when last looked up (null: unclaimed), most recent last. */
  private readonly known = new Map<string, string | null>();

  constructor(private readonly table: NameClaimTable) {}

  async register(name: string): Promise<string> {
    if (!isValidUserName(name)) throw new InvalidName(name);
    const token = newToken();
    if (!(await this.table.claimName(name, tokenDigest(token)))) throw new NameTaken(name);
    return token;
  }

  async rotate(name: string, token: string): Promise<string> {
    const digest = await this.table.nameDigest(name);
    if (digest === null) throw new NameNotClaimed(name);
    if (!tokenMatches(token, digest)) throw new WrongToken(name);
    const next = newToken();
    // Compare-and-swap: of two rotations with the same old token, one wins and the other is told its token is stale.
    if (!(await this.table.replaceNameDigest(name, digest, tokenDigest(next)))) throw new WrongToken(name);
    return next;
  }

  async release(name: string): Promise<void> {
    if (!(await this.table.releaseName(name))) throw new NameNotClaimed(name);
  }

  async check(name: string, token: string | undefined): Promise<string | null> {
    const digest = await this.lookUp(name);
    if (digest === null) return null;
    if (token === undefined || token === '') return claimRefusal.noToken(name);
    return tokenMatches(token, digest) ? null : claimRefusal.wrongToken(name);
  }

  /**
   * The name's digest from the table, remembered. While the table is unreachable (the history's
   * database is down) the last one seen answers, and a name not seen lately counts as unclaimed:
   * an outage must not stop every join (docs/cli.md, "Claimed names", says what it allows).
   */
  private async lookUp(name: string): Promise<string | null> {
    try {
      const digest = await this.table.nameDigest(name);
      this.known.delete(name);
      this.known.set(name, digest);
      if (this.known.size > NAME_CLAIM_CACHE_ENTRIES) this.known.delete(this.known.keys().next().value!);
      return digest;
    } catch (error) {
      if (error instanceof HistoryUnavailableError) return this.known.get(name) ?? null;
      throw error;
    }
  }
}
