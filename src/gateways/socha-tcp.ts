import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { parseClientRequest } from '../games/hase-und-igel/front-door.js';
import { EMPTY_STREAM, GAME_TYPE, REFUSAL_STREAM, renderJoined } from '../games/hase-und-igel/messages.js';
import { STREAM_CLOSING, STREAM_OPENING } from '../games/hase-und-igel/xml/xml-writer.js';
import type { RoomDirectory } from '../games/hase-und-igel/room-control.js';
import { ADMIN_REQUESTS } from '../games/hase-und-igel/room.js';
import type { XmlElement } from '../games/hase-und-igel/xml/xml-element.js';
import type { XmlEvent } from '../games/hase-und-igel/xml/xml-reader.js';
import type { Lobby } from '../lobby/lobby.js';
import { systemClock, type Clock } from '../util/clock.js';
import { SochaAdminSession } from './socha-admin.js';
import { SochaOpening } from './socha-opening.js';
import { SochaRoomBook, type Reservation, type SochaTimeLimits } from './socha-rooms.js';
import { admitConnection, type Admission } from './address-limits.js';
import type { ServerLimits } from './server-limits.js';
import { listenWithBacklog } from './listen.js';
import { SocketMember, type HeldStreamEnd } from './socket-member.js';
import { SocketMemory } from './socket-memory.js';
import { memoryCutRefusal } from './client-memory.js';
import { peerLabel, type ClientAddress } from './peer-addresses.js';
import { secretEquals } from '../util/secret.js';

export const SOCHA_TCP_LIMITS = {
  /** The first request (join, joinPrepared or authenticate) must be complete within this long... */
  firstRequestSeconds: 30,
  /** ...and within this many bytes, `<protocol>` and anything before the request included. */
  firstRequestBytes: 64 * 1024,
  /** After the server ends a connection, the peer has this long to close its side. */
  closeGraceSeconds: 5,
  /**
   * After its game, a player that stays connected is left open this long (the real server: for
   * ever), and gets `</protocol>` and the close when it closes its side, at once; then the stream
   * ends all the same.
   */
  lingerSeconds: 60,
} as const;

export type SochaTcpLimits = { readonly [K in keyof typeof SOCHA_TCP_LIMITS]: number };

/** The port the real Software-Challenge 2018 server listened on. */
export const SOCHA_DEFAULT_PORT = 13050;

export interface SochaTcpOptions extends SochaTimeLimits, Admission {
  /** The server's limits (per-address rates and password back-off). */
  readonly serverLimits: ServerLimits;
  readonly lobby: Lobby;
  /** The directory the hase-und-igel game registers its rooms in (the game's factory got it too). */
  readonly rooms: RoomDirectory;
  /** The administrators' passphrase; null refuses every `authenticate`. */
  readonly adminPassword: string | null;
  readonly limits?: Partial<SochaTcpLimits>;
  /** Where the port's deadlines take their time from; the system clock by default. */
  readonly clock?: Clock;
}


/**
 * The Software-Challenge 2018 TCP port (Hase und Igel). A client opens its XML stream and sends one
 * request: `join` seats it in the oldest waiting room of the port or a new one, `joinPrepared` in
 * the room its reservation code was made for, and `authenticate` makes it an administrator (see
 * socha-admin.ts). A player's socket then carries the game's own stream: every byte it sent,
 * `<protocol>` and the join included, goes to its seat, and the game writes everything it receives.
 * The rooms are lobby matches, so coco spectators, the web page and the history see them.
 */
export class SochaTcpGateway {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly admins = new Set<SochaAdminSession>();
  private readonly book: SochaRoomBook;
  private readonly limits: SochaTcpLimits;
  private readonly clock: Clock;

  constructor(private readonly options: SochaTcpOptions) {
    this.limits = { ...SOCHA_TCP_LIMITS, ...options.limits };
    this.clock = options.clock ?? systemClock;
    this.book = new SochaRoomBook(options.lobby, options);
    // Half-open sockets: a client may end its stream after the result and still read the server's
    // `</protocol>`, which the game writes once every player has closed.
    this.server = createServer({ allowHalfOpen: true }, (socket) => {
      // Tracked from the start, a balancer's preamble still to come included: `close` ends them all.
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      options.peers.accept(socket, 'socha port', (client) => this.accept(socket, client));
    });
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return listenWithBacklog(this.server, port, host, this.options.serverLimits['listen-backlog']);
  }

