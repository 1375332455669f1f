import type { Socket } from 'node:net';
import {
  parseClientRequest,
  renderJoinedGameRoom,
  renderPlayerScore,
  renderPrepared,
  renderTesting,
  type ClientRequest,
} from '../games/hase-und-igel/front-door.js';
import { EMPTY_STREAM, GAME_TYPE, renderCloseConnection, renderObserved } from '../games/hase-und-igel/messages.js';
import type { RoomDirectory } from '../games/hase-und-igel/room-control.js';
import type { XmlEvent } from '../games/hase-und-igel/xml/xml-reader.js';
import { STREAM_CLOSING, STREAM_OPENING } from '../games/hase-und-igel/xml/xml-writer.js';
import type { Lobby, MatchWatcher } from '../lobby/lobby.js';
import type { Log } from '../util/log.js';
import type { SochaOpening } from './socha-opening.js';
import type { SochaRoomBook } from './socha-rooms.js';
import { SentPrefix } from './sent-prefix.js';
import type { SocketMemory } from './socket-memory.js';

export interface AdminDeps {
  readonly lobby: Lobby;
  readonly book: SochaRoomBook;
  readonly rooms: RoomDirectory;
  readonly log: Log;
}

/**
 * A room's spectator stream on an administrator's connection. The game opens every spectator
 * stream with its own `<protocol>` and `<observed>`; the connection has its `<protocol>` already and
 * got `<observed>` when it asked, so that opening is dropped and the rest (mementos, errors,
 * result, `<left>`) passes as it is.
 */
class RoomObserver implements MatchWatcher {
  private readonly sent: SentPrefix;

  constructor(
    roomId: string,
    private readonly write: (bytes: Uint8Array) => void,
    private readonly onEnd: (observer: RoomObserver) => void,
  ) {
    this.sent = new SentPrefix(STREAM_OPENING + renderObserved(roomId));
  }

  updated(): void {}

  started(history: Buffer): void {
    this.data(history);
  }

  data(bytes: Uint8Array): void {
    const rest = this.sent.strip(bytes);
    if (rest.length > 0) this.write(rest);
  }

  ended(): void {
    this.onEnd(this);
  }
}

/**
 * An authenticated administrator's connection: `prepare` makes a room with reserved seats,
 * `observe` streams a room, `pause`, `step` and `cancel` act on the room's gate (room-control.ts),
 * `testMode` and `scoreForPlayer` keep and report the scores of a series of test games, and
 * `freeReservation` voids a code (the connection stays open). Requests are read on with the connection's XML reader;
 * unreadable XML ends the connection.
 */
export class SochaAdminSession {
  private readonly observing = new Map<RoomObserver, string>();
  private open = true;
  private released = false;
  /** Whether `<protocol>` went out: the real server writes it with its first message. */
  private opened = false;

  constructor(
    private readonly socket: Socket,
    private readonly peer: string,
    private readonly opening: SochaOpening,
    /** The connection's share of the server's memory budget (its unsent output). */
    private readonly memory: SocketMemory,
    private readonly deps: AdminDeps,
    private readonly onClose: (session: SochaAdminSession) => void,
  ) {}

  /** Takes the connection over: `rest` are the requests that came with the authentication. */
  start(rest: readonly XmlEvent[]): void {
    this.socket.on('data', (chunk: Buffer) => {
      if (!this.open) return;
      const text = this.opening.text(chunk);
      if (text === null) return this.end('invalid UTF-8');
      this.handle(this.opening.reader.push(text));
    });
    this.socket.on('end', () => this.end(null));
    this.socket.on('close', () => this.closed());
    this.handle(rest);
  }

  /** A player joined an open room of the port (the server tells its administrators). */
  joinedRoom(roomId: string, existing: boolean): void {
    if (this.open) this.write(renderJoinedGameRoom(roomId, existing));
  }

  private handle(events: readonly XmlEvent[]): void {
    for (const event of events) {
      if (!this.open) return;
      switch (event.kind) {
        case 'message': {
          const request = parseClientRequest(event.element);
          if (request.ok) this.request(request.value);
          // The real server fails on a prepare it cannot read (a third slot) and drops the connection.
          else if (event.element.name === 'prepare') this.end(`unreadable prepare (${request.error})`, true);
          else this.deps.log.info(`socha port ${this.peer}: admin request <${event.element.name}> ignored (${request.error})`);
          break;
        }
        case 'error':
          return this.end(`unreadable XML (${event.code})`);
        case 'root-close':
        case 'end':
          return this.end(null);
        default:
          break;
      }
    }
  }

