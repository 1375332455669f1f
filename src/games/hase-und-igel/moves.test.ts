import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { generateBoard } from './board.js';
import { legalMoves } from './moves.js';
import { winCondition } from './game-end.js';
import { initialState, isValidToSkip, performMove, type Action, type GameState, type Move } from './rules.js';
import { TEST_BOARD, advance, move, stateOf } from './test-kit.js';

const key = (m: Move): string => m.actions.map((a) => JSON.stringify(a)).join(' ');

function apply(state: GameState, m: Move): GameState {
  const result = performMove(state, m);
  assert.ok(result.ok);
  return result.value;
}

test('at the start of the test board RED has 19 moves (counted by hand)', () => {
  // Distances 1..10 (11 is a hedgehog); the hare fields 1, 5 and 9 each allow TAKE_OR_DROP (20, -20, 0)
  // or EAT_SALAD, and no HURRY_AHEAD or FALL_BACK (RED would be first, with BLUE on the start field).
  const moves = legalMoves(initialState(TEST_BOARD));
  assert.equal(moves.length, 19);
  assert.deepEqual(
    [...new Set(moves.map((m) => (m.actions[0] as Extract<Action, { type: 'advance' }>).distance))],
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});

test('after RED advances 2, BLUE has 29 moves, card chains included (counted by hand)', () => {
  // 1: 3 x TAKE_OR_DROP, EAT_SALAD, HURRY_AHEAD to 3 = 5; 2 is occupied; 3, 4, 6, 7, 8, 10: one each;
  // 5 and 9: 3 x TAKE_OR_DROP, EAT_SALAD, and FALL_BACK to hare 1 followed by one of five cards = 9 each.
  const state = apply(initialState(TEST_BOARD), move(advance(2)));
  const moves = legalMoves(state);
  assert.equal(moves.length, 29);
  const chains = moves.filter((m) => m.actions.length === 3).map(key);
  assert.equal(chains.length, 10);
  assert.ok(chains.every((chain) => chain.includes('"card":"FALL_BACK"')));
});

test('the four-action chain is among the legal moves where the board allows it', () => {
  const state = stateOf({ index: 56, carrots: 20, salads: 1 }, { index: 59 });
  const fours = legalMoves(state).filter((m) => m.actions.length === 4);
  assert.ok(fours.length > 0);
  for (const m of fours) assert.deepEqual(m.actions.map((a) => a.order), [0, 1, 2, 3]);
});

test('a lone skip is the only move exactly when skipping is valid', () => {
  const stuck = stateOf({ index: 26, carrots: 0, lastNonSkipAction: advance(1) }, { index: 24 });
  assert.deepEqual(legalMoves(stuck), [{ actions: [{ type: 'skip', order: 0 }], hints: [] }]);
});

test('over random games, every generated move is accepted, and skip is generated exactly when the rules allow it', () => {
  const random = Random.fromSeed('moves');
  let positions = 0;
  for (let game = 0; game < 30; game++) {
    let state = initialState(generateBoard(random));
    while (!winCondition(state)) {
      const moves = legalMoves(state);
      const mover = state.players[state.turn % 2]!;
      const other = state.players[1 - (state.turn % 2)]!;
      const skipOnly = moves.length === 1 && moves[0]!.actions[0]!.type === 'skip';
      assert.equal(skipOnly, isValidToSkip(state.board, mover, other));
      assert.equal(new Set(moves.map(key)).size, moves.length, 'no duplicates');
      for (const m of moves) assert.ok(performMove(state, m).ok, `generated move refused: ${key(m)}`);
      state = apply(state, random.pick(moves));
      positions++;
    }
  }
  assert.ok(positions > 1000);
});

test('over random games, every single action the rules accept as a whole move is generated', () => {
  const random = Random.fromSeed('complete');
  const singles: Action[] = [
    ...Array.from({ length: 45 }, (_, i) => advance(i)),
    { type: 'fallBack', order: 0 },
    { type: 'eatSalad', order: 0 },
    { type: 'exchangeCarrots', order: 0, value: 10 },
    { type: 'exchangeCarrots', order: 0, value: -10 },
    { type: 'skip', order: 0 },
  ];
  for (let game = 0; game < 10; game++) {
    let state = initialState(generateBoard(random));
    while (!winCondition(state)) {
      const generated = new Set(legalMoves(state).map(key));
      for (const action of singles) {
        const m = move(action);
        if (performMove(state, m).ok) assert.ok(generated.has(key(m)), `missing ${key(m)}`);
      }
      state = apply(state, random.pick(legalMoves(state)));
    }
  }
});
