import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { MASTER_LIFTS, SHUTDOWN_REASON, type LobbyPort, type MatchMember, type MatchWatcher, type PlayerSeat, type Requester } from '../lobby/lobby.js';
import { joinedPlayers } from '../match/match.js';
import type { SeatCloseReason } from '../match/seat.js';
import { encodeHistoryMatchReply, type HistoryMatchOutcome } from '../protocol/coco/bincode.js';
import { decodeRequest, encodeReply } from '../protocol/coco/json-codec.js';
import { PROTOCOL_MAGIC, type Reply, type Request } from '../protocol/coco/messages.js';
import { HistoryUnavailableError, type HistoryStore } from '../store/history-store.js';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { normalizeMatchId } from '../lobby/match-id.js';
import type { NameDesk } from '../names/name-desk.js';
import type { ArenaEntrant, ArenaEntryRequest, ArenaTicket } from '../arena/arena.js';
import type { Result } from '../util/result.js';
import type { AddressLimits, RefusalReason } from './address-limits.js';
import { ClientMemory, clientMemoryLimits, memoryCutRefusal, type MemoryAccount, type MemoryCutReason, type MemoryHolder } from './client-memory.js';
import type { Heartbeat, HeartbeatPeer } from './heartbeat.js';
import { isRefusal, NO_REPLAY_SLOT, type ReplaySlots } from './replay-slots.js';
import { VIS_STREAM_CHUNKS, VisStream, type VisOutput } from './vis-stream.js';
import type { ServerLimits } from './server-limits.js';
import { IncomingMessageTracker, gateSocketData } from './ws-incoming-message.js';

/** Ids the reference looks up at all: letters and digits only (Rust's `char::is_alphanumeric`). */
const ALPHANUMERIC_ID = /^[\p{L}\p{N}]*$/u;

/** How one coco connection cuts what it sends (the limits on peers are in server-limits.ts). */
export const CONNECTION_CHUNKS = {
  /** Spectator history is sent in binary frames of at most this size. */
  historyChunkBytes: 1 << 20,
} as const;

/**
 * The 1001 reason for a player whose match runs on another node, when the node it is connected
 * through stops (or is declared dead) before that match ends: the match is not over, it goes on
 * there without this seat. Never the reason that ended this node's own matches ("server shutdown",
 * "node failure"): those did not end this one. coco prints it as `> match ended: cut off (...)`.
 */
export const LEFT_MATCH_ON_OTHER_NODE = 'this node stopped before your match ended: the node running it goes on without you';

/** WebSocket close codes (RFC 6455) the server closes with. */
export const CLOSE_CODES = {
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  /** The history store cannot answer now (HistoryUnavailableError): the client may try again later. */
  tryAgainLater: 1013,
} as const;

/** What a connection needs besides its socket. */
export interface ConnectionDeps {
  readonly lobby: LobbyPort;
  readonly store: HistoryStore;
  readonly log: Log;
  readonly limits: ServerLimits;
  readonly clock: Clock;
  readonly addresses: AddressLimits;
  /** The replays in flight on the server (one set shared by every connection). */
  readonly replays: ReplaySlots;
  /** Claimed names: checked before every join, and the requests about names answered (src/names/). */
  readonly names: NameDesk;
  /** Told about every request refused by a limit (for /metrics). */
  readonly refused?: (reason: RefusalReason) => void;
  /** Pings the connection when it is silent and drops it when it stops answering (the server's one heartbeat). */
  readonly heartbeat?: Heartbeat;
  /** Told once when the connection has closed, after it left its match or subscription. */
  readonly closed?: (connection: CocoConnection) => void;
  /**
   * The server's one budget of client memory; without it the connection is counted against a
   * budget of its own (the per-connection limit alone, as in unit tests).
   */
  readonly memory?: ClientMemory;
  /** The arena (ArenaEnter); without it ArenaEnter is answered with an error. */
  readonly arena?: { enter(request: ArenaEntryRequest, entrant: ArenaEntrant): Promise<Result<ArenaTicket>> };
}

/** Where a WebSocket's shared listeners find the connection it serves (CocoConnection's constructor). */
const CONNECTION = Symbol('coco connection');
type ServedWebSocket = WebSocket & { [CONNECTION]?: CocoConnection };

