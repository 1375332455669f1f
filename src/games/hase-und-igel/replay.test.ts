import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { playLocalMatch } from '../../match/local-match.js';
import { renderClientMove } from './bot.js';
import { parseBoardCode } from './board.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';
import { legalMoves } from './moves.js';
import { scriptedClient, type Responder } from './protocol-kit.js';
import { winCondition } from './game-end.js';
import { initialState, performMove, type CardType, type GameState, type Move } from './rules.js';
import { parseState } from './state-xml.js';
import { TEST_BOARD, TEST_BOARD_CODE, advance, card, eatSalad, exchange, fallBack, move } from './test-kit.js';
import { XmlStreamReader } from './xml/xml-reader.js';
import { attr, child } from './xml/xml-element.js';

type Digest = readonly [index: number, carrots: number, salads: number, cards: string];
const T = 'TAKE_OR_DROP_CARROTS';
const E = 'EAT_SALAD';
const H = 'HURRY_AHEAD';
const F = 'FALL_BACK';
const hand = (...cards: CardType[]) => cards.map((c) => c[0]).join('');

/**
 * A constructed game on the test board, worked out by hand from the rules: each move with both
 * players' (field, carrots, salads, cards) after it. It touches every action and both bonuses.
 */
const OPENING: readonly { move: Move; red: Digest; blue: Digest; why: string }[] = [
  { move: move(advance(2)), red: [2, 65, 5, 'TEHF'], blue: [0, 68, 5, 'TEHF'], why: '2 costs 3' },
  { move: move(advance(1), card(H, 1)), red: [2, 65, 5, 'TEHF'], blue: [3, 67, 5, hand(T, E, F)], why: 'onto hare 1, hurry to 3 in front of RED' },
  { move: move(advance(3), card(T, 1, -20)), red: [5, 39, 5, hand(E, H, F)], blue: [3, 67, 5, 'TEF'], why: '3 costs 6, drop 20; BLUE on POSITION_1 is second: no bonus' },
  { move: move(advance(1)), red: [5, 39, 5, 'EHF'], blue: [4, 66, 5, 'TEF'], why: 'onto POSITION_2' },
  { move: move(advance(5)), red: [10, 24, 5, 'EHF'], blue: [4, 96, 5, 'TEF'], why: 'RED must leave the hare field; BLUE second on POSITION_2: +30' },
  { move: move(advance(2)), red: [10, 24, 5, 'EHF'], blue: [6, 93, 5, 'TEF'], why: '' },
  { move: move(eatSalad()), red: [10, 34, 4, 'EHF'], blue: [6, 93, 5, 'TEF'], why: 'must eat; strictly ahead: +10' },
  { move: move(exchange(10)), red: [10, 34, 4, 'EHF'], blue: [6, 103, 5, 'TEF'], why: 'take 10 on a carrot field' },
  { move: move(advance(3)), red: [13, 28, 4, 'EHF'], blue: [6, 103, 5, 'TEF'], why: 'must move on after eating' },
  { move: move(advance(8)), red: [13, 28, 4, 'EHF'], blue: [14, 67, 5, 'TEF'], why: '8 costs 36' },
  { move: move(fallBack()), red: [11, 48, 4, 'EHF'], blue: [14, 67, 5, 'TEF'], why: 'back 2 fields to hedgehog 11: +20' },
  { move: move(advance(3)), red: [11, 48, 4, 'EHF'], blue: [17, 61, 5, 'TEF'], why: '' },
  { move: move(advance(1), card(H, 1)), red: [18, 47, 4, hand(E, F)], blue: [17, 61, 5, 'TEF'], why: 'off the hedgehog onto hare 12, hurry to 18; BLUE on POSITION_1 is second' },
  { move: move(advance(3)), red: [18, 77, 4, 'EF'], blue: [20, 55, 5, 'TEF'], why: 'RED second on POSITION_2: +30' },
  { move: move(advance(4)), red: [22, 67, 4, 'EF'], blue: [20, 85, 5, 'TEF'], why: 'onto salad 22; BLUE second on POSITION_2: +30' },
  { move: move(advance(1)), red: [22, 67, 4, 'EF'], blue: [21, 84, 5, 'TEF'], why: '' },
  { move: move(eatSalad()), red: [22, 77, 3, 'EF'], blue: [21, 84, 5, 'TEF'], why: 'ahead: +10' },
  { move: move(advance(2)), red: [22, 77, 3, 'EF'], blue: [23, 81, 5, 'TEF'], why: 'over RED onto 23' },
  { move: move(fallBack()), red: [19, 107, 3, 'EF'], blue: [23, 81, 5, 'TEF'], why: 'from the salad field back to hedgehog 19: +30' },
  { move: move(exchange(-10)), red: [19, 107, 3, 'EF'], blue: [23, 71, 5, 'TEF'], why: 'give 10' },
  { move: move(advance(8), card(E, 1)), red: [27, 81, 2, hand(F)], blue: [23, 71, 5, 'TEF'], why: '8 costs 36, eat by card while first: +10' },
  { move: move(advance(10)), red: [27, 81, 2, 'F'], blue: [33, 16, 5, 'TEF'], why: '10 costs 55' },
  { move: move(advance(2)), red: [29, 78, 2, 'F'], blue: [33, 26, 5, 'TEF'], why: 'BLUE first on POSITION_1: +10' },
  { move: move(advance(2), card(F, 1)), red: [29, 78, 2, 'F'], blue: [28, 23, 5, hand(T, E)], why: 'onto hare 35, fall back behind RED to 28' },
  { move: move(advance(4)), red: [33, 68, 2, 'F'], blue: [28, 23, 5, 'TE'], why: '' },
  { move: move(advance(1)), red: [33, 78, 2, 'F'], blue: [29, 22, 5, 'TE'], why: 'RED first on POSITION_1: +10' },
];