  private request(request: ClientRequest): void {
    const { book, rooms, log } = this.deps;
    switch (request.kind) {
      case 'prepare': {
        // The real server fails on an unknown game type and drops the connection.
        if (request.gameType !== GAME_TYPE) return this.end(`cannot prepare unknown game type "${request.gameType}"`, true);
        const prepared = book.prepare(request.slots);
        if (!prepared.ok) return log.info(`socha port ${this.peer}: cannot prepare a room: ${prepared.error}`);
        log.info(`socha port ${this.peer}: prepared room ${prepared.value.roomId}`);
        return this.write(renderPrepared(prepared.value.roomId, prepared.value.codes));
      }
      case 'observe':
        return this.observe(request.roomId);
      case 'pause': {
        const gate = rooms.get(request.roomId);
        if (gate) return gate.pause(request.pause);
        // A room that has not begun yet starts paused; it cannot be told to start unpaused.
        if (request.pause && book.matchOf(request.roomId)) return rooms.preparePaused(request.roomId);
        return log.info(`socha port ${this.peer}: pause of unknown or waiting room ${request.roomId} ignored`);
      }
      case 'step': {
        const gate = rooms.get(request.roomId);
        if (gate) return gate.step();
        if (book.matchOf(request.roomId) === null) return this.end(`step in unknown room ${request.roomId}`, true);
        return log.info(`socha port ${this.peer}: step in waiting room ${request.roomId} ignored`);
      }
      case 'cancel': {
        const gate = rooms.get(request.roomId);
        if (gate) {
          log.info(`socha port ${this.peer}: cancelled room ${request.roomId}`);
          return gate.cancel();
        }
        // The real server fails on a room it does not know and drops the connection.
        if (book.matchOf(request.roomId) === null) return this.end(`cancel of unknown room ${request.roomId}`, true);
        // As in the real server, a room that has not begun stays playable: its codes still seat
        // their players. Unlike it, the administrator's connection stays open (it failed there).
        return log.info(`socha port ${this.peer}: cancel of room ${request.roomId} that has not begun ignored`);
      }
      case 'testMode':
        rooms.testScores.testMode = request.testMode;
        log.info(`socha port ${this.peer}: test mode ${request.testMode ? 'on' : 'off'}`);
        return this.write(renderTesting(request.testMode));
      case 'scoreForPlayer':
        return this.write(renderPlayerScore(rooms.testScores.scoreOf(request.displayName)));
      case 'freeReservation': {
        const voided = book.void(request.reservation);
        // The connection stays open for later requests, as on the real server (Lobby.java).
        return log.info(`socha port ${this.peer}: reservation ${voided ? 'voided' : 'to free was unknown or used'}`);
      }
      case 'close':
        return this.end(null);
      case 'authenticate':
        return;
      default:
        return log.info(`socha port ${this.peer}: <${request.kind}> is not an admin request; ignored`);
    }
  }

  private observe(roomId: string): void {
    const { lobby, book, log } = this.deps;
    const matchId = book.matchOf(roomId);
    // The real server ends the administrator's connection when the room is unknown.
    if (matchId === null) return this.end(`observe of unknown room ${roomId}`, true);
    const observer: RoomObserver = new RoomObserver(
      roomId,
      (bytes) => this.write(bytes),
      (ended) => this.observing.delete(ended),
    );
    this.observing.set(observer, matchId);
    const watched = lobby.spectate(matchId, observer);
    if (!watched.ok) {
      this.observing.delete(observer);
      return log.info(`socha port ${this.peer}: cannot observe room ${roomId}: ${watched.error}`);
    }
    // `observed` at once, as the real server, not when the room begins (the lobby starts the
    // stream of a running room after this call returns).
    this.write(renderObserved(roomId));
  }

  private write(data: string | Uint8Array): void {
    if (!this.open) return;
    if (!this.opened) {
      this.opened = true;
      this.socket.write(STREAM_OPENING);
    }
    this.socket.write(data);
    // An administrator that does not read its observed rooms is dropped, not buffered for.
    this.memory.charge();
  }

  /** Ends the connection; `refuse` sends the close message first, as the real server on a failed request. */
  private end(why: string | null, refuse = false): void {
    if (!this.open) return;
    if (why) this.deps.log.info(`socha port ${this.peer}: admin connection ended: ${why}`);
    // A stream that never opened closes as the real server closes it: `<protocol/>`.
    if (!refuse && !this.opened) this.socket.write(EMPTY_STREAM);
    else this.write((refuse ? renderCloseConnection() : '') + STREAM_CLOSING);
    this.socket.end();
    this.closed();
  }

  /** Stops every observation and leaves the port's list of administrators (once). */
  private closed(): void {
    this.open = false;
    if (this.released) return;
    this.released = true;
    for (const [observer, matchId] of this.observing) this.deps.lobby.unspectate(matchId, observer);
    this.observing.clear();
    this.onClose(this);
  }
}
