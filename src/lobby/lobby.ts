import type { Compute } from '../match/compute.js';
import { ALL_BOTS, argsInEffect, defaultPlayers } from '../games/game-params.js';
import type { ArgSpec, GameDefinition, MatchSettings } from '../match/game.js';
import { Match, botName, isBotName, type MatchOutcome, type SeatSpec } from '../match/match.js';
import { Random, freshSeed } from '../match/random.js';
import type { Seat, SeatTransport } from '../match/seat.js';
import { SpectatorFeed } from '../match/spectator-feed.js';
import type { VisSink } from '../match/vis-feed.js';
import type { GameListEntry, MatchInfo, Request } from '../protocol/coco/messages.js';
import type { HistoryStore } from '../store/history-store.js';
import { isLeaseTakenOver } from '../store/node-lease.js';
import { systemClock, type Clock } from '../util/clock.js';
import { prefixedLog, silentLog, type Log } from '../util/log.js';
import { matchSecret, secretDigest, secretEquals, type SecretName } from '../util/secret.js';
import { err, ok, type Result } from '../util/result.js';
import { ExpiryQueue } from './expiry-queue.js';
import { matchToMakeRoom } from './make-room.js';
import { normalizeMatchId, randomMatchId } from './match-id.js';
import { isValidMatchName, isValidPassword, isValidUserName } from './names.js';
import { parseSeatOrder, SEAT_ORDER_ARG } from './seat-order-arg.js';

/** Limits of the reference server, our defaults. */
export const LOBBY_DEFAULTS = {
  maxMatches: 1000,
  maxPlayers: 100,
  minTimeout: 0.1,
  maxTimeout: 600,
  /** A waiting match is removed this long after its creation or its last join or leave. */
  expirySeconds: 600,
  /** Waiting matches one requester (a front door's peer address) may have at once. */
  maxWaitingPerOwner: 10,
  /** Waiting matches the requesters of one network (Requester.network) may have at once. */
  maxWaitingPerNetwork: 30,
  /** Spectators of one match, and visualizer subscribers of one match. */
  maxSpectators: 100,
  /** Game arguments of one GameNew. */
  maxGameArgs: 64,
} as const;

export interface LobbyOptions {
  readonly games: readonly GameDefinition<any>[];
  readonly store: HistoryStore;
  readonly compute: Compute;
  readonly verificationPassword: string;
  readonly expirySeconds?: number;
  readonly maxMatches?: number;
  readonly maxWaitingPerOwner?: number;
  readonly maxWaitingPerNetwork?: number;
  readonly maxSpectators?: number;
  readonly maxGameArgs?: number;
  readonly log?: Log;
  /** Seeds of new matches; fresh entropy by default. */
  readonly seeds?: () => string;
  /** Where time comes from (expiry, match times); the system clock by default. */
  readonly clock?: Clock;
  /** Told each time a game reads a line a player sent (for /metrics). */
  readonly onMove?: () => void;
  /** Ids of new matches; random by default (a node of a cluster: nodeMatchId, unique across nodes). */
  readonly matchIds?: () => string;
}

/** A GameNew request, plus what front doors other than coco may ask for. */
export interface NewMatchRequest extends Omit<Extract<Request, { type: 'GameNew' }>, 'type'> {
  /**
   * The players' names in seat order, for a front door that reserves seats by name (the
   * Software-Challenge `prepare`: the first slot plays first). Absent: the lineup is shuffled.
   */
  readonly seatOrder?: readonly string[];
  /**
   * A match of server bots only, for the server's own tournaments (never a coco GameNew, which
   * must leave a seat to a player): one entry per seat in seat order, each the name of one of the
   * game's bots (GameDefinition.botChoices) or null for its usual bot. `params.players` and
   * `params.bots` must both equal its length; the match starts at once, in this seat order.
   */
  readonly botLineup?: readonly (string | null)[];
  /**
   * With `botLineup`: the seats' names in seat order (a server tournament's entrants), which the
   * game speaks of ("ann wins") and the record keeps, instead of `ServerBot$0`, `ServerBot$1`...
   * Each a valid player name, no two alike.
   */
  readonly botNames?: readonly string[];
  /**
   * For a match with players: the named bot (GameDefinition.botChoices) of each server bot seat,
   * `ServerBot$0` first, or null for the game's usual bot (the arena's named anchors). Absent: the usual bot in every one.
   */
  readonly botChoices?: readonly (string | null)[];
  /**
   * Only the names of the seat order may join (the arena's matches: each seat is for one entrant,
   * and its password is shared by all of them, so the password alone does not say who is who).
   */
  readonly reservedSeats?: boolean;
}

/**
 * Who asks, for the limits that count per requester. Front doors pass their peer's address as the
 * owner and its network (address-limits.ts) as the network; the lobby never knows what the keys mean.
 */
export interface Requester {
  /** The key the waiting-match limit counts by. */
  readonly owner: string;
  /** The key the waiting-match limit per network counts by, and the full lobby makes room by. */
  readonly network?: string;
  /** Consulted before a password (master or match) is checked, and told how it went. */
  readonly passwords?: PasswordAttempts;
  /**
   * The front door's rate of new matches (game-new-per-minute): takes one, or says why not. Asked
   * only once the request is otherwise good, and not for a request with the master password.
   */
  readonly newMatch?: () => string | null;
}

