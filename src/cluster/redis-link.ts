import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { systemClock, type Clock } from '../util/clock.js';
import { silentLog, type Log } from '../util/log.js';
import { RedisAddressCounter } from './redis-address-counter.js';
import { decodeBatch, encodeBatch } from './redis-bus-codec.js';
import { DirectoryView, parseChange } from './redis-directory-view.js';
import { Liveness } from './redis-liveness.js';
import { defineScripts, redisKeys, runScript, type RedisKeys } from './redis-scripts.js';
import { maskRedisUrl } from './redis-url.js';
import type { BridgeMessage, ClusterLeases, ClusterLink, DirectoryEntry, DirectoryListener, LobbyDirectory, NodeBus } from './seams.js';

/** How soon a batch held during an outage is sent again when its destination has not resubscribed yet. */
const HELD_RETRY_MS = 50;

/** The longest wait between two attempts to reconnect to Redis (ioredis's own default, named here). */
const RECONNECT_MAX_MS = 2000;

/** Keys of one cluster start with this (several clusters may share one Redis with other prefixes). */
export const DEFAULT_REDIS_PREFIX = 'cocod:';

export interface RedisLinkOptions {
  /** redis://[:PASSWORD@]HOST[:PORT][/DB]; its password is never logged. */
  readonly url: string;
  /** This node's name, unique in the cluster (hostname, pid and a random part: nodeName()). */
  readonly node: string;
  readonly prefix?: string;
  /** The node's clock: lease beats. With `useClockTime` the leases are timed by it too (tests). */
  readonly clock?: Clock;
  readonly useClockTime?: boolean;
  /** A node that has not refreshed its lease for this long is dead (the limit redis-lease-seconds). */
  readonly leaseMs: number;
  /** How often a node refreshes its lease and looks for dead ones (redis-lease-refresh-seconds). */
  readonly refreshMs: number;
  /** Bus bytes held while Redis is unreachable, sent when it is back (redis-offline-buffer-bytes). */
  readonly offlineBufferBytes: number;
  readonly log?: Log;
  /**
   * Fences a dead node's writes (its lease in the history store, node-lease.ts) before its matches
   * are recorded as lost; when it rejects, the clean-up is tried again once the claim runs out.
   */
  readonly takeOver?: (victim: string) => Promise<void>;
  /** Records the matches of a dead node (this node cleans up after it), before the others are told. */
  readonly recordLost?: (entries: readonly DirectoryEntry[]) => Promise<void>;
  /** Another node declared this one dead while it could not reach Redis: it must stop. */
  readonly onEvicted?: () => void;
  /**
   * Where this node's number comes from: something durable, which never gives a number twice
   * (cocod: a PostgreSQL sequence, postgres-node-numbers.ts). Without it, a counter in Redis,
   * which starts again at 1 if Redis loses its data (fine for tests, not for a cluster).
   */
  readonly takeNodeNumber?: () => Promise<number>;
}

/**
 * A node's ends of both seams through Redis (redis-scripts.ts has the layout): the directory is a
 * hash changed by scripts that publish each change numbered; the bus is one pub/sub channel per
 * node, which keeps the order of one sender's messages; a node is alive while it refreshes its lease.
 *
 * While Redis is unreachable the node keeps running: its own directory entries are kept here and
 * published again when Redis is back (a restarted Redis has lost them), bus messages wait in a
 * bounded buffer, and `available()` is false, so the lobby refuses new matches meanwhile.
 */
export class RedisLink implements ClusterLink {
  readonly directory: LobbyDirectory;
  readonly bus: NodeBus;
  readonly addresses: RedisAddressCounter;
  readonly leases: ClusterLeases;
  /** This node's number in the cluster (for match ids that no other node makes). */
  nodeNumber = 0;
  /** Settles when close() has left the cluster and disconnected. */
  closed: Promise<void> = Promise.resolve();

