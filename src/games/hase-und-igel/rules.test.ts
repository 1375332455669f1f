import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { FIXED_FIELDS, SHUFFLED_GROUPS, boardCode, generateBoard, isDealableBoard, parseBoardCode } from './board.js';
import { winCondition } from './game-end.js';
import { CARD_TYPES, MOVE_ERRORS, carrotCost, initialState, isValidToAdvance, isValidToEatSalad, isValidToExchangeCarrots, isValidToFallBack, isValidToPlayFallBack, isValidToPlayHurryAhead, isValidToSkip, moveableFields, performMove, playMove, type GameState, type Move } from './rules.js';
import { TEST_BOARD, TEST_BOARD_CODE, advance, blue, card, eatSalad, exchange, fallBack, move, red, skip, stateOf } from './test-kit.js';

function apply(state: GameState, m: Move): GameState {
  const result = performMove(state, m);
  assert.ok(result.ok, `move refused: ${result.ok ? '' : result.error}`);
  return result.value;
}

function refused(state: GameState, m: Move): string {
  const result = performMove(state, m);
  assert.ok(!result.ok, 'move was accepted');
  return result.error;
}

// ---- the board ----

test('a dealt board keeps the fixed fields and shuffles each group within itself', () => {
  for (let seed = 0; seed < 50; seed++) {
    const board = generateBoard(Random.fromSeed(seed));
    assert.equal(board.length, 65);
    for (const field of FIXED_FIELDS) assert.equal(board[field.index], field.type);
    for (const group of SHUFFLED_GROUPS) assert.deepEqual(group.indices.map((i) => board[i]).sort(), [...group.types].sort());
    assert.ok(isDealableBoard(board));
  }
});

test('every board has 9 hedgehogs, 4 salads, 12 hares, 25 carrots, 5 POSITION_1 and 8 POSITION_2 fields', () => {
  const board = generateBoard(Random.fromSeed('count'));
  const count = (type: string) => board.filter((t) => t === type).length;
  assert.deepEqual(
    [count('START'), count('HEDGEHOG'), count('SALAD'), count('HARE'), count('CARROT'), count('POSITION_1'), count('POSITION_2'), count('GOAL')],
    [1, 9, 4, 12, 25, 5, 8, 1],
  );
});

test('equal seeds deal equal boards and different seeds deal different ones', () => {
  assert.equal(boardCode(generateBoard(Random.fromSeed('a'))), boardCode(generateBoard(Random.fromSeed('a'))));
  const codes = new Set(Array.from({ length: 20 }, (_, i) => boardCode(generateBoard(Random.fromSeed(i)))));
  assert.ok(codes.size > 15);
});

test('board codes round-trip and boards the server could not deal are refused', () => {
  assert.equal(boardCode(TEST_BOARD), TEST_BOARD_CODE);
  assert.deepEqual(parseBoardCode('S'), { ok: false, error: 'board/bad-length' });
  assert.deepEqual(parseBoardCode(TEST_BOARD_CODE.replace('G', 'X')), { ok: false, error: 'board/bad-letter' });
  // Swapping a hedgehog with a carrot field breaks the fixed layout.
  const swapped = `${TEST_BOARD_CODE.slice(0, 11)}C${TEST_BOARD_CODE.slice(12, 13)}I${TEST_BOARD_CODE.slice(14)}`;
  assert.deepEqual(parseBoardCode(swapped), { ok: false, error: 'board/not-a-deal' });
});

// ---- the start ----

test('both players start on field 0 with 68 carrots, 5 salads and the four cards in order; RED moves first', () => {
  const state = initialState(TEST_BOARD);
  assert.equal(state.turn, 0);
  for (const player of state.players) {
    assert.deepEqual([player.index, player.carrots, player.salads, player.lastNonSkipAction], [0, 68, 5, null]);
    assert.deepEqual(player.cards, ['TAKE_OR_DROP_CARROTS', 'EAT_SALAD', 'HURRY_AHEAD', 'FALL_BACK']);
  }
  assert.deepEqual(state.players.map((p) => p.color), ['RED', 'BLUE']);
  assert.deepEqual(CARD_TYPES, ['TAKE_OR_DROP_CARROTS', 'EAT_SALAD', 'HURRY_AHEAD', 'FALL_BACK']);
});

