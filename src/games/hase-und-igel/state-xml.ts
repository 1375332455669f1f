import { FIELD_COUNT, FIELD_TYPES, type Board, type FieldType } from './board.js';
import { CARD_TYPES, type Action, type CardType, type Color, type GameState, type Move, type PlayerState } from './rules.js';
import { attr, child, el, type XmlElement } from './xml/xml-element.js';
import { prerendered } from './xml/xml-writer.js';
import { err, ok, type Result } from '../../util/result.js';

/**
 * The game's values as the server's XStream mapping writes them, and back. The attribute and child
 * order below is the wire format: do not reorder.
 */

/** The XStream aliases of the actions: the element name in a move, the `class` of lastNonSkipAction. */
export function actionAttributes(action: Action): Record<string, number | string> {
  switch (action.type) {
    case 'advance':
      return { order: action.order, distance: action.distance };
    case 'card':
      return { order: action.order, type: action.card, value: action.value };
    case 'exchangeCarrots':
      return { order: action.order, value: action.value };
    case 'eatSalad':
    case 'fallBack':
    case 'skip':
      return { order: action.order };
  }
}

export function actionElement(action: Action): XmlElement {
  return el(action.type, actionAttributes(action));
}

/** The children of a move element: the actions, then the hints. */
export function moveChildren(move: Move): XmlElement[] {
  return [...move.actions.map(actionElement), ...move.hints.map((content) => el('hint', { content }))];
}

/** A player as `<red>`/`<blue>` in a state or `<winner class="player">` in a result. */
export function playerElement(name: string, player: PlayerState, displayName: string, withClass = false): XmlElement {
  const children: XmlElement[] = [el('cards', {}, player.cards.map((card) => el('type', {}, [], card)))];
  const last = player.lastNonSkipAction;
  if (last) children.push(el('lastNonSkipAction', { class: last.type, ...actionAttributes(last) }));
  return el(
    name,
    { ...(withClass ? { class: 'player' } : {}), displayName, color: player.color, index: player.index, carrots: player.carrots, salads: player.salads },
    children,
  );
}

/** Where a state's board is written in a memento: protocol > room > data > state > board. */
const BOARD_DEPTH_IN_MEMENTO = 4;

/**
 * Each board's element, written once: a board never changes during a game (every state of the
 * game holds the same array), and it is two thirds of every memento. Keyed by the array, so a
 * finished game's entry goes with its states.
 */
const boardElements = new WeakMap<Board, XmlElement>();

function boardElement(board: Board): XmlElement {
  let element = boardElements.get(board);
  if (element === undefined) {
    element = prerendered(el('board', {}, board.map((type, index) => el('fields', { index, type }))), BOARD_DEPTH_IN_MEMENTO);
    boardElements.set(board, element);
  }
  return element;
}

export function stateElement(state: GameState, displayNames: readonly [string, string]): XmlElement {
  const [red, blue] = state.players;
  const children = [playerElement('red', red, displayNames[0]), playerElement('blue', blue, displayNames[1]), boardElement(state.board)];
  if (state.lastMove) children.push(el('lastMove', {}, moveChildren(state.lastMove)));
  return el('state', { class: 'state', turn: state.turn, startPlayer: 'RED', currentPlayer: state.turn % 2 === 0 ? 'RED' : 'BLUE' }, children);
}

// ---- reading ----

export const MOVE_PARSE_ERRORS = ['move/unknown-element', 'move/bad-number', 'move/bad-card-type'] as const;
export type MoveParseError = (typeof MOVE_PARSE_ERRORS)[number];