/** The back-off of wrong passwords, per secret: a success on one never clears another's. */
export interface PasswordAttempts {
  /** Null when a password for `secret` may be tried now, else the error text to answer with. */
  refusal(secret: SecretName): string | null;
  failed(secret: SecretName): void;
  succeeded(secret: SecretName): void;
}

/** What the quotas of waiting matches say in a refusal: the master password lifts them (an operator setting up a class). */
export const MASTER_LIFTS = "(the server's master password lifts this)";

/**
 * What a lobby that is part of a cluster asks of it before making a match (ClusterLobby): the
 * matches of every node count against max-matches, and the other nodes' waiting matches against
 * the per-requester limits.
 */
export interface LobbyAdmission {
  /** Matches waiting or running on every node together. */
  matchCount(): number;
  /** Null when the match may be made, else the refusal; `verified` requests are exempt from the per-requester quotas. */
  check(requester: Requester | undefined, verified: boolean): string | null;
}

/**
 * Who may delete a waiting match (LobbyDeleteMatch): whoever has the master password, or its
 * maker, known by its Requester.owner (a front door's peer address). The owner is what the
 * waiting-match limit counts by, so a client whose matches fill its quota can always free it.
 */
export type DeleteRight = { readonly master: true } | { readonly owner: string | null };

export const MASTER_DELETES: DeleteRight = { master: true };

/** The refusal to delete a match someone else made. */
export function notYours(id: string): string {
  return `Game "${id}" was made from another address: only its maker or the server's master password may delete it`;
}

/** The match ended early because the server is stopping (recorded as its reason). */
export const SHUTDOWN_REASON = 'server shutdown';

/**
 * How long a match that starts waits for its start gate (Lobby.gateStarts: a cluster's directory
 * taking the running match) before its players are told anyway: a directory that does not answer
 * must not hold a match up for longer.
 */
export const START_GATE_MS = 2000;

/** The refusal of a new match (or a seat in one) once the server has begun to stop. */
export const SERVER_STOPPING = 'The server is stopping: no new matches here (connect again: another server of the cluster takes you)';

/** Someone following the whole lobby (LobbySubscribe). */
export interface LobbyListener {
  created(info: MatchInfo): void;
  updated(info: MatchInfo): void;
  deleted(id: string): void;
}

/**
 * What a front door holds of a player's seat once the match runs: the seat itself when the match
 * is on this node, or its bridge to the node that runs it (src/cluster/bridges.ts).
 */
export interface PlayerSeat {
  readonly name: string;
  /** Connects the player's transport; what the game wrote so far is sent first. */
  attach(transport: SeatTransport): void;
  /** Bytes from the player. */
  receive(chunk: Uint8Array): void;
  /** The player's input ended (it disconnected). */
  receiveEnd(): void;
  /**
   * True for a seat in a match another node runs (bridged over the cluster's bus): its match goes
   * on there whatever happens to this node.
   */
  readonly remote?: boolean;
}

/** A player who joined a waiting match. */
export interface MatchMember {
  /** The match changed while waiting or running (LobbyUpdate). */
  updated(info: MatchInfo): void;
  /** The waiting match expired before it started. */
  expired(id: string): void;
  /** The match started: attach a transport to the seat (MatchStarted). */
  started(seat: PlayerSeat): void;
}

/** A spectator of one match (SpectateJoin). */
export interface MatchWatcher {
  updated(info: MatchInfo): void;
  /** The match is running: the stream so far; `data` follows with every later byte. */
  started(history: Buffer): void;
  data(bytes: Uint8Array): void;
  /** The stream is over (match ended or expired). */
  ended(): void;
}

/** A value now, or later when it comes from another node. */
export type Eventually<T> = T | Promise<T>;

/**
 * The lobby as front doors use it: this node's Lobby, or the whole cluster's (ClusterLobby) where
 * a match may live on another node and the answers about it come later.
 */