// ---- advancing ----

test('advancing n fields costs n(n+1)/2 carrots', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 10, 44].map(carrotCost), [1, 3, 6, 10, 15, 55, 990]);
  const after = apply(initialState(TEST_BOARD), move(advance(3)));
  assert.deepEqual([after.players[0].index, after.players[0].carrots, after.turn], [3, 62, 1]);
});

test('the reach for a number of carrots follows the server formula', () => {
  assert.deepEqual([0, 1, 2, 3, 5, 6, 65, 66, 68, 989, 990, 5000].map(moveableFields), [0, 1, 1, 2, 2, 3, 10, 11, 11, 43, 44, 44]);
});

test('an advance of zero or negative distance, or beyond the carrots, is refused', () => {
  const state = initialState(TEST_BOARD);
  assert.equal(refused(state, move(advance(0))), 'Vorwärtszug um 0 Felder ist nicht möglich');
  assert.equal(refused(state, move(advance(-1))), 'Vorwärtszug um -1 Felder ist nicht möglich');
  const poor = stateOf({ index: 2, carrots: 5 }, {});
  assert.ok(isValidToAdvance(TEST_BOARD, poor.players[0], poor.players[1], 2)); // 3 carrots
  assert.ok(!isValidToAdvance(TEST_BOARD, poor.players[0], poor.players[1], 3)); // 6 > 5
});

test('a field held by the opponent cannot be entered, except the goal which both may share', () => {
  const state = stateOf({ index: 2 }, { index: 6 });
  assert.ok(!isValidToAdvance(TEST_BOARD, state.players[0], state.players[1], 4));
  const goal = stateOf({ index: 61, carrots: 6, salads: 0 }, { index: 64 });
  assert.ok(isValidToAdvance(TEST_BOARD, goal.players[0], goal.players[1], 3));
});

test('a hedgehog field can never be entered by advancing', () => {
  const state = initialState(TEST_BOARD);
  assert.equal(TEST_BOARD[11], 'HEDGEHOG');
  assert.equal(refused(state, move(advance(11))), 'Vorwärtszug um 11 Felder ist nicht möglich');
});

test('a salad field can be entered only with a salad left', () => {
  const withSalad = stateOf({ index: 8 }, {});
  const without = stateOf({ index: 8, salads: 0 }, {});
  assert.ok(isValidToAdvance(TEST_BOARD, withSalad.players[0], withSalad.players[1], 2));
  assert.ok(!isValidToAdvance(TEST_BOARD, without.players[0], without.players[1], 2));
});

test('a hare field can be entered only if a card can be played there', () => {
  const noCards = stateOf({ index: 2, cards: [] }, {});
  assert.ok(!isValidToAdvance(TEST_BOARD, noCards.players[0], noCards.players[1], 3)); // to 5: HARE
  // Only HURRY_AHEAD, but on 5 RED would be ahead of BLUE on 0: not playable.
  const hurryOnly = stateOf({ index: 2, cards: ['HURRY_AHEAD'] }, {});
  assert.ok(!isValidToAdvance(TEST_BOARD, hurryOnly.players[0], hurryOnly.players[1], 3));
  const takeOrDrop = stateOf({ index: 2, cards: ['TAKE_OR_DROP_CARROTS'] }, {});
  assert.ok(isValidToAdvance(TEST_BOARD, takeOrDrop.players[0], takeOrDrop.players[1], 3));
});

