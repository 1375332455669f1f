/**
 * The arena: programs queue for rated games of one game and are paired by rating (pairing.ts);
 * each pairing is an ordinary match of the lobby (listed, spectatable, recorded), whose seats are
 * reserved for the paired names and whose password only they are told; each result is rated in
 * the arena store (arena-store.ts) and told to the entrants.
 *
 * Nothing an entrant sends reaches the pairing: the queue and the skills it pairs by are in
 * memory, the store is read when a name enters and written when a game ends, never while pairing.
 */
import { randomBytes } from 'node:crypto';
import type { NewMatchRequest } from '../lobby/lobby.js';
import { isValidUserName } from '../lobby/names.js';
import { SEAT_ORDER_ARG } from '../lobby/seat-order-arg.js';
import { botName, isBotName } from '../match/match.js';
import { BOT_PLAYER, displayedRating, INITIAL_SKILL, type Skill } from '../ratings/rating.js';
import type { EndedMatch } from '../tournament/server-tournament.js';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { err, ok, type Result } from '../util/result.js';
import { outcomeOf, type ArenaRating, type ArenaStore } from './arena-store.js';
import { NOTHING_CARRIED, parseCarriedEntry, type AcceptedCarry, type CarriedEntry } from './carried-entry.js';
import { pairTables, PAIRING_WINDOW, seatOrder, tableKey, type PairingWindow, type QueuedSlot } from './pairing.js';

/** The lobby origin of arena matches. */
export const ARENA_ORIGIN = 'arena';

/** The name anchors (the game's server bot) play and are rated under: the name of server bots in the ratings. */
export const ANCHOR_NAME = BOT_PLAYER;

/**
 * The name an anchor plays and is rated under: ANCHOR_NAME for the game's usual bot,
 * `ServerBot$BOT` for its named bot BOT (a `$` no user name has, so nobody can claim or enter as it).
 */
export function anchorName(bot: string | null): string {
  return bot === null ? ANCHOR_NAME : `${ANCHOR_NAME}$${bot}`;
}

/** How often the queue is paired besides each entry and each freed slot (waiting widens windows). */
export const PAIRING_INTERVAL_MS = 1_000;

/**
 * Null when `name` may be played with `token`, else the refusal text: the claimed names'
 * check (src/names, NameClaims.check), injected so the arena does not depend on how names are kept.
 */
export type CheckName = (name: string, token: string | undefined) => Promise<string | null>;

/** Where the arena's matches run: the lobby through LobbyMatchHost, or a test's stand-in. */
export interface ArenaMatchHost {
  create(request: NewMatchRequest, origin: string): Result<string>;
  /** Resolves once the match has ended and been recorded; null when it was never played (removed before it started). */
  ended(id: string): Promise<EndedMatch | null>;
  abort(id: string, reason: string): void;
  /** Whether the match is running (all seats joined). */
  running(id: string): boolean;
  /** The names that have joined the match while it waits. */
  joined(id: string): readonly string[];
}

/** What the arena of one game plays. */
export interface ArenaGameSettings {
  readonly game: string;
  /** Seats of each match. */
  readonly seats: number;
  /** Game arguments every arena match of the game has (time control, rounds...). */
  readonly args: Readonly<Record<string, string>>;
  /** Seconds of player inactivity, or null for the game's default. */
  readonly timeout: number | null;
  /** Games each anchor plays at once; 0: no anchor. */
  readonly anchorGames: number;
  /** The anchors: each a named bot of the game (GameDefinition.botChoices) or null for its usual bot; [null] when absent. */
  readonly anchorBots?: readonly (string | null)[];
}

/** The arena's limits (server-limits.ts names them `arena-*`). */
export interface ArenaLimits {
  /** Entries queued on the server at once. */
  readonly entries: number;
  /** Games one name plays at once, over all its entries. */
  readonly perName: number;
  /** Entries from one address at once. */
  readonly perAddress: number;
  /** Seconds a paired entrant has to take its seat. */
  readonly joinSeconds: number;
  /** Failures in a row (no show, crash, disconnect, timeout) before a name is held out. */
  readonly failures: number;
  /** Seconds a name that kept failing is held out. */
  readonly holdSeconds: number;
  /** Longest wait an entry queued again at a cluster's takeover may bring with it (carried-entry.ts). */
  readonly carriedWaitSeconds: number;
}

