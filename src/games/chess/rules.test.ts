import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import type { NormalMove } from 'chessops/types';
import { ChessGame } from './rules.js';
import { legalMoves } from './search.js';
import { formOf, readCommand, writeCommand } from './notation.js';

function position(fen: string): Chess {
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

/** Leaf count of the legal move tree, through this project's move list (promotions expanded). */
function perft(pos: Chess, depth: number): number {
  if (depth === 0) return 1;
  const moves = legalMoves(pos);
  if (depth === 1) return moves.length;
  let total = 0;
  for (const move of moves) {
    const child = pos.clone();
    child.play(move);
    total += perft(child, depth - 1);
  }
  return total;
}

test('perft from the standard test positions', () => {
  const cases: [string, number[]][] = [
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', [20, 400, 8902]],
    ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', [48, 2039]], // "Kiwipete"
    ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', [14, 191, 2812]],
    ['r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', [6, 264, 9467]],
    ['rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', [44, 1486]],
  ];
  for (const [fen, counts] of cases) {
    counts.forEach((count, i) => assert.equal(perft(position(fen), i + 1), count, `${fen} depth ${i + 1}`));
  }
});

test('the draws by rule: insufficient material and fifty moves; checkmate names the winner', () => {
  assert.deepEqual(new ChessGame(position('8/8/4k3/8/8/3NK3/8/8 w - - 0 1')).ending(), { kind: 'draw', why: 'INSUFFICIENT-MATERIAL' });
  assert.equal(new ChessGame(position('8/8/4k3/8/8/3RK3/8/8 w - - 99 80')).ending(), null);
  const fifty = new ChessGame(position('8/8/4k3/8/8/3RK3/8/8 w - - 99 80'));
  fifty.play(parseUci('d3d1') as NormalMove);
  assert.deepEqual(fifty.ending(), { kind: 'draw', why: 'FIFTY-MOVES' });
  assert.deepEqual(new ChessGame(position('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1')).ending(), { kind: 'checkmate', winner: 'white' });
  assert.deepEqual(new ChessGame(position('7k/8/6QK/8/8/8/8/8 b - - 0 1')).ending(), { kind: 'draw', why: 'STALEMATE' });
});

test('every legal move is written in exactly one stream form, and reads back as itself', () => {
  const fens = [
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1',
    'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
    'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
  ];
  for (const fen of fens) {
    const pos = position(fen);
    for (const move of legalMoves(pos)) {
      const line = writeCommand(pos, move);
      const read = readCommand(pos, line);
      assert.ok(read.ok && read.value.kind === 'move', `${fen}: ${line}`);
      assert.deepEqual(read.value.move, move, line);
      assert.ok(['plain', 'enpassant', 'promote', 'castle'].includes(formOf(pos, move)));
    }
  }
  const ep = position('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3');
  assert.equal(writeCommand(ep, parseUci('e5f6') as NormalMove), 'enpassant e5 f6');
  assert.deepEqual(readCommand(ep, 'e5 f6'), { ok: false, error: 'illegal' });
  assert.deepEqual(readCommand(ep, '  e5 e6 \r'), { ok: true, value: { kind: 'move', words: ['e5', 'e6'], move: { from: 36, to: 44 } } });
});
