import { LineSplitter } from '../protocol/line-splitter.js';
import type { BotIO } from './game.js';
import { LineQueue } from './line-queue.js';
import type { Seat } from './seat.js';

/** Longest line a built-in bot accepts from its game; the game is trusted, this only bounds memory. */
const BOT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Sees what passes between the game and an in-process player (tests record transcripts). */
export interface BotTap {
  received(bytes: Uint8Array): void;
  sent(text: string): void;
}

/**
 * Connects an in-process player (a server bot, or a test's player) to a seat: it reads the bytes
 * the game writes to the seat as lines and its writes reach the game as if a program had sent them.
 */
export function connectBot(seat: Seat, tap?: BotTap): BotIO {
  const queue = new LineQueue();
  const splitter = new LineSplitter(BOT_MAX_LINE_BYTES, {
    line: (text) => queue.push(text),
    error: () => queue.end(),
  });
  seat.attach({
    send: (bytes) => {
      tap?.received(bytes);
      splitter.push(bytes);
    },
    close: () => {
      splitter.end();
      queue.end();
    },
  });
  return {
    readLine: () => queue.next(),
    write: (text) => {
      tap?.sent(text);
      seat.receive(Buffer.from(text, 'utf8'));
    },
    end: () => seat.receiveEnd(),
  };
}
