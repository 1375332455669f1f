import { isIPv6, type Socket } from 'node:net';
import type { AddressCounter } from './address-counter.js';
import type { Clock } from '../util/clock.js';
import type { ClientMemory } from './client-memory.js';
import type { Log } from '../util/log.js';
import type { SecretName } from '../util/secret.js';
import { networkKey } from './network-key.js';
import { PasswordBackoff } from './password-backoff.js';
import type { ServerLimits } from './server-limits.js';
import type { ClientAddress, PeerAddresses } from './peer-addresses.js';

/** Why a peer was refused; the label of the refusal counter in /metrics. */
export type RefusalReason =
  | 'max-connections'
  | 'connections-per-address'
  | 'connections-per-network'
  | 'game-new-per-minute'
  | 'game-new-per-minute-per-network'
  | 'waiting-matches-per-address'
  | 'waiting-matches-per-network'
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
  | 'replays-per-address'
  | 'replays'
  | 'invalid-request';

/** What one address, or one network, has done lately. */
interface KeyState {
  connections: number;
  /** Of those, a trusted proxy's own (openConnection with perAddress false): not counted in the network. */
  exempt: number;
  /** GameNew token bucket: tokens left, as of `tokensAt`. */
  tokens: number;
  tokensAt: number;
  /** Last time anything happened, to forget the idlest first. */
  seenAt: number;
  /** Refusals not yet logged, and when one was last logged (one log line a minute per address). */
  unloggedRefusals: number;
  loggedAt: number;
  /** The cluster's GameNew bucket of this key is empty until then (monotonic ms). */
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

/** One level of counting (addresses, or networks): its limits and the keys it remembers. */
class KeyCounts {
  private readonly states = new Map<string, KeyState>();

  constructor(
    /** Open connections one key may hold. */
    readonly connectionLimit: number,
    /** GameNew tokens of one key a minute. */
    readonly perMinute: number,
    private readonly capacity: number,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.states.size;
  }

  peek(key: string): KeyState | undefined {
    return this.states.get(key);
  }

  /** The state of `key`, made if new; marked as the most recently seen. */
  state(key: string): KeyState {
    const now = this.clock.monotonic();
    let state = this.states.get(key);
    if (state) {
      // Re-inserted so that the map's order is least recently seen first.
      this.states.delete(key);
    } else {
      state = { connections: 0, exempt: 0, tokens: this.perMinute, tokensAt: now, seenAt: now, unloggedRefusals: 0, loggedAt: Number.NEGATIVE_INFINITY, clusterGameNewFrom: 0 };
      this.evictIfFull();
    }
    state.seenAt = now;
    this.states.set(key, state);
    return state;
  }

  /** The bucket of `state` refilled to now: whether it holds a token (not taken yet). */
  hasToken(state: KeyState): boolean {
    const now = this.clock.monotonic();
    state.tokens = Math.min(this.perMinute, state.tokens + ((now - state.tokensAt) * this.perMinute) / 60_000);
    state.tokensAt = now;
    return state.tokens >= 1 && now >= state.clusterGameNewFrom;
  }

  /** A key with no connection, a full bucket and no cluster wait carries nothing worth keeping. */
  forgetIfIdle(key: string, state: KeyState): void {
    if (state.connections > 0 || state.clusterGameNewFrom > this.clock.monotonic()) return;
    const refilled = state.tokens + ((this.clock.monotonic() - state.tokensAt) * this.perMinute) / 60_000;
    if (refilled >= this.perMinute) this.states.delete(key);
  }

  private evictIfFull(): void {
    if (this.states.size < this.capacity) return;
    for (const [key, state] of this.states) {
      // Keys with open connections are never forgotten: their count must stay right.
      if (state.connections > 0) continue;
      this.states.delete(key);
      if (this.states.size < this.capacity) return;
    }
  }
}

/**
 * The limits that count per address and per network (IPv4 /24, IPv6 /48 by default: one
 * neighbour), shared by every front door: open connections, GameNew rate, and wrong passwords with
 * exponential back-off per address and secret (password-backoff.ts). Memory is bounded: a key
 * with nothing open and nothing to remember is forgotten, and past `tracked-addresses` the idlest
 * is dropped.
 *
 * With a `cluster` counter (several nodes), connections and GameNew also count on every node
 * together, per address and per network (a network is just another key). Admission never waits for
 * it: this node's own count decides at once, and the cluster's answer follows one round trip later,
 * cutting a connection over a budget and refusing GameNew while a shared bucket is empty
 * (clusterConnection, takeGameNew).
 */
export class AddressLimits {
  private readonly addresses: KeyCounts;
  private readonly networks: KeyCounts;
  private readonly passwords: PasswordBackoff;
  private total = 0;