type State =
  | { readonly kind: 'handshake' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'subscribed'; readonly unsubscribe: () => void }
  | { readonly kind: 'waiting'; readonly id: string; readonly member: MatchMember }
  | { readonly kind: 'playing'; readonly seat: PlayerSeat }
  | { readonly kind: 'spectating'; readonly id: string; readonly watcher: MatchWatcher }
  | { readonly kind: 'vis'; readonly stop: () => void }
  | { readonly kind: 'arena'; readonly ticket: ArenaTicket }
  | { readonly kind: 'closed' };

// The states without data are shared: ten thousand idle connections need no object each for it.
const HANDSHAKE: State = { kind: 'handshake' };
const IDLE: State = { kind: 'idle' };
const CLOSED: State = { kind: 'closed' };

/**
 * One client of the coco WebSocket protocol (notes/coco-wire-protocol.md): a state machine over
 * the requests valid in each state, as the reference server has it. A request that is invalid,
 * or not valid in the current state, closes this connection only, with a log line.
 */
export class CocoConnection implements HeartbeatPeer, MemoryHolder {
  private state: State = HANDSHAKE;
  /** The last match's seat was on another node and closed before that match ended (see inMatchElsewhere). */
  private cutOffElsewhere = false;
  private version = 2;
  /** Requests received and not yet handled; they are handled one at a time, in order. */
  private readonly requests: string[] = [];
  private handling = false;
  /** Game bytes waiting to go out in one binary frame (flushed at the end of the current turn). */
  private readonly outgoing: Buffer[] = [];
  private outgoingBytes = 0;
  /** Bytes of the requests waiting in `requests`. */
  private requestBytes = 0;
  /** The message the client is sending, as far as it came (its fragments and bytes held by ws). */
  private readonly incoming = new IncomingMessageTracker();
  /** The fragments of the message it was refused for (1008); one more and it is cut off. */
  private fragmentsTold = Number.POSITIVE_INFINITY;
  /** What this connection holds counts against the server's memory budget through this. */
  private readonly memory: MemoryAccount;
  private flushScheduled = false;
  /** Made when the connection first plays: most connections never send game bytes. */
  private flushLater: (() => void) | null = null;
  private cancelHandshakeTimer: (() => void) | null;

  constructor(
    private readonly ws: WebSocket,
    /** The TCP socket under the WebSocket: its 'drain' says when queued output has gone out. */
    private readonly socket: Socket,
    /** The per-address key of the peer (address-limits.ts). */
    private readonly address: string,
    private readonly peer: string,
    private readonly deps: ConnectionDeps,
  ) {
    this.cancelHandshakeTimer = deps.clock.setTimer(this.limits['handshake-seconds'] * 1000, () => {
      this.cancelHandshakeTimer = null;
      if (this.state.kind === 'handshake') this.abort(CLOSE_CODES.policy, `no Handshake within ${this.limits['handshake-seconds']} s`, 'handshake-timeout');
    });
    deps.heartbeat?.add(this);
    this.memory = (deps.memory ?? new ClientMemory(clientMemoryLimits(this.limits))).register(address, this);
    // Ahead of ws's own listener: a chunk that takes a message past its fragment limit never
    // reaches ws, which would first make a Buffer of every fragment in it.
    gateSocketData(socket, this);
    // Listeners shared by every connection, which find it on the WebSocket (as ws keeps its own
    // state on the socket): an idle server holds tens of thousands, and these would be closures each.
    (ws as ServedWebSocket)[CONNECTION] = this;
    ws.on('message', CocoConnection.wsMessage);
    ws.on('pong', CocoConnection.wsPong);
    ws.on('close', CocoConnection.wsClose);
    ws.on('error', CocoConnection.wsError);
  }

  private static wsMessage(this: ServedWebSocket, data: WebSocket.RawData, isBinary: boolean): void {
    const connection = this[CONNECTION]!;
    connection.deps.heartbeat?.heard(connection);
    connection.onMessage(data as Buffer | Buffer[] | ArrayBuffer, isBinary);
  }

  private static wsPong(this: ServedWebSocket): void {
    const connection = this[CONNECTION]!;
    connection.deps.heartbeat?.heard(connection);
  }

  private static wsClose(this: ServedWebSocket): void {
    this[CONNECTION]!.onClose();
  }

  private static wsError(this: ServedWebSocket, error: Error): void {
    const connection = this[CONNECTION]!;
    connection.log.warn(`${connection.peer}: connection error: ${error.message}`);
  }

  /** Whether the connection has closed (a method: the compiler takes a field's narrowing across an await). */
  private isClosed(): boolean {
    return this.state.kind === 'closed';
  }

  private get lobby(): LobbyPort {
    return this.deps.lobby;
  }

  private get store(): HistoryStore {
    return this.deps.store;
  }