/** A pairing, as told to each entrant in it. */
export interface ArenaPairing {
  readonly id: string;
  readonly password: string;
  /** Names in seat order. */
  readonly players: readonly string[];
}

/** A finished game, as told to each entrant in it. */
export interface ArenaReport {
  readonly id: string;
  readonly players: readonly string[];
  readonly scores: readonly number[] | null;
  readonly outcome: 'win' | 'draw' | 'loss' | 'none';
  /** The entrant's displayed arena rating after it, or null when the game rated nobody. */
  readonly rating: number | null;
  readonly reason: string;
}

/** The front door's side of an entry (coco-connection.ts sends these as coco messages). */
export interface ArenaEntrant {
  paired(pairing: ArenaPairing): void;
  finished(report: ArenaReport): void;
  /** The name is held out until `until` (Unix ms) for `why`; its entry stays. */
  held(until: number, why: string): void;
}

export interface ArenaEntryRequest {
  readonly game: string;
  readonly name: string;
  readonly token?: string | undefined;
  /** Games at once (1 by default). */
  readonly concurrency: number;
  /** The per-address key of the entrant (address-limits.ts). */
  readonly address: string;
}

/** An entry in the queue; `leave` takes it out (its games in progress are played to the end). */
export interface ArenaTicket {
  readonly game: string;
  readonly name: string;
  readonly args: Readonly<Record<string, string>>;
  readonly seats: number;
  leave(): void;
}

/** The arena of a game as the API and the page show it. */
export interface ArenaView {
  readonly game: string;
  readonly seats: number;
  readonly args: Readonly<Record<string, string>>;
  readonly queue: readonly { readonly name: string; readonly rating: number; readonly waitingSince: number | null; readonly playing: number; readonly concurrency: number; readonly heldUntil: number | null; readonly anchor: boolean }[];
  readonly live: readonly { readonly id: string; readonly players: readonly string[]; readonly rating: number; readonly startedAt: number }[];
}

interface Entry {
  readonly key: number;
  readonly game: string;
  readonly name: string;
  readonly concurrency: number;
  readonly address: string | null;
  readonly entrant: ArenaEntrant | null;
  readonly anchor: boolean;
  /** An anchor's named bot, or null for the game's usual one (and for every entrant). */
  readonly bot: string | null;
  /** Matches it plays now. */
  readonly playing: Set<string>;
  /** Since when each free slot waits (oldest first). */
  readonly freeSince: number[];
  /** The names it met in its last game (a rematch waits, pairing.ts). */
  lastMet: readonly string[];
  left: boolean;
}

interface NameState {
  failures: number;
  heldUntil: number;
}

interface LiveGame {
  readonly id: string;
  readonly game: string;
  readonly players: readonly string[];
  readonly entries: readonly (Entry | null)[];
  readonly startedAt: number;
  cancelJoinTimer: (() => void) | null;
  /** The names that had not taken their seats at the join deadline. */
  noShows: ReadonlySet<string>;
}

export interface ArenaOptions {
  readonly host: ArenaMatchHost;
  readonly store: ArenaStore;
  readonly clock: Clock;
  readonly log: Log;
  readonly checkName: CheckName;
  /** The arena's games: every game the server has, each with its settings. */
  readonly games: readonly ArenaGameSettings[];
  readonly limits: ArenaLimits;
  readonly window?: PairingWindow;
  /** Passwords of arena matches; random by default. */
  readonly passwords?: () => string;
}

/** What the front doors use: the Arena of a single server, or a ClusterArena (src/cluster/cluster-arena.ts). */
export interface ArenaService {
  enter(request: ArenaEntryRequest, entrant: ArenaEntrant): Promise<Result<ArenaTicket>>;
  /** The queue and live games of `game`; null when it has no arena; rejects when they cannot be read now. */
  view(game: string): ArenaView | null | Promise<ArenaView | null>;
  gameNames(): string[];
}

