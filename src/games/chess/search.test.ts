import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeUci, parseUci } from 'chessops/util';
import type { NormalMove } from 'chessops/types';
import { playLocalMatch } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { chess } from './chess.js';
import { ChessGame } from './rules.js';
import { MATE_SCORE, legalMoves, searchChess } from './search.js';

/** Small enough for the games to take seconds, large enough to see captures and mates coming. */
const TEST_NODES = 3000;

test('the search finds a mate in one and takes a hanging queen', () => {
  // Scholar's mate: Qxf7# is the only mate.
  const scholar = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6'];
  const mate = searchChess(scholar, { maxNodes: TEST_NODES });
  assert.equal(mate.uci, 'h5f7');
  assert.equal(mate.score, MATE_SCORE - 1);
  const hanging = searchChess(['e2e4', 'd7d5', 'd1g4', 'c8g4'].slice(0, 3), { maxNodes: TEST_NODES });
  assert.equal(hanging.uci, 'c8g4', 'the bishop takes the queen');
});

test('the search beats a uniformly random legal mover in all of 20 seeded games, alternating colours', () => {
  const lost: string[] = [];
  for (let game = 0; game < 20; game++) {
    const random = Random.fromSeed(`chess-vs-random-${game}`);
    const botColour = game % 2 === 0 ? 'white' : 'black';
    const played = new ChessGame();
    const moves: string[] = [];
    let ending = played.ending();
    while (!ending) {
      let move: NormalMove;
      if (played.position.turn === botColour) move = parseUci(searchChess(moves, { maxNodes: TEST_NODES }).uci!) as NormalMove;
      else move = random.pick(legalMoves(played.position));
      moves.push(makeUci(move));
      played.play(move);
      ending = played.ending();
    }
    if (ending.kind !== 'checkmate' || ending.winner !== botColour) lost.push(`game ${game}: ${JSON.stringify(ending)} after ${moves.length} plies`);
  }
  assert.deepEqual(lost, []);
});

test('the server bot plays a whole match against a program, both colours over two seeds', async () => {
  for (const seed of ['bot-1', 'bot-2']) {
    const record = await playLocalMatch({
      game: chess,
      params: { args: { pace: '0' }, bots: 1, players: 2 },
      seed,
      players: [
        {
          name: 'Resigner',
          play: async (io) => {
            // Plays a few legal first moves, then gives up: the bot must answer each of them.
            for (let i = 0; i < 2; i++) await io.readLine();
            const white = (await io.readLine()) === '0';
            const script = white ? ['e2 e4', 'g1 f3', 'RETIRE'] : ['e7 e5', 'g8 f6', 'RETIRE'];
            let oks = 0;
            if (white) io.write(`${script.shift()}\n`);
            for (;;) {
              const line = await io.readLine();
              if (line === null || line.startsWith('WINNER')) return;
              if (line.startsWith('OK ') && ++oks % 2 === (white ? 0 : 1) && script.length > 0) io.write(`${script.shift()}\n`);
            }
          },
        },
      ],
    });
    assert.match(record.outcome.result!.reason, /^ServerBot\$0 wins: Resigner retired$/, seed);
    assert.equal(record.spectatorStream.split('\n').filter((line) => line.startsWith('OK ')).length >= 4, true);
  }
});
