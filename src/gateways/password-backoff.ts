import type { Clock } from '../util/clock.js';
import type { SecretName } from '../util/secret.js';
import type { ServerLimits } from './server-limits.js';

/** Where failures of secrets past `password-secrets-per-address` are counted, all together. */
const OTHER_SECRETS = '*';

/** Wrong passwords in a row for one secret from one address. */
interface Failures {
  count: number;
  /** Until when the next attempt is refused (monotonic ms). */
  blockedUntil: number;
  /** The last wrong password (monotonic ms), to forget a count nobody adds to. */
  lastAt: number;
}

/** How far back eviction looks for an address that is not held back before dropping the idlest. */
const EVICTION_SCAN = 64;

/**
 * Wrong-password back-off, per address and per secret: past the free attempts the wait doubles
 * with each further failure, up to its maximum. Memory is bounded: at most `tracked-addresses`
 * addresses (the idlest that is not held back goes first), at most `password-secrets-per-address`
 * secrets each (failures of any further secret share one count, so an attacker cannot push its own
 * count out by failing on many match passwords), and a count is forgotten once nothing was added to
 * it for `password-backoff-max-seconds` after its wait ended.
 */
export class PasswordBackoff {
  /** Address key -> secret -> failures; the map's order is least recently failed first. */
  private readonly addresses = new Map<string, Map<string, Failures>>();

  constructor(
    private readonly limits: ServerLimits,
    private readonly clock: Clock,
  ) {}

  /** Seconds until `address` may try `secret` again; 0 when it may now. */
  wait(address: string, secret: SecretName): number {
    const failures = this.failuresOf(address, secret);
    if (!failures) return 0;
    return Math.max(0, Math.ceil((failures.blockedUntil - this.clock.monotonic()) / 1000));
  }

  /** A wrong password for `secret` from `address`. */
  failed(address: string, secret: SecretName): void {
    const now = this.clock.monotonic();
    let secrets = this.addresses.get(address);
    if (secrets) this.addresses.delete(address);
    else {
      secrets = new Map();
      this.evictIfFull();
    }
    this.addresses.set(address, secrets);
    const slot = secrets.has(secret) || secrets.size < this.limits['password-secrets-per-address'] ? secret : OTHER_SECRETS;
    let failures = this.live(secrets, slot, now);
    if (!failures) secrets.set(slot, (failures = { count: 0, blockedUntil: 0, lastAt: now }));
    failures.count++;
    failures.lastAt = now;
    const over = failures.count - this.limits['password-free-attempts'];
    if (over <= 0) return;
    const seconds = Math.min(this.limits['password-backoff-max-seconds'], this.limits['password-backoff-seconds'] * 2 ** Math.min(over - 1, 40));
    failures.blockedUntil = now + seconds * 1000;
  }

  /** The right password for `secret` from `address`: its count starts again, and only its count. */
  succeeded(address: string, secret: SecretName): void {
    const secrets = this.addresses.get(address);
    if (!secrets) return;
    secrets.delete(secret);
    if (secrets.size === 0) this.addresses.delete(address);
  }

  /** Addresses with failures remembered now (for tests and metrics). */
  get tracked(): number {
    return this.addresses.size;
  }

  private failuresOf(address: string, secret: SecretName): Failures | undefined {
    const secrets = this.addresses.get(address);
    if (!secrets) return undefined;
    const now = this.clock.monotonic();
    const failures = this.live(secrets, secrets.has(secret) ? secret : OTHER_SECRETS, now);
    if (secrets.size === 0) this.addresses.delete(address);
    return failures;
  }

  /** The failures of `slot`, or undefined once they are old enough to forget (and then forgotten). */
  private live(secrets: Map<string, Failures>, slot: string, now: number): Failures | undefined {
    const failures = secrets.get(slot);
    if (!failures) return undefined;
    const forgetAfter = this.limits['password-backoff-max-seconds'] * 1000;
    if (now >= failures.blockedUntil && now - Math.max(failures.lastAt, failures.blockedUntil) >= forgetAfter) {
      secrets.delete(slot);
      return undefined;
    }
    return failures;
  }

  private evictIfFull(): void {
    if (this.addresses.size < this.limits['tracked-addresses']) return;
    const now = this.clock.monotonic();
    // An address that is held back now is what an attacker would most like forgotten: the idlest
    // of the others goes first, and only if all of the idlest are held back does the idlest go.
    let scanned = 0;
    for (const [address, secrets] of this.addresses) {
      if (scanned++ >= EVICTION_SCAN) break;
      if (![...secrets.values()].some((failures) => failures.blockedUntil > now)) return void this.addresses.delete(address);
    }
    const idlest = this.addresses.keys().next();
    if (!idlest.done) this.addresses.delete(idlest.value);
  }
}