/** Why a paired entrant's seat counts as a failure: it never came, or its seat was closed early. */
const NO_SHOW = 'did not take its seat in time';

export class Arena {
  private readonly games: ReadonlyMap<string, ArenaGameSettings>;
  private readonly entries = new Set<Entry>();
  private readonly live = new Map<string, LiveGame>();
  private readonly skills = new Map<string, Map<string, Skill>>();
  private readonly names = new Map<string, NameState>();
  /** Games played so far by each set of names, for alternating seats. */
  private readonly meetings = new Map<string, number>();
  private nextKey = 0;
  private stopTicking: (() => void) | null = null;
  private pairingScheduled = false;
  private closed = false;
  private readonly finishing = new Set<Promise<void>>();

  constructor(private readonly options: ArenaOptions) {
    this.games = new Map(options.games.map((settings) => [settings.game, settings]));
    for (const settings of options.games) {
      if (settings.anchorGames === 0) continue;
      for (const bot of settings.anchorBots ?? [null]) {
        // Its rating is read as an entrant's is; until then it pairs as a newcomer.
        void this.loadSkill(settings.game, anchorName(bot)).catch((error: unknown) => options.log.warn(`arena ${settings.game}: the rating of anchor ${anchorName(bot)} could not be read: ${String(error)}`));
        this.addEntry(settings.game, anchorName(bot), settings.anchorGames, null, null, true, bot);
      }
    }
    this.tick();
  }

  /** The games that have an arena. */
  gameNames(): string[] {
    return [...this.games.keys()].sort();
  }

  /**
   * Queues a program; the refusal text when it may not. `carried`: what a cluster's door says the
   * entry waited and met under the previous pairing node (carried-entry.ts), believed only within
   * this arena's own limits.
   */
  async enter(request: ArenaEntryRequest, entrant: ArenaEntrant, carried?: CarriedEntry): Promise<Result<ArenaTicket>> {
    const settings = this.games.get(request.game);
    if (!settings) return err(`Game "${request.game}" has no arena on this server`);
    if (!isValidUserName(request.name) || isBotName(request.name) || request.name === ANCHOR_NAME) return err(`"${request.name}" is not a valid username`);
    const { limits } = this.options;
    if (!(Number.isInteger(request.concurrency) && request.concurrency >= 1)) return err('concurrency must be a whole number of at least 1');
    const refusal = await this.options.checkName(request.name, request.token);
    if (refusal !== null) return err(refusal);
    // Counted after the (asynchronous) check, so that entries checked at once cannot pass together.
    if (this.closed) return err('The arena is closed (server shutdown)');
    const mine = [...this.entries].filter((entry) => !entry.anchor);
    if (mine.length >= limits.entries) return err(`The arena is full: at most ${limits.entries} entries (arena-entries)`);
    if (mine.filter((entry) => entry.address === request.address).length >= limits.perAddress) return err(`Too many arena entries from your address: at most ${limits.perAddress} (arena-entries-per-address)`);
    const ofName = mine.filter((entry) => entry.name === request.name).reduce((sum, entry) => sum + entry.concurrency, 0);
    if (ofName + request.concurrency > limits.perName) return err(`Too many games at once for "${request.name}": at most ${limits.perName} over all its entries (arena-games-per-name)`);
    await this.loadSkill(request.game, request.name);
    await this.loadStanding(request.game, request.name);
    if (this.closed) return err('The arena is closed (server shutdown)');
    const carry = carried === undefined ? NOTHING_CARRIED : parseCarriedEntry(carried, { places: request.concurrency, seats: settings.seats, name: request.name, maxWaitMs: limits.carriedWaitSeconds * 1000 });
    const entry = this.addEntry(request.game, request.name, request.concurrency, request.address, entrant, false, null, carry);
    this.options.log.info(`arena ${request.game}: ${request.name} entered (${request.concurrency} at once)`);
    const held = this.names.get(this.nameKey(request.game, request.name));
    if (held && held.heldUntil > this.options.clock.now()) queueMicrotask(() => entrant.held(held.heldUntil, 'it kept failing'));
    return ok({
      game: settings.game,
      name: request.name,
      args: settings.args,
      seats: settings.seats,
      leave: () => this.leave(entry),
    });
  }