test('the hare check is recursive: a card that lands on another hare field needs yet another card (the spec example)', () => {
  // Jasper (BLUE) on 34, just before the hare field 35; Johannes (RED) far behind on 23 with only HURRY_AHEAD.
  const johannes = stateOf({ index: 23, carrots: 200, cards: ['HURRY_AHEAD'] }, { index: 34 });
  const [me, other] = johannes.players;
  assert.equal(TEST_BOARD[31], 'HARE');
  assert.equal(TEST_BOARD[35], 'HARE');
  assert.ok(!isValidToAdvance(TEST_BOARD, me, other, 8), 'behind Jasper: hurrying ahead would land on hare 35 with no card left');
  assert.ok(!isValidToAdvance(TEST_BOARD, me, other, 12), 'in front of Jasper: HURRY_AHEAD cannot be played when first');
  const twoCards = stateOf({ index: 23, carrots: 200, cards: ['HURRY_AHEAD', 'EAT_SALAD'] }, { index: 34 });
  assert.ok(isValidToAdvance(TEST_BOARD, twoCards.players[0], twoCards.players[1], 8));
});

test('the goal can be entered with at most 10 carrots left after paying (10 is allowed) and no salads', () => {
  const at = (carrots: number, salads = 0) => stateOf({ index: 61, carrots, salads }, { index: 10 });
  const check = (s: GameState) => isValidToAdvance(TEST_BOARD, s.players[0], s.players[1], 3);
  assert.ok(check(at(6 + 10)), 'exactly 10 left: the spec says "weniger als zehn", the server allows 10');
  assert.ok(!check(at(6 + 11)));
  assert.ok(check(at(6)));
  assert.ok(!check(at(6 + 10, 1)), 'a salad left');
});

// ---- falling back ----

test('falling back moves to the previous hedgehog and gains 10 carrots per field', () => {
  const state = stateOf({ index: 29, carrots: 5, lastNonSkipAction: advance(3) }, { index: 40 });
  const after = apply(state, move(fallBack()));
  assert.deepEqual([after.players[0].index, after.players[0].carrots], [24, 55]);
});

test('falling back is refused when the previous hedgehog is occupied or there is none', () => {
  const occupied = stateOf({ index: 29 }, { index: 24 });
  assert.equal(refused(occupied, move(fallBack())), 'Es kann gerade kein Rückzug gemacht werden.');
  const none = stateOf({ index: 8 }, { index: 20 });
  assert.ok(!isValidToFallBack(TEST_BOARD, none.players[0], none.players[1]));
});

test('from a hedgehog a player may fall back to the previous hedgehog (and must move on, which this is)', () => {
  const state = stateOf({ index: 24, carrots: 10 }, { index: 40 });
  const after = apply(state, move(fallBack()));
  assert.deepEqual([after.players[0].index, after.players[0].carrots], [19, 60]);
});

test('falling back is also allowed right after eating a salad (it is a move, not a rest)', () => {
  const state = stateOf({ index: 22, salads: 3, lastNonSkipAction: eatSalad() }, { index: 40 });
  const after = apply(state, move(fallBack()));
  assert.deepEqual([after.players[0].index, after.players[0].carrots], [19, 98]);
});

// ---- salads ----

test('eating a salad gives 10 carrots when strictly ahead and 30 otherwise', () => {
  const ahead = stateOf({ index: 22, salads: 4, carrots: 20, lastNonSkipAction: advance(2) }, { index: 20 });
  const behind = stateOf({ index: 22, salads: 4, carrots: 20, lastNonSkipAction: advance(2) }, { index: 23 });
  const a = apply(ahead, move(eatSalad())).players[0];
  const b = apply(behind, move(eatSalad())).players[0];
  assert.deepEqual([a.salads, a.carrots], [3, 30]);
  assert.deepEqual([b.salads, b.carrots], [3, 50]);
});

test('after entering a salad field the player must eat: advancing, falling back and skipping are refused', () => {
  for (const last of [advance(4), card('HURRY_AHEAD'), card('FALL_BACK')]) {
    const state = stateOf({ index: 22, salads: 4, lastNonSkipAction: last }, { index: 30 });
    const [me, other] = state.players;
    assert.ok(isValidToEatSalad(TEST_BOARD, me));
    assert.ok(!isValidToAdvance(TEST_BOARD, me, other, 1));
    assert.ok(!isValidToFallBack(TEST_BOARD, me, other));
    assert.ok(!isValidToSkip(TEST_BOARD, me, other));
    assert.equal(refused(state, move(advance(1))), 'Vorwärtszug um 1 Felder ist nicht möglich');
  }
});

