import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../match/random.js';
import { generateBoard } from './board.js';
import {
  moveMessageElement,
  renderCloseConnection,
  renderError,
  renderJoined,
  renderLeft,
  renderMemento,
  renderMoveRequest,
  renderObserved,
  renderResult,
  renderWelcome,
} from './messages.js';
import { legalMoves } from './moves.js';
import { winCondition } from './game-end.js';
import { initialState, performMove, type GameState } from './rules.js';
import { parseMove, parseState, stateElement } from './state-xml.js';
import { TEST_BOARD, advance, card, move, stateOf } from './test-kit.js';
import { el } from './xml/xml-element.js';
import { renderElement, renderMessage } from './xml/xml-writer.js';

/** The board part of a state on the test board, as the server writes it inside a memento. */
const BOARD = `
        <board>
          <fields index="0" type="START"/>
          <fields index="1" type="HARE"/>
          <fields index="2" type="CARROT"/>
          <fields index="3" type="POSITION_1"/>
          <fields index="4" type="POSITION_2"/>
          <fields index="5" type="HARE"/>
          <fields index="6" type="CARROT"/>
          <fields index="7" type="CARROT"/>
          <fields index="8" type="CARROT"/>
          <fields index="9" type="HARE"/>
          <fields index="10" type="SALAD"/>
          <fields index="11" type="HEDGEHOG"/>
          <fields index="12" type="HARE"/>
          <fields index="13" type="CARROT"/>
          <fields index="14" type="CARROT"/>
          <fields index="15" type="HEDGEHOG"/>
          <fields index="16" type="CARROT"/>
          <fields index="17" type="POSITION_1"/>
          <fields index="18" type="POSITION_2"/>
          <fields index="19" type="HEDGEHOG"/>
          <fields index="20" type="POSITION_2"/>
          <fields index="21" type="CARROT"/>
          <fields index="22" type="SALAD"/>
          <fields index="23" type="CARROT"/>
          <fields index="24" type="HEDGEHOG"/>
          <fields index="25" type="CARROT"/>
          <fields index="26" type="POSITION_2"/>
          <fields index="27" type="HARE"/>
          <fields index="28" type="CARROT"/>
          <fields index="29" type="CARROT"/>
          <fields index="30" type="HEDGEHOG"/>
          <fields index="31" type="HARE"/>
          <fields index="32" type="CARROT"/>
          <fields index="33" type="POSITION_1"/>
          <fields index="34" type="POSITION_2"/>
          <fields index="35" type="HARE"/>
          <fields index="36" type="CARROT"/>
          <fields index="37" type="HEDGEHOG"/>
          <fields index="38" type="HARE"/>
          <fields index="39" type="CARROT"/>
          <fields index="40" type="POSITION_2"/>
          <fields index="41" type="CARROT"/>
          <fields index="42" type="SALAD"/>
          <fields index="43" type="HEDGEHOG"/>
          <fields index="44" type="CARROT"/>
          <fields index="45" type="POSITION_1"/>
          <fields index="46" type="POSITION_2"/>
          <fields index="47" type="HARE"/>
          <fields index="48" type="CARROT"/>
          <fields index="49" type="CARROT"/>
          <fields index="50" type="HEDGEHOG"/>
          <fields index="51" type="CARROT"/>
          <fields index="52" type="CARROT"/>
          <fields index="53" type="POSITION_2"/>
          <fields index="54" type="CARROT"/>
          <fields index="55" type="HARE"/>
          <fields index="56" type="HEDGEHOG"/>
          <fields index="57" type="SALAD"/>
          <fields index="58" type="HARE"/>
          <fields index="59" type="POSITION_1"/>
          <fields index="60" type="HARE"/>
          <fields index="61" type="CARROT"/>
          <fields index="62" type="CARROT"/>
          <fields index="63" type="CARROT"/>
          <fields index="64" type="GOAL"/>
        </board>`;

const FULL_HAND = `
          <cards>
            <type>TAKE_OR_DROP_CARROTS</type>
            <type>EAT_SALAD</type>
            <type>HURRY_AHEAD</type>
            <type>FALL_BACK</type>
          </cards>`;

test('joined, observed, left and the close message are single empty elements', () => {
  assert.equal(renderJoined('r1'), '\n  <joined roomId="r1"/>');
  assert.equal(renderObserved('r1'), '\n  <observed roomId="r1"/>');
  assert.equal(renderLeft('r1'), '\n  <left roomId="r1"/>');
  assert.equal(renderCloseConnection(), '\n  <sc.protocol.responses.CloseConnection/>');
});