  view(game: string): ArenaView | null {
    const settings = this.games.get(game);
    if (!settings) return null;
    const now = this.options.clock.now();
    const queue = [...this.entries]
      .filter((entry) => entry.game === game)
      .map((entry) => {
        const held = this.names.get(this.nameKey(game, entry.name))?.heldUntil ?? 0;
        return {
          name: entry.name,
          rating: this.ratingOf(game, entry.name),
          waitingSince: entry.freeSince[0] ?? null,
          playing: entry.playing.size,
          concurrency: entry.concurrency,
          heldUntil: held > now ? held : null,
          anchor: entry.anchor,
        };
      });
    const live = [...this.live.values()]
      .filter((match) => match.game === game)
      .map((match) => ({ id: match.id, players: match.players, rating: Math.max(...match.players.map((p) => this.ratingOf(game, p))), startedAt: match.startedAt }))
      .sort((a, b) => b.rating - a.rating || a.startedAt - b.startedAt);
    return { game, seats: settings.seats, args: settings.args, queue, live };
  }

  /** Stops pairing; the games in progress end with the lobby's shutdown and are still rated. Resolves when they are. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopTicking?.();
    this.stopTicking = null;
    for (const entry of this.entries) entry.left = true;
    this.entries.clear();
    while (this.finishing.size > 0) await Promise.all([...this.finishing]);
  }

  private addEntry(game: string, name: string, concurrency: number, address: string | null, entrant: ArenaEntrant | null, anchor: boolean, bot: string | null = null, carried: AcceptedCarry = NOTHING_CARRIED): Entry {
    const now = this.options.clock.now();
    // Oldest first, as freed places are pushed: the carried waits (longest first), then places new now.
    const freeSince = Array.from({ length: concurrency }, (_, i) => now - (carried.waitedMs[i] ?? 0));
    const entry: Entry = { key: this.nextKey++, game, name, concurrency, address, entrant, anchor, bot, playing: new Set(), freeSince, lastMet: carried.lastMet, left: false };
    this.entries.add(entry);
    this.schedulePairing();
    return entry;
  }

  private leave(entry: Entry): void {
    if (entry.left) return;
    entry.left = true;
    this.entries.delete(entry);
    this.options.log.info(`arena ${entry.game}: ${entry.name} left the queue (${entry.playing.size} games in progress go on)`);
  }

  private nameKey(game: string, name: string): string {
    return `${game}\n${name}`;
  }

  private async loadSkill(game: string, name: string): Promise<void> {
    const known = await this.options.store.skills(game, [name]);
    this.setSkill(game, name, known.get(name) ?? INITIAL_SKILL);
  }

  /**
   * What the store keeps of a name besides its rating (failures, hold, meetings), merged into
   * memory where memory knows less: a restarted server, or a cluster's next pairing node, goes on
   * from it. A store that cannot be read costs these counts, not the entry.
   */
  private async loadStanding(game: string, name: string): Promise<void> {
    let standing;
    try {
      standing = await this.options.store.standing(game, name);
    } catch (error) {
      this.options.log.warn(`arena ${game}: the failures and meetings of ${name} could not be read: ${String(error)}`);
      return;
    }
    const key = this.nameKey(game, name);
    if (!this.names.has(key) && (standing.failures > 0 || standing.heldUntil > this.options.clock.now())) this.names.set(key, { failures: standing.failures, heldUntil: standing.heldUntil });
    for (const [table, games] of standing.meetings) {
      const meeting = this.meetingKey(game, table);
      this.meetings.set(meeting, Math.max(this.meetings.get(meeting) ?? 0, games));
    }
  }

  private meetingKey(game: string, table: string): string {
    return `${game}\n${table}`;
  }

  /** Written after the fact: pairing never waits for the store. */
  private keep(what: string, write: Promise<void>): void {
    write.catch((error: unknown) => this.options.log.warn(`arena: ${what} could not be kept: ${String(error)}`));
  }