/** Java's Integer.valueOf: optional sign, decimal digits, 32-bit range. */
export function parseJavaInt(text: string): number | null {
  if (!/^[+-]?\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value >= -2147483648 && value <= 2147483647 ? value : null;
}

/** An int field: a missing attribute is 0 (XStream leaves the field at its default). */
function intAttribute(element: XmlElement, name: string): number | null {
  const raw = attr(element, name);
  return raw === undefined ? 0 : parseJavaInt(raw);
}

function isCardType(text: string | undefined): text is CardType {
  return (CARD_TYPES as readonly (string | undefined)[]).includes(text);
}

/** One action element (`<advance order="0" distance="3"/>`, or a lastNonSkipAction with its class). */
export function parseAction(element: XmlElement, type: string): Result<Action, MoveParseError> {
  const order = intAttribute(element, 'order');
  if (order === null) return err('move/bad-number');
  switch (type) {
    case 'advance': {
      const distance = intAttribute(element, 'distance');
      return distance === null ? err('move/bad-number') : ok({ type, order, distance });
    }
    case 'card': {
      const card = attr(element, 'type');
      if (!isCardType(card)) return err('move/bad-card-type');
      const value = intAttribute(element, 'value');
      return value === null ? err('move/bad-number') : ok({ type, order, card, value });
    }
    case 'exchangeCarrots': {
      const value = intAttribute(element, 'value');
      return value === null ? err('move/bad-number') : ok({ type, order, value });
    }
    case 'eatSalad':
    case 'fallBack':
    case 'skip':
      return ok({ type, order });
    default:
      return err('move/unknown-element');
  }
}

/** The contents of `<data class="move">` (or `<lastMove>`): actions in document order, and hints. */
export function parseMove(element: XmlElement): Result<Move, MoveParseError> {
  const actions: Action[] = [];
  const hints: string[] = [];
  for (const item of element.children) {
    if (item.name === 'hint') {
      hints.push(attr(item, 'content') ?? '');
      continue;
    }
    const action = parseAction(item, item.name);
    if (!action.ok) return action;
    actions.push(action.value);
  }
  return ok({ actions, hints });
}

export type StateParseError = 'state/malformed';

function intOf(element: XmlElement | undefined, name: string): number | null {
  const raw = element ? attr(element, name) : undefined;
  return raw === undefined ? null : parseJavaInt(raw);
}

function parsePlayer(element: XmlElement | undefined, color: Color): { player: PlayerState; name: string } | null {
  if (!element) return null;
  const index = intOf(element, 'index');
  const carrots = intOf(element, 'carrots');
  const salads = intOf(element, 'salads');
  if (index === null || carrots === null || salads === null) return null;
  const cards: CardType[] = [];
  for (const type of child(element, 'cards')?.children ?? []) {
    const card = type.text.trim();
    if (!isCardType(card)) return null;
    cards.push(card);
  }
  let lastNonSkipAction: Action | null = null;
  const last = child(element, 'lastNonSkipAction');
  if (last) {
    const action = parseAction(last, attr(last, 'class') ?? '');
    if (!action.ok) return null;
    lastNonSkipAction = action.value;
  }
  const player: PlayerState = { color, index, carrots, salads, cards, lastNonSkipAction, mustPlayCard: false };
  return { player, name: attr(element, 'displayName') ?? '' };
}

export interface ParsedState {
  readonly state: GameState;
  readonly displayNames: readonly [string, string];
}

/** Reads a `<state>` element of a memento back into a game state. */
export function parseState(element: XmlElement): Result<ParsedState, StateParseError> {
  const turn = intOf(element, 'turn');
  const red = parsePlayer(child(element, 'red'), 'RED');
  const blue = parsePlayer(child(element, 'blue'), 'BLUE');
  const fields = child(element, 'board')?.children ?? [];
  if (turn === null || !red || !blue || fields.length !== FIELD_COUNT) return err('state/malformed');
  const board = new Array<FieldType>(FIELD_COUNT);
  for (const field of fields) {
    const index = intOf(field, 'index');
    const type = attr(field, 'type');
    if (index === null || index < 0 || index >= FIELD_COUNT || !(FIELD_TYPES as readonly (string | undefined)[]).includes(type)) {
      return err('state/malformed');
    }
    board[index] = type as FieldType;
  }
  for (let i = 0; i < FIELD_COUNT; i++) if (board[i] === undefined) return err('state/malformed');
  let lastMove: Move | null = null;
  const lastMoveElement = child(element, 'lastMove');
  if (lastMoveElement) {
    const move = parseMove(lastMoveElement);
    if (!move.ok) return err('state/malformed');
    lastMove = move.value;
  }
  return ok({ state: { board, turn, players: [red.player, blue.player], lastMove }, displayNames: [red.name, blue.name] });
}
