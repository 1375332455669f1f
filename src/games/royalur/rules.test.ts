import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { formatCoins, parseCoins, randomDice, rollValue, scriptedDice, type Coins } from './dice.js';
import {
  END,
  START,
  TOKENS,
  applyMove,
  checkMove,
  distinctMoves,
  initialState,
  legalMoves,
  parseToken,
  passTurn,
  winner,
  type PlayerIndex,
  type RoyalUrState,
} from './rules.js';

/** A position: the listed tokens' places (the rest at the start), and whose turn it is. */
function position(first: number[], second: number[] = [], toMove: PlayerIndex = 0): RoyalUrState {
  const pad = (places: number[]) => [...places, ...Array(TOKENS - places.length).fill(START)];
  return { positions: [pad(first), pad(second)], toMove };
}

function move(state: RoyalUrState, token: number, roll: number) {
  const outcome = applyMove(state, token, roll);
  assert.ok(outcome.ok, `move of token ${token} by ${roll} rejected: ${outcome.ok ? '' : outcome.error}`);
  return outcome.value;
}

test('each player starts with 7 tokens off the board and the first player rolls first', () => {
  const state = initialState();
  assert.deepEqual(state.positions, [Array(7).fill(0), Array(7).fill(0)]);
  assert.equal(state.toMove, 0);
  assert.equal(initialState(1).toMove, 1);
  assert.equal(winner(state), null);
});

test('a roll of 0 moves nothing, so the turn passes', () => {
  assert.deepEqual(legalMoves(initialState(), 0), []);
  assert.deepEqual(checkMove(position([3]), 0, 0), { ok: false, error: 'move/zero-roll' });
  assert.equal(passTurn(initialState()).toMove, 1);
});

test('a token enters from the start onto the cell equal to the roll', () => {
  for (let roll = 1; roll <= 4; roll++) {
    const outcome = move(initialState(), 2, roll);
    assert.equal(outcome.from, START);
    assert.equal(outcome.to, roll);
    assert.equal(outcome.state.positions[0][2], roll);
  }
});

test('a token moves exactly as many cells as the roll', () => {
  const outcome = move(position([6]), 0, 3);
  assert.equal(outcome.to, 9);
  assert.deepEqual(outcome.state.positions[0], [9, 0, 0, 0, 0, 0, 0]);
});