export interface LobbyPort {
  gameList(): GameListEntry[];
  gameArgs(): { name: string; args: Readonly<Record<string, ArgSpec>>; defaultPlayers: number | null }[];
  gameDescription(name: string): string | null;
  list(): MatchInfo[];
  find(id: string): MatchInfo | null;
  oldestWaiting(game: string, origin: string): MatchInfo | null;
  subscribe(listener: LobbyListener): { seed: MatchInfo[]; unsubscribe: () => void };
  /** With nodes, the id comes once every node can find the match (ClusterLobby.create). */
  create(request: NewMatchRequest, origin?: string, requester?: Requester): Eventually<Result<string>>;
  join(id: string, name: string, password: string | null, member: MatchMember, requester?: Requester): Eventually<Result<MatchInfo>>;
  leave(id: string, member: MatchMember): void;
  /** LobbyDeleteMatch (Lobby.delete): with nodes, the node that hosts the match removes it. */
  delete(id: string, verification: string | null, requester?: Requester): Eventually<Result<string>>;
  spectate(id: string, watcher: MatchWatcher): Eventually<Result<MatchInfo>>;
  unspectate(id: string, watcher: MatchWatcher): void;
  watchVis(id: string, sink: VisSink): Eventually<Result<() => void>>;
  counts(): { waiting: number; running: number };
  idle(): Promise<void>;
  /**
   * Stops this server's matches (see Lobby.shutdown) and makes no new one; then `drain` (the front
   * doors letting the players of other nodes' matches finish them) runs while the node is still a
   * member of its cluster, which it leaves after. `wait` is false when there is nothing to wait
   * for (the node cannot reach its cluster, or was declared dead): those players are told at once.
   * `reason` is the running matches' (SHUTDOWN_REASON unless the node was declared dead), given to
   * those still running `finishWithinMs` after the call (0: at once).
   */
  shutdown(drain?: (wait: boolean) => Promise<void>, reason?: string, finishWithinMs?: number): Promise<void>;
}

/** Where a match of this node came from, for the directory the other nodes read. */
export interface MatchPlacement {
  readonly origin: string;
  readonly owner: string | null;
  readonly network: string | null;
  /** Seat names in seat order, once it runs. */
  readonly seats: readonly string[] | null;
  /** Unix ms when it started, once it runs. */
  readonly startedAt: number | null;
}

interface LobbyMatch {
  readonly id: string;
  /** Which front door made the match, for doors that pair their own clients (TCP ports). */
  readonly origin: string;
  readonly name: string;
  readonly game: GameDefinition<any>;
  readonly settings: MatchSettings<unknown>;
  readonly password: string | null;
  readonly verified: boolean;
  readonly seed: string;
  readonly seatOrder: readonly string[] | null;
  /** The named bots of a match of server bots only (NewMatchRequest.botLineup), or null. */
  readonly botLineup: readonly (string | null)[] | null;
  /** The names of those bots' seats (NewMatchRequest.botNames), or null for `ServerBot$N`. */
  readonly botNames: readonly string[] | null;
  /** The named bot of each bot seat of a match with players (NewMatchRequest.botChoices), or null. */
  readonly botChoices: readonly (string | null)[] | null;
  /** Only the names of seatOrder may join (NewMatchRequest.reservedSeats). */
  readonly reservedSeats: boolean;
  /** Who made it (Requester.owner), for the waiting-match limit. */
  readonly owner: string | null;
  /** Its maker's network (Requester.network), for the limit per network and to make room fairly. */
  readonly network: string | null;
  readonly feed: SpectatorFeed;
  readonly members: Map<string, MatchMember>;
  readonly watchers: Map<MatchWatcher, () => void>;
  readonly visWatchers: Map<VisSink, () => void>;
  /** When it expires if nobody joins or leaves (wall time, for MatchInfo); the lobby's expiries queue keeps the countdown. */
  expiresAt: number;
  running: Match<unknown> | null;
  startedAt: number;
}

/**
 * The lobby: waiting and running matches, who is in them, who watches. Front doors call it;
 * it never knows their wire formats. Notifications to others are sent after the call returns,
 * so a front door can answer the request first, as the reference does.
 */
export class Lobby implements LobbyPort {
  private readonly games: ReadonlyMap<string, GameDefinition<any>>;
  private readonly matches = new Map<string, LobbyMatch>();
  private readonly listeners = new Set<LobbyListener>();
  private readonly finishing = new Set<Promise<void>>();
  /** What a match waits for before its players are told it started (gateStarts), or null. */
  private startGate: ((info: MatchInfo) => Promise<void>) | null = null;
  /** Set by shutdown(): no new match is made. */
  private stopping = false;
  private readonly options: LobbyOptions;
  private readonly expiryMs: number;
  private readonly maxMatches: number;
  private readonly maxWaitingPerOwner: number;
  private readonly maxWaitingPerNetwork: number;
  private readonly maxSpectators: number;
  private readonly maxGameArgs: number;
  private readonly verificationDigest: Buffer;
  private readonly clock: Clock;
  /** The waiting matches' expiry countdowns, all on one timer. */
  private readonly expiries: ExpiryQueue<LobbyMatch>;

  /**
   * A check of every new match beside the lobby's own, from whatever this lobby is part of (a
   * cluster: its limits count the other nodes' matches, and no match is made while the cluster
   * cannot be reached). Every front door creates through here, so each refuses in its protocol.
   */
  admitWith(admission: LobbyAdmission): void {
    this.admission = admission;
  }

  private admission: LobbyAdmission | null = null;