  constructor(
    private readonly limits: ServerLimits,
    private readonly clock: Clock,
    private readonly cluster?: AddressCounter,
  ) {
    this.addresses = new KeyCounts(limits['connections-per-address'], limits['game-new-per-minute'], limits['tracked-addresses'], clock);
    this.networks = new KeyCounts(limits['connections-per-network'], limits['game-new-per-minute-per-network'], limits['tracked-addresses'], clock);
    this.passwords = new PasswordBackoff(limits, clock);
  }

  /** Open connections on every port. */
  get connections(): number {
    return this.total;
  }

  /** The network (network-prefix-v4, network-prefix-v6) the address key `key` counts in. */
  network(key: string): string {
    return networkKey(key, this.limits['network-prefix-v4'], this.limits['network-prefix-v6']);
  }

  /**
   * Takes a connection slot for `key` and its network; null when refused (and why). Call
   * `closeConnection` once when it closes. A trusted proxy's own connections (`perAddress` false)
   * carry many clients: they count towards max-connections only, not even in the proxy's network,
   * whose other addresses are clients like any.
   */
  openConnection(key: string, perAddress = true): RefusalReason | null {
    if (this.total >= this.limits['max-connections']) return 'max-connections';
    const state = this.addresses.state(key);
    if (!perAddress) {
      state.connections++;
      state.exempt++;
      this.total++;
      return null;
    }
    const network = this.networks.state(this.network(key));
    if (state.connections >= this.addresses.connectionLimit) return 'connections-per-address';
    if (network.connections >= this.networks.connectionLimit) return 'connections-per-network';
    state.connections++;
    network.connections++;
    this.total++;
    return null;
  }

  /** Moves an open connection's slot from `from` to `to` (a client named by X-Forwarded-For); null when `to` has room. */
  moveConnection(from: string, to: string): RefusalReason | null {
    const state = this.addresses.state(to);
    if (state.connections >= this.addresses.connectionLimit) return 'connections-per-address';
    // A connection moving within its network keeps its place there (a trusted proxy's never had one).
    const sameNetwork = this.network(from) === this.network(to) && !(this.addresses.peek(from)?.exempt ?? 0);
    const network = this.networks.state(this.network(to));
    if (!sameNetwork && network.connections >= this.networks.connectionLimit) return 'connections-per-network';
    state.connections++;
    network.connections++;
    this.total++;
    this.closeConnection(from);
    return null;
  }

  closeConnection(key: string): void {
    const state = this.addresses.peek(key);
    if (!state || state.connections === 0) return;
    state.connections--;
    this.total--;
    this.addresses.forgetIfIdle(key, state);
    if (state.exempt > 0) return void state.exempt--;
    const networkKey = this.network(key);
    const network = this.networks.peek(networkKey);
    if (!network || network.connections === 0) return;
    network.connections--;
    this.networks.forgetIfIdle(networkKey, network);
  }

  /**
   * Takes the connection's slots (address and network) across the cluster, after `openConnection`
   * admitted it here: `cut` is called (with why) if all nodes together already hold either budget.
   * Returns what gives the slots back, to call when the connection closes.
   */
  clusterConnection(key: string, cut: (reason: RefusalReason) => void): () => void {
    const cluster = this.cluster;
    if (!cluster) return NOTHING_TO_RELEASE;
    let closed = false;
    const take = (slot: string, limit: number, reason: RefusalReason): (() => void) => {
      let held = false;
      void cluster.openConnection(slot, limit).then((granted) => {
        if (granted && closed) return cluster.closeConnection(slot);
        held = granted;
        if (!granted && !closed) cut(reason);
      });
      return () => {
        if (held) cluster.closeConnection(slot);
        held = false;
      };
    };
    const releaseAddress = take(key, this.addresses.connectionLimit, 'connections-per-address');
    const releaseNetwork = take(this.network(key), this.networks.connectionLimit, 'connections-per-network');
    return () => {
      closed = true;
      releaseAddress();
      releaseNetwork();
    };
  }

  /**
   * Takes one GameNew token of the address and one of its network: null when taken, else which
   * bucket is empty (neither is taken then). With a cluster, each token is also taken from the
   * shared bucket; while that one is empty, GameNew is refused here until it has a token again.
   */
  takeGameNew(key: string): 'game-new-per-minute' | 'game-new-per-minute-per-network' | null {
    const networkKey = this.network(key);
    const state = this.addresses.state(key);
    const network = this.networks.state(networkKey);
    if (!this.addresses.hasToken(state)) return 'game-new-per-minute';
    if (!this.networks.hasToken(network)) return 'game-new-per-minute-per-network';
    state.tokens -= 1;
    network.tokens -= 1;
    const cluster = this.cluster;
    if (cluster) {
      const shared = (slot: string, counts: KeyCounts): void =>
        void cluster.takeGameNew(slot, counts.perMinute).then((wait) => {
          if (wait > 0) counts.state(slot).clusterGameNewFrom = this.clock.monotonic() + wait;
        });
      shared(key, this.addresses);
      shared(networkKey, this.networks);
    }
    return null;
  }