  private setSkill(game: string, name: string, skill: Skill): void {
    let skills = this.skills.get(game);
    if (!skills) this.skills.set(game, (skills = new Map()));
    skills.set(name, skill);
  }

  private skillOf(game: string, name: string): Skill {
    return this.skills.get(game)?.get(name) ?? INITIAL_SKILL;
  }

  private ratingOf(game: string, name: string): number {
    return displayedRating(this.skillOf(game, name));
  }

  private tick(): void {
    if (this.closed) return;
    this.stopTicking = this.options.clock.setTimer(
      PAIRING_INTERVAL_MS,
      () => {
        this.pair();
        this.tick();
      },
      { weak: true },
    );
  }

  /**
   * Pairs once the current I/O is done (setImmediate, not a microtask): the front door has answered
   * the entry by then, so a pairing never overtakes its answer, and entries and freed slots that
   * come together are paired together.
   */
  private schedulePairing(): void {
    if (this.pairingScheduled) return;
    this.pairingScheduled = true;
    setImmediate(() => {
      this.pairingScheduled = false;
      this.pair();
    });
  }

  private pair(): void {
    if (this.closed) return;
    const now = this.options.clock.now();
    for (const settings of this.games.values()) {
      const slots = new Map<string, { entry: Entry }>();
      const queue: QueuedSlot[] = [];
      for (const entry of this.entries) {
        if (entry.game !== settings.game) continue;
        if ((this.names.get(this.nameKey(entry.game, entry.name))?.heldUntil ?? 0) > now) continue;
        entry.freeSince.forEach((since, i) => {
          const key = `${entry.key}:${i}`;
          slots.set(key, { entry });
          queue.push({ key, name: entry.name, mu: this.skillOf(settings.game, entry.name).mu, since, anchor: entry.anchor, lastMet: entry.lastMet });
        });
      }
      if (queue.length < settings.seats) continue;
      for (const table of pairTables(queue, settings.seats, now, this.options.window ?? PAIRING_WINDOW)) {
        this.start(settings, table.map((key) => slots.get(key)!.entry));
      }
    }
  }

  /** Creates the match of one table: seats in alternating order, reserved for its names, anchors as server bots. */
  private start(settings: ArenaGameSettings, table: readonly Entry[]): void {
    const meetingKey = this.meetingKey(settings.game, tableKey(table.map((entry) => entry.name)));
    const before = this.meetings.get(meetingKey) ?? 0;
    const order = seatOrder(table.map((entry) => entry.name), before);
    const seated = order.map((name) => table.find((entry) => entry.name === name)!);
    let bots = 0;
    const seatNames = seated.map((entry) => (entry.anchor ? botName(bots++) : entry.name));
    const botChoices = seated.filter((entry) => entry.anchor).map((entry) => entry.bot);
    const password = this.options.passwords?.() ?? randomBytes(12).toString('base64url');
    const created = this.options.host.create(
      {
        name: `arena ${settings.game}`.slice(0, 24),
        game: settings.game,
        params: { players: settings.seats, bots, timeout: settings.timeout },
        args: { ...settings.args, [SEAT_ORDER_ARG]: seatNames.join(' ') },
        password,
        verification: null,
        reservedSeats: true,
        ...(botChoices.some((bot) => bot !== null) && { botChoices }),
      },
      ARENA_ORIGIN,
    );
    if (!created.ok) {
      // The server is full, or the game refuses the arena's settings: the entries stay queued.
      this.options.log.warn(`arena ${settings.game}: no match for ${order.join(', ')}: ${created.error}`);
      return;
    }
    const id = created.value;
    this.meetings.set(meetingKey, before + 1);
    this.keep(`the meeting of ${order.join(', ')}`, this.options.store.countMeeting(settings.game, order));
    for (const entry of seated) {
      entry.freeSince.shift();
      entry.playing.add(id);
    }
    const players = seated.map((entry) => entry.name);
    const game: LiveGame = { id, game: settings.game, players, entries: seated, startedAt: this.options.clock.now(), cancelJoinTimer: null, noShows: new Set() };
    this.live.set(id, game);
    game.cancelJoinTimer = this.options.clock.setTimer(this.options.limits.joinSeconds * 1000, () => {
      game.cancelJoinTimer = null;
      if (this.options.host.running(id)) return;
      const joined = this.options.host.joined(id);
      game.noShows = new Set(players.filter((name, seat) => !seated[seat]!.anchor && !joined.includes(name)));
      this.options.host.abort(id, `${[...game.noShows].join(', ')} ${NO_SHOW}`);
    });
    this.options.log.info(`arena ${settings.game}: match ${id}: ${players.join(' vs ')}`);
    for (const entry of seated) entry.entrant?.paired({ id, password, players });
    const done = this.finish(game).finally(() => this.finishing.delete(done));
    this.finishing.add(done);
  }