test('the welcome message names the color in lowercase', () => {
  assert.equal(renderWelcome('r1', 'RED'), '\n  <room roomId="r1">\n    <data class="welcomeMessage" color="red"/>\n  </room>');
  assert.equal(renderWelcome('r1', 'BLUE'), '\n  <room roomId="r1">\n    <data class="welcomeMessage" color="blue"/>\n  </room>');
});

test('the move request carries the full Java class name', () => {
  assert.equal(
    renderMoveRequest('r1'),
    '\n  <room roomId="r1">\n    <data class="sc.framework.plugins.protocol.MoveRequest"/>\n  </room>',
  );
});

test('the first memento: both players, the 65 fields, no lastMove and no condition', () => {
  const expected = `
  <room roomId="r1">
    <data class="memento">
      <state class="state" turn="0" startPlayer="RED" currentPlayer="RED">
        <red displayName="alice" color="RED" index="0" carrots="68" salads="5">${FULL_HAND}
        </red>
        <blue displayName="bob" color="BLUE" index="0" carrots="68" salads="5">${FULL_HAND}
        </blue>${BOARD}
      </state>
    </data>
  </room>`;
  assert.equal(renderMemento('r1', initialState(TEST_BOARD), ['alice', 'bob']), expected);
});

test('a memento after a move shows lastNonSkipAction with its class and the lastMove with its actions and hints', () => {
  // BLUE, first on POSITION_1 (59), is paid its 10 carrots as its turn begins.
  const before = stateOf({ index: 56, carrots: 20, salads: 1 }, { index: 59 });
  const after = performMove(before, {
    actions: [advance(2), card('HURRY_AHEAD', 1), card('FALL_BACK', 2), card('EAT_SALAD', 3)],
    hints: ['a <hint> & "more"'],
  });
  assert.ok(after.ok);
  const expected = `
  <room roomId="r1">
    <data class="memento">
      <state class="state" turn="1" startPlayer="RED" currentPlayer="BLUE">
        <red displayName="a&amp;b" color="RED" index="58" carrots="47" salads="0">
          <cards>
            <type>TAKE_OR_DROP_CARROTS</type>
          </cards>
          <lastNonSkipAction class="card" order="3" type="EAT_SALAD" value="0"/>
        </red>
        <blue displayName="bob" color="BLUE" index="59" carrots="78" salads="5">${FULL_HAND}
        </blue>${BOARD}
        <lastMove>
          <advance order="0" distance="2"/>
          <card order="1" type="HURRY_AHEAD" value="0"/>
          <card order="2" type="FALL_BACK" value="0"/>
          <card order="3" type="EAT_SALAD" value="0"/>
          <hint content="a &lt;hint&gt; &amp; &quot;more&quot;"/>
        </lastMove>
      </state>
    </data>
  </room>`;
  assert.equal(renderMemento('r1', after.value, ['a&b', 'bob']), expected);
});

test('an empty hand is written as <cards/>', () => {
  const state = stateOf({ cards: [], lastNonSkipAction: { type: 'fallBack', order: 0 } }, {});
  const red = renderElement(stateElement(state, ['x', 'y']).children[0]!, 4);
  assert.equal(red, '<red displayName="x" color="RED" index="0" carrots="68" salads="5">\n          <cards/>\n          <lastNonSkipAction class="fallBack" order="0"/>\n        </red>');
});

test('every action kind is written with its attributes in the server order', () => {
  const m = {
    actions: [advance(3), card('TAKE_OR_DROP_CARROTS', 1, -20), { type: 'exchangeCarrots', order: 0, value: -10 }, { type: 'eatSalad', order: 0 }, { type: 'fallBack', order: 0 }, { type: 'skip', order: 0 }],
    hints: [],
  } as const;
  assert.equal(
    renderMessage(moveMessageElement('r1', { actions: [...m.actions], hints: [] })),
    `
  <room roomId="r1">
    <data class="move">
      <advance order="0" distance="3"/>
      <card order="1" type="TAKE_OR_DROP_CARROTS" value="-20"/>
      <exchangeCarrots order="0" value="-10"/>
      <eatSalad order="0"/>
      <fallBack order="0"/>
      <skip order="0"/>
    </data>
  </room>`,
  );
});

test('the error to the offender quotes its move; the observers get the bare reason', () => {
  assert.equal(
    renderError('r1', 'Vorwärtszug um 11 Felder ist nicht möglich', move(advance(11))),
    `
  <room roomId="r1">
    <data class="error" message="Vorwärtszug um 11 Felder ist nicht möglich">
      <originalRequest class="move">
        <advance order="0" distance="11"/>
      </originalRequest>
    </data>
  </room>`,
  );
  assert.equal(
    renderError('r1', 'Es muss eine Karte ausgespielt werden.', null),
    '\n  <room roomId="r1">\n    <data class="error" message="Es muss eine Karte ausgespielt werden."/>\n  </room>',
  );
});

