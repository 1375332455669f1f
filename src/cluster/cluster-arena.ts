/**
 * The arena of a cluster (`cocod --nodes N`, nodes sharing Redis): one queue for every node.
 *
 * One node at a time holds the pairing lease (ClusterLeases, ARENA_LEASE); its Arena is the queue,
 * pairs every node's entries, and makes the matches on its own lobby, which the entrants join from
 * whichever node they are connected to (bridged play). Every node, the pairing one included, is a
 * door: it checks an entrant's name against its token itself (the token stays on its node), sends
 * the entry to the lease's holder over the bus, and relays the pairings and results back to the
 * entrant's connection. The limits the Arena counts (entries, per address, per name) thus count
 * the whole cluster.
 *
 * The lease is fenced by its epoch: every message carries it, and a door takes pairings and
 * results only from the holder and epoch it entered under. When the holder dies (its lease runs
 * out, or the cluster saw it go) or stops (it releases the lease), the next node to renew takes
 * it under the next epoch and starts an Arena of its own; every door then enters its entries
 * there again, and tells its entrants that the games they were told of by the old holder are not
 * rated here (a dead node's matches are recorded as a node failure by the cluster). A holder
 * that cannot renew stops pairing once its lease may have run out.
 *
 * The door, not the holder, keeps what an entry must not lose at a takeover: since when each of
 * its places waits and whom it last met, followed from the pairings and results it relays. It
 * sends them with every entry (carried-entry.ts), so the next holder goes on with the same pairing
 * window and rematch delay; the holder believes them only within its own limits.
 */
import { ok, err, type Result } from '../util/result.js';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import type { BridgeMessage, ClusterLeases, LeaseHolder, NodeBus } from './seams.js';
import type { Arena, ArenaEntrant, ArenaEntryRequest, ArenaService, ArenaTicket, ArenaView, CheckName } from '../arena/arena.js';
import { ArenaRelay, PAIRING_CHANGED } from './arena-relay.js';

/** The name of the pairing lease among the cluster's leases. */
export const ARENA_LEASE = 'arena-pairing';

/** How long a door waits for the pairing node to answer an entry or a look at its queue. */
export const ARENA_ANSWER_MS = 5_000;

export interface ClusterArenaOptions {
  readonly bus: NodeBus;
  readonly leases: ClusterLeases;
  readonly clock: Clock;
  readonly log: Log;
  /** The claimed names' check, made here at the door. */
  readonly checkName: CheckName;
  readonly gameNames: readonly string[];
  /** A new Arena for this node to pair in while it holds the lease; it checks no names (the doors did). */
  readonly startArena: () => Arena;
  /** How long the lease lasts unless renewed (`arena-lease-seconds`). */
  readonly leaseMs: number;
  /** How often each node renews it or looks for who holds it (`arena-lease-refresh-seconds`). */
  readonly refreshMs: number;
}

/** An entry of this node's connections. */
interface DoorEntry {
  readonly key: string;
  readonly request: Omit<ArenaEntryRequest, 'token'>;
  readonly entrant: ArenaEntrant;
  /** The holder it is queued with, once it answered. */
  at: LeaseHolder | null;
  /** The holder it was last sent to, while that answer is awaited. */
  asked: LeaseHolder | null;
  /** The games it was told of and not yet told the end of, by match id: their players. */
  readonly playing: Map<string, readonly string[]>;
  /** What came before the entrant was told it entered: told right after. */
  backlog: (() => void)[] | null;
  /** By this node's clock, since when each free place waits (oldest first), as the holder's Arena counts them. */
  readonly freeSince: number[];
  /** The other names of its last game (the rematch delay, pairing.ts). */
  lastMet: readonly string[];
  left: boolean;
}

