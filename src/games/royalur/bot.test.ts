import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { randomDice, rollValue } from './dice.js';
import { applyMove, distinctMoves, initialState, legalMoves, passTurn, winner, type PlayerIndex, type RoyalUrState } from './rules.js';
import { chooseMove, evaluate } from './search.js';

type Mover = (state: RoyalUrState, roll: number) => number;

/** Plays one game with the dice from `seed`; returns the winner. */
function playGame(movers: readonly [Mover, Mover], seed: string): PlayerIndex {
  const dice = randomDice(Random.fromSeed(seed));
  let state = initialState(0);
  for (let turn = 0; winner(state) === null; turn++) {
    if (turn > 10_000) throw new Error('game does not end');
    const roll = rollValue(dice.roll());
    if (legalMoves(state, roll).length === 0) {
      state = passTurn(state);
      continue;
    }
    const outcome = applyMove(state, movers[state.toMove](state, roll), roll);
    if (!outcome.ok) throw new Error(`illegal move: ${outcome.error}`);
    state = outcome.value.state;
  }
  return winner(state)!;
}

const bot: Mover = (state, roll) => chooseMove(state, roll)!;

function randomMover(seed: string): Mover {
  const random = Random.fromSeed(seed);
  return (state, roll) => random.pick(distinctMoves(state, roll));
}

test('the bot wins at least 80% of 200 seeded games against a uniformly random legal mover', () => {
  let wins = 0;
  const games = 200;
  for (let game = 0; game < games; game++) {
    const botFirst = game % 2 === 0;
    const other = randomMover(`random-${game}`);
    const movers: [Mover, Mover] = botFirst ? [bot, other] : [other, bot];
    const won = playGame(movers, `game-${game}`);
    if (won === (botFirst ? 0 : 1)) wins++;
  }
  console.log(`royalur bot vs random mover: ${wins}/${games} wins`);
  assert.ok(wins >= 0.8 * games, `won ${wins} of ${games}`);
});

test('the bot takes a capture when it is the only sensible move', () => {
  // Token on 3, opponent on the shared cell 6, roll 3: capture. The other choice enters a token.
  const state: RoyalUrState = { positions: [[3, 0, 0, 0, 0, 0, 0], [6, 0, 0, 0, 0, 0, 0]], toMove: 0 };
  assert.equal(chooseMove(state, 3), 0);
});

test('the bot lands on the shared rosette rather than on an ordinary cell', () => {
  const state: RoyalUrState = { positions: [[6, 2, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]], toMove: 0 };
  assert.equal(chooseMove(state, 2), 0);
});

test('the bot takes a token out to win', () => {
  const state: RoyalUrState = { positions: [[15, 15, 15, 15, 15, 15, 13], [14, 13, 0, 0, 0, 0, 0]], toMove: 0 };
  assert.equal(chooseMove(state, 2), 6);
});

test('the bot has no move when none is legal, and its evaluation is antisymmetric', () => {
  assert.equal(chooseMove(initialState(), 0), null);
  const state: RoyalUrState = { positions: [[5, 9, 15, 0, 0, 0, 0], [7, 3, 0, 0, 0, 0, 0]], toMove: 0 };
  const mine = evaluate(state, 0);
  const theirs = evaluate(state, 1);
  assert.ok(Math.abs(mine + theirs) < 1e-9, `${mine} vs ${theirs}`);
});

test('the bot is deterministic: same position and roll, same choice', () => {
  const state: RoyalUrState = { positions: [[5, 9, 1, 0, 0, 0, 0], [7, 3, 10, 0, 0, 0, 0]], toMove: 0 };
  for (let roll = 1; roll <= 4; roll++) assert.equal(chooseMove(state, roll), chooseMove(state, roll));
});