const DEFINITION = `
      <definition>
        <fragment name="Gewinner">
          <aggregation>SUM</aggregation>
          <relevantForRanking>true</relevantForRanking>
        </fragment>
        <fragment name="∅ Feldnummer">
          <aggregation>AVERAGE</aggregation>
          <relevantForRanking>true</relevantForRanking>
        </fragment>
        <fragment name="∅ Karotten">
          <aggregation>AVERAGE</aggregation>
          <relevantForRanking>true</relevantForRanking>
        </fragment>
      </definition>`;

test('the result: definition, two scores of three parts, and the winner as a player', () => {
  const state = stateOf({ index: 64, carrots: 4, salads: 0, cards: ['FALL_BACK'], lastNonSkipAction: advance(5) }, { index: 50, carrots: 30 }, 2);
  const text = renderResult(
    'r1',
    [
      { cause: 'REGULAR', reason: 'Das Spiel ist beendet.\nEin Spieler ist im Ziel', points: 2, index: 64, carrots: 4 },
      { cause: 'REGULAR', reason: 'Das Spiel ist beendet.\nEin Spieler ist im Ziel', points: 0, index: 50, carrots: 30 },
    ],
    { player: state.players[0], displayName: 'alice' },
  );
  assert.equal(
    text,
    `
  <room roomId="r1">
    <data class="result">${DEFINITION}
      <score cause="REGULAR" reason="Das Spiel ist beendet.&#xa;Ein Spieler ist im Ziel">
        <part>2</part>
        <part>64</part>
        <part>4</part>
      </score>
      <score cause="REGULAR" reason="Das Spiel ist beendet.&#xa;Ein Spieler ist im Ziel">
        <part>0</part>
        <part>50</part>
        <part>30</part>
      </score>
      <winner class="player" displayName="alice" color="RED" index="64" carrots="4" salads="0">
        <cards>
          <type>FALL_BACK</type>
        </cards>
        <lastNonSkipAction class="advance" order="0" distance="5"/>
      </winner>
    </data>
  </room>`,
  );
});

test('a result without a reason and without a winner leaves both out', () => {
  const text = renderResult(
    'r1',
    [
      { cause: 'REGULAR', reason: null, points: 1, index: 3, carrots: 62 },
      { cause: 'LEFT', reason: 'Der Spieler hat das Spiel verlassen', points: 0, index: 0, carrots: 68 },
    ],
    null,
  );
  assert.ok(text.includes('\n      <score cause="REGULAR">\n        <part>1</part>'));
  assert.ok(text.includes('<score cause="LEFT" reason="Der Spieler hat das Spiel verlassen">'));
  assert.ok(!text.includes('<winner'));
  assert.ok(text.endsWith('</score>\n    </data>\n  </room>'));
});

test('states written into mementos read back to the same states', () => {
  const random = Random.fromSeed('roundtrip');
  let state: GameState = initialState(generateBoard(random));
  while (!winCondition(state)) {
    const parsed = parseState(stateElement(state, ['a', 'b']));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.state, state);
    const next = performMove(state, random.pick(legalMoves(state)));
    assert.ok(next.ok);
    state = next.value;
  }
});

test('moves are read with missing int attributes as 0 and bad numbers or card types refused', () => {
  const data = el('data', { class: 'move' }, [el('advance', { distance: '3' }), el('hint', { content: 'h' })]);
  assert.deepEqual(parseMove(data), { ok: true, value: { actions: [advance(3)], hints: ['h'] } });
  assert.deepEqual(parseMove(el('data', {}, [el('advance', { order: '0', distance: 'x' })])), { ok: false, error: 'move/bad-number' });
  assert.deepEqual(parseMove(el('data', {}, [el('advance', { order: '0', distance: '99999999999' })])), { ok: false, error: 'move/bad-number' });
  assert.deepEqual(parseMove(el('data', {}, [el('card', { order: '1', type: 'JOKER' })])), { ok: false, error: 'move/bad-card-type' });
  assert.deepEqual(parseMove(el('data', {}, [el('teleport', { order: '0' })])), { ok: false, error: 'move/unknown-element' });
  assert.deepEqual(parseMove(el('data', {}, [el('card', { order: '+1', type: 'EAT_SALAD' })])), { ok: true, value: { actions: [card('EAT_SALAD', 1)], hints: [] } });
});