test('after eating a salad the player must move on: it cannot eat again on the same field at once', () => {
  const state = stateOf({ index: 22, salads: 3, lastNonSkipAction: eatSalad() }, { index: 30 });
  assert.equal(refused(state, move(eatSalad())), 'Es kann gerade kein Salat (mehr) gegessen werden.');
  assert.ok(isValidToAdvance(TEST_BOARD, state.players[0], state.players[1], 1));
});

test('a salad can only be eaten on a salad field', () => {
  const state = stateOf({ index: 23, salads: 3, lastNonSkipAction: advance(1) }, { index: 30 });
  assert.equal(refused(state, move(eatSalad())), 'Es kann gerade kein Salat (mehr) gegessen werden.');
});

// ---- exchanging carrots ----

test('on a carrot field exactly 10 carrots may be taken or given; elsewhere not at all', () => {
  const state = stateOf({ index: 23, carrots: 15, lastNonSkipAction: advance(1) }, { index: 30 });
  assert.equal(apply(state, move(exchange(10))).players[0].carrots, 25);
  assert.equal(apply(state, move(exchange(-10))).players[0].carrots, 5);
  assert.equal(refused(state, move(exchange(20))), 'Es können nicht 20 Karotten aufgenommen werden.');
  assert.equal(refused(state, move(exchange(0))), 'Es können nicht 0 Karotten aufgenommen werden.');
  const poor = stateOf({ index: 23, carrots: 9 }, { index: 30 });
  assert.ok(!isValidToExchangeCarrots(TEST_BOARD, poor.players[0], -10));
  const notCarrot = stateOf({ index: 20 }, { index: 30 });
  assert.ok(!isValidToExchangeCarrots(TEST_BOARD, notCarrot.players[0], 10));
});

test('exchanging carrots becomes the last non-skip action', () => {
  const after = apply(stateOf({ index: 23 }, { index: 30 }), move(exchange(10)));
  assert.deepEqual(after.players[0].lastNonSkipAction, exchange(10));
});

// ---- cards ----

test('cards can be played only on a hare field, and a played card leaves the hand', () => {
  const onCarrot = stateOf({ index: 23 }, { index: 30 });
  assert.equal(refused(onCarrot, move(card('TAKE_OR_DROP_CARROTS', 0, 20))), 'Das Ausspielen der TAKE_OR_DROP_CARROTS Karte ist nicht möglich.');
  const after = apply(initialState(TEST_BOARD), move(advance(1), card('TAKE_OR_DROP_CARROTS', 1, 20)));
  assert.deepEqual(after.players[0].cards, ['EAT_SALAD', 'HURRY_AHEAD', 'FALL_BACK']);
  assert.equal(after.players[0].carrots, 68 - 1 + 20);
});

test('a card not in the hand cannot be played', () => {
  const state = stateOf({ index: 2, cards: ['EAT_SALAD'] }, {});
  assert.equal(refused(state, move(advance(3), card('TAKE_OR_DROP_CARROTS', 1, 20))), 'Das Ausspielen der TAKE_OR_DROP_CARROTS Karte ist nicht möglich.');
});

test('TAKE_OR_DROP_CARROTS takes 20, drops 20 or does nothing, never below zero carrots', () => {
  const at = (carrots: number) => stateOf({ index: 2, carrots }, {});
  assert.equal(apply(at(30), move(advance(3), card('TAKE_OR_DROP_CARROTS', 1, -20))).players[0].carrots, 30 - 6 - 20);
  assert.equal(apply(at(30), move(advance(3), card('TAKE_OR_DROP_CARROTS', 1, 0))).players[0].carrots, 30 - 6);
  assert.equal(refused(at(30), move(advance(3), card('TAKE_OR_DROP_CARROTS', 1, 10))), 'Das Ausspielen der TAKE_OR_DROP_CARROTS Karte ist nicht möglich.');
  assert.equal(refused(at(25), move(advance(3), card('TAKE_OR_DROP_CARROTS', 1, -20))), 'Das Ausspielen der TAKE_OR_DROP_CARROTS Karte ist nicht möglich.');
  assert.equal(apply(at(26), move(advance(3), card('TAKE_OR_DROP_CARROTS', 1, -20))).players[0].carrots, 0);
});

