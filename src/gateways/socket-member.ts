import type { Socket } from 'node:net';
import type { MatchMember, PlayerSeat } from '../lobby/lobby.js';
import { SentPrefix } from './sent-prefix.js';
import type { SocketMemory } from './socket-memory.js';

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

  constructor(
    private readonly socket: Socket,
    firstBytes: Buffer,
    private readonly onGone: () => void,
    private readonly memory: SocketMemory,
    alreadySent: string = '',
  ) {
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
      if (this.seat) return this.seat.receiveEnd();
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
        this.socket.write(rest);
        this.memory.charge();
      },
      close: () => this.socket.end(),
    });
    for (const chunk of this.early.splice(0)) seat.receive(chunk);
    this.earlyBytes = 0;
    this.memory.inputBytes = 0;
    if (this.ended) seat.receiveEnd();
  }
}