  constructor(options: LobbyOptions) {
    this.options = options;
    this.clock = options.clock ?? systemClock;
    this.games = new Map(options.games.map((game) => [game.name, game]));
    this.expiryMs = (options.expirySeconds ?? LOBBY_DEFAULTS.expirySeconds) * 1000;
    this.expiries = new ExpiryQueue(this.clock, this.expiryMs, (match) => this.expire(match));
    this.maxMatches = options.maxMatches ?? LOBBY_DEFAULTS.maxMatches;
    this.maxWaitingPerOwner = options.maxWaitingPerOwner ?? LOBBY_DEFAULTS.maxWaitingPerOwner;
    this.maxWaitingPerNetwork = options.maxWaitingPerNetwork ?? LOBBY_DEFAULTS.maxWaitingPerNetwork;
    this.maxSpectators = options.maxSpectators ?? LOBBY_DEFAULTS.maxSpectators;
    this.maxGameArgs = options.maxGameArgs ?? LOBBY_DEFAULTS.maxGameArgs;
    this.verificationDigest = secretDigest(options.verificationPassword);
  }

  gameList(): GameListEntry[] {
    return this.gameArgs();
  }

  /** Each game's arguments in full (GameList sends only their description and regex) and its default players (GET /api/games), by game name. */
  gameArgs(): { name: string; args: Readonly<Record<string, ArgSpec>>; defaultPlayers: number | null }[] {
    return [...this.games.values()].map((game) => ({ name: game.name, args: game.args, defaultPlayers: defaultPlayers(game) })).sort((a, b) => a.name.localeCompare(b.name));
  }

  gameDescription(name: string): string | null {
    return this.games.get(name)?.description ?? null;
  }

  list(): MatchInfo[] {
    return [...this.matches.values()].map((match) => this.info(match));
  }

  /** Looks a match up by id (any case). */
  find(id: string): MatchInfo | null {
    const match = this.lookup(id);
    return match.ok ? this.info(match.value) : null;
  }

  /** The oldest waiting match of `game` made by the front door `origin`, if any. */
  oldestWaiting(game: string, origin: string): MatchInfo | null {
    for (const match of this.matches.values()) {
      if (!match.running && match.game.name === game && match.origin === origin) return this.info(match);
    }
    return null;
  }

  subscribe(listener: LobbyListener): { seed: MatchInfo[]; unsubscribe: () => void } {
    this.listeners.add(listener);
    return { seed: this.list(), unsubscribe: () => this.listeners.delete(listener) };
  }

  /**
   * GameNew, with the reference's checks in the reference's order and its error texts; the limits
   * of our own (password back-off, argument count, the quotas per requester and per network) where
   * they fit. The quotas come last, once the request is otherwise good, and a request with the
   * master password is exempt from them.
   *
   * When the server is full and some matches wait, a requester whose network has no waiting match
   * still gets one: the oldest waiting match of the network that has the most (two or more) is
   * expired to make room (makeRoomFor).
   */
  create(request: NewMatchRequest, origin = 'coco', requester?: Requester): Result<string> {
    if (this.stopping) return err(SERVER_STOPPING);
    let victim: LobbyMatch | null = null;
    if ((this.admission?.matchCount() ?? 0) >= this.maxMatches || this.matches.size >= this.maxMatches) {
      victim = this.makeRoomFor(requester);
      if (!victim) return err('Server is at maximum capacity');
    }
    if (!isValidMatchName(request.name)) return err(`"${request.name}" is not a valid game name`);
    if (request.password !== null && !isValidPassword(request.password)) return err(`"${request.password}" is not a valid password`);
    const master = this.checkMaster(request.verification, requester);
    if (!master.ok) return master;
    const verified = master.value;
    const admitted = this.admission?.check(requester, verified);
    if (admitted) return err(admitted);
    const game = this.games.get(request.game);
    if (!game) return err('Game not found');
    const argCount = Object.keys(request.args).length;
    if (argCount > this.maxGameArgs) return err(`Too many game arguments: ${argCount} > ${this.maxGameArgs}`);
    const { [SEAT_ORDER_ARG]: seatOrderArg, ...args } = request.args;
    const configured = game.configure({ ...request.params, args });
    if (!configured.ok) return configured;
    const settings = configured.value;
    let seatOrder = request.seatOrder ?? null;
    if (seatOrderArg !== undefined) {
      const named = parseSeatOrder(seatOrderArg, settings.players);
      if (!named.ok) return named;
      seatOrder = named.value;
    }
    const botLineup = request.botLineup ?? null;
    if (botLineup) {
      if (settings.players !== botLineup.length || settings.bots !== botLineup.length) return err(`A lineup of ${botLineup.length} server bots needs as many players and bots`);
      const unknown = botLineup.find((bot) => bot !== null && !(game.botChoices ?? []).includes(bot));
      if (unknown !== undefined) return err(`Game ${game.name} has no server bot named "${unknown}"`);
      if (game.botChoices?.length === 0) return err(`Game ${game.name} has no server bots`);
      const names = request.botNames;
      if (names && (names.length !== botLineup.length || !names.every(isValidUserName) || new Set(names).size !== names.length)) {
        return err(`The names of a lineup of ${botLineup.length} server bots must be as many valid player names, no two alike`);
      }
    } else if (settings.bots >= settings.players) return err(ALL_BOTS);
    const botChoices = botLineup ? null : (request.botChoices ?? null);
    if (botChoices) {
      if (botChoices.length !== settings.bots) return err(`The bot choices of ${botChoices.length} server bots need as many bots`);
      const unknown = botChoices.find((bot) => bot !== null && !(game.botChoices ?? []).includes(bot));
      if (unknown !== undefined) return err(`Game ${game.name} has no server bot named "${unknown}"`);
    }
    if (settings.players > LOBBY_DEFAULTS.maxPlayers) return err(`Too many players: ${settings.players} > ${LOBBY_DEFAULTS.maxPlayers}`);
    if (!(settings.timeout >= LOBBY_DEFAULTS.minTimeout && settings.timeout <= LOBBY_DEFAULTS.maxTimeout)) {
      return err(`Timeout ${settings.timeout} out of allowed range [${LOBBY_DEFAULTS.minTimeout}; ${LOBBY_DEFAULTS.maxTimeout}]`);
    }
    if (requester && !verified) {
      const over = this.quotaRefusal(requester);
      if (over) return err(over);
    }
    if (victim) this.evict(victim, requester);
    const newId = this.options.matchIds ?? randomMatchId;
    let id = newId();
    while (this.matches.has(id)) id = newId();
    const match: LobbyMatch = {
      id,
      origin,
      name: request.name,
      game,
      settings,
      password: request.password,
      verified,
      seed: this.options.seeds?.() ?? freshSeed(),
      seatOrder,
      botLineup,
      botNames: (botLineup && request.botNames) ?? null,
      botChoices,
      reservedSeats: request.reservedSeats === true && seatOrder !== null,
      owner: requester?.owner ?? null,
      network: requester?.network ?? null,
      feed: new SpectatorFeed(),
      members: new Map(),
      watchers: new Map(),
      visWatchers: new Map(),
      expiresAt: 0,
      running: null,
      startedAt: 0,
    };
    this.matches.set(id, match);
    this.resetExpiry(match);
    this.options.log?.info(`match ${id} of ${game.name} created`);
    const info = this.info(match);
    this.later(() => {
      for (const listener of this.listeners) listener.created(info);
    });
    // Nobody is to join a match of bots only: it starts once its creation is announced.
    if (botLineup) this.later(() => this.start(match));
    return ok(id);
  }

