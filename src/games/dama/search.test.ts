import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { SQUARES } from './board.js';
import { evaluateWhite } from './evaluate.js';
import { formatMove } from './notation.js';
import { applyMove, findMove, legalMoves, outcome, startPosition, type Position } from './rules.js';
import { WIN_SCORE, searchDama } from './search.js';
import { setup } from './test-positions.js';

/** Small enough for 100 games to take a few seconds, large enough to see a few plies ahead. */
const TEST_NODES = 1000;

test('the search beats a uniformly random legal mover in all of 100 seeded games, alternating colours', (t) => {
  let wins = 0;
  let plies = 0;
  let nodes = 0;
  let longest = 0;
  const lost: number[] = [];
  for (let game = 0; game < 100; game++) {
    const random = Random.fromSeed(`dama-vs-random-${game}`);
    const botColor = game % 2 === 0 ? 'white' : 'black';
    let position = startPosition();
    let state = outcome(position);
    let ply = 0;
    while (!state) {
      let move;
      if (position.turn === botColor) {
        const result = searchDama(position, { maxNodes: TEST_NODES });
        nodes += result.nodes;
        move = findMove(position, result.path!);
      } else {
        move = random.pick(legalMoves(position));
      }
      assert.ok(move);
      position = applyMove(position, move);
      ply++;
      state = outcome(position);
    }
    plies += ply;
    longest = Math.max(longest, ply);
    if (state.kind === 'win' && state.winner === botColor) wins++;
    else lost.push(game);
  }
  t.diagnostic(`won ${wins}/100; ${(plies / 100).toFixed(1)} plies per game on average (longest ${longest}); ${nodes} nodes searched`);
  assert.deepEqual(lost, [], 'games not won');
  assert.equal(wins, 100);
});

test('with a node budget the search is deterministic', () => {
  const position = applyMove(startPosition(), legalMoves(startPosition())[3]!);
  const first = searchDama(position, { maxNodes: 5000 });
  const second = searchDama(position, { maxNodes: 5000 });
  assert.deepEqual(first, second);
  assert.ok(first.depth >= 3, `reached depth ${first.depth}`);
  assert.ok(first.nodes <= 5000);
});

test('the search finds the quiet move that leaves the opponent without a move', () => {
  // Black's last man, on 7H, is stuck once the white king stands on 8G (and would be crowned otherwise).
  const position = setup({ B: ['7f'], n: ['7h'] }, 'white');
  const result = searchDama(position, { maxNodes: 2000 });
  assert.equal(formatMove(result.path!), '7f 8g');
  assert.ok(result.score > WIN_SCORE / 2);
});

test('the search does not give a man away for nothing', () => {
  // 5d 4e would be taken by 3f; the other moves lose nothing.
  const position = setup({ b: ['6a', '5d'], n: ['3f', '1b'] }, 'white');
  const result = searchDama(position, { maxNodes: 3000 });
  assert.notEqual(formatMove(result.path!), '5d 4e');
});

test('the search plays a forced move at once and reports no move when there is none', () => {
  const forced = searchDama(setup({ b: ['6e'], n: ['5f', '1b'] }, 'white'), { maxNodes: 10 });
  assert.equal(formatMove(forced.path!), '6e 4g');
  assert.equal(searchDama(setup({ b: ['8a', '8c'], n: ['7b'] }, 'black'), { maxNodes: 10 }).path, null);
});

test('a budget too small for one full iteration still yields a legal move', () => {
  const result = searchDama(startPosition(), { maxNodes: 3 });
  assert.ok(findMove(startPosition(), result.path!));
});

/** The same position seen from the other side: board turned round, colours swapped. */
function mirrored(board: readonly number[]): Int8Array {
  const out = new Int8Array(SQUARES);
  for (let square = 0; square < SQUARES; square++) out[SQUARES - 1 - square] = -board[square]!;
  return out;
}

test('the evaluation is symmetric between the colours', () => {
  assert.equal(evaluateWhite(Int8Array.from(startPosition().board)), 0);
  const random = Random.fromSeed('dama-eval-symmetry');
  let position: Position = startPosition();
  for (let ply = 0; ply < 60 && !outcome(position); ply++) {
    const board = Int8Array.from(position.board);
    assert.equal(evaluateWhite(board) + evaluateWhite(mirrored(position.board)), 0, `ply ${ply}`);
    position = applyMove(position, random.pick(legalMoves(position)));
  }
});

test('the evaluation values a king above a man and an extra piece above position', () => {
  const man = evaluateWhite(Int8Array.from(setup({ b: ['6e'], n: ['1b'] }, 'white').board));
  const king = evaluateWhite(Int8Array.from(setup({ B: ['6e'], n: ['1b'] }, 'white').board));
  const extra = evaluateWhite(Int8Array.from(setup({ b: ['6e', '8a'], n: ['1b'] }, 'white').board));
  assert.ok(king > man, `king ${king} vs man ${man}`);
  assert.ok(extra > man + 50, `extra man ${extra} vs ${man}`);
});