  /** Open connections (players, administrators, clients still to send their request). */
  get connections(): number {
    return this.sockets.size;
  }

  /** Stops accepting connections; those open stay until `close`. */
  stopAccepting(): void {
    if (this.server.listening) this.server.close();
  }

  /** Bytes written to this port's sockets that their clients have not taken yet. */
  queuedBytes(): number {
    let total = 0;
    for (const socket of this.sockets) total += socket.writableLength;
    return total;
  }

  async close(): Promise<void> {
    this.book.close();
    for (const socket of this.sockets) socket.destroy();
    const closed = new Promise<void>((resolve) => this.server.once('close', () => resolve()));
    const wasListening = this.server.listening;
    this.stopAccepting();
    if (wasListening) await closed;
  }

  /** A player's `</protocol>` waits for the client to close after the game (socket-member.ts). */
  private heldEnd(): HeldStreamEnd {
    return { text: STREAM_CLOSING, lingerMs: this.limits.lingerSeconds * 1000, clock: this.clock };
  }

  private log(peer: string, line: string): void {
    this.options.log.info(`socha port ${peer}: ${line}`);
  }

  private accept(socket: Socket, client: ClientAddress): void {
    const admitted = admitConnection(socket, client, 'socha port', this.options);
    if (admitted === null) return;
    const { key } = admitted;
    const peer = peerLabel(client);
    const memory = new SocketMemory(socket, key, this.options.memory ?? SocketMemory.alone(this.options.serverLimits), (why, held) => {
      this.options.refused?.(memoryCutRefusal(why));
      this.log(peer, `connection dropped: ${held} bytes held for it (${why})`);
    });
    socket.on('error', (error) => {
      if (!client.balancersOwn) this.log(peer, error.message);
    });
    socket.setNoDelay(true);
    // Once the server has ended its side, a peer that never closes its own is cut off.
    socket.once('finish', () => {
      const cancel = this.clock.setTimer(this.limits.closeGraceSeconds * 1000, () => socket.destroy(), { weak: true });
      socket.once('close', cancel);
    });
    const opening = new SochaOpening(this.limits.firstRequestBytes, (element) => {
      if (!ADMIN_REQUESTS.has(element.name)) return false;
      this.log(peer, `admin request <${element.name}> before authenticate ignored`);
      return true;
    });
    const stop = (): void => {
      cancelTimer();
      socket.off('data', onData);
      socket.off('end', onEnd);
    };
    const onEnd = (): void => {
      stop();
      this.dismiss(socket, peer, 'the stream ended before a request', EMPTY_STREAM);
    };
    const cancelTimer = this.clock.setTimer(
      this.limits.firstRequestSeconds * 1000,
      () => {
        stop();
        this.dismiss(socket, peer, `no request within ${this.limits.firstRequestSeconds} s`, EMPTY_STREAM);
      },
      { weak: true },
    );
    const onData = (chunk: Buffer): void => {
      const step = opening.push(chunk);
      if (step.kind === 'more') return;
      stop();
      if (step.kind === 'refused') return this.dismiss(socket, peer, step.why, EMPTY_STREAM);
      this.dispatch(socket, peer, key, memory, opening, step.element, step.rest);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', cancelTimer);
  }

  /**
   * Ends a connection that did not make a valid first request; other connections never notice. The
   * client gets a whole stream first, as from the real server: a refused request (an unknown code,
   * a wrong password, an unknown game type) the close message, anything else an empty stream. A
   * client that gets nothing at all logs an exception rather than a clean disconnect.
   */
  private dismiss(socket: Socket, peer: string, why: string, reply: string = REFUSAL_STREAM): void {
    this.log(peer, `${why}; connection closed`);
    socket.end(reply);
  }

  private dispatch(socket: Socket, peer: string, key: string, memory: SocketMemory, opening: SochaOpening, element: XmlElement, rest: readonly XmlEvent[]): void {
    const request = parseClientRequest(element);
    if (!request.ok) {
      // An element the protocol does not know gets the empty stream; a known one the close message.
      const reply = request.error === 'request/unknown' ? EMPTY_STREAM : REFUSAL_STREAM;
      return this.dismiss(socket, peer, `first request <${element.name}> refused (${request.error})`, reply);
    }
    const { value } = request;
    switch (value.kind) {
      case 'join':
        if (value.gameType !== GAME_TYPE) return this.dismiss(socket, peer, `unknown game type "${value.gameType}"`);
        return this.join(socket, peer, key, memory, opening.received());
      case 'joinPrepared':
        return this.joinPrepared(socket, peer, memory, opening.received(), value.reservationCode);
      case 'authenticate':
        return this.authenticate(socket, peer, key, memory, opening, value.passphrase, rest);
      default:
        return this.dismiss(socket, peer, `expected join, joinPrepared or authenticate first, got <${element.name}>`);
    }
  }

  private join(socket: Socket, peer: string, key: string, memory: SocketMemory, received: Buffer): void {
    const { addresses, serverLimits, refused } = this.options;
    const room = this.book.openRoom({ owner: key, network: addresses.network(key) }, () => {
      const empty = addresses.takeGameNew(key);
      if (empty === null) return null;
      refused?.(empty);
      return empty === 'game-new-per-minute'
        ? `more than ${serverLimits['game-new-per-minute']} new rooms a minute from this address`
        : `more than ${serverLimits['game-new-per-minute-per-network']} new rooms a minute from this address's network`;
    });
    if (!room.ok) return this.dismiss(socket, peer, `cannot open a room: ${room.error}`);
    const { roomId, matchId, existing } = room.value;
    const taken = new Set(this.options.lobby.find(matchId)?.connected ?? []);
    let n = 1;
    while (taken.has(`player${n}`)) n++;
    const name = `player${n}`;
    // The real server says `joined` at once, not when the game begins; the room's own opening is
    // then dropped from this seat's output, so the client sees it once.
    const opening = STREAM_OPENING + renderJoined(roomId);
    const member: SocketMember = new SocketMember(socket, received, () => this.options.lobby.leave(matchId, member), memory, opening, this.heldEnd());
    const joined = this.options.lobby.join(matchId, name, null, member);
    if (!joined.ok) return this.dismiss(socket, peer, `cannot join match ${matchId}: ${joined.error}`);
    socket.write(opening);
    this.log(peer, `${name} joined room ${roomId} (match ${matchId})`);
    for (const admin of this.admins) admin.joinedRoom(roomId, existing);
  }

  private joinPrepared(socket: Socket, peer: string, memory: SocketMemory, received: Buffer, code: string): void {
    const reservation: Reservation | null = this.book.claim(code);
    if (!reservation) return this.dismiss(socket, peer, 'unknown reservation code');
    const { lobby } = this.options;
    const member: SocketMember = new SocketMember(
      socket,
      received,
      () => {
        lobby.leave(reservation.matchId, member);
        this.book.release(code, reservation);
      },
      memory,
      '',
      this.heldEnd(),
    );
    const joined = lobby.join(reservation.matchId, reservation.name, reservation.password, member);
    if (!joined.ok) return this.dismiss(socket, peer, `cannot join match ${reservation.matchId}: ${joined.error}`);
    this.log(peer, `${reservation.name} took a reserved seat in room ${reservation.roomId} (match ${reservation.matchId})`);
  }

  private authenticate(socket: Socket, peer: string, key: string, memory: SocketMemory, opening: SochaOpening, passphrase: string, rest: readonly XmlEvent[]): void {
    const { adminPassword, addresses } = this.options;
    if (adminPassword === null) return this.dismiss(socket, peer, 'admin commands are off (no --socha-password)');
    const wait = addresses.passwordWait(key, 'socha-admin');
    if (wait > 0) {
      this.options.refused?.('password-backoff');
      return this.dismiss(socket, peer, `too many wrong admin passwords from this address: refused for ${wait} s more`);
    }
    if (!secretEquals(passphrase, adminPassword)) {
      addresses.passwordFailed(key, 'socha-admin');
      return this.dismiss(socket, peer, 'wrong admin password');
    }
    addresses.passwordSucceeded(key, 'socha-admin');
    this.log(peer, 'administrator authenticated');
    const session = new SochaAdminSession(
      socket,
      peer,
      opening,
      memory,
      { lobby: this.options.lobby, book: this.book, rooms: this.options.rooms, log: this.options.log },
      (ended) => this.admins.delete(ended),
    );
    this.admins.add(session);
    session.start(rest);
  }
}