  private readonly keys: RedisKeys;
  private readonly log: Log;
  private readonly view: DirectoryView;
  private readonly liveness: Liveness;
  /** This node's own entries, in the order it published them. */
  private readonly mine = new Map<string, DirectoryEntry>();
  private readonly handlers = new Set<(from: string, message: BridgeMessage) => void>();
  private readonly downHandlers = new Set<(node: string) => void>();
  /** Messages of this turn of the event loop, by destination: one PUBLISH each. */
  private outgoing = new Map<string, BridgeMessage[]>();
  /** Batches held while Redis is unreachable (or their destination's subscription is), in order, by destination. */
  private readonly held = new Map<string, { payloads: Buffer[]; since: number | null }>();
  private readonly pumping = new Set<string>();
  /** Batches published and not yet known to be received, by destination, in order. */
  private readonly inflight = new Map<string, Buffer[]>();
  /** The epoch of the Redis this node last reached (redis-scripts.ts): another one means Redis lost its data. */
  private epoch = '';
  /** The directory as this node saw it when Redis became unreachable: the other nodes' matches, to account for. */
  private knownAtOutage: DirectoryEntry[] | null = null;
  private heldBytes = 0;
  private droppedOffline = 0;
  private started = false;
  private leaving = false;
  private evicted = false;
  private outage = false;

  private constructor(
    private readonly options: RedisLinkOptions,
    private readonly cmd: Redis,
    private readonly sub: Redis,
  ) {
    this.keys = redisKeys(options.prefix ?? DEFAULT_REDIS_PREFIX);
    this.log = options.log ?? silentLog;
    const node = options.node;
    this.view = new DirectoryView(
      () => this.snapshot(),
      (down) => this.nodeDown(down),
      (error) => this.warn(error),
    );
    this.liveness = new Liveness({
      node,
      redis: cmd,
      keys: this.keys,
      clock: options.clock ?? systemClock,
      useClockTime: options.useClockTime ?? false,
      leaseMs: options.leaseMs,
      refreshMs: options.refreshMs,
      log: this.log,
      reap: (victim) => this.reap(victim),
      evicted: () => this.onEvicted(),
    });
    this.addresses = new RedisAddressCounter({
      node,
      redis: cmd,
      keys: this.keys,
      clock: options.clock ?? systemClock,
      useClockTime: options.useClockTime ?? false,
      available: () => this.available(),
      log: this.log,
    });
    this.directory = {
      put: (entry) => this.put(entry),
      remove: (id) => this.remove(id),
      list: () => (this.available() ? this.snapshot().then((s) => s.entries, () => this.view.list()) : Promise.resolve(this.view.list())),
      find: (id) => this.find(id),
      watch: (listener) => this.watch(listener),
    };
    this.leases = {
      claim: async (name, ms) => {
        if (!this.available()) throw new Error('Redis cannot be reached');
        const held = String(await runScript(this.cmd, 'namedLeaseClaim', [this.keys.lease(name), this.keys.leaseEpoch(name), this.keys.gone(node)], [node, Math.ceil(ms), this.options.useClockTime ? (this.options.clock ?? systemClock).now() : '']));
        const space = held.indexOf(' ');
        if (space < 1) throw new Error(`node ${node} was declared dead: it holds no lease`);
        return { epoch: Number(held.slice(0, space)), node: held.slice(space + 1) };
      },
      release: async (name) => {
        if (this.available()) await runScript(this.cmd, 'namedLeaseRelease', [this.keys.lease(name)], [node]);
      },
    };
    this.bus = {
      node,
      send: (to, message) => this.send(to, message),
      listen: (handler) => {
        this.handlers.add(handler);
        return () => this.handlers.delete(handler);
      },
      onNodeDown: (handler) => {
        this.downHandlers.add(handler);
        return () => this.downHandlers.delete(handler);
      },
    };
  }