  /** LobbyJoinMatch. On success the reply carries the match as it was before the join. */
  join(id: string, name: string, password: string | null, member: MatchMember, requester?: Requester): Result<MatchInfo> {
    const normal = normalizeMatchId(id);
    if (!normal.ok) return normal;
    if (!isValidUserName(name)) return err(`"${name}" is not a valid username`);
    const found = this.lookup(id);
    if (!found.ok) return found;
    const match = found.value;
    if (match.running) return err(`Game "${id}" is already running`);
    if (match.members.has(name)) return err(`Username "${name}" already taken`);
    if (match.reservedSeats && !match.seatOrder!.includes(name)) return err(`The seats of match "${id}" are reserved for ${match.seatOrder!.filter((seat) => !isBotName(seat)).join(', ')}`);
    if (match.password !== null) {
      const secret = matchSecret(match.id);
      const refusal = requester?.passwords?.refusal(secret);
      if (refusal) return err(refusal);
      if (password === null || !secretEquals(password, match.password)) {
        requester?.passwords?.failed(secret);
        return err('Wrong password');
      }
      requester?.passwords?.succeeded(secret);
    }
    const before = this.info(match);
    match.members.set(name, member);
    this.resetExpiry(match);
    this.changed(match);
    if (match.members.size + match.settings.bots === match.settings.players) this.later(() => this.start(match));
    return ok(before);
  }

  /**
   * The server's master password, when a request carries one (GameNew's `verification`,
   * LobbyDeleteMatch's): true when given and right, false when none was given, an error (after
   * the requester's password back-off) when wrong.
   */
  checkMaster(verification: string | null, requester?: Requester): Result<boolean> {
    if (verification === null) return ok(false);
    const refusal = requester?.passwords?.refusal('master');
    if (refusal) return err(refusal);
    if (!secretEquals(verification, this.verificationDigest)) {
      requester?.passwords?.failed('master');
      return err(`"${verification}" is the wrong verification password`);
    }
    requester?.passwords?.succeeded('master');
    return ok(true);
  }

  /**
   * LobbyDeleteMatch: removes a waiting match made by the requester (the same Requester.owner, the
   * key its waiting-match limit counts by), or any waiting match with the master password. Its
   * members and spectators hear it as an expiry (LobbyDelete). On success, the match's id.
   */
  delete(id: string, verification: string | null, requester?: Requester): Result<string> {
    const master = this.checkMaster(verification, requester);
    if (!master.ok) return master;
    return this.deleteWaiting(id, master.value ? MASTER_DELETES : { owner: requester?.owner ?? null });
  }

  /**
   * The removal itself, once the right to it is known: the master password's, or an owner's (for
   * a node of a cluster, the asking node checked the password and names the owner).
   */
  deleteWaiting(id: string, right: DeleteRight): Result<string> {
    const found = this.lookup(id);
    if (!found.ok) return found;
    const match = found.value;
    if (match.running) return err(`Game "${id}" is already running`);
    if (!('master' in right) && (right.owner === null || right.owner !== match.owner)) return err(notYours(id));
    this.expire(match, `deleted by ${'master' in right ? 'the master password' : 'its maker'}`);
    return ok(match.id);
  }