const digest = (state: GameState, seat: 0 | 1): Digest => {
  const p = state.players[seat];
  return [p.index, p.carrots, p.salads, p.cards.map((c) => c[0]).join('')];
};

test('a constructed opening of 26 moves gives the states worked out by hand', () => {
  let state = initialState(TEST_BOARD);
  for (const [i, step] of OPENING.entries()) {
    const next = performMove(state, step.move);
    assert.ok(next.ok, `move ${i + 1} refused: ${next.ok ? '' : next.error}`);
    state = next.value;
    assert.deepEqual([digest(state, 0), digest(state, 1)], [step.red, step.blue], `after move ${i + 1} (${step.why})`);
    assert.equal(winCondition(state), null);
  }
  assert.equal(state.turn, 26);
});

/** A client that plays the scripted moves of its color, then its first legal move. */
function scripted(seat: 0 | 1): Responder {
  return (state, _request, roomId) => {
    const scriptedMove = OPENING[state.turn]?.move;
    return renderClientMove(roomId, state.turn % 2 === seat && scriptedMove ? scriptedMove : legalMoves(state)[0]!);
  };
}

test('the same opening played through the seats gives the same states in the mementos', async () => {
  const game = createHaseUndIgelGame();
  const record = await playLocalMatch({
    game,
    params: { args: { room: 'r1', board: TEST_BOARD_CODE } },
    players: [
      { name: 'red', play: scriptedClient(scripted(0)) },
      { name: 'blue', play: scriptedClient(scripted(1)) },
    ],
  });
  const reader = new XmlStreamReader({ maxDepth: 16, maxMessageChars: 1 << 20, maxTokenChars: 1 << 16, maxAttributes: 16, maxNameChars: 64, maxElements: 4096 });
  const states = reader
    .push(record.spectatorStream)
    .flatMap((e) => (e.kind === 'message' && e.element.name === 'room' ? [child(e.element, 'data')!] : []))
    .filter((data) => attr(data, 'class') === 'memento')
    .map((data) => parseState(child(data, 'state')!));
  for (const [i, step] of OPENING.entries()) {
    const parsed = states[i + 1]!;
    assert.ok(parsed.ok);
    assert.deepEqual([digest(parsed.value.state, 0), digest(parsed.value.state, 1)], [step.red, step.blue], `memento ${i + 1}`);
  }
});

interface RecordedGame {
  readonly board: string;
  readonly moves: readonly Move[];
  readonly states: readonly [Digest, Digest][];
  readonly result: { readonly winner: string; readonly reason: string; readonly turn: number };
}

test('a recorded game between two server bots replays move by move to the recorded states and result', () => {
  const recorded = JSON.parse(readFileSync(new URL('./fixtures/bot-game.json', import.meta.url), 'utf8')) as RecordedGame;
  const board = parseBoardCode(recorded.board);
  assert.ok(board.ok);
  let state = initialState(board.value);
  for (const [i, m] of recorded.moves.entries()) {
    assert.equal(winCondition(state), null, `the game went on before move ${i + 1}`);
    const next = performMove(state, m);
    assert.ok(next.ok, `recorded move ${i + 1} refused`);
    state = next.value;
    assert.deepEqual([digest(state, 0), digest(state, 1)], recorded.states[i], `after move ${i + 1}`);
  }
  const over = winCondition(state);
  assert.deepEqual({ winner: over?.winner, reason: over?.reason, turn: state.turn }, recorded.result);
});