  /** Joins the cluster: connected, subscribed, leased and with the directory read. Fails when Redis cannot be reached. */
  static async connect(options: RedisLinkOptions): Promise<RedisLink> {
    const connection = {
      lazyConnect: true,
      // What cannot be sent now fails at once: the link keeps its own state and sends it again
      // when Redis is back, rather than ioredis queueing commands without bound.
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 50, RECONNECT_MAX_MS),
    };
    const cmd = new Redis(options.url, connection);
    // The subscriber's own queue holds only its (re)subscriptions.
    const sub = new Redis(options.url, { lazyConnect: true, retryStrategy: connection.retryStrategy });
    defineScripts(cmd);
    const link = new RedisLink(options, cmd, sub);
    try {
      await link.start();
    } catch (error) {
      cmd.disconnect();
      sub.disconnect();
      // ioredis rejects with "Connection is closed." once it gave up; the cause came as an 'error' event.
      const cause = link.startError ?? error;
      throw new Error(`cannot join the cluster through Redis at ${maskRedisUrl(options.url)}: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    return link;
  }

  /** True while Redis is reachable and this node is a member: new matches may be made. */
  available(): boolean {
    return this.started && !this.leaving && !this.evicted && this.cmd.status === 'ready' && this.sub.status === 'ready';
  }

  close(): void {
    if (this.leaving) return;
    this.leaving = true;
    this.liveness.stop();
    this.flush();
    const wasAvailable = this.cmd.status === 'ready' && !this.evicted;
    this.closed = (async () => {
      try {
        if (wasAvailable) await runScript(this.cmd, 'nodeDown', this.downKeys(this.options.node), [this.options.node, this.keys.dirChannel]);
      } catch (error) {
        this.warn(error);
      }
      // quit() waits for the replies; on a connection that is down it would wait for Redis to return.
      const bye = (connection: Redis): Promise<unknown> => (connection.status === 'ready' ? connection.quit().catch(() => connection.disconnect()) : Promise.resolve(connection.disconnect()));
      await Promise.all([bye(this.cmd), bye(this.sub)]);
    })();
  }

  /** Drops the connections as a killed process would: no leaving, the lease just runs out. For tests. */
  crash(): void {
    this.leaving = true;
    this.liveness.stop();
    this.cmd.disconnect();
    this.sub.disconnect();
  }

  /** One lease beat now (the clock's timer does it every refresh interval). For tests. */
  beat(): Promise<void> {
    return this.liveness.beat();
  }

  private async start(): Promise<void> {
    for (const connection of [this.cmd, this.sub]) connection.on('error', (error: unknown) => this.warn(error));
    await this.cmd.connect();
    await this.sub.connect();
    this.sub.on('messageBuffer', (channel: Buffer, message: Buffer) => this.onMessage(channel.toString('utf8'), message));
    await this.sub.subscribe(this.keys.bus(this.options.node), this.keys.dirChannel);
    this.nodeNumber = this.options.takeNodeNumber ? await this.options.takeNodeNumber() : Number(await this.cmd.incr(this.keys.nodeNumber));
    this.epoch = await this.readEpoch();
    if (!(await this.liveness.connected())) throw new Error(`the node name ${this.options.node} was declared dead`);
    await this.view.resync();
    this.cmd.on('ready', () => void this.reconnected());
    this.sub.on('ready', () => void this.view.resync());
    for (const connection of [this.cmd, this.sub]) connection.on('close', () => this.lost());
    this.started = true;
  }

  private lost(): void {
    if (this.outage || this.leaving) return;
    this.outage = true;
    this.knownAtOutage = this.view.list();
    this.log.error('Redis is unreachable: no new matches until it is back; running matches go on');
  }

  /** Redis is back (perhaps a new one, empty): lease, held messages, this node's matches and address counts, the directory. */
  private async reconnected(): Promise<void> {
    if (this.leaving || this.evicted) return;
    for (const to of this.held.keys()) void this.pump(to);
    try {
      if (!(await this.liveness.connected())) return;
      if (this.droppedOffline > 0) this.log.error(`${this.droppedOffline} bus messages were dropped while Redis was unreachable (redis-offline-buffer-bytes)`);
      this.droppedOffline = 0;
      const { entries } = await this.snapshot();
      for (const entry of entries) {
        if (entry.node === this.options.node && !this.mine.has(entry.info.id)) await this.publishRemove(entry.info.id);
      }
      for (const entry of [...this.mine.values()]) await this.publishPut(entry);
      await this.addresses.publish();
      await this.adoptUnaccounted();
      await this.view.resync();
      if (this.outage) this.log.info(`Redis is back: ${this.mine.size} matches of this node published again`);
      this.outage = false;
    } catch (error) {
      this.warn(error);
    }
  }

  private async readEpoch(): Promise<string> {
    return String(await runScript(this.cmd, 'epoch', [this.keys.epoch], [randomBytes(12).toString('base64url')]));
  }

  /**
   * After an outage: if Redis came back without its data (restarted with no persistence), the nodes
   * this node knew of are in it only once they reconnect. One that died meanwhile never will, and
   * nothing would record its running matches nor tell the players bridged to it: it is put back
   * with a lease, and its running matches with it, so that the usual clean-up takes it over.
   */
  private async adoptUnaccounted(): Promise<void> {
    const known = this.knownAtOutage;
    this.knownAtOutage = null;
    const epoch = await this.readEpoch();
    const lostData = epoch !== this.epoch;
    this.epoch = epoch;
    if (!known || !lostData) return;
    const byNode = new Map<string, DirectoryEntry[]>();
    for (const entry of known) {
      if (entry.node === this.options.node) continue;
      const entries = byNode.get(entry.node) ?? [];
      if (entry.info.running) entries.push(entry);
      byNode.set(entry.node, entries);
    }
    const { leases, entries, owners, order, seq, dirChannel } = this.keys;
    // A node that is alive may try to reconnect up to RECONNECT_MAX_MS after this one did, then
    // needs its first refresh: two leases and that wait, before anyone may claim it.
    const graceMs = 2 * this.options.leaseMs + RECONNECT_MAX_MS;
    const now = this.options.useClockTime ? String((this.options.clock ?? systemClock).now()) : '';
    for (const [node, running] of byNode) {
      const pairs = running.flatMap((entry) => [entry.info.id, JSON.stringify(entry)]);
      const adopted = Number(await runScript(this.cmd, 'nodeAdopt', [leases, this.keys.gone(node), entries, owners, order, seq], [node, graceMs, dirChannel, ...pairs, now]));
      if (adopted === 1) this.log.warn(`Redis lost its data: node ${node} (${running.length} running matches) is given a lease to come back; if it does not, its matches are recorded as ended by node failure`);
    }
  }

  private async put(entry: DirectoryEntry): Promise<void> {
    // A node publishes only its own matches.
    if (entry.node !== this.options.node || this.leaving) return;
    this.mine.set(entry.info.id, entry);
    if (this.available()) await this.publishPut(entry).catch((error: unknown) => this.warn(error));
  }

  private async remove(id: string): Promise<void> {
    if (!this.mine.delete(id) || this.leaving) return;
    if (this.available()) await this.publishRemove(id).catch((error: unknown) => this.warn(error));
  }

  private async publishPut(entry: DirectoryEntry): Promise<void> {
    const { entries, owners, order, seq, dirChannel } = this.keys;
    const done = Number(await runScript(this.cmd, 'dirPut', [entries, owners, order, seq, this.keys.gone(this.options.node)], [entry.info.id, this.options.node, JSON.stringify(entry), dirChannel]));
    if (done === 0) this.log.error(`match ${entry.info.id} is another node's: not published`);
    if (done === -1) this.onEvicted();
  }

  /** From Redis itself: the view hears of a put only after its script ran, a moment later. */
  private async find(id: string): Promise<DirectoryEntry | null> {
    const known = (): DirectoryEntry | null => this.view.list().find((entry) => entry.info.id === id) ?? null;
    if (!this.available()) return known();
    try {
      const text = await this.cmd.hget(this.keys.entries, id);
      return text === null ? null : (JSON.parse(text) as DirectoryEntry);
    } catch (error) {
      this.warn(error);
      return known();
    }
  }

  private async publishRemove(id: string): Promise<void> {
    const { entries, owners, order, seq, dirChannel } = this.keys;
    await runScript(this.cmd, 'dirRemove', [entries, owners, order, seq], [id, this.options.node, dirChannel]);
  }

  private async snapshot(): Promise<{ seq: number; entries: DirectoryEntry[] }> {
    const reply = (await runScript(this.cmd, 'dirSnapshot', [this.keys.entries, this.keys.order, this.keys.seq], [])) as string[];
    const [seq, ...entries] = reply;
    return { seq: Number(seq), entries: entries.map((text) => JSON.parse(text) as DirectoryEntry) };
  }

  private watch(listener: DirectoryListener): () => void {
    const stop = this.view.watch(listener);
    let watching = true;
    // What was published before, as the hub's connect delivers it: told before any later change.
    const known = this.view.list();
    queueMicrotask(() => {
      if (watching) for (const entry of known) listener.put(entry);
    });
    return () => {
      watching = false;
      stop();
    };
  }

  private send(to: string, message: BridgeMessage): void {
    if (this.leaving) return;
    let batch = this.outgoing.get(to);
    if (!batch) {
      if (this.outgoing.size === 0) setImmediate(() => this.flush());
      batch = [];
      this.outgoing.set(to, batch);
    }
    batch.push(message);
  }

  /** One PUBLISH per destination and turn: a busy node relays many small seat messages a turn. */
  private flush(): void {
    const outgoing = this.outgoing;
    this.outgoing = new Map();
    for (const [to, messages] of outgoing) {
      const payload = encodeBatch(this.options.node, messages);
      if (this.cmd.status === 'ready' && !this.held.has(to)) {
        this.publish(to, payload);
      } else if (this.heldBytes + payload.length <= this.options.offlineBufferBytes) {
        const queue = this.held.get(to) ?? { payloads: [], since: null };
        queue.payloads.push(payload);
        this.held.set(to, queue);
        this.heldBytes += payload.length;
      } else {
        this.droppedOffline += messages.length;
      }
    }
  }

  /**
   * Sends a batch now. Until Redis says who received it, it is in flight: if the connection fails
   * under it, or nobody was subscribed (`to` is reconnecting after an outage), it and the batches
   * sent after it to `to` are held again, in order, and sent once `to` listens. To a node that is
   * gone for good nobody listens: its batches are dropped when it is declared down, or after a lease.
   */
  private publish(to: string, payload: Buffer): void {
    const flying = this.inflight.get(to) ?? [];
    flying.push(payload);
    this.inflight.set(to, flying);
    this.cmd.publish(this.keys.bus(to), payload).then(
      (received) => (received > 0 ? this.landed(to, payload) : this.missed(to, payload)),
      (error: unknown) => {
        this.warn(error);
        this.missed(to, payload);
      },
    );
  }

  private landed(to: string, payload: Buffer): void {
    const flying = this.inflight.get(to);
    const at = flying?.indexOf(payload) ?? -1;
    if (at < 0) return;
    flying!.splice(at, 1);
    if (flying!.length === 0) this.inflight.delete(to);
  }

  private missed(to: string, payload: Buffer): void {
    const flying = this.inflight.get(to);
    const at = flying?.indexOf(payload) ?? -1;
    if (at < 0 || this.leaving) return; // already held again with an earlier one
    const again = flying!.splice(at);
    if (flying!.length === 0) this.inflight.delete(to);
    const queue = this.held.get(to) ?? { payloads: [], since: null };
    // Before what was held meanwhile: those were sent later.
    queue.payloads.unshift(...again);
    for (const one of again) this.heldBytes += one.length;
    this.held.set(to, queue);
    if (this.cmd.status === 'ready') void this.pump(to);
  }

  /**
   * Sends what was held for `to` during an outage, in order, one at a time: pub/sub keeps nothing,
   * so a batch is sent again until Redis says `to` received it (its subscription may come back
   * after this node's connection). A destination that does not come back within a lease of this
   * node's reconnection is gone, and what was held for it is dropped.
   */
  private async pump(to: string): Promise<void> {
    const queue = this.held.get(to);
    if (!queue || this.pumping.has(to)) return;
    this.pumping.add(to);
    try {
      const clock = this.options.clock ?? systemClock;
      queue.since ??= clock.monotonic();
      while (queue.payloads.length > 0 && this.cmd.status === 'ready' && this.held.get(to) === queue) {
        const sending = queue.payloads[0]!;
        const received = await this.cmd.publish(this.keys.bus(to), sending);
        if (received > 0) {
          // By identity: a batch that failed in flight meanwhile went to the front.
          const at = queue.payloads.indexOf(sending);
          if (at >= 0) queue.payloads.splice(at, 1);
          this.heldBytes -= sending.length;
          continue;
        }
        if (clock.monotonic() - queue.since > this.options.leaseMs) return this.dropHeld(to);
        setTimeout(() => void this.pump(to), HELD_RETRY_MS).unref();
        return;
      }
      if (queue.payloads.length === 0 && this.held.get(to) === queue) this.held.delete(to);
    } catch (error) {
      this.warn(error);
    } finally {
      this.pumping.delete(to);
    }
  }

  private dropHeld(to: string, say = true): void {
    const queue = this.held.get(to);
    if (!queue) return;
    this.held.delete(to);
    for (const payload of queue.payloads) this.heldBytes -= payload.length;
    if (say) this.log.warn(`messages held for node ${to} dropped: it did not come back`);
  }

  private onMessage(channel: string, payload: Buffer): void {
    if (this.leaving) return;
    if (channel === this.keys.dirChannel) {
      const change = parseChange(payload.toString('utf8'));
      if (change) this.view.receive(change);
      return;
    }
    const batch = decodeBatch(payload);
    if (!batch) return this.log.warn(`an unreadable bus message on ${channel}`);
    for (const message of batch.messages) for (const handler of this.handlers) handler(batch.from, message);
  }

  private nodeDown(node: string): void {
    if (node === this.options.node) {
      if (!this.leaving) this.onEvicted();
      return;
    }
    this.dropHeld(node, false);
    this.inflight.delete(node);
    for (const handler of this.downHandlers) handler(node);
  }

  /** Cleans up after a dead node: its running matches recorded first, then it leaves the directory and everyone is told. */
  private async reap(victim: string): Promise<void> {
    const { entries } = await this.snapshot();
    const lost = entries.filter((entry) => entry.node === victim);
    // Fenced first: a victim that was only paused must not record over what is recorded here.
    await this.options.takeOver?.(victim);
    await this.options.recordLost?.(lost);
    await runScript(this.cmd, 'nodeDown', this.downKeys(victim), [victim, this.keys.dirChannel]);
    this.log.info(`node ${victim} is down: its ${lost.length} matches and the connections it counted left the cluster`);
  }

  private downKeys(node: string): string[] {
    const { entries, owners, order, seq, leases, reaping } = this.keys;
    return [entries, owners, order, seq, leases, reaping, this.keys.addresses(node)];
  }

  private onEvicted(): void {
    if (this.evicted) return;
    this.evicted = true;
    this.liveness.stop();
    this.log.error(`node ${this.options.node} was declared dead by another node while it could not reach Redis: it must stop`);
    this.options.onEvicted?.();
  }

  /** The first connection error before the node joined: the one line the failed start says. */
  private startError: unknown = null;
  private warned = '';
  private warn(error: unknown): void {
    if (!this.started && !this.leaving) {
      this.startError ??= error;
      return;
    }
    const text = error instanceof Error ? error.message : String(error);
    // A refused reconnection repeats every few hundred ms: said once until something else happens.
    if (text === this.warned) return;
    this.warned = text;
    this.log.warn(`Redis: ${text}`);
  }
}
