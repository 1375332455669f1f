import { isIPv6, type Socket } from 'node:net';
import type { AddressCounter } from '../cluster/seams.js';
import type { Clock } from '../util/clock.js';
import type { ClientMemory } from './client-memory.js';
import type { Log } from '../util/log.js';
import type { ServerLimits } from './server-limits.js';
import type { ClientAddress, PeerAddresses } from './peer-addresses.js';

/** Why a peer was refused; the label of the refusal counter in /metrics. */
export type RefusalReason =
  | 'max-connections'
  | 'connections-per-address'
  | 'game-new-per-minute'
  | 'waiting-matches-per-address'
  | 'password-backoff'
  | 'handshake-timeout'
  | 'heartbeat'
  | 'control-frame-bytes'
  | 'pending-requests'
  | 'outbound-max-bytes'
  | 'ws-message-fragments'
  | 'client-memory-per-address'
  | 'client-memory-server'
  | 'spectators-per-match'
  | 'invalid-request';

/** What one address has done lately. */
interface AddressState {
  connections: number;
  /** GameNew token bucket: tokens left, as of `tokensAt`. */
  tokens: number;
  tokensAt: number;
  /** Wrong passwords in a row, and until when the next attempt is refused. */
  failures: number;
  blockedUntil: number;
  /** Last time anything happened, to forget the idlest first. */
  seenAt: number;
  /** Refusals not yet logged, and when one was last logged (one log line a minute per address). */
  unloggedRefusals: number;
  loggedAt: number;
  /** The cluster's GameNew bucket of this address is empty until then (monotonic ms). */
  clusterGameNewFrom: number;
}