  private get log(): Log {
    return this.deps.log;
  }

  private get limits(): ServerLimits {
    return this.deps.limits;
  }

  /**
   * Who asks, for the lobby's per-address and per-network limits; made per request that needs it,
   * not kept. The back-off counts per secret (the master password, each match's password).
   * `rateRefused` is told when the rate of new matches refused one.
   */
  private requester(rateRefused?: () => void): Requester {
    const { addresses } = this.deps;
    const address = this.address;
    return {
      owner: address,
      network: addresses.network(address),
      passwords: {
        refusal: (secret) => {
          const wait = addresses.passwordWait(address, secret);
          if (wait === 0) return null;
          this.refused('password-backoff');
          return `Too many wrong passwords from your address: try again in ${wait} s`;
        },
        failed: (secret) => addresses.passwordFailed(address, secret),
        succeeded: (secret) => addresses.passwordSucceeded(address, secret),
      },
      newMatch: () => {
        const empty = addresses.takeGameNew(address);
        if (empty === null) return null;
        this.refused(empty);
        rateRefused?.();
        return empty === 'game-new-per-minute'
          ? `Too many new matches: at most ${this.limits['game-new-per-minute']} a minute per address ${MASTER_LIFTS}`
          : `Too many new matches from your network: at most ${this.limits['game-new-per-minute-per-network']} a minute per network ${MASTER_LIFTS}`;
      },
    };
  }

  /** HeartbeatPeer: the connection was silent for a heartbeat period. */
  ping(): void {
    this.ws.ping();
  }

  /** HeartbeatPeer: no pong came within a period of the ping. */
  dead(): void {
    this.log.warn(`${this.peer}: dropping connection: no pong within ${this.limits['heartbeat-seconds']} s`);
    this.refused('heartbeat');
    this.ws.terminate();
  }

  /** MemoryHolder: unsent output (ws's and the socket's), game bytes not yet flushed, requests waiting, the message being received. */
  heldBytes(): number {
    return this.ws.bufferedAmount + this.outgoingBytes + this.requestBytes + this.incoming.heldBytes;
  }

  /** MemoryHolder: past a memory budget the client is dropped at once (a close frame would only queue behind the rest). */
  cut(why: MemoryCutReason): void {
    const held = this.heldBytes();
    const budget =
      why === 'client-memory-per-connection' ? `more than ${this.limits['outbound-max-bytes']} bytes held for it (the client does not read, or sends a message it does not finish)`
      : why === 'client-memory-per-address' ? `its address holds more than ${this.limits['client-memory-per-address']} bytes and this connection the most (${held})`
      : `the server holds more than ${this.limits['client-memory-server']} bytes for clients and this connection among the most (${held})`;
    this.log.warn(`${this.peer}: dropping connection: ${budget}`);
    this.refused(memoryCutRefusal(why));
    this.leaveState();
    this.ws.terminate();
  }

  /**
   * Raw bytes from the client, before ws reads them; false keeps a chunk from ws. What its
   * unfinished message holds is charged, and a message in too many fragments is refused with 1008
   * (the chunk that passed the limit is not read). A client told so that still sends more fragments
   * of it is cut off at once; a chunk without new fragments (its close frame) is read.
   */
  admitChunk(chunk: Buffer): boolean {
    const before = this.incoming.fragments;
    const fragments = this.incoming.feed(chunk);
    const limit = this.limits['ws-message-fragments'];
    if (fragments <= limit) return this.memory.charge();
    if (this.fragmentsTold !== Number.POSITIVE_INFINITY) {
      if (fragments <= before) return true;
      this.ws.terminate();
      return false;
    }
    this.fragmentsTold = fragments;
    this.abort(CLOSE_CODES.policy, `a message in more than ${limit} fragments`, 'ws-message-fragments');
    return false;
  }

  /**
   * The server is stopping: say so with 1001 (its matches were ended and recorded first). `why`
   * replaces "server shutdown" where it would not be the truth (a match on another node goes on).
   */
  goAway(why = SHUTDOWN_REASON): void {
    const elsewhere = this.inMatchElsewhere();
    this.leaveState();
    this.ws.close(CLOSE_CODES.goingAway, closeReason(elsewhere ? LEFT_MATCH_ON_OTHER_NODE : why));
  }

  /**
   * In a match another node runs, or cut off from one (its seat closed before the match ended,
   * as the node that runs it does when this node is declared dead): this node's stop does not
   * end that match, so goAway() says so rather than the reason that ended this node's own.
   */
  private inMatchElsewhere(): boolean {
    return (this.state.kind === 'playing' && this.state.seat.remote === true) || this.cutOffElsewhere;
  }

