import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Chess } from 'chessops/chess';
import { parsePgn } from 'chessops/pgn';
import { parseSan } from 'chessops/san';
import type { NormalMove } from 'chessops/types';
import { echo, writeCommand } from '../src/games/chess/notation.js';
import { chessPgn, latestMoveTimes, moveTimes, pgnDate, readChessStream } from './chess-record.js';

/** The spectator stream of a game given in SAN, as the server writes it (notes/chess.md). */
function streamOf(white: string, black: string, sans: readonly string[], ending: readonly string[]): string {
  const position = Chess.default();
  const lines = [white, black];
  for (const san of sans) {
    const move = parseSan(position, san) as NormalMove | undefined;
    assert.ok(move, `${san} is legal`);
    lines.push(echo(writeCommand(position, move).split(' ')));
    position.play(move);
  }
  return [...lines, ...ending, ''].join('\n');
}

// Morphy against the Duke of Brunswick and Count Isouard, Paris 1858 (the Opera Game): castling long, a mate.
const OPERA = 'e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#'.split(' ');
// En passant and a promotion with a capture.
const EN_PASSANT_AND_PROMOTION = 'e4 d5 e5 f5 exf6 Nh6 fxg7 Kf7 gxh8=Q'.split(' ');

const facts = { name: 'opera', id: 'abc123', players: ['Duke', 'Morphy'], scores: [0, 1], reason: 'Morphy wins by checkmate', startedAt: Date.UTC(2026, 10, 2, 12), site: 'http://127.0.0.1:8088/#/replay/abc123' };

test("a known game round-trips: the stream's moves in SAN, and a PGN that chessops' parser reads back to the same moves, players and result", () => {
  const game = readChessStream(streamOf('Morphy', 'Duke', OPERA, ['WINNER <WHITE>']), facts.players, facts.scores);
  assert.ok(game);
  assert.deepEqual(game.sans, OPERA);
  assert.equal(game.result, '1-0');
  const pgn = chessPgn(game, facts);
  const [parsed, ...more] = parsePgn(pgn);
  assert.equal(more.length, 0);
  assert.ok(parsed);
  assert.equal(parsed.headers.get('White'), 'Morphy');
  assert.equal(parsed.headers.get('Black'), 'Duke');
  assert.equal(parsed.headers.get('Result'), '1-0');
  assert.equal(parsed.headers.get('Date'), '2026.11.02');
  assert.equal(parsed.headers.get('Event'), 'opera');
  assert.equal(parsed.headers.get('Site'), facts.site);
  assert.deepEqual([...parsed.moves.mainline()].map((node) => node.san), OPERA);
  assert.deepEqual([...parsed.moves.mainline()].at(-1)!.comments, ['Morphy wins by checkmate']);
  // Every move legal as parsed again from the PGN's text, and the game over where it ended.
  const position = Chess.default();
  for (const node of parsed.moves.mainline()) {
    const move = parseSan(position, node.san);
    assert.ok(move, node.san);
    position.play(move);
  }
  assert.equal(position.isCheckmate(), true);
  assert.match(pgn, /^\[Event "opera"\]\n\[Site .*\n\[Date "2026\.11\.02"\]\n\[Round "-"\]\n\[White "Morphy"\]\n\[Black "Duke"\]\n\[Result "1-0"\]\n\n1\. e4 e5 2\. Nf3 /);
  assert.match(pgn, / 17\. Rd8# \{ Morphy wins by checkmate \} 1-0\n$/);
});

test('en passant and promotion are written as SAN writes them, and names with quotes are escaped', () => {
  const game = readChessStream(streamOf('a "quoted" name', 'b\\c', EN_PASSANT_AND_PROMOTION, ['DRAW <PROPOSED>', 'DRAW <ACCEPTED>']));
  assert.ok(game);
  assert.deepEqual(game.sans, ['e4', 'd5', 'e5', 'f5', 'exf6', 'Nh6', 'fxg7', 'Kf7', 'gxh8=Q']);
  assert.equal(game.result, '1/2-1/2');
  const [parsed] = parsePgn(chessPgn(game, { ...facts, reason: 'draw agreed' }));
  assert.equal(parsed!.headers.get('White'), 'a "quoted" name');
  assert.equal(parsed!.headers.get('Black'), 'b\\c');
  assert.equal(parsed!.headers.get('Result'), '1/2-1/2');
  assert.deepEqual([...parsed!.moves.mainline()].map((node) => node.san), game.sans);
});

test('a forfeit says only RETIRE: the result comes from the scores by name; unknown, it is *', () => {
  const stream = streamOf('ann', 'bob', ['e4'], ['RETIRE']);
  assert.equal(readChessStream(stream, ['bob', 'ann'], [1, 0])!.result, '0-1');
  assert.equal(readChessStream(stream, ['bob', 'ann'], null)!.result, '*');
  assert.equal(readChessStream(streamOf('ann', 'ann', [], ['RETIRE']), ['ann', 'ann'], [1, 0])!.result, '*', 'same names: the scores cannot tell');
  assert.equal(readChessStream(streamOf('ann', 'bob', ['e4'], ['RETIRE', 'WINNER <WHITE>']))!.result, '1-0');
  assert.equal(readChessStream(''), null);
  // A game with no move is still a PGN with its result.
  const [parsed] = parsePgn(chessPgn(readChessStream(streamOf('ann', 'bob', [], ['RETIRE']), ['ann', 'bob'], [0, 1])!, { ...facts, reason: 'bob wins: ann did not move in time' }));
  assert.equal(parsed!.headers.get('Result'), '0-1');
  assert.deepEqual([...parsed!.moves.mainline()], []);
  assert.equal(pgnDate('not a date'), '????.??.??');
});

test("each move's time: from when the server began waiting (after the previous move's pace) to the move's line", () => {
  const logs = [
    { t: 0.1, line: 'White: ann, Black: bob' },
    { t: 0.6, line: '1. e4' },
    { t: 2.0, line: '1... e5' },
    { t: 2.5, line: '2. Nf3' },
    { t: 9.0, line: '2... Nc6' },
    { t: 9.0, line: 'bob wins: ann did not move in time' },
  ];
  const times = moveTimes(logs, 1);
  // 1. e4: waited from 0.1. 1... e5: the wait began at max(0.6, 0.1 + 1) = 1.1. 2. Nf3: at max(2.0, 1.1 + 1) = 2.1.
  // 2... Nc6: at max(2.5, 2.1 + 1) = 3.1.
  assert.deepEqual(times.map((m) => [m.line, m.color, Math.round(m.seconds * 1000) / 1000]), [[1, 'white', 0.5], [2, 'black', 0.9], [3, 'white', 0.4], [4, 'black', 5.9]]);
  assert.deepEqual(moveTimes(logs, 0).map((m) => Math.round(m.seconds * 1000) / 1000), [0.5, 1.4, 0.5, 6.5]);
  const at3 = latestMoveTimes(times, 3);
  assert.equal(at3.white?.line, 1);
  assert.equal(at3.black?.line, 2);
  assert.deepEqual(latestMoveTimes(times, 1), { white: null, black: null });
});
