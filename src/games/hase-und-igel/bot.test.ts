import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { generateBoard } from './board.js';
import { SERVER_BOT_SEARCH } from './bot.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';
import { legalMoves } from './moves.js';
import { playing, scriptedClient } from './protocol-kit.js';
import { winCondition } from './game-end.js';
import { initialState, performMove, type GameState } from './rules.js';
import { evaluate, movesToFinish, searchMove } from './search.js';
import { TEST_BOARD, TEST_BOARD_CODE, stateOf } from './test-kit.js';

const game = createHaseUndIgelGame();
/**
 * The bots search in this thread, on real time: wide time limits keep a busy machine from turning
 * a slow search into a lost game, which these tests of the bot's play are not about.
 */
const WIDE_LIMITS = { softTimeout: '300', hardTimeout: '3600' };

test('the server bot beats a random legal mover in at least 95 of 100 seeded games', () => {
  let wins = 0;
  for (let g = 0; g < 100; g++) {
    const random = Random.fromSeed(`strength-${g}`);
    let state: GameState = initialState(generateBoard(random));
    const botSeat = g % 2;
    while (!winCondition(state)) {
      const move = state.turn % 2 === botSeat ? searchMove(state, SERVER_BOT_SEARCH).move : random.pick(legalMoves(state));
      const next = performMove(state, move);
      assert.ok(next.ok);
      state = next.value;
    }
    if (winCondition(state)!.winner === (botSeat === 0 ? 'RED' : 'BLUE')) wins++;
  }
  assert.ok(wins >= 95, `won ${wins} of 100`);
});

test('the search is deterministic and stays within its node budget', () => {
  const state = initialState(TEST_BOARD);
  const a = searchMove(state, { maxDepth: 3, maxNodes: 500 });
  const b = searchMove(state, { maxDepth: 3, maxNodes: 500 });
  assert.deepEqual(a, b);
  assert.ok(a.nodes <= 501);
});

test('the search takes a win it can see', () => {
  // BLUE can enter the goal now; doing so ends the game at once.
  const state = stateOf({ index: 40 }, { index: 61, carrots: 8, salads: 0 }, 1);
  const result = searchMove(state, SERVER_BOT_SEARCH);
  assert.deepEqual(result.move.actions, [{ type: 'advance', order: 0, distance: 3 }]);
});

test('the estimate counts extra moves for a salad left behind the last salad field, and fewer for being closer', () => {
  const past = (salads: number) => movesToFinish(TEST_BOARD, stateOf({ index: 58, salads, carrots: 30, cards: [] }, {}).players[0]);
  assert.ok(past(1) >= past(0) + 3, 'a move to eat and a detour back to a salad field');
  assert.ok(movesToFinish(TEST_BOARD, stateOf({ index: 40, salads: 0, carrots: 60 }, {}).players[0]) < movesToFinish(TEST_BOARD, stateOf({ index: 20, salads: 0, carrots: 60 }, {}).players[0]));
  assert.equal(movesToFinish(TEST_BOARD, stateOf({ index: 64, salads: 0, carrots: 5 }, {}).players[0]), 0);
  const s = stateOf({ index: 30 }, { index: 20 });
  assert.ok(evaluate(s) > 0, 'RED, ahead with the same resources, stands better');
});

test('the server bot plays through its seat against a client, one XML move per request', async () => {
  const random = Random.fromSeed('bot-seat');
  const record = await playLocalMatch({
    game,
    params: { bots: 1, players: 2, args: { room: 'r1', board: TEST_BOARD_CODE, ...WIDE_LIMITS } },
    players: [{ name: 'human', play: scriptedClient(playing((state) => random.pick(legalMoves(state)))) }],
    seed: 'bot-seat',
  });
  assert.equal(record.outcome.error, null);
  assert.match(record.outcome.result!.reason, /BLUE \(ServerBot\$0\) wins/);
  assert.equal(record.outcome.seats[1]!.closeReason, null, 'the bot closed politely, it was not removed');
});

test('two server bots play a match to its end', async () => {
  const record = await playLocalMatch({ game, params: { bots: 2, players: 2, args: { seed: 'bots', ...WIDE_LIMITS } }, players: [], seed: 'two-bots' });
  assert.equal(record.outcome.error, null);
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
  assert.ok(record.spectatorStream.includes('<data class="result">'));
});

test('the search is bounded by time as well as nodes: when the time is up it answers with the best move of the last complete depth', () => {
  const state = initialState(TEST_BOARD);
  const unbounded = searchMove(state, { maxDepth: 3, maxNodes: 1_000_000 });
  assert.equal(unbounded.depth, 3);
  // A clock that moves 1 ms per look (every 64 nodes): deterministic, whatever the machine.
  let looks = 0;
  const clock = () => looks++;
  const timed = searchMove(state, { maxDepth: 3, maxNodes: 1_000_000, maxMillis: 5 }, clock);
  assert.ok(timed.depth >= 1 && timed.depth < 3, `stopped at depth ${timed.depth}`);
  assert.ok(timed.nodes < unbounded.nodes, `${timed.nodes} nodes, against ${unbounded.nodes} without a time bound`);
  const depthOne = searchMove(state, { maxDepth: timed.depth, maxNodes: 1_000_000 });
  assert.deepEqual(timed.move, depthOne.move, 'the move of the last depth it completed');
  // No time at all: depth 1 still completes, so there is always a move.
  looks = 0;
  const none = searchMove(state, { maxDepth: 3, maxNodes: 1_000_000, maxMillis: 0 }, clock);
  assert.equal(none.depth, 1);
});