  /** In a match (its seat open): a stopping node lets such a player finish (CocoServer.drain). */
  isPlaying(): boolean {
    return this.state.kind === 'playing';
  }

  private onMessage(data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean): void {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (isBinary) {
      if (this.state.kind === 'playing') this.state.seat.receive(bytes);
      return;
    }
    if (this.state.kind === 'playing' || this.state.kind === 'closed') return; // text frames from a playing client are ignored
    const limit = this.limits['control-frame-bytes'];
    if (bytes.length > limit) return this.abort(CLOSE_CODES.tooBig, `a request of ${bytes.length} bytes (at most ${limit})`, 'control-frame-bytes');
    if (this.requests.length >= this.limits['pending-requests']) {
      return this.abort(CLOSE_CODES.policy, `more than ${this.limits['pending-requests']} requests waiting for an answer`, 'pending-requests');
    }
    const text = bytes.toString('utf8');
    this.requests.push(text);
    this.requestBytes += text.length;
    void this.handleRequests();
  }

  /**
   * Handles the waiting requests in order. While the client has not read what was sent to it
   * (past the high-water mark), nothing more is read from it: a client that stops reading stops
   * being read, and its requests cannot pile up replies in memory.
   */
  private async handleRequests(): Promise<void> {
    if (this.handling) return;
    this.handling = true;
    try {
      while (this.requests.length > 0 && this.state.kind !== 'closed') {
        if (this.ws.bufferedAmount > this.limits['outbound-high-water-bytes']) {
          await this.drained();
          continue;
        }
        const request = this.requests.shift()!;
        this.requestBytes -= request.length;
        await this.handle(request);
        // One request at a time per turn of the event loop: a client that sends many expensive
        // requests at once (a full LobbyList each) cannot hold up every other connection and match.
        if (this.requests.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      if (error instanceof HistoryUnavailableError) {
        // Not a bug: the history's database is down. abort() logs the reason as a warning.
        this.abort(CLOSE_CODES.tryAgainLater, 'history unavailable, try again later');
        return;
      }
      this.log.error(`${this.peer}: internal error: ${error instanceof Error ? error.stack : String(error)}`);
      this.abort(CLOSE_CODES.internal, 'internal error');
    } finally {
      this.handling = false;
      // An emptied array keeps the room it grew to; setting its length to 0 gives that back, which
      // across ten thousand idle connections is over a megabyte.
      if (this.requests.length === 0) this.requests.length = 0;
    }
  }

  /** Resolves when the socket has sent what was queued (or closed); reading is paused meanwhile. */
  private async drained(): Promise<void> {
    this.ws.pause();
    await this.socketDrainedOrClosed();
    if (this.state.kind !== 'closed') this.ws.resume();
  }

  /** The socket's next 'drain' or its 'close', whichever comes first. */
  private socketDrainedOrClosed(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }

  private async handle(text: string): Promise<void> {
    if (this.state.kind === 'closed') return;
    const decoded = decodeRequest(text);
    if (!decoded.ok) return this.abort(CLOSE_CODES.policy, `invalid request: ${decoded.error}`, 'invalid-request');
    const request = decoded.value;
    switch (this.state.kind) {
      case 'handshake':
        return this.handshake(request);
      case 'idle':
        return this.idleRequest(request);
      case 'subscribed':
        if (request.type !== 'LobbyUnsubscribe') return this.abort(CLOSE_CODES.policy, `${request.type} is not valid while subscribed to the lobby`);
        this.state.unsubscribe();
        this.state = IDLE;
        return this.reply({ type: 'LobbyUnsubscribed' });
      case 'waiting':
        if (request.type !== 'LobbyLeaveMatch') return this.abort(CLOSE_CODES.policy, `${request.type} is not valid while waiting in a match`);
        this.lobby.leave(this.state.id, this.state.member);
        this.state = IDLE;
        return this.reply({ type: 'LobbyLeavedMatch' });
      case 'spectating':
        if (request.type !== 'SpectateLeave') return this.abort(CLOSE_CODES.policy, `${request.type} is not valid while spectating`);
        this.lobby.unspectate(this.state.id, this.state.watcher);
        this.state = IDLE;
        return this.reply({ type: 'SpectateLeaved' });
      case 'vis':
        return this.abort(CLOSE_CODES.policy, `${request.type} is not valid while receiving visualizer events`);
      case 'arena':
        if (request.type !== 'ArenaLeave') return this.abort(CLOSE_CODES.policy, `${request.type} is not valid while queued in the arena`);
        this.state.ticket.leave();
        this.state = IDLE;
        return this.reply({ type: 'ArenaLeft' });
      case 'playing':
        return;
    }
  }

  private handshake(request: Request): void {
    if (request.type !== 'Handshake') return this.abort(CLOSE_CODES.policy, 'the first message must be a Handshake', 'invalid-request');
    const supported = request.magic === PROTOCOL_MAGIC && (request.version === 1 || request.version === 2);
    this.version = supported ? request.version : 2;
    this.reply({ type: 'Handshake', magic: PROTOCOL_MAGIC, version: this.version });
    if (!supported) return this.abort(CLOSE_CODES.policy, `unsupported handshake: magic "${request.magic}", version ${request.version}`, 'invalid-request');
    this.cancelHandshakeTimer?.();
    this.cancelHandshakeTimer = null;
    this.state = IDLE;
  }

  private async idleRequest(request: Request): Promise<void> {
    switch (request.type) {
      case 'GameList':
        return this.reply({ type: 'GameList', games: this.lobby.gameList() });
      case 'GameDescription':
        return this.reply({ type: 'GameDescription', description: this.lobby.gameDescription(request.name) });
      case 'GameNew': {
        // The rate of new matches is taken by the lobby (requester().newMatch), once the request is
        // otherwise good and unless it carries the master password.
        let overRate = false;
        const answer = this.lobby.create(request, 'coco', this.requester(() => (overRate = true)));
        // As join(): a local answer at once, so that the lobby's notifications cannot overtake it.
        const created = answer instanceof Promise ? await answer : answer;
        if (!created.ok && overRate) {
          // A flood of GameNew past its rate must not flood the log: one line a minute per address.
          const count = this.deps.addresses.refusalToLog(this.address);
          if (count !== null) this.log.info(`${this.peer}: GameNew refused: ${created.error} (${count} since the last such line)`);
        } else if (!created.ok) {
          // The error may quote what the client sent as a password: it goes back to the client, not to the log.
          this.log.info(`${this.peer}: GameNew refused: ${redact(created.error, [request.password, request.verification])}`);
        }
        return this.reply({ type: 'GameNew', id: created.ok ? { Ok: created.value } : { Err: created.error } });
      }
      case 'LobbyList':
        return this.reply({ type: 'LobbyList', info: this.lobby.list() });
      case 'LobbySubscribe': {
        const { seed, unsubscribe } = this.lobby.subscribe({
          created: (info) => this.reply({ type: 'LobbyNew', info }),
          updated: (info) => this.reply({ type: 'LobbyUpdate', info }),
          deleted: (id) => this.reply({ type: 'LobbyDelete', id }),
        });
        this.state = { kind: 'subscribed', unsubscribe };
        return this.reply({ type: 'LobbySubscribed', seed });
      }
      case 'LobbyJoinMatch':
        return this.join(request.id, request.name, request.password, request.token ?? null);
      case 'LobbyDeleteMatch': {
        // Own means made from this address (Lobby.delete); the master password deletes any.
        const answer = this.lobby.delete(request.id, request.verification, this.requester());
        const deleted = answer instanceof Promise ? await answer : answer;
        if (!deleted.ok) this.log.info(`${this.peer}: LobbyDeleteMatch refused: ${redact(deleted.error, [request.verification])}`);
        return this.reply({ type: 'LobbyDeletedMatch', id: deleted.ok ? { Ok: deleted.value } : { Err: deleted.error } });
      }
      case 'SpectateJoin':
        return this.spectate(request.id);
      case 'HistoryMatchList':
        if (this.version < 2) return this.abort(CLOSE_CODES.policy, 'HistoryMatchList needs protocol version 2');
        return this.reply({ type: 'HistoryMatchList', ids: await this.store.ids() });
      case 'HistoryMatch':
        if (this.version < 2) return this.abort(CLOSE_CODES.policy, 'HistoryMatch needs protocol version 2');
        return this.historyMatch(request.id);
      case 'VisSubscribe':
        return this.visSubscribe(request.id);
      case 'NameRegister': {
        const token = await this.deps.names.register(request.name, { address: this.address, network: this.deps.addresses.network(this.address) });
        if ('Ok' in token) this.log.info(`${this.peer}: registered name "${request.name}"`);
        return this.reply({ type: 'NameRegistered', name: request.name, token });
      }
      case 'NameRotate':
        return this.reply({ type: 'NameRotated', name: request.name, token: await this.deps.names.rotate(request.name, request.token) });
      case 'NameRelease': {
        const result = await this.deps.names.release(request.name, request.verification, this.requester().passwords!);
        if ('Ok' in result) this.log.info(`${this.peer}: released name "${request.name}"`);
        return this.reply({ type: 'NameReleased', name: request.name, result });
      }
      case 'ArenaEnter':
        return this.enterArena(request);
      default:
        return this.abort(CLOSE_CODES.policy, `${request.type} is not valid now`);
    }
  }

  private async join(id: string, name: string, password: string | null, token: string | null): Promise<void> {
    // A claimed name is played only with its token (src/names/), whatever the match.
    const claimed = await this.deps.names.check(name, token);
    if (this.isClosed()) return;
    if (claimed !== null) return this.reply({ type: 'LobbyJoinedMatch', info: { Err: claimed } });
    const member: MatchMember = {
      updated: (info) => this.reply({ type: 'LobbyUpdate', info }),
      expired: (matchId) => {
        this.state = IDLE;
        this.reply({ type: 'LobbyDelete', id: matchId });
      },
      started: (seat) => this.play(seat),
    };
    const answer = this.lobby.join(id, name, password, member, this.requester());
    // A local answer is used at once, not awaited: an await would let the lobby's notifications
    // (queued as microtasks during the call) overtake the reply, which the reference sends first.
    const joined = answer instanceof Promise ? await answer : answer;
    // The connection may have closed while another node answered: the seat it got is given back.
    if (this.state.kind === 'closed') return void (joined.ok && this.lobby.leave(joined.value.id, member));
    this.reply({ type: 'LobbyJoinedMatch', info: joined.ok ? { Ok: joined.value } : { Err: joined.error } });
    if (joined.ok) this.state = { kind: 'waiting', id: joined.value.id, member };
  }

  /**
   * ArenaEnter: the connection stays in the queue until ArenaLeave or its close. Pairings and
   * results come as pushes; results of games in progress come after ArenaLeft too, while the
   * connection is open (the client waits for them before it closes).
   */
  private async enterArena(request: Extract<Request, { type: 'ArenaEnter' }>): Promise<void> {
    const arena = this.deps.arena;
    if (!arena) return this.reply({ type: 'ArenaEntered', info: { Err: 'This server has no arena' } });
    const entrant: ArenaEntrant = {
      paired: (pairing) => this.reply({ type: 'ArenaPaired', ...pairing }),
      finished: (result) => this.reply({ type: 'ArenaResult', result }),
      held: (until, reason) => this.reply({ type: 'ArenaHeld', until, reason }),
    };
    const entered = await arena.enter({ game: request.game, name: request.name, token: request.token ?? undefined, concurrency: request.concurrency, address: this.address }, entrant);
    if (this.state.kind === 'closed') return void (entered.ok && entered.value.leave());
    if (!entered.ok) {
      this.log.info(`${this.peer}: ArenaEnter refused: ${redact(entered.error, [request.token])}`);
      return this.reply({ type: 'ArenaEntered', info: { Err: entered.error } });
    }
    const ticket = entered.value;
    this.state = { kind: 'arena', ticket };
    this.reply({ type: 'ArenaEntered', info: { Ok: { game: ticket.game, name: ticket.name, args: ticket.args, players: ticket.seats } } });
  }

  private play(seat: PlayerSeat): void {
    if (this.state.kind === 'closed') {
      seat.receiveEnd();
      return;
    }
    this.state = { kind: 'playing', seat };
    this.cutOffElsewhere = false;
    this.reply({ type: 'MatchStarted' });
    seat.attach({
      send: (bytes) => this.sendGameBytes(bytes),
      close: (reason) => this.seatClosed(seat, reason),
    });
  }

  private seatClosed(seat: PlayerSeat, reason: SeatCloseReason): void {
    if (this.state.kind !== 'playing' || this.state.seat !== seat) return;
    if (reason !== 'match-over') this.log.info(`${this.peer}: player ${seat.name} left the game: ${reason}`);
    // A seat of another node's match closed before its end (that node left it, or this node lost
    // it): should this node stop before the client has read the result, the match went on there.
    this.cutOffElsewhere = seat.remote === true && reason !== 'match-over';
    this.flush();
    this.state = IDLE;
    this.reply({ type: 'MatchEnded' });
  }

  private async spectate(id: string): Promise<void> {
    let synced = false;
    const watcher: MatchWatcher = {
      updated: (info) => this.reply({ type: 'LobbyUpdate', info }),
      started: (history) => {
        this.reply({ type: 'SpectateStarted' });
        for (let offset = 0; offset < history.length; offset += CONNECTION_CHUNKS.historyChunkBytes) {
          this.sendBinary(history.subarray(offset, offset + CONNECTION_CHUNKS.historyChunkBytes));
        }
        this.reply({ type: 'SpectateSynced' });
        synced = true;
      },
      data: (bytes) => {
        if (synced) this.sendBinary(bytes);
      },
      ended: () => {
        if (this.state.kind !== 'spectating' || this.state.watcher !== watcher) return;
        this.state = IDLE;
        this.reply({ type: 'SpectateEnded' });
      },
    };
    const answer = this.lobby.spectate(id, watcher);
    const joined = answer instanceof Promise ? await answer : answer; // not awaited when local: see join
    if (this.state.kind === 'closed') return void (joined.ok && this.lobby.unspectate(joined.value.id, watcher));
    this.reply({ type: 'SpectateJoined', info: joined.ok ? { Ok: joined.value } : { Err: joined.error } });
    if (joined.ok) this.state = { kind: 'spectating', id: joined.value.id, watcher };
  }

  private async historyMatch(id: string): Promise<void> {
    // A whole recorded stream is a replay; its binary answer has no room for a refusal, so it
    // waits for a slot (this connection's further requests wait meanwhile, unread).
    const slot = await this.deps.replays.waitFor(this.address);
    try {
      await this.sendHistoryMatch(id);
    } finally {
      // Held until the client has read most of it: a client that does not read holds its slot.
      void this.drainedTo(VIS_STREAM_CHUNKS.lowWaterBytes).then(() => slot.release());
    }
  }

  private async sendHistoryMatch(id: string): Promise<void> {
    if (this.state.kind === 'closed') return;
    // As the reference: an id with a character that is not a letter or a digit is InvalidID; any
    // other id that is not one of ours (a wrong length, say) is simply not found.
    if (!ALPHANUMERIC_ID.test(id)) return this.sendBinary(encodeHistoryMatchReply({ Err: 'InvalidID' }));
    const normal = normalizeMatchId(id);
    // The summary and the stream alone: not the visualizer events and transcripts beside them.
    const outline = normal.ok ? await this.store.outline(normal.value) : null;
    const stream = outline ? await this.store.readPart(outline.id, { kind: 'stream' }) : null;
    const outcome: HistoryMatchOutcome =
      outline && stream
        ? {
            Ok: {
              id: outline.id,
              game_name: outline.game,
              args: outline.args,
              // The reference's MatchData lists the joined humans; its bots are only counted.
              players: joinedPlayers(outline.players, outline.bots),
              bot_count: outline.bots,
              history: stream,
            },
          }
        : { Err: 'FileNotFound' };
    this.sendBinary(encodeHistoryMatchReply(outcome));
  }

  private async visSubscribe(id: string): Promise<void> {
    // A finished match (or an unknown id) is a replay, and so is a running one until its events so
    // far have gone out; a waiting match has none yet.
    const waiting = this.lobby.find(id);
    const slot = waiting !== null && !waiting.running ? NO_REPLAY_SLOT : this.deps.replays.take(this.address);
    if (isRefusal(slot)) {
      this.refused(slot.reason);
      return this.reply({ type: 'VisSubscribed', info: { Err: slot.error } });
    }
    const stream = new VisStream(id, this.visOutput(), slot);
    try {
      const answer = this.lobby.watchVis(id, stream);
      const live = answer instanceof Promise ? await answer : answer;
      if (this.state.kind === 'closed') {
        stream.stop();
        return void (live.ok && live.value());
      }
      if (live.ok) {
        const unwatch = live.value;
        this.state = {
          kind: 'vis',
          stop: () => {
            stream.stop();
            unwatch();
          },
        };
        return this.reply({ type: 'VisSubscribed', info: { Ok: null } });
      }
      const normal = normalizeMatchId(id);
      const json = normal.ok ? await storedVisJson(this.store, normal.value) : null;
      if (json === null || this.isClosed()) {
        stream.stop();
        return this.reply({ type: 'VisSubscribed', info: { Err: live.error } });
      }
      this.state = { kind: 'vis', stop: () => stream.stop() };
      this.reply({ type: 'VisSubscribed', info: { Ok: null } });
      stream.history(json);
      stream.end();
    } catch (error) {
      stream.stop();
      throw error;
    }
  }

  /** The connection's side of a VisStream. */
  private visOutput(): VisOutput {
    return {
      reply: (reply) => this.reply(reply),
      sendText: (frame) => {
        if (this.state.kind === 'closed') return;
        this.flush();
        this.ws.send(frame, { binary: false });
        this.checkOutbound();
      },
      drainedTo: (bytes) => this.drainedTo(bytes),
      idle: () => {
        if (this.state.kind === 'vis') this.state = IDLE;
      },
      fail: (why) => {
        if (why === 'slow-reader') {
          this.log.warn(`${this.peer}: dropping connection: more than ${VIS_STREAM_CHUNKS.heldEvents} visualizer events wait behind the history (the client does not read)`);
          this.refused('outbound-max-bytes');
          this.leaveState();
          this.ws.terminate();
          return;
        }
        this.log.error(`${this.peer}: internal error: visualizer history: ${why.stack ?? why.message}`);
        this.abort(CLOSE_CODES.internal, 'internal error');
      },
    };
  }

  /** Resolves once the client has at most `bytes` unsent (true), or when the connection has closed (false). */
  private async drainedTo(bytes: number): Promise<boolean> {
    while (this.state.kind !== 'closed' && this.ws.bufferedAmount > bytes) await this.socketDrainedOrClosed();
    return this.state.kind !== 'closed';
  }

  private reply(reply: Reply): void {
    if (this.state.kind === 'closed') return;
    this.flush();
    this.ws.send(encodeReply(reply, this.version));
    this.checkOutbound();
  }

  private sendGameBytes(bytes: Uint8Array): void {
    this.outgoing.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
    this.outgoingBytes += bytes.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask((this.flushLater ??= () => this.flush()));
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.outgoing.length === 0) return;
    const frame = this.outgoing.length === 1 ? this.outgoing[0]! : Buffer.concat(this.outgoing);
    this.outgoing.length = 0;
    this.outgoingBytes = 0;
    this.sendBinary(frame);
  }

  private sendBinary(bytes: Uint8Array): void {
    if (this.state.kind === 'closed') return;
    this.ws.send(bytes, { binary: true });
    this.checkOutbound();
  }

  /**
   * Everything held for the client counts against the server's memory budget: replies, lobby
   * pushes, game and spectator bytes, and what it is sending. Charged after each send; a client
   * past a budget is cut (see `cut`).
   */
  private checkOutbound(): void {
    this.memory.charge();
  }

  private refused(reason: RefusalReason): void {
    this.deps.refused?.(reason);
  }

  /** Closes this connection because of what the client did (or failed to do), saying why. */
  private abort(code: number, why: string, reason?: RefusalReason): void {
    if (this.state.kind === 'closed') return;
    this.log.warn(`${this.peer}: closing connection: ${why}`);
    if (reason) this.refused(reason);
    this.flush();
    this.leaveState();
    this.ws.close(code, closeReason(why));
  }

  private onClose(): void {
    this.leaveState();
    this.memory.release();
    this.deps.heartbeat?.remove(this);
    this.deps.closed?.(this);
  }

  private leaveState(): void {
    const state = this.state;
    this.state = CLOSED;
    this.outgoing.length = 0;
    this.outgoingBytes = 0;
    this.requests.length = 0;
    this.requestBytes = 0;
    this.cancelHandshakeTimer?.();
    this.cancelHandshakeTimer = null;
    switch (state.kind) {
      case 'subscribed':
        state.unsubscribe();
        break;
      case 'waiting':
        this.lobby.leave(state.id, state.member);
        break;
      case 'playing':
        state.seat.receiveEnd();
        break;
      case 'spectating':
        this.lobby.unspectate(state.id, state.watcher);
        break;
      case 'vis':
        state.stop();
        break;
      case 'arena':
        state.ticket.leave();
        break;
      default:
        break;
    }
  }
}

/**
 * The stored visualizer events of match `id` as the text of one JSON array, or null if there is no
 * such record: that part alone, as the store keeps it (not the record with its stream and
 * transcripts, nor the text decoded to a string).
 */
function storedVisJson(store: HistoryStore, id: string): Promise<Buffer | null> {
  return store.readPart(id, { kind: 'vis' });
}

/** `text` with every non-empty secret replaced, so that it can be logged. */
export function redact(text: string, secrets: readonly (string | null)[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('<password>');
  return out;
}

/** A close frame's reason holds at most 123 bytes of UTF-8. */
function closeReason(why: string): string {
  const bytes = Buffer.from(why, 'utf8');
  return bytes.length <= 123 ? why : `${bytes.subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '')}...`;
}
