import type { PasswordAttempts } from '../lobby/lobby.js';
import type { Outcome } from '../protocol/coco/messages.js';
import { isValidUserName } from '../lobby/names.js';
import { secretDigest, secretEquals } from '../util/secret.js';
import { InvalidName, NameNotClaimed, NameTaken, WrongToken, type NameClaims } from './name-claims.js';
import { RegistrationQuota } from './registration-quota.js';
import type { Clock } from '../util/clock.js';
import type { SharedTokenBuckets } from '../util/shared-buckets.js';

/** Who asks for a registration: the keys of address-limits.ts. */
export interface Registrant {
  readonly address: string;
  readonly network: string;
}

export interface NameDeskOptions {
  readonly claims: NameClaims;
  readonly quota: RegistrationQuota;
  /** The server's master (verification) password: releasing a name is the operator's. */
  readonly verificationPassword: string;
  /** The limits' values, for the refusal texts. */
  readonly perHour: number;
  readonly perHourPerNetwork: number;
}

/**
 * The requests about names themselves (NameRegister, NameRotate, NameRelease), answered as the
 * coco protocol's outcomes: every refusal is a text for the client, never a closed connection.
 * Errors of the store (HistoryUnavailableError, bugs) are thrown, as for any other request.
 */
export class NameDesk {
  private readonly masterDigest: Buffer;

  constructor(private readonly options: NameDeskOptions) {
    this.masterDigest = secretDigest(options.verificationPassword);
  }

  /** NameClaims.check: what a front door asks before it seats a player by name. */
  check(name: string, token: string | null | undefined): Promise<string | null> {
    return this.options.claims.check(name, token ?? undefined);
  }

  async register(name: string, who: Registrant): Promise<Outcome<string>> {
    const { claims, quota } = this.options;
    // A request that cannot succeed spends none of the quota: a bad name, or one claimed already.
    if (!isValidUserName(name)) return { Err: new InvalidName(name).message };
    if ((await claims.check(name, undefined)) !== null) return { Err: new NameTaken(name).message };
    const spent = await quota.spend(who.address, who.network);
    if (spent !== null) {
      const { refusal, waitSeconds } = spent;
      const text = refusal === 'name-registrations-per-hour' ? `at most ${this.options.perHour} an hour per address` : `at most ${this.options.perHourPerNetwork} an hour per network`;
      return { Err: `Too many names registered: ${text}; try again in ${waitSeconds} s` };
    }
    return outcome(() => claims.register(name));
  }

  rotate(name: string, token: string): Promise<Outcome<string>> {
    return outcome(() => this.options.claims.rotate(name, token));
  }

  /** Frees `name` given the master password; wrong passwords count in the same back-off as GameNew's. */
  async release(name: string, verification: string, passwords: PasswordAttempts): Promise<Outcome<null>> {
    const wait = passwords.refusal('master');
    if (wait !== null) return { Err: wait };
    if (!secretEquals(verification, this.masterDigest)) {
      passwords.failed('master');
      // Unlike GameNew's reference text, the attempt is not quoted back: it may be the operator's other secret.
      return { Err: 'Wrong verification password: releasing a name needs the server\'s master password' };
    }
    passwords.succeeded('master');
    return outcome(async () => {
      await this.options.claims.release(name);
      return null;
    });
  }
}

/** The value, or the text of a refusal NameClaims rejects with (anything else is thrown on). */
async function outcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { Ok: await work() };
  } catch (error) {
    if (error instanceof NameTaken || error instanceof NameNotClaimed || error instanceof WrongToken || error instanceof InvalidName) return { Err: error.message };
    throw error;
  }
}

/** The limits a server's desk takes (their names in LIMIT_SPECS). */
export interface NameDeskLimits {
  readonly 'name-registrations-per-hour': number;
  readonly 'name-registrations-per-hour-per-network': number;
  readonly 'tracked-addresses': number;
}

/** A server's desk: its claims, and quotas made from its limits (counted with the other nodes' through `shared` on a cluster). */
export function nameDesk(claims: NameClaims, limits: NameDeskLimits, clock: Clock, verificationPassword: string, shared?: SharedTokenBuckets): NameDesk {
  const perHour = limits['name-registrations-per-hour'];
  const perHourPerNetwork = limits['name-registrations-per-hour-per-network'];
  const quota = new RegistrationQuota({ perHour, perHourPerNetwork, tracked: limits['tracked-addresses'] }, clock, shared);
  return new NameDesk({ claims, quota, verificationPassword, perHour, perHourPerNetwork });
}