export class ClusterArena implements ArenaService {
  private readonly node: string;
  private readonly doors = new Map<string, DoorEntry>();
  private readonly answers = new Map<string, (message: BridgeMessage) => void>();
  private holder: LeaseHolder | null = null;
  private relay: ArenaRelay | null = null;
  /** Until when this node's lease surely holds (the time of its last successful claim, plus the lease). */
  private heldUntil = 0;
  private readonly stopping = new Set<Promise<void>>();
  private readonly stops: (() => void)[] = [];
  private stopTimer: (() => void) | null = null;
  private renewing: Promise<void> | null = null;
  private nextKey = 0;
  private warned = false;
  private closed = false;
  /** Settles after the first claim: an entry then knows where the queue is. */
  readonly ready: Promise<void>;

  constructor(private readonly options: ClusterArenaOptions) {
    this.node = options.bus.node;
    this.stops.push(
      options.bus.listen((from, message) => this.receive(from, message)),
      options.bus.onNodeDown((node) => {
        this.relay?.nodeDown(node);
        // The holder is gone: whoever renews first takes the lease over, without waiting a beat.
        if (this.holder?.node === node) void this.renew();
      }),
    );
    this.ready = this.renew();
    this.tick();
  }

  gameNames(): string[] {
    return [...this.options.gameNames].sort();
  }

  /** Who holds the pairing lease, as this node last saw. */
  pairingNode(): LeaseHolder | null {
    return this.holder;
  }

  async enter(request: ArenaEntryRequest, entrant: ArenaEntrant): Promise<Result<ArenaTicket>> {
    if (!this.options.gameNames.includes(request.game)) return err(`Game "${request.game}" has no arena on this server`);
    const refusal = await this.options.checkName(request.name, request.token);
    if (refusal !== null) return err(refusal);
    await this.ready;
    const holder = this.holder;
    if (this.closed) return err('The arena is closed (server shutdown)');
    if (!holder) return err('The arena cannot be reached now (its pairing node is unknown): try again');
    const { token: _token, ...forwarded } = request;
    const since = this.options.clock.now();
    const freeSince = Array.from({ length: request.concurrency }, () => since);
    const entry: DoorEntry = { key: `arena:${this.node}:${this.nextKey++}`, request: forwarded, entrant, at: null, asked: null, playing: new Map(), backlog: [], freeSince, lastMet: [], left: false };
    this.doors.set(entry.key, entry);
    let answer = await this.send(entry, holder);
    if (answer.retry) {
      // Sent during a takeover: once more to whoever holds the lease now, if that changed.
      await this.renew();
      const now = this.holder;
      if (now && !same(now, holder) && !this.closed) answer = await this.send(entry, now);
    }
    if (answer.error !== null) {
      this.doors.delete(entry.key);
      return err(answer.error);
    }
    // Told after the front door has answered the entry: a pairing never overtakes that answer.
    setImmediate(() => {
      const backlog = entry.backlog ?? [];
      entry.backlog = null;
      for (const tell of backlog) tell();
    });
    return ok({ game: request.game, name: request.name, args: answer.args ?? {}, seats: answer.seats, leave: () => this.leave(entry) });
  }

  async view(game: string): Promise<ArenaView | null> {
    if (!this.options.gameNames.includes(game)) return null;
    await this.ready;
    const holder = this.holder;
    if (holder?.node === this.node && this.relay) return this.relay.arena.view(game);
    if (!holder) throw new Error('the arena\'s pairing node is unknown now');
    const key = `arena-look:${this.node}:${this.nextKey++}`;
    const answer = await this.ask(key, () => this.options.bus.send(holder.node, { t: 'arena-look', key, game }));
    if (answer?.t !== 'arena-view' || answer.view === null) throw new Error(`the arena's pairing node (${holder.node}) did not answer`);
    return answer.view;
  }