test('the EAT_SALAD card needs a salad and pays 10 when first (ahead or level) and 30 when second', () => {
  const first = apply(stateOf({ index: 2 }, { index: 4 }), move(advance(3), card('EAT_SALAD', 1))).players[0];
  assert.deepEqual([first.salads, first.carrots], [4, 68 - 6 + 10]);
  const second = apply(stateOf({ index: 2 }, { index: 8 }), move(advance(3), card('EAT_SALAD', 1))).players[0];
  assert.deepEqual([second.salads, second.carrots], [4, 68 - 6 + 30]);
  const noSalad = stateOf({ index: 2, salads: 0 }, { index: 8 });
  assert.equal(refused(noSalad, move(advance(3), card('EAT_SALAD', 1))), 'Das Ausspielen der EAT_SALAD Karte ist nicht möglich.');
});

test('after EAT_SALAD or TAKE_OR_DROP_CARROTS the player must leave the hare field: no card next turn', () => {
  for (const last of [card('EAT_SALAD', 1), card('TAKE_OR_DROP_CARROTS', 1, 20)]) {
    const state = stateOf({ index: 5, cards: ['HURRY_AHEAD', 'TAKE_OR_DROP_CARROTS', 'EAT_SALAD'], lastNonSkipAction: last }, { index: 8 });
    assert.equal(refused(state, move(card('HURRY_AHEAD'))), 'Das Ausspielen der HURRY_AHEAD Karte ist nicht möglich.');
    assert.ok(isValidToAdvance(TEST_BOARD, state.players[0], state.players[1], 1));
  }
});

test('HURRY_AHEAD moves a second player to the field in front of the opponent', () => {
  const after = apply(stateOf({ index: 2 }, { index: 7 }), move(advance(3), card('HURRY_AHEAD', 1)));
  assert.equal(after.players[0].index, 8);
  assert.equal(after.players[0].carrots, 68 - 6);
  const asFirst = stateOf({ index: 2 }, { index: 4 });
  assert.equal(refused(asFirst, move(advance(3), card('HURRY_AHEAD', 1))), 'Das Ausspielen der HURRY_AHEAD Karte ist nicht möglich.');
});

test('HURRY_AHEAD is refused onto a hedgehog, onto a salad field without salad, and when the opponent is in the goal', () => {
  const check = (r: Parameters<typeof stateOf>[0], b: Parameters<typeof stateOf>[1]) => {
    const s = stateOf(r, b);
    return isValidToPlayHurryAhead(TEST_BOARD, s.players[0], s.players[1]);
  };
  assert.ok(!check({ index: 9, lastNonSkipAction: advance(1) }, { index: 10 }), 'onto hedgehog 11');
  assert.ok(!check({ index: 5, salads: 0, lastNonSkipAction: advance(1) }, { index: 9 }), 'onto salad 10 without salad');
  assert.ok(check({ index: 5, salads: 1, lastNonSkipAction: advance(1) }, { index: 9 }), 'onto salad 10 with a salad');
  assert.ok(!check({ index: 60, carrots: 5, salads: 0, lastNonSkipAction: advance(1) }, { index: 64 }), 'opponent in the goal');
});

test('HURRY_AHEAD into the goal needs at most 10 carrots and no salads, with no cost to pay', () => {
  const check = (carrots: number, salads: number) => {
    const s = stateOf({ index: 60, carrots, salads, lastNonSkipAction: advance(2) }, { index: 63 });
    return isValidToPlayHurryAhead(TEST_BOARD, s.players[0], s.players[1]);
  };
  assert.ok(check(10, 0));
  assert.ok(!check(11, 0));
  assert.ok(!check(10, 1));
});

test('FALL_BACK moves a first player to the field behind the opponent', () => {
  const after = apply(stateOf({ index: 2 }, { index: 4 }), move(advance(3), card('FALL_BACK', 1)));
  assert.equal(after.players[0].index, 3);
  const asSecond = stateOf({ index: 2 }, { index: 8 });
  assert.equal(refused(asSecond, move(advance(3), card('FALL_BACK', 1))), 'Das Ausspielen der FALL_BACK Karte ist nicht möglich.');
});

