import type { Socket } from 'node:net';
import type { MatchMember, PlayerSeat } from '../lobby/lobby.js';
import type { SeatCloseReason } from '../match/seat.js';
import type { Clock } from '../util/clock.js';
import { SentPrefix } from './sent-prefix.js';
import type { SocketMemory } from './socket-memory.js';

/**
 * The end of a player's stream, held back after its match (the Software-Challenge port): the real
 * server writes `</protocol>` once the client has closed its side, at once, and leaves a client
 * that stays connected open. Here that stay lasts at most `lingerMs`; then the stream ends all
 * the same, so an idle client cannot hold its socket for ever.
 */
export interface HeldStreamEnd {
  /** The game's last write to a player when it is exactly these bytes (the stream's end). */
  readonly text: string;
  readonly lingerMs: number;
  readonly clock: Clock;
}

/**
 * A player on a plain TCP socket (the clobber and Software-Challenge ports): once its match
 * starts, the socket's bytes are the seat's input and the seat's output goes to the socket.
 * Bytes that arrive before the start are kept and delivered first. `alreadySent` is what the front
 * door wrote to the client itself ahead of the game (sent-prefix.ts), dropped from the seat's output.
 * Unsent output and the early bytes count against the client's memory budget (`memory`): a client
 * that does not read, or sends without end before its match starts, is cut off.
 */
export class SocketMember implements MatchMember {
  private readonly early: Buffer[] = [];
  private earlyBytes = 0;
  private seat: PlayerSeat | null = null;
  private ended = false;
  private readonly sent: SentPrefix;
  /** The stream's end, written by the game but not yet sent (HeldStreamEnd). */
  private held: Uint8Array | null = null;
  private readonly heldBytes: Buffer | null;
  /** Set while the match is over and the socket stays open for a client that has not closed. */
  private cancelLinger: (() => void) | null = null;

  constructor(
    private readonly socket: Socket,
    firstBytes: Buffer,
    private readonly onGone: () => void,
    private readonly memory: SocketMemory,
    alreadySent: string = '',
    private readonly heldEnd: HeldStreamEnd | null = null,
  ) {
    this.heldBytes = heldEnd && Buffer.from(heldEnd.text);
    this.sent = new SentPrefix(alreadySent);
    if (firstBytes.length > 0) this.early.push(firstBytes);
    this.earlyBytes = firstBytes.length;
    memory.inputBytes = this.earlyBytes;
    socket.on('data', (chunk: Buffer) => {
      if (this.seat) return this.seat.receive(chunk);
      this.early.push(chunk);
      this.earlyBytes += chunk.length;
      memory.inputBytes = this.earlyBytes;
      memory.charge();
    });
    // 'end' comes alone when the server allows half-open sockets (the player stopped sending but
    // still reads what is left, as Software-Challenge clients do after the result).
    const inputEnded = (): void => {
      if (this.ended) return;
      this.ended = true;
      if (this.seat) {
        this.seat.receiveEnd();
        // The client closed after its match: its stream ends now.
        if (this.cancelLinger) this.endStream();
        return;
      }
      this.onGone();
      socket.end();
    };
    socket.on('end', inputEnded);
    socket.on('close', inputEnded);
  }

  updated(): void {}

  expired(): void {
    this.socket.end();
  }

  started(seat: PlayerSeat): void {
    this.seat = seat;
    seat.attach({
      send: (bytes) => {
        const rest = this.sent.strip(bytes);
        if (rest.length === 0) return;
        if (this.heldBytes && !this.ended && this.held === null && this.heldBytes.equals(rest)) {
          this.held = rest;
          return;
        }
        this.socket.write(rest);
        this.memory.charge();
      },
      close: (reason) => this.seatClosed(reason),
    });
    for (const chunk of this.early.splice(0)) seat.receive(chunk);
    this.earlyBytes = 0;
    this.memory.inputBytes = 0;
    if (this.ended) seat.receiveEnd();
  }

  /** The game is done with this player: the connection ends, or stays open while held (HeldStreamEnd). */
  private seatClosed(reason: SeatCloseReason): void {
    if (reason === 'match-over' && this.held !== null && !this.ended && this.heldEnd) {
      this.cancelLinger = this.heldEnd.clock.setTimer(this.heldEnd.lingerMs, () => this.endStream(), { weak: true });
      return;
    }
    this.endStream();
  }

  private endStream(): void {
    this.cancelLinger?.();
    this.cancelLinger = null;
    if (this.held !== null && !this.socket.destroyed) this.socket.write(this.held);
    this.held = null;
    this.socket.end();
  }
}
