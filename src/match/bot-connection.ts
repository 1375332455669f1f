import { LineSplitter } from '../protocol/line-splitter.js';
import type { BotIO } from './game.js';
import { LineQueue } from './line-queue.js';
import type { Seat } from './seat.js';

/** Longest line a built-in bot accepts from its game; the game is trusted, this only bounds memory. */
const BOT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Connects an in-process server bot to a seat: it reads the bytes the game writes to the seat as
 * lines and its writes reach the game as if a program had sent them.
 */
export function connectBot(seat: Seat): BotIO {
  const queue = new LineQueue();
  const splitter = new LineSplitter(BOT_MAX_LINE_BYTES, {
    line: (text) => queue.push(text),
    error: () => queue.end(),
  });
  seat.attach({
    send: (bytes) => splitter.push(bytes),
    close: () => {
      splitter.end();
      queue.end();
    },
  });
  return {
    readLine: () => queue.next(),
    write: (text) => seat.receive(Buffer.from(text, 'utf8')),
    end: () => seat.receiveEnd(),
  };
}