test('FALL_BACK is refused onto the start field, onto a hedgehog and onto a salad field without salad', () => {
  const check = (r: Parameters<typeof stateOf>[0], b: Parameters<typeof stateOf>[1]) => {
    const s = stateOf(r, b);
    return isValidToPlayFallBack(TEST_BOARD, s.players[0], s.players[1]);
  };
  assert.ok(!check({ index: 5, lastNonSkipAction: advance(1) }, { index: 1 }), 'onto the start');
  assert.ok(!check({ index: 35, lastNonSkipAction: advance(1) }, { index: 12 }), 'onto hedgehog 11');
  assert.ok(!check({ index: 35, salads: 0, lastNonSkipAction: advance(1) }, { index: 23 }), 'onto salad 22 without salad');
  assert.ok(check({ index: 35, salads: 2, lastNonSkipAction: advance(1) }, { index: 23 }), 'onto salad 22 with a salad');
});

test('a card may open a move on a hare field the player need not leave (the spec says cards only follow a move)', () => {
  // Not reachable in a real game (a move never ends on a hare field without a card that forces
  // moving on), but the server accepts it, so constructed states behave the same here.
  const state = stateOf({ index: 5, lastNonSkipAction: advance(2) }, { index: 8 });
  const after = apply(state, move(card('EAT_SALAD')));
  assert.deepEqual([after.players[0].index, after.players[0].salads, after.players[0].carrots], [5, 4, 98]);
});

test('a move that leaves a card owed on a hare field is refused', () => {
  const state = initialState(TEST_BOARD);
  assert.equal(refused(state, move(advance(1))), 'Es muss eine Karte ausgespielt werden.');
  // HURRY_AHEAD onto a hare field owes another card.
  const chain = stateOf({ index: 56 }, { index: 59 });
  assert.equal(refused(chain, move(advance(2), card('HURRY_AHEAD', 1))), 'Es muss eine Karte ausgespielt werden.');
});

test('a card chain of four actions: advance to a hare, HURRY_AHEAD to a hare, FALL_BACK to a hare, EAT_SALAD', () => {
  // BLUE on 59 between the hare fields 58 and 60; RED on the hedgehog 56.
  const state = stateOf({ index: 56, carrots: 20, salads: 1 }, { index: 59 });
  const after = apply(state, move(advance(2), card('HURRY_AHEAD', 1), card('FALL_BACK', 2), card('EAT_SALAD', 3)));
  const me = after.players[0];
  assert.deepEqual([me.index, me.carrots, me.salads, me.cards], [58, 20 - 3 + 30, 0, ['TAKE_OR_DROP_CARROTS']]);
  assert.deepEqual(me.lastNonSkipAction, card('EAT_SALAD', 3));
  assert.deepEqual(after.lastMove?.actions.map((a) => a.order), [0, 1, 2, 3]);
});

test('a move has at least one action, and the order attributes must count 0, 1, 2, ...', () => {
  const state = initialState(TEST_BOARD);
  assert.equal(refused(state, move()), 'Aktionen sind null', 'the real server\'s words');
  assert.equal(refused(state, move(advance(3, 1))), 'Das order Attribut wurde nicht richtig gesetzt.');
  assert.equal(refused(state, move(advance(1, 0), card('TAKE_OR_DROP_CARROTS', 2, 20))), 'Das order Attribut wurde nicht richtig gesetzt.');
  assert.equal(refused(state, move(advance(1, 0), card('TAKE_OR_DROP_CARROTS', 0, 20))), 'Das order Attribut wurde nicht richtig gesetzt.');
});

test('actions run in the order of their order attribute, not of their position', () => {
  const after = apply(initialState(TEST_BOARD), move(card('TAKE_OR_DROP_CARROTS', 1, 20), advance(1, 0)));
  assert.deepEqual([after.players[0].index, after.players[0].carrots], [1, 87]);
  assert.deepEqual(after.lastMove?.actions, [advance(1, 0), card('TAKE_OR_DROP_CARROTS', 1, 20)]);
});

