import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Random } from '../../src/match/random.js';
import { apply, legalMoves, startPosition, type Position } from '../../src/games/clobber/rules.js';
import { formatMove, parseMove } from '../../src/games/clobber/notation.js';

/** A plain 2006 tournament client on a TCP socket, playing random legal moves. */
export function tcpClient(port: number, name: string, seed: string): Promise<{ received: string[]; starts: string[] }> {
  return new Promise((resolve, reject) => {
    const random = Random.fromSeed(seed);
    const socket = connect(port, '127.0.0.1');
    const received: string[] = [];
    const starts: string[] = [];
    let position: Position | null = null;
    let buffer = '';
    const move = (): void => {
      const moves = legalMoves(position!);
      if (moves.length === 0) return;
      const chosen = random.pick(moves);
      socket.write(`${formatMove(position!, chosen)}\n`);
      position = apply(position!, chosen);
    };
    socket.on('connect', () => socket.write(`play clobber ${name}\n`));
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        received.push(line);
        const start = /^(\d+) (\d+) ([01])$/.exec(line);
        if (start) {
          starts.push(line);
          const made = startPosition(Number(start[1]), Number(start[2]));
          assert.ok(made.ok);
          position = made.value;
          if (start[3] === '1') move();
        } else if (line === 'error' || line === 'end') position = null;
        else if (position) {
          const theirs = parseMove(line, position);
          assert.ok(theirs.ok, `a move from the server: ${line}`);
          position = apply(position, theirs.value);
          move();
        }
      }
    });
    socket.on('close', () => resolve({ received, starts }));
    socket.on('error', reject);
  });
}