  /** Seconds until `key` may try `secret` again; 0 when it may now. */
  passwordWait(key: string, secret: SecretName): number {
    return this.passwords.wait(key, secret);
  }

  /** A wrong password for `secret` from `key`: past the free attempts, the wait doubles each time. */
  passwordFailed(key: string, secret: SecretName): void {
    this.passwords.failed(key, secret);
  }

  /** The right password for `secret` from `key`: that secret's count starts again, no other. */
  passwordSucceeded(key: string, secret: SecretName): void {
    this.passwords.succeeded(key, secret);
  }

  /**
   * Whether a refusal of `key` should be logged now: the first one, then at most one line a minute
   * with the count of those not logged, so that an attacker cannot flood the log.
   */
  refusalToLog(key: string): number | null {
    const state = this.addresses.state(key);
    const now = this.clock.monotonic();
    state.unloggedRefusals++;
    if (now - state.loggedAt < 60_000) return null;
    const count = state.unloggedRefusals;
    state.unloggedRefusals = 0;
    state.loggedAt = now;
    return count;
  }

  /** Addresses remembered now, for the connection and GameNew counts and for the back-off (for tests and metrics). */
  get tracked(): number {
    return Math.max(this.addresses.size, this.passwords.tracked);
  }

  /** Networks remembered now (for tests and metrics). */
  get trackedNetworks(): number {
    return this.networks.size;
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
  /** Counts the connection against another address from now on; null, or why not (nothing changed) when that one or its network is full. */
  moveTo(key: string): RefusalReason | null;
}

/**
 * Counts a new connection against the limits of its client's address, on any port. A refused one
 * is cut off at once (one log line a minute per address says how many were); an admitted one gives
 * its slot back when it closes. A trusted proxy's own connection (a health check, or an HTTP proxy
 * relaying many clients) is exempt from connections-per-address.
 */
export function admitConnection(socket: Socket, client: ClientAddress, door: string, admission: Admission): AdmittedConnection | null {
  const slot = new ConnectionSlot(socket, client, door, admission);
  // A trusted proxy's own connection carries many clients: exempt here and across the cluster.
  const perAddress = !admission.peers.trusts(client.address);
  const refusal = admission.addresses.openConnection(slot.key, perAddress);
  if (refusal) {
    slot.refuse(refusal);
    return null;
  }
  // Over the budget of all nodes together: cut once the cluster says so (a round trip later).
  if (perAddress) slot.takeClusterSlot();
  // 'close' comes once; `on` spares each socket the wrapper `once` would add for the socket's life.
  (socket as SocketWithSlot)[SLOT] = slot;
  socket.on('close', releaseSlot);
  return slot;
}

const NOTHING_TO_RELEASE = (): void => {};
const SLOT = Symbol('connection slot');
type SocketWithSlot = Socket & { [SLOT]?: ConnectionSlot };

/** The socket's 'close' listener, one for all sockets (the slot hangs on the socket, as ws keeps its own state). */
function releaseSlot(this: SocketWithSlot): void {
  this[SLOT]?.release();
}

/**
 * One admitted connection's slot: an object with its methods on the prototype, not closures of
 * its own (an idle server holds one per connection, tens of thousands).
 */
class ConnectionSlot implements AdmittedConnection {
  key: string;
  private releaseCluster = NOTHING_TO_RELEASE;
  /** The refusal callback clusterConnection keeps, made once when first needed (a cluster's node). */
  private cut: ((refusal: RefusalReason) => void) | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly client: ClientAddress,
    private readonly door: string,
    private readonly admission: Admission,
  ) {
    this.key = addressKey(client.address);
  }

  refuse(refusal: RefusalReason): void {
    const { addresses, log, refused } = this.admission;
    refused?.(refusal);
    const count = addresses.refusalToLog(this.key);
    if (count !== null) log.warn(`${this.door} ${this.client.address}: connection refused (${refusal}; ${count} since the last such line)`);
    this.socket.destroy();
  }

  takeClusterSlot(): void {
    this.cut ??= (refusal) => this.refuse(refusal);
    this.releaseCluster = this.admission.addresses.clusterConnection(this.key, this.cut);
  }

  release(): void {
    this.admission.addresses.closeConnection(this.key);
    this.releaseCluster();
  }

  moveTo(to: string): RefusalReason | null {
    if (to === this.key) return null;
    const moved = this.admission.addresses.moveConnection(this.key, to);
    if (moved) {
      this.admission.refused?.(moved);
      return moved;
    }
    this.releaseCluster();
    this.key = to;
    this.takeClusterSlot();
    return null;
  }
}