/** The key per-address limits count by: an IPv4 address, or the /64 network of an IPv6 one. */
export function addressKey(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  // One host usually gets a whole /64: counting single IPv6 addresses would count nothing.
  const [head] = address.split('%');
  const halves = head!.split('::');
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length > 1 ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => (g || '0').toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * The limits that count per address, shared by every front door: open connections, GameNew rate,
 * and wrong passwords with exponential back-off. Memory is bounded: an address with nothing open
 * and nothing to remember is forgotten, and past `tracked-addresses` the idlest is dropped.
 *
 * With a `cluster` counter (several nodes), connections and GameNew also count on every node
 * together. Admission never waits for it: this node's own count decides at once, and the cluster's
 * answer follows one round trip later, cutting a connection over the address's budget and
 * refusing GameNew while the shared bucket is empty (clusterConnection, takeGameNew).
 */
export class AddressLimits {
  private readonly states = new Map<string, AddressState>();
  private total = 0;

  constructor(
    private readonly limits: ServerLimits,
    private readonly clock: Clock,
    private readonly cluster?: AddressCounter,
  ) {}

  /** Open connections on every port. */
  get connections(): number {
    return this.total;
  }

  /**
   * Takes a connection slot for `key`; null when refused (and why). Call `closeConnection` once
   * when it closes. A trusted proxy's own connections (`perAddress` false) carry many clients:
   * they count towards max-connections only.
   */
  openConnection(key: string, perAddress = true): RefusalReason | null {
    if (this.total >= this.limits['max-connections']) return 'max-connections';
    const state = this.state(key);
    if (perAddress && state.connections >= this.limits['connections-per-address']) return 'connections-per-address';
    state.connections++;
    this.total++;
    return null;
  }

  /** Moves an open connection's slot from `from` to `to` (a client named by X-Forwarded-For); null when `to` has room. */
  moveConnection(from: string, to: string): RefusalReason | null {
    const state = this.state(to);
    if (state.connections >= this.limits['connections-per-address']) return 'connections-per-address';
    state.connections++;
    this.total++;
    this.closeConnection(from);
    return null;
  }

  closeConnection(key: string): void {
    const state = this.states.get(key);
    if (!state || state.connections === 0) return;
    state.connections--;
    this.total--;
    this.forgetIfIdle(key, state);
  }

  /**
   * Takes the connection's slot across the cluster, after `openConnection` admitted it here:
   * `cut` is called if all nodes together already hold the address's budget. Returns what gives the
   * slot back, to call when the connection closes.
   */
  clusterConnection(key: string, cut: () => void): () => void {
    const cluster = this.cluster;
    if (!cluster) return () => {};
    let closed = false;
    let held = false;
    void cluster.openConnection(key, this.limits['connections-per-address']).then((granted) => {
      if (granted && closed) return cluster.closeConnection(key);
      held = granted;
      if (!granted && !closed) cut();
    });
    return () => {
      closed = true;
      if (held) cluster.closeConnection(key);
      held = false;
    };
  }

  /**
   * Takes one GameNew token: false when the address made too many matches in the last minute. With
   * a cluster, each token is also taken from the address's shared bucket; when that one is empty,
   * GameNew is refused here until it has a token again.
   */
  takeGameNew(key: string): boolean {
    const state = this.state(key);
    const perMinute = this.limits['game-new-per-minute'];
    const now = this.clock.monotonic();
    state.tokens = Math.min(perMinute, state.tokens + ((now - state.tokensAt) * perMinute) / 60_000);
    state.tokensAt = now;
    if (state.tokens < 1 || now < state.clusterGameNewFrom) return false;
    state.tokens -= 1;
    void this.cluster?.takeGameNew(key, perMinute).then((wait) => {
      if (wait > 0) this.state(key).clusterGameNewFrom = this.clock.monotonic() + wait;
    });
    return true;
  }

  /** Seconds until `key` may try a password again; 0 when it may now. */
  passwordWait(key: string): number {
    const state = this.states.get(key);
    if (!state) return 0;
    return Math.max(0, Math.ceil((state.blockedUntil - this.clock.monotonic()) / 1000));
  }

  /** A wrong password from `key`: past the free attempts, the wait doubles each time. */
  passwordFailed(key: string): void {
    const state = this.state(key);
    state.failures++;
    const over = state.failures - this.limits['password-free-attempts'];
    if (over <= 0) return;
    const seconds = Math.min(this.limits['password-backoff-max-seconds'], this.limits['password-backoff-seconds'] * 2 ** Math.min(over - 1, 40));
    state.blockedUntil = this.clock.monotonic() + seconds * 1000;
  }

  passwordSucceeded(key: string): void {
    const state = this.states.get(key);
    if (!state) return;
    state.failures = 0;
    state.blockedUntil = 0;
  }

  /**
   * Whether a refusal of `key` should be logged now: the first one, then at most one line a minute
   * with the count of those not logged, so that an attacker cannot flood the log.
   */
  refusalToLog(key: string): number | null {
    const state = this.state(key);
    const now = this.clock.monotonic();
    state.unloggedRefusals++;
    if (now - state.loggedAt < 60_000) return null;
    const count = state.unloggedRefusals;
    state.unloggedRefusals = 0;
    state.loggedAt = now;
    return count;
  }

  /** Addresses remembered now (for tests and metrics). */
  get tracked(): number {
    return this.states.size;
  }

  private state(key: string): AddressState {
    const now = this.clock.monotonic();
    let state = this.states.get(key);
    if (state) {
      // Re-inserted so that the map's order is least recently seen first.
      this.states.delete(key);
    } else {
      state = { connections: 0, tokens: this.limits['game-new-per-minute'], tokensAt: now, failures: 0, blockedUntil: 0, seenAt: now, unloggedRefusals: 0, loggedAt: Number.NEGATIVE_INFINITY, clusterGameNewFrom: 0 };
      this.evictIfFull();
    }
    state.seenAt = now;
    this.states.set(key, state);
    return state;
  }

  /** An address with no connection, a full bucket and no back-off carries nothing worth keeping. */
  private forgetIfIdle(key: string, state: AddressState): void {
    if (state.connections > 0 || state.failures > 0 || state.clusterGameNewFrom > this.clock.monotonic()) return;
    const perMinute = this.limits['game-new-per-minute'];
    const refilled = state.tokens + ((this.clock.monotonic() - state.tokensAt) * perMinute) / 60_000;
    if (refilled >= perMinute) this.states.delete(key);
  }

  private evictIfFull(): void {
    if (this.states.size < this.limits['tracked-addresses']) return;
    for (const [key, state] of this.states) {
      // Addresses with open connections are never forgotten: their count must stay right.
      if (state.connections > 0) continue;
      this.states.delete(key);
      if (this.states.size < this.limits['tracked-addresses']) return;
    }
  }
}

/** What a TCP front door needs to count its connections against the per-address limits. */
export interface Admission {
  readonly addresses: AddressLimits;
  /** Who the clients are (behind a trusted balancer, its PROXY preamble says). */
  readonly peers: PeerAddresses;
  readonly log: Log;
  readonly refused?: (reason: RefusalReason) => void;
  /** The server's budget of memory held for clients; a door given none counts each connection alone. */
  readonly memory?: ClientMemory;
}

/** A connection holding a slot of the per-address limits; the slot is given back when the socket closes. */
export interface AdmittedConnection {
  /** The address key its limits count by. */
  readonly key: string;
  /** Counts the connection against another address from now on; false (nothing changed) when that one is full. */
  moveTo(key: string): boolean;
}

/**
 * Counts a new connection against the limits of its client's address, on any port. A refused one
 * is cut off at once (one log line a minute per address says how many were); an admitted one gives
 * its slot back when it closes. A trusted proxy's own connection (a health check, or an HTTP proxy
 * relaying many clients) is exempt from connections-per-address.
 */
export function admitConnection(socket: Socket, client: ClientAddress, door: string, admission: Admission): AdmittedConnection | null {
  const { addresses, log, refused, peers } = admission;
  let key = addressKey(client.address);
  const refuse = (refusal: RefusalReason): void => {
    refused?.(refusal);
    const count = addresses.refusalToLog(key);
    if (count !== null) log.warn(`${door} ${client.address}: connection refused (${refusal}; ${count} since the last such line)`);
    socket.destroy();
  };
  // A trusted proxy's own connection carries many clients: exempt here and across the cluster.
  const perAddress = !peers.trusts(client.address);
  const refusal = addresses.openConnection(key, perAddress);
  if (refusal) {
    refuse(refusal);
    return null;
  }
  // Over the budget of all nodes together: cut once the cluster says so (a round trip later).
  const takeClusterSlot = (): (() => void) => addresses.clusterConnection(key, () => refuse('connections-per-address'));
  let releaseCluster = perAddress ? takeClusterSlot() : () => {};
  // 'close' comes once; `on` spares each socket the wrapper `once` would add for the socket's life.
  socket.on('close', () => {
    addresses.closeConnection(key);
    releaseCluster();
  });
  return {
    get key() {
      return key;
    },
    moveTo(to: string): boolean {
      if (to === key) return true;
      const moved = addresses.moveConnection(key, to);
      if (moved) {
        refused?.(moved);
        return false;
      }
      releaseCluster();
      key = to;
      releaseCluster = takeClusterSlot();
      return true;
    },
  };
}