  /** Waits for the match's end, rates it, tells its entrants, and frees their slots. */
  private async finish(game: LiveGame): Promise<void> {
    let ended: EndedMatch | null = null;
    try {
      ended = await this.options.host.ended(game.id);
    } catch (error) {
      this.options.log.error(`arena: the result of match ${game.id} could not be read: ${String(error)}`);
    }
    game.cancelJoinTimer?.();
    const standings = ended?.scores && ended.scores.length === game.players.length && ended.scores.every(Number.isFinite) ? game.players.map((player, i) => ({ player, score: ended!.scores![i]! })) : null;
    let after: ArenaRating[] | null = null;
    if (standings) {
      try {
        after = await this.options.store.record({ matchId: game.id, game: game.game, endedAt: this.options.clock.now(), standings });
        for (const row of after) this.setSkill(game.game, row.player, { mu: row.mu, sigma: row.sigma });
      } catch (error) {
        this.options.log.error(`arena: match ${game.id} could not be rated: ${String(error)}`);
      }
    }
    this.live.delete(game.id);
    const now = this.options.clock.now();
    game.entries.forEach((entry, seat) => {
      if (!entry) return;
      entry.playing.delete(game.id);
      const failure = ended === null ? (game.noShows.has(entry.name) ? NO_SHOW : null) : ended.closures[seat] ?? null;
      if (!entry.anchor) this.countFailure(entry, failure, now);
      entry.entrant?.finished({
        id: game.id,
        players: game.players,
        scores: ended?.scores ?? null,
        outcome: standings ? outcomeOf(standings, seat) : 'none',
        rating: after?.[seat]?.rating ?? null,
        reason: ended ? ended.reason : `not played: not every entrant took its seat within ${this.options.limits.joinSeconds} s`,
      });
      entry.lastMet = game.players.filter((name) => name !== entry.name);
      if (!entry.left) entry.freeSince.push(now);
    });
    this.schedulePairing();
  }

  /** A clean game clears a name's failures; `arena-failures` in a row hold it out for `arena-hold-seconds`. */
  private countFailure(entry: Entry, failure: string | null, now: number): void {
    const key = this.nameKey(entry.game, entry.name);
    const state = this.names.get(key) ?? { failures: 0, heldUntil: 0 };
    const kept = (): void => this.keep(`the failures of ${entry.name}`, this.options.store.saveFailures(entry.game, entry.name, state.failures, state.heldUntil));
    if (failure === null) {
      const had = state.failures > 0;
      state.failures = 0;
      if (state.heldUntil <= now) this.names.delete(key);
      if (had) kept();
      return;
    }
    state.failures++;
    this.names.set(key, state);
    if (state.failures < this.options.limits.failures) return kept();
    state.failures = 0;
    state.heldUntil = now + this.options.limits.holdSeconds * 1000;
    kept();
    this.options.log.warn(`arena ${entry.game}: ${entry.name} held out for ${this.options.limits.holdSeconds} s after ${this.options.limits.failures} failed games in a row (last: ${failure})`);
    for (const other of this.entries) {
      if (other.game === entry.game && other.name === entry.name) other.entrant?.held(state.heldUntil, `${this.options.limits.failures} failed games in a row (last: ${failure})`);
    }
  }
}