  /** LobbyLeaveMatch, or the connection of a waiting player closed. */
  leave(id: string, member: MatchMember): void {
    const match = this.matches.get(id);
    if (!match || match.running) return;
    for (const [name, m] of match.members) {
      if (m === member) {
        match.members.delete(name);
        this.resetExpiry(match);
        this.changed(match);
        return;
      }
    }
  }

  /** SpectateJoin: no password needed. */
  /** SpectateJoin. On success the reply carries the match as it was before this spectator came. */
  spectate(id: string, watcher: MatchWatcher): Result<MatchInfo> {
    const found = this.lookup(id);
    if (!found.ok) return found;
    const match = found.value;
    if (match.watchers.size >= this.maxSpectators) return err(`Too many spectators: at most ${this.maxSpectators} per match`);
    // As with a join, the reply shows the match as it was before: the newcomer is not yet counted
    // in it, only in the LobbyUpdate that follows (the reference's order).
    const before = this.info(match);
    match.watchers.set(watcher, () => {});
    if (match.running) this.later(() => this.startWatching(match, watcher));
    this.changed(match);
    return ok(before);
  }

  unspectate(id: string, watcher: MatchWatcher): void {
    const match = this.matches.get(id);
    const unsubscribe = match?.watchers.get(watcher);
    if (!match || !unsubscribe) return;
    unsubscribe();
    match.watchers.delete(watcher);
    this.changed(match);
  }

  /** Visualizer events of a waiting or running match, for the web page. */
  watchVis(id: string, sink: VisSink): Result<() => void> {
    const found = this.lookup(id);
    if (!found.ok) return found;
    const match = found.value;
    if (match.visWatchers.size >= this.maxSpectators) return err(`Too many visualizer subscribers: at most ${this.maxSpectators} per match`);
    match.visWatchers.set(sink, () => {});
    if (match.running) this.later(() => this.startVis(match, sink));
    return ok(() => {
      match.visWatchers.get(sink)?.();
      match.visWatchers.delete(sink);
    });
  }

  /**
   * A match that starts is first handed to `gate` (a cluster publishes it to its directory as
   * running), and its players are told it started, and it runs, once that resolves (or fails, or
   * START_GATE_MS passed): a node that dies right after telling its players then never leaves the
   * directory saying "waiting" for a match they saw start, which the node that cleans up after it
   * would drop instead of recording it as lost.
   */
  gateStarts(gate: (info: MatchInfo) => Promise<void>): void {
    this.startGate = gate;
  }

  /** Resolves when every running match has finished and been recorded. */
  async idle(): Promise<void> {
    while (this.finishing.size > 0) await Promise.all([...this.finishing]);
  }

  /**
   * Stops every match (server shutdown): no new one is made and waiting ones are removed at once;
   * running ones may go on to their end for `finishWithinMs` (a node of a cluster stopping for a
   * rolling restart: shutdown-drain-seconds), and those still running then end with `reason`
   * (SHUTDOWN_REASON, no player's fault), recorded before their players are told. Resolves when
   * all are recorded and `drain` (LobbyPort.shutdown) has run.
   */
  async shutdown(drain?: (wait: boolean) => Promise<void>, reason = SHUTDOWN_REASON, finishWithinMs = 0): Promise<void> {
    this.stopping = true;
    for (const match of [...this.matches.values()]) if (!match.running) this.expire(match);
    const running = this.counts().running;
    if (running > 0 && finishWithinMs > 0) {
      this.options.log?.info(`stopping: ${running} running matches may finish first (at most ${finishWithinMs / 1000} s)`);
      await new Promise<void>((resolve) => {
        const cancel = this.clock.setTimer(finishWithinMs, resolve);
        void this.idle().then(() => {
          cancel();
          resolve();
        });
      });
      const left = this.counts().running;
      this.options.log?.info(`stopping: ${running - left} of ${running} running matches finished${left ? `; ${left} end now (${reason})` : ''}`);
    }
    for (const match of [...this.matches.values()]) match.running?.abort(reason);
    await this.idle();
    await drain?.(true);
  }

  /**
   * Ends match `id` now, as an operator asks (a server tournament stopped): a running one stops
   * with `reason` as its record's reason (recorded before its players are told, like any end); a
   * waiting one is removed. False for an id this lobby does not have.
   */
  abort(id: string, reason: string): boolean {
    const match = this.matches.get(id);
    if (!match) return false;
    if (match.running) match.running.abort(reason);
    else this.expire(match);
    return true;
  }

  /** Where a match of this lobby came from and who sits in it, or null for an unknown id. */
  placement(id: string): MatchPlacement | null {
    const match = this.matches.get(id);
    if (!match) return null;
    return {
      origin: match.origin,
      owner: match.owner,
      network: match.network,
      seats: match.running ? match.running.seats.map((seat) => seat.name) : null,
      startedAt: match.running ? match.startedAt : null,
    };
  }

