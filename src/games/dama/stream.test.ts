import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { EMPTY, SQUARES } from './board.js';
import { applyMove, legalMoves, startPosition, type Position } from './rules.js';
import { boardBlock, boardBlockBytes } from './stream.js';

test('a board block written as bytes is the text block, encoded: every position of random games, and squares with no piece code', () => {
  const random = Random.fromSeed('board-bytes');
  for (let game = 0; game < 20; game++) {
    let position: Position = startPosition();
    for (let ply = 0; ply < 200; ply++) {
      assert.deepEqual(boardBlockBytes(position.board), Buffer.from(boardBlock(position.board)));
      const moves = legalMoves(position);
      if (moves.length === 0) break;
      position = applyMove(position, random.pick(moves));
    }
  }
  const odd = new Array<number>(SQUARES).fill(EMPTY);
  odd[0] = 7;
  odd[9] = -2;
  assert.deepEqual(boardBlockBytes(odd), Buffer.from(boardBlock(odd)));
});