  /** Stops: gives the lease up (another node takes it at once) and resolves once the games paired here are rated. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopTimer?.();
    for (const stop of this.stops) stop();
    for (const resolve of this.answers.values()) resolve({ t: 'arena-view', key: '', view: null });
    this.answers.clear();
    if (this.relay) {
      this.stopPairing('this node stops');
      await this.options.leases.release(ARENA_LEASE).catch(() => {});
    }
    while (this.stopping.size > 0) await Promise.all([...this.stopping]);
  }

  private tick(): void {
    this.stopTimer = this.options.clock.setTimer(
      this.options.refreshMs,
      () => {
        if (this.closed) return;
        void this.renew().finally(() => {
          if (!this.closed) this.tick();
        });
      },
      { weak: true },
    );
  }

  /** Claims or renews the lease and acts on who holds it. One claim at a time. */
  private renew(): Promise<void> {
    this.renewing ??= this.claim().finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  private async claim(): Promise<void> {
    const asked = this.options.clock.now();
    let holder: LeaseHolder;
    try {
      holder = await this.options.leases.claim(ARENA_LEASE, this.options.leaseMs);
      this.warned = false;
    } catch (error) {
      if (!this.warned) this.options.log.warn(`arena: the pairing lease cannot be claimed: ${error instanceof Error ? error.message : String(error)}`);
      this.warned = true;
      // Cut off: past its lease another node may pair already, so this one stops.
      if (this.relay && this.options.clock.now() >= this.heldUntil) this.stopPairing('its lease could not be renewed');
      return;
    }
    if (this.closed) return;
    if (holder.node === this.node) this.heldUntil = asked + this.options.leaseMs;
    this.changeHolder(holder);
  }

  private changeHolder(holder: LeaseHolder): void {
    const before = this.holder;
    this.holder = holder;
    const mine = holder.node === this.node;
    if (this.relay && (!mine || this.relay.epoch !== holder.epoch)) this.stopPairing(`node ${holder.node} holds the lease now`);
    if (mine && !this.relay) {
      this.relay = new ArenaRelay(this.options.startArena(), holder.epoch, this.options.bus, this.options.log);
      this.options.log.info(`arena: this node pairs the cluster's queue (lease epoch ${holder.epoch})`);
    }
    if (before && (before.node !== holder.node || before.epoch !== holder.epoch)) this.options.log.info(`arena: the pairing node is ${holder.node} (epoch ${holder.epoch}), was ${before.node} (epoch ${before.epoch})`);
    for (const entry of this.doors.values()) {
      if (entry.at && !same(entry.at, holder)) this.forgetGames(entry, `not rated here: the arena's pairing node changed during the game (${entry.at.node} to ${holder.node})`);
      if (entry.left) {
        if (entry.playing.size === 0) this.doors.delete(entry.key);
        continue;
      }
      // Queued again with the new holder (and again at each renewal until it says yes).
      if (entry.backlog === null && !entry.asked && !(entry.at && same(entry.at, holder))) void this.send(entry, holder).then((answer) => {
        if (answer.error !== null) this.options.log.warn(`arena: ${entry.request.name} could not queue again with node ${holder.node}: ${answer.error}`);
      });
    }
  }

  private stopPairing(why: string): void {
    const relay = this.relay;
    if (!relay) return;
    this.relay = null;
    this.options.log.info(`arena: this node stops pairing (${why}); its games in progress are played to the end`);
    const done = relay.close().finally(() => this.stopping.delete(done));
    this.stopping.add(done);
  }

  /** Sends the entry to `holder` and waits for its answer (ARENA_ANSWER_MS at most). */
  private async send(entry: DoorEntry, holder: LeaseHolder): Promise<{ error: string | null; args: Readonly<Record<string, string>> | null; seats: number; retry: boolean }> {
    entry.asked = holder;
    entry.at = null;
    const now = this.options.clock.now();
    const carried = { waitedMs: entry.freeSince.map((since) => now - since), lastMet: entry.lastMet };
    const answer = await this.ask(entry.key, () => this.options.bus.send(holder.node, { t: 'arena-enter', key: entry.key, epoch: holder.epoch, request: entry.request, carried }));
    if (entry.asked === holder) entry.asked = null;
    if (answer?.t !== 'arena-entered') return { error: `The arena's pairing node (${holder.node}) did not answer: try again`, args: null, seats: 0, retry: true };
    return { error: answer.error, args: answer.args, seats: answer.seats, retry: answer.error === PAIRING_CHANGED };
  }

  /** Sends a request and resolves with the answer of the same key, or null after ARENA_ANSWER_MS. */
  private ask(key: string, request: () => void): Promise<BridgeMessage | null> {
    return new Promise((resolve) => {
      const cancel = this.options.clock.setTimer(ARENA_ANSWER_MS, () => {
        this.answers.delete(key);
        resolve(null);
      });
      this.answers.set(key, (message) => {
        cancel();
        this.answers.delete(key);
        resolve(message);
      });
      request();
    });
  }

  private receive(from: string, message: BridgeMessage): void {
    if (this.relay?.receive(from, message)) return;
    switch (message.t) {
      case 'arena-entered': {
        const entry = this.doors.get(message.key);
        // Only the answer of the holder last asked (a late one from an earlier holder is not it).
        if (!entry?.asked || entry.asked.node !== from || entry.asked.epoch !== message.epoch) return;
        // Taken at once, not when the awaiting code resumes: a pairing may follow in the same batch.
        if (message.error === null) entry.at = entry.asked;
        this.answers.get(message.key)?.(message);
        return;
      }
      case 'arena-view':
        this.answers.get(message.key)?.(message);
        return;
      // Sent to this node while it held the lease (or before a door learnt it lost it): refused at once.
      case 'arena-enter':
        this.options.bus.send(from, { t: 'arena-entered', key: message.key, epoch: message.epoch, error: PAIRING_CHANGED, args: null, seats: 0 });
        return;
      case 'arena-look':
        this.options.bus.send(from, { t: 'arena-view', key: message.key, view: null });
        return;
      case 'arena-paired':
      case 'arena-finished':
      case 'arena-held': {
        const entry = this.doors.get(message.key);
        // Fenced: only the holder the entry is queued with, under its epoch, tells it anything.
        if (!entry?.at || entry.at.node !== from || entry.at.epoch !== message.epoch) return;
        this.tell(entry, message);
        return;
      }
      default:
        return;
    }
  }

  private tell(entry: DoorEntry, message: Extract<BridgeMessage, { t: 'arena-paired' | 'arena-finished' | 'arena-held' }>): void {
    const told = (): void => {
      if (message.t === 'arena-paired') entry.entrant.paired(message.pairing);
      else if (message.t === 'arena-finished') entry.entrant.finished(message.report);
      else entry.entrant.held(message.until, message.why);
    };
    if (message.t === 'arena-paired' && !entry.playing.has(message.pairing.id)) {
      entry.playing.set(message.pairing.id, message.pairing.players);
      // The holder seats the place that waited longest (Arena.start).
      entry.freeSince.shift();
    }
    if (message.t === 'arena-finished') {
      if (entry.playing.delete(message.report.id)) this.freePlace(entry);
      entry.lastMet = message.report.players.filter((name) => name !== entry.request.name);
      if (entry.left && entry.playing.size === 0) this.doors.delete(entry.key);
    }
    if (entry.backlog) entry.backlog.push(told);
    else told();
  }

  /** Tells the entrant that the games it plays under a holder that is gone end here unrated. */
  private forgetGames(entry: DoorEntry, reason: string): void {
    for (const [id, players] of entry.playing) {
      entry.entrant.finished({ id, players, scores: null, outcome: 'none', rating: null, reason });
      this.freePlace(entry);
    }
    entry.playing.clear();
    entry.at = null;
  }

  /** A place of the entry waits again from now (as the holder's Arena counts it when a game ends). */
  private freePlace(entry: DoorEntry): void {
    if (entry.freeSince.length < entry.request.concurrency) entry.freeSince.push(this.options.clock.now());
  }

  private leave(entry: DoorEntry): void {
    if (entry.left) return;
    entry.left = true;
    const at = entry.at ?? entry.asked;
    if (at) this.options.bus.send(at.node, { t: 'arena-leave', key: entry.key, epoch: at.epoch });
    if (entry.playing.size === 0) this.doors.delete(entry.key);
  }
}

function same(a: LeaseHolder, b: LeaseHolder): boolean {
  return a.node === b.node && a.epoch === b.epoch;
}