test('only cards may follow the first action', () => {
  const state = stateOf({ index: 23 }, { index: 30 });
  assert.equal(refused(state, move(advance(2, 0), advance(1, 1))), MOVE_ERRORS.onlyCardsAfterFirst);
  assert.equal(refused(state, move(exchange(10, 0), eatSalad(1))), MOVE_ERRORS.onlyCardsAfterFirst);
  assert.equal(refused(state, move(advance(2, 0), skip(1))), MOVE_ERRORS.onlyCardsAfterFirst);
  // A card after an advance that did not enter a hare field is not playable.
  assert.equal(refused(state, move(advance(2, 0), card('TAKE_OR_DROP_CARROTS', 1, 20))), MOVE_ERRORS.card('TAKE_OR_DROP_CARROTS'));
});

test('skipping is allowed only when nothing else is possible', () => {
  // RED on a POSITION_2 field with no carrots, BLUE on the hedgehog behind it: no move at all.
  const stuck = stateOf({ index: 26, carrots: 0, lastNonSkipAction: advance(1) }, { index: 24 });
  const after = apply(stuck, move(skip()));
  assert.equal(after.players[0].index, 26);
  assert.deepEqual(after.players[0].lastNonSkipAction, advance(1), 'a skip is not a non-skip action');
  const free = stateOf({ index: 26, carrots: 0 }, { index: 40 });
  assert.equal(refused(free, move(skip())), 'Spieler kann noch einen anderen Zug ausführen, aussetzen ist nicht erlaubt.');
});

test('on the start field only advancing is possible', () => {
  const state = initialState(TEST_BOARD);
  const [me, other] = state.players;
  assert.ok(!isValidToFallBack(TEST_BOARD, me, other));
  assert.ok(!isValidToExchangeCarrots(TEST_BOARD, me, 10));
  assert.ok(!isValidToEatSalad(TEST_BOARD, me));
  assert.equal(refused(state, move(card('EAT_SALAD'))), MOVE_ERRORS.card('EAT_SALAD'));
});

// ---- position fields ----

test('POSITION_1 pays 10 carrots to a first player when its turn comes', () => {
  // RED moves onto 3 (POSITION_1), BLUE stays behind; at RED's next turn it gets 10.
  let state = apply(initialState(TEST_BOARD), move(advance(3)));
  assert.equal(state.players[0].carrots, 62);
  state = apply(state, move(advance(2)));
  assert.equal(state.players[0].carrots, 72);
});

test('POSITION_2 pays 30 carrots to a second player when its turn comes', () => {
  // BLUE on 4 (POSITION_2) behind RED on 6 is paid 30 at its turn.
  let state = apply(initialState(TEST_BOARD), move(advance(3)));
  state = apply(state, move(advance(4)));
  assert.equal(state.players[0].carrots, 62, 'RED on POSITION_1 behind BLUE gets nothing');
  state = apply(state, move(advance(3)));
  assert.equal(state.players[1].carrots, 68 - 10 + 30);
});

test('position fields pay nothing to a player in the wrong place', () => {
  // RED on POSITION_2 (4) while ahead of BLUE: nothing; BLUE on POSITION_1 (3) while behind: nothing.
  let state = apply(initialState(TEST_BOARD), move(advance(4)));
  state = apply(state, move(advance(3)));
  assert.equal(state.players[0].carrots, 68 - 10);
  state = apply(state, move(advance(2)));
  assert.equal(state.players[1].carrots, 68 - 6);
});

// ---- the end ----

test('RED reaching the goal does not end the game: BLUE still moves once', () => {
  let state = stateOf({ index: 61, carrots: 6, salads: 0 }, { index: 30 });
  state = apply(state, move(advance(3)));
  assert.equal(state.players[0].index, 64);
  assert.equal(winCondition(state), null);
  state = apply(state, move(advance(2)));
  assert.deepEqual(winCondition(state), { winner: 'RED', reason: 'goal' });
});