  /** Matches waiting and running, for /metrics. */
  counts(): { waiting: number; running: number } {
    let running = 0;
    for (const match of this.matches.values()) if (match.running) running++;
    return { waiting: this.matches.size - running, running };
  }

  /** Waiting matches made by `owner` (Requester.owner), for the waiting-match limit. */
  waitingOf(owner: string): number {
    let count = 0;
    for (const match of this.matches.values()) if (!match.running && match.owner === owner) count++;
    return count;
  }

  /** Waiting matches made from `network` (Requester.network), for the waiting-match limit per network. */
  waitingOfNetwork(network: string): number {
    let count = 0;
    for (const match of this.matches.values()) if (!match.running && match.network === network) count++;
    return count;
  }

  /** Null when `requester` may make one more match, else the refusal: its waiting matches, then its rate. */
  private quotaRefusal(requester: Requester): string | null {
    if (this.waitingOf(requester.owner) >= this.maxWaitingPerOwner) {
      return `Too many waiting matches: at most ${this.maxWaitingPerOwner} per address ${MASTER_LIFTS}`;
    }
    if (requester.network !== undefined && this.waitingOfNetwork(requester.network) >= this.maxWaitingPerNetwork) {
      return `Too many waiting matches from your network: at most ${this.maxWaitingPerNetwork} per network ${MASTER_LIFTS}`;
    }
    return requester.newMatch?.() ?? null;
  }

  /** The waiting match to expire so that `requester` gets one in a full lobby (make-room.ts), or null; only this node's matches are candidates. */
  private makeRoomFor(requester: Requester | undefined): LobbyMatch | null {
    return requester?.network === undefined ? null : matchToMakeRoom(this.matches.values(), requester.network);
  }

  /** Expires `victim` to make room for `requester`'s match in a full lobby; its members get LobbyDelete, as on expiry. */
  private evict(victim: LobbyMatch, requester: Requester | undefined): void {
    this.options.log?.warn(
      `lobby full: match ${victim.id} (waiting, made from network ${victim.network}) expires to make room for a match from network ${requester?.network}, which had none waiting`,
    );
    this.expire(victim);
  }

  private lookup(id: string): Result<LobbyMatch> {
    const normal = normalizeMatchId(id);
    if (!normal.ok) return normal;
    const match = this.matches.get(normal.value);
    return match ? ok(match) : err(`Game "${id}" does not exists`);
  }

  private info(match: LobbyMatch): MatchInfo {
    return {
      players: match.settings.players,
      bots: match.settings.bots,
      timeout: match.settings.timeout,
      args: match.settings.args,
      id: match.id,
      name: match.name,
      game: match.game.name,
      running: match.running !== null,
      time: Math.floor((match.running ? match.startedAt : match.expiresAt) / 1000),
      connected: [...match.members.keys()].sort(),
      spectators: match.watchers.size,
      password: match.password !== null,
      verified: match.verified,
    };
  }

  private later(task: () => void): void {
    queueMicrotask(() => {
      try {
        task();
      } catch (error) {
        this.options.log?.error(`lobby notification failed: ${error instanceof Error ? error.stack : String(error)}`);
      }
    });
  }

  /** Tells members, watchers and listeners about a change, after the current request is answered. */
  private changed(match: LobbyMatch): void {
    this.later(() => {
      if (this.matches.get(match.id) !== match) return;
      const info = this.info(match);
      for (const member of match.members.values()) member.updated(info);
      for (const watcher of match.watchers.keys()) watcher.updated(info);
      for (const listener of this.listeners) listener.updated(info);
    });
  }

  private resetExpiry(match: LobbyMatch): void {
    match.expiresAt = this.clock.now() + this.expiryMs;
    this.expiries.restart(match);
  }

  /** Removes a waiting match; `why` is for the log (an expiry, a deletion, room made, shutdown). */
  private expire(match: LobbyMatch, why = 'expired'): void {
    if (match.running || this.matches.get(match.id) !== match) return;
    this.expiries.remove(match);
    this.matches.delete(match.id);
    this.options.log?.info(`match ${match.id} ${why}`);
    for (const member of match.members.values()) member.expired(match.id);
    for (const watcher of match.watchers.keys()) watcher.ended();
    for (const sink of match.visWatchers.keys()) sink.end();
    for (const listener of this.listeners) listener.deleted(match.id);
  }