test('every token at the start can move, and they count once as distinct moves', () => {
  assert.deepEqual(legalMoves(initialState(), 2), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(distinctMoves(initialState(), 2), [0]);
  assert.deepEqual(distinctMoves(position([5, 0, 7]), 1), [0, 1, 2]);
});

test('a token cannot land on a cell holding a token of the same player', () => {
  const state = position([2, 5]);
  assert.deepEqual(checkMove(state, 0, 3), { ok: false, error: 'move/own-token' });
  assert.deepEqual(checkMove(state, 2, 2), { ok: false, error: 'move/own-token' });
  assert.deepEqual(legalMoves(state, 3), [1, 2, 3, 4, 5, 6]);
});

test('cells 1 to 4 and 13 to 14 are private: both players may stand on their own cell of the same number', () => {
  for (const cell of [1, 2, 3, 4, 13, 14]) {
    const from = cell - 1;
    const outcome = move(position([from], [cell]), 0, 1);
    assert.equal(outcome.captured, null, `cell ${cell}`);
    assert.equal(outcome.state.positions[1][0], cell);
  }
});

test('landing on an opponent token on a shared cell (5 to 12) sends it back to its start', () => {
  for (const cell of [5, 6, 7, 9, 10, 11, 12]) {
    // The opponent's token 2 is the one hit; its other tokens stay where they are.
    const outcome = move(position([cell - 2], [1, 13, cell]), 0, 2);
    assert.equal(outcome.captured, 2, `cell ${cell}`);
    assert.deepEqual(outcome.state.positions[1].slice(0, 3), [1, 13, START]);
    assert.equal(outcome.state.positions[0][0], cell);
  }
});

test('a capture does not give an extra turn', () => {
  const outcome = move(position([3], [6]), 0, 3);
  assert.equal(outcome.captured, 0);
  assert.equal(outcome.extraTurn, false);
  assert.equal(outcome.state.toMove, 1);
});

test('landing on a rosette (cells 4, 8 and 14) gives the same player another turn', () => {
  for (const cell of [4, 8, 14]) {
    const outcome = move(position([cell - 2]), 0, 2);
    assert.equal(outcome.extraTurn, true, `cell ${cell}`);
    assert.equal(outcome.state.toMove, 0);
  }
  for (const cell of [1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13]) {
    const plain = move(position([cell - 1]), 0, 1);
    assert.equal(plain.extraTurn, false, `cell ${cell}`);
    assert.equal(plain.state.toMove, 1);
  }
  assert.equal(move(position([], [6], 1), 0, 2).state.toMove, 1, 'the second player rolls again too');
});

test('the shared rosette cannot be landed on while an opponent token is on it', () => {
  const state = position([6], [8]);
  assert.deepEqual(checkMove(state, 0, 2), { ok: false, error: 'move/rosette-occupied' });
  assert.deepEqual(checkMove(state, 1, 4), { ok: true, value: 4 });
  assert.deepEqual(legalMoves(state, 2), [0, 1, 2, 3, 4, 5, 6].filter((t) => t !== 0));
  // A token can jump over it.
  assert.equal(move(state, 0, 3).to, 9);
});

test('an occupied rosette of the player\'s own row cannot be landed on either', () => {
  assert.deepEqual(checkMove(position([4, 2]), 1, 2), { ok: false, error: 'move/own-token' });
  assert.deepEqual(checkMove(position([14, 12]), 1, 2), { ok: false, error: 'move/own-token' });
  // The opponent's token on its own cell 4 is on another board cell.
  assert.equal(move(position([2], [4]), 0, 2).extraTurn, true);
});

test('a token leaves the track only with the exact roll', () => {
  assert.deepEqual(checkMove(position([14]), 0, 1), { ok: true, value: END });
  for (const roll of [2, 3, 4]) assert.deepEqual(checkMove(position([14]), 0, roll), { ok: false, error: 'move/overshoot' });
  assert.deepEqual(checkMove(position([11]), 0, 4), { ok: true, value: END });
  assert.deepEqual(checkMove(position([12]), 0, 4), { ok: false, error: 'move/overshoot' });
  const out = move(position([13]), 0, 2);
  assert.equal(out.to, END);
  assert.equal(out.extraTurn, false);
  assert.equal(out.state.toMove, 1);
});

test('several tokens may be out at once and an exited token cannot move again', () => {
  const state = move(position([END, 14]), 1, 1).state;
  assert.deepEqual(state.positions[0].slice(0, 2), [END, END]);
  const again = { ...state, toMove: 0 as const };
  assert.deepEqual(checkMove(again, 0, 1), { ok: false, error: 'move/token-exited' });
  assert.deepEqual(legalMoves(again, 1), [2, 3, 4, 5, 6]);
});

test('with a non-zero roll the turn still passes when every token is blocked', () => {
  const crowded = position([1, 2, 3, 4, END, END, END]);
  assert.deepEqual(legalMoves(crowded, 1), [3]);
  const blocked = position([END, END, END, END, END, 13, 14]);
  assert.deepEqual(legalMoves(blocked, 1), [6]);
  assert.deepEqual(legalMoves(blocked, 3), []);
  assert.deepEqual(legalMoves(position([END, END, END, END, END, END, 14]), 4), []);
});

test('the player who takes the 7th token out wins and no move follows', () => {
  const outcome = move(position([END, END, END, END, END, END, 13], [5]), 6, 2);
  assert.equal(outcome.winner, 0);
  assert.equal(winner(outcome.state), 0);
  assert.deepEqual(legalMoves(outcome.state, 2), []);
  assert.deepEqual(checkMove({ ...outcome.state, toMove: 1 }, 0, 2), { ok: false, error: 'move/game-over' });
});

test('token numbers out of 0..6 are rejected', () => {
  for (const token of [-1, 7, 100, 1.5]) assert.deepEqual(checkMove(initialState(), token, 1), { ok: false, error: 'move/no-such-token' });
});

test('a token number is parsed leniently like the reference server, and garbage is refused', () => {
  assert.deepEqual(parseToken('3'), { ok: true, value: 3 });
  assert.deepEqual(parseToken(' 6 \t'), { ok: true, value: 6 });
  assert.deepEqual(parseToken('+0'), { ok: true, value: 0 });
  assert.deepEqual(parseToken('007'), { ok: false, error: 'move/no-such-token' });
  assert.deepEqual(parseToken('99999999999999999999999'), { ok: false, error: 'move/no-such-token' });
  for (const bad of ['', 'x', '-1', '3.0', '3 4', 'RETIRE', '0x1']) {
    assert.deepEqual(parseToken(bad), { ok: false, error: 'move/not-a-number' }, bad);
  }
});

test('a roll is the number of heads among four coins, written as four binary digits', () => {
  const coins: Coins = [1, 0, 1, 1];
  assert.equal(rollValue(coins), 3);
  assert.equal(formatCoins(coins), '1 0 1 1');
  assert.deepEqual(parseCoins('1 0 1 1'), coins);
  assert.equal(parseCoins('1 0 1'), null);
  assert.equal(parseCoins('1 0 2 1'), null);
});

test('scripted dice play back their rolls in order and fail when exhausted', () => {
  const dice = scriptedDice([[0, 0, 1, 1], [1, 1, 1, 1]]);
  assert.deepEqual(dice.roll(), [0, 0, 1, 1]);
  assert.deepEqual(dice.roll(), [1, 1, 1, 1]);
  assert.throws(() => dice.roll(), /ran out/);
});

test('seeded dice are reproducible and close to the 1:4:6:4:1 distribution', () => {
  const a = randomDice(Random.fromSeed('dice'));
  const b = randomDice(Random.fromSeed('dice'));
  const counts = [0, 0, 0, 0, 0];
  const rolls = 16000;
  for (let i = 0; i < rolls; i++) {
    const coins = a.roll();
    assert.deepEqual(coins, b.roll());
    counts[rollValue(coins)]!++;
  }
  [1, 4, 6, 4, 1].forEach((weight, value) => {
    const expected = (rolls * weight) / 16;
    assert.ok(Math.abs(counts[value]! - expected) < expected * 0.1 + 30, `roll ${value}: ${counts[value]} vs ${expected}`);
  });
});

test('random games keep the board consistent and always end with a winner', () => {
  const random = Random.fromSeed('playouts');
  const dice = randomDice(random);
  for (let game = 0; game < 300; game++) {
    let state = initialState((game % 2) as PlayerIndex);
    let turns = 0;
    while (winner(state) === null) {
      assert.ok(++turns < 5000, 'game does not end');
      const roll = rollValue(dice.roll());
      const moves = legalMoves(state, roll);
      if (moves.length === 0) {
        state = passTurn(state);
        continue;
      }
      state = move(state, random.pick(moves), roll).state;
      for (const places of state.positions) {
        const onTrack = places.filter((p) => p !== START && p !== END);
        assert.equal(new Set(onTrack).size, onTrack.length, 'two tokens of a player on one cell');
      }
      const shared = (places: readonly number[]) => places.filter((p) => p >= 5 && p <= 12);
      const mine = shared(state.positions[0]);
      assert.ok(!shared(state.positions[1]).some((p) => mine.includes(p)), 'two players on one shared cell');
    }
  }
});