test('BLUE reaching the goal ends the game at once', () => {
  const state = apply(stateOf({ index: 30 }, { index: 61, carrots: 6, salads: 0 }, 1), move(advance(3)));
  assert.deepEqual(winCondition(state), { winner: 'BLUE', reason: 'goal' });
});

test('when both reach the goal the one with fewer carrots wins; equal carrots go to RED', () => {
  let state = apply(stateOf({ index: 61, carrots: 16, salads: 0 }, { index: 62, carrots: 3 + 5, salads: 0 }), move(advance(3)));
  state = apply(state, move(advance(2)));
  assert.deepEqual([state.players[0].carrots, state.players[1].carrots], [10, 5]);
  assert.deepEqual(winCondition(state), { winner: 'BLUE', reason: 'goal' });
  let tie = apply(stateOf({ index: 61, carrots: 16, salads: 0 }, { index: 62, carrots: 13, salads: 0 }), move(advance(3)));
  tie = apply(tie, move(advance(2)));
  assert.deepEqual(winCondition(tie), { winner: 'RED', reason: 'goal' });
});

test('at turn 60 the game ends: the higher field index wins', () => {
  const ahead = stateOf({ index: 40 }, { index: 33 }, 59);
  const after = apply(ahead, move(advance(1)));
  assert.equal(after.turn, 60);
  assert.deepEqual(winCondition(after), { winner: 'RED', reason: 'round-limit' });
  assert.deepEqual(winCondition(stateOf({ index: 33 }, { index: 40 }, 60)), { winner: 'BLUE', reason: 'round-limit' });
  assert.equal(winCondition(stateOf({ index: 40 }, { index: 33 }, 58)), null);
});

test('at turn 60 a player in the goal wins by the goal, not by the round limit', () => {
  const after = apply(stateOf({ index: 30 }, { index: 61, carrots: 6, salads: 0 }, 59), move(advance(3)));
  assert.deepEqual(winCondition(after), { winner: 'BLUE', reason: 'goal' });
});

test('at turn 60 on equal fields RED wins unless it has more carrots', () => {
  assert.deepEqual(winCondition(stateOf({ index: 0, carrots: 50 }, { index: 0, carrots: 50 }, 60)), { winner: 'RED', reason: 'round-limit' });
  assert.deepEqual(winCondition(stateOf({ index: 0, carrots: 51 }, { index: 0, carrots: 50 }, 60)), { winner: 'BLUE', reason: 'round-limit' });
});

test('before turn 60 and with nobody in the goal the game goes on', () => {
  assert.equal(winCondition(stateOf({ index: 63 }, { index: 62 }, 58)), null);
  assert.equal(winCondition(stateOf({ index: 64, carrots: 3, salads: 0 }, { index: 62 }, 57)), null, 'odd turn: BLUE still moves');
});

test('the helpers for constructed players start from the initial values', () => {
  assert.equal(red().carrots, 68);
  assert.equal(blue().color, 'BLUE');
});

test('a move that breaks a rule after valid first actions keeps those actions, as the real server does (playMove), and performMove refuses it whole', () => {
  const start = stateOf({}, {});
  // Onto the hare field 1 (RED is then first, so HURRY_AHEAD is not playable there).
  const broken = move(advance(1), card('HURRY_AHEAD', 1));
  const played = playMove(start, broken);
  assert.ok(!played.ok);
  assert.equal(played.error, MOVE_ERRORS.card('HURRY_AHEAD'));
  assert.equal(played.partial.turn, 0, 'the turn does not pass');
  assert.equal(played.partial.lastMove, null);
  assert.deepEqual([played.partial.players[0].index, played.partial.players[0].carrots], [1, 67], 'the advance stays applied');
  assert.deepEqual(played.partial.players[1], start.players[1]);
  assert.deepEqual(performMove(start, broken), { ok: false, error: MOVE_ERRORS.card('HURRY_AHEAD') });
  // A move refused at its first action keeps nothing.
  const refused = playMove(start, move(advance(11)));
  assert.ok(!refused.ok);
  assert.deepEqual(refused.partial, start);
  const none = playMove(start, move());
  assert.ok(!none.ok);
  assert.equal(none.error, 'Aktionen sind null');
  assert.deepEqual(none.partial, start);
});
