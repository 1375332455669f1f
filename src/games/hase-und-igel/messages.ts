import type { GameState, Move, PlayerState } from './rules.js';
import { moveChildren, playerElement, stateElement } from './state-xml.js';
import { el, type XmlElement } from './xml/xml-element.js';
import { STREAM_CLOSING, STREAM_OPENING, renderMessage } from './xml/xml-writer.js';

/**
 * Every message the 2018 server sends, as elements (for tests and composition) and as the exact
 * text that follows earlier output on the wire (`render*`: a line break, two spaces, the element).
 */

export const GAME_TYPE = 'swc_2018_hase_und_igel';
export const MOVE_REQUEST_CLASS = 'sc.framework.plugins.protocol.MoveRequest';
export const CLOSE_CONNECTION = 'sc.protocol.responses.CloseConnection';

/** The error a player gets for a move sent while the other player is to move. */
export const NOT_YOUR_TURN = "It's not your turn yet.";

/** The error message the offender of a rule violation gets (observers get the bare reason). */
export function violationMessage(displayName: string, reason: string): string {
  return `Ungueltiger Zug von '${displayName}'.\n${reason}`;
}

export const SCORE_CAUSES = ['REGULAR', 'LEFT', 'RULE_VIOLATION', 'SOFT_TIMEOUT', 'HARD_TIMEOUT'] as const;
export type ScoreCause = (typeof SCORE_CAUSES)[number];

/** The three parts of each score, as the result's <definition> names them. */
export const SCORE_FRAGMENTS = [
  { name: 'Gewinner', aggregation: 'SUM' },
  { name: '∅ Feldnummer', aggregation: 'AVERAGE' },
  { name: '∅ Karotten', aggregation: 'AVERAGE' },
] as const;

export interface PlayerScore {
  readonly cause: ScoreCause;
  /** Absent (null) for a regular score of a game that ended without a win condition. */
  readonly reason: string | null;
  /** Match points: 2 win, 1 draw, 0 loss. */
  readonly points: number;
  readonly index: number;
  readonly carrots: number;
}

const room = (roomId: string, data: XmlElement): XmlElement => el('room', { roomId }, [data]);

export function joinedElement(roomId: string): XmlElement {
  return el('joined', { roomId });
}

export function observedElement(roomId: string): XmlElement {
  return el('observed', { roomId });
}

export function leftElement(roomId: string): XmlElement {
  return el('left', { roomId });
}

export function closeConnectionElement(): XmlElement {
  return el(CLOSE_CONNECTION);
}

/** The color is lowercase here, unlike everywhere else. */
export function welcomeElement(roomId: string, color: 'RED' | 'BLUE'): XmlElement {
  return room(roomId, el('data', { class: 'welcomeMessage', color: color.toLowerCase() }));
}

export function mementoElement(roomId: string, state: GameState, displayNames: readonly [string, string]): XmlElement {
  return room(roomId, el('data', { class: 'memento' }, [stateElement(state, displayNames)]));
}

export function moveRequestElement(roomId: string): XmlElement {
  return room(roomId, el('data', { class: MOVE_REQUEST_CLASS }));
}

/** The error the offender gets: the reason and the move it sent (actions sorted by order). */
export function errorElement(roomId: string, message: string, originalRequest: Move | null): XmlElement {
  const children = originalRequest ? [el('originalRequest', { class: 'move' }, moveChildren(originalRequest))] : [];
  return room(roomId, el('data', { class: 'error', message }, children));
}

export interface ResultWinner {
  readonly player: PlayerState;
  readonly displayName: string;
}

/** A fragment of a score definition, as in the result's `<definition>` and in an admin's `<playerScore>`. */
export function fragmentElement(fragment: (typeof SCORE_FRAGMENTS)[number]): XmlElement {
  return el('fragment', { name: fragment.name }, [el('aggregation', {}, [], fragment.aggregation), el('relevantForRanking', {}, [], 'true')]);
}

export function resultElement(roomId: string, scores: readonly [PlayerScore, PlayerScore], winner: ResultWinner | null): XmlElement {
  const definition = el('definition', {}, SCORE_FRAGMENTS.map(fragmentElement));
  const children = [
    definition,
    ...scores.map((score) =>
      el('score', { cause: score.cause, reason: score.reason }, [score.points, score.index, score.carrots].map((part) => el('part', {}, [], String(part)))),
    ),
  ];
  if (winner) children.push(playerElement('winner', winner.player, winner.displayName, true));
  return room(roomId, el('data', { class: 'result' }, children));
}

export const renderJoined = (roomId: string): string => renderMessage(joinedElement(roomId));
export const renderObserved = (roomId: string): string => renderMessage(observedElement(roomId));
export const renderLeft = (roomId: string): string => renderMessage(leftElement(roomId));
export const renderCloseConnection = (): string => renderMessage(closeConnectionElement());
/** A whole stream that refuses a connection (unknown reservation code, wrong password, ...). */
export const REFUSAL_STREAM = STREAM_OPENING + renderCloseConnection() + STREAM_CLOSING;
/** A whole stream closed without a message: the answer to an unknown first element. */
export const EMPTY_STREAM = '<protocol/>';
export const renderWelcome = (roomId: string, color: 'RED' | 'BLUE'): string => renderMessage(welcomeElement(roomId, color));
export const renderMemento = (roomId: string, state: GameState, names: readonly [string, string]): string =>
  renderMessage(mementoElement(roomId, state, names));
export const renderMoveRequest = (roomId: string): string => renderMessage(moveRequestElement(roomId));
export const renderError = (roomId: string, message: string, originalRequest: Move | null): string =>
  renderMessage(errorElement(roomId, message, originalRequest));
export const renderResult = (roomId: string, scores: readonly [PlayerScore, PlayerScore], winner: ResultWinner | null): string =>
  renderMessage(resultElement(roomId, scores, winner));

/** A move as a client sends it: `<room roomId="R"><data class="move">...</data></room>`. */
export function moveMessageElement(roomId: string, move: Move): XmlElement {
  return room(roomId, el('data', { class: 'move' }, moveChildren(move)));
}