  private start(match: LobbyMatch): void {
    if (match.running || this.matches.get(match.id) !== match) return;
    if (match.members.size + match.settings.bots !== match.settings.players) return;
    this.expiries.remove(match);
    // The reference hands the game its players in no particular order; we shuffle the seats with
    // the match's seed, so who moves first is fair and a recorded match can be replayed.
    const lineup: SeatSpec[] = [
      ...[...match.members.keys()].map((name) => ({ name, isBot: false })),
      ...Array.from({ length: match.settings.bots }, (_, i) => ({ name: botName(i), isBot: true, bot: match.botChoices?.[i] ?? null })),
    ];
    const order = match.seatOrder;
    if (match.botLineup) {
      // Seat order is the request's: the tournament that asked alternates it itself.
      lineup.splice(0, lineup.length, ...match.botLineup.map((bot, i) => ({ name: match.botNames?.[i] ?? botName(i), isBot: true, bot })));
    } else if (order) {
      const rank = (seat: SeatSpec): number => (order.includes(seat.name) ? order.indexOf(seat.name) : order.length);
      lineup.sort((a, b) => rank(a) - rank(b));
    } else {
      Random.fromSeed(`${match.seed}:lineup`).shuffle(lineup);
    }
    const running = new Match({
      game: match.game,
      settings: match.settings,
      lineup,
      seed: match.seed,
      spectators: match.feed,
      compute: this.options.compute,
      clock: this.clock,
      ...(this.options.onMove && { onMove: this.options.onMove }),
      log: prefixedLog(this.options.log ?? silentLog, `match ${match.id}: `),
    });
    match.running = running;
    match.startedAt = this.clock.now();
    this.options.log?.info(`match ${match.id} of ${match.game.name} started: ${lineup.map((s) => s.name).join(', ')}`);
    const begin = (): Promise<void> => {
      for (const seat of running.seats) {
        if (!seat.isBot) match.members.get(seat.name)!.started(seat);
      }
      for (const watcher of match.watchers.keys()) this.startWatching(match, watcher);
      for (const sink of match.visWatchers.keys()) this.startVis(match, sink);
      this.changed(match);
      return running.run((outcome) => this.record(match, outcome)).then(() => this.finish(match));
    };
    const gate = this.startGate;
    const done = (gate ? this.passGate(gate, match).then(begin) : begin())
      .catch((error: unknown) => this.options.log?.error(`match ${match.id} could not finish: ${String(error)}`))
      .finally(() => this.finishing.delete(done));
    this.finishing.add(done);
  }

  /** Resolves once `gate` took the running match, failed, or START_GATE_MS passed. */
  private passGate(gate: (info: MatchInfo) => Promise<void>, match: LobbyMatch): Promise<void> {
    return new Promise<void>((resolve) => {
      const cancel = this.clock.setTimer(START_GATE_MS, () => {
        this.options.log?.warn(`match ${match.id}: the directory did not take it within ${START_GATE_MS} ms; its players are told it started anyway`);
        resolve();
      });
      const pass = (): void => {
        cancel();
        resolve();
      };
      gate(this.info(match)).then(pass, (error: unknown) => {
        this.options.log?.warn(`match ${match.id}: the directory could not take it (${String(error)}); its players are told it started anyway`);
        pass();
      });
    });
  }

  private startWatching(match: LobbyMatch, watcher: MatchWatcher): void {
    if (!match.watchers.has(watcher)) return;
    const { history, live, unsubscribe } = match.feed.subscribe({ data: (b) => watcher.data(b), end: () => watcher.ended() });
    match.watchers.set(watcher, unsubscribe);
    watcher.started(history);
    if (!live) watcher.ended();
  }

  private startVis(match: LobbyMatch, sink: VisSink): void {
    if (!match.visWatchers.has(sink) || !match.running) return;
    const running = match.running;
    // A game whose events are derived from its input starts drawing now, and the history waits for it.
    void running.drawn().then(() => {
      if (!match.visWatchers.has(sink)) return;
      const { historyJson, live, unsubscribe } = running.vis.subscribe(sink);
      match.visWatchers.set(sink, unsubscribe);
      sink.history(historyJson);
      if (!live) sink.end();
    });
  }

  /** Keeps the record of a match that ended (before its players are told). */
  private async record(match: LobbyMatch, outcome: MatchOutcome): Promise<void> {
    const { result, error, stopped } = outcome;
    this.options.log?.info(`match ${match.id} ended: ${result ? `${result.scores.join(' ')} (${result.reason})` : stopped ?? `error: ${error}`}`);
    try {
      await this.options.store.record({
        id: match.id,
        game: match.game.name,
        name: match.name,
        args: argsInEffect(match.game.args, match.settings.args),
        players: outcome.seats.map((seat) => seat.name),
        bots: match.settings.bots,
        scores: result ? [...result.scores] : null,
        reason: result?.reason ?? stopped ?? 'the game failed',
        error,
        seed: outcome.seed,
        verified: match.verified,
        startedAt: outcome.startedAt,
        endedAt: outcome.endedAt,
        spectatorStream: match.feed.history(),
        visJson: match.running?.recordVis() ?? '[]',
        artifacts: outcome.artifacts,
      });
      // Said once the history holds the match: what waits for a record (a test, an operator) waits for this.
      this.options.log?.info(`match ${match.id} recorded`);
    } catch (failure) {
      // A node whose lease was taken over: the store said so once, for all its matches.
      if (isLeaseTakenOver(failure)) return;
      this.options.log?.error(`match ${match.id} could not be recorded: ${String(failure)}`);
    }
  }

  /** The match is recorded and its players told: it leaves the lobby. */
  private finish(match: LobbyMatch): void {
    this.matches.delete(match.id);
    for (const listener of this.listeners) listener.deleted(match.id);
  }
}

