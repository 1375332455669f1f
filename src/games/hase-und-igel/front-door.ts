import { CLOSE_CONNECTION, SCORE_FRAGMENTS, fragmentElement } from './messages.js';
import type { TestScore } from './test-scores.js';
import { attr, el, type XmlElement } from './xml/xml-element.js';
import { renderMessage } from './xml/xml-writer.js';
import { err, ok, type Result } from '../../util/result.js';

/**
 * The requests a Software-Challenge TCP client may send as children of its `<protocol>` root, typed
 * for a front door (the TCP port 13050), and the replies such a front door writes itself. Moves and
 * everything else inside `<room>` belong to the game: the front door hands those bytes to the seat.
 */

export interface PreparedSlot {
  readonly displayName: string;
  readonly canTimeout: boolean;
  readonly shouldBePaused: boolean;
  /** Our addition (`bot="true"`): the server bot plays this slot, so it gets no reservation code. */
  readonly bot: boolean;
}

export type ClientRequest =
  | { readonly kind: 'join'; readonly gameType: string }
  | { readonly kind: 'joinPrepared'; readonly reservationCode: string }
  | { readonly kind: 'authenticate'; readonly passphrase: string }
  | { readonly kind: 'prepare'; readonly gameType: string; readonly slots: readonly PreparedSlot[] }
  | { readonly kind: 'observe'; readonly roomId: string }
  | { readonly kind: 'pause'; readonly roomId: string; readonly pause: boolean }
  | { readonly kind: 'step'; readonly roomId: string; readonly forced: boolean }
  | { readonly kind: 'cancel'; readonly roomId: string }
  | { readonly kind: 'testMode'; readonly testMode: boolean }
  | { readonly kind: 'scoreForPlayer'; readonly displayName: string }
  | { readonly kind: 'freeReservation'; readonly reservation: string }
  | { readonly kind: 'close' }
  /** A game message (a move): for the seat, not the front door. */
  | { readonly kind: 'room'; readonly roomId: string; readonly element: XmlElement };

export const REQUEST_ERRORS = ['request/unknown', 'request/missing-attribute', 'request/bad-boolean', 'request/bad-slot'] as const;
export type RequestError = (typeof REQUEST_ERRORS)[number];

/** At most this many slots in a prepare request (a game has two players). */
export const MAX_SLOTS = 2;

function required(element: XmlElement, name: string): Result<string, RequestError> {
  const value = attr(element, name);
  return value === undefined ? err('request/missing-attribute') : ok(value);
}

/** Java's Boolean.parseBoolean is lenient (anything but "true" is false); a missing value takes `fallback`. */
function bool(element: XmlElement, name: string, fallback: boolean): Result<boolean, RequestError> {
  const value = attr(element, name);
  if (value === undefined) return ok(fallback);
  if (value.toLowerCase() === 'true') return ok(true);
  if (value.toLowerCase() === 'false') return ok(false);
  return err('request/bad-boolean');
}

function withRoom<T>(element: XmlElement, make: (roomId: string) => Result<T, RequestError>): Result<T, RequestError> {
  const roomId = required(element, 'roomId');
  return roomId.ok ? make(roomId.value) : roomId;
}

/** Types one child of the client's root element. */
export function parseClientRequest(element: XmlElement): Result<ClientRequest, RequestError> {
  switch (element.name) {
    case 'join': {
      const gameType = required(element, 'gameType');
      return gameType.ok ? ok({ kind: 'join', gameType: gameType.value }) : gameType;
    }
    case 'joinPrepared': {
      const code = required(element, 'reservationCode');
      return code.ok ? ok({ kind: 'joinPrepared', reservationCode: code.value }) : code;
    }
    case 'authenticate': {
      const passphrase = required(element, 'passphrase');
      return passphrase.ok ? ok({ kind: 'authenticate', passphrase: passphrase.value }) : passphrase;
    }
    case 'prepare': {
      const gameType = required(element, 'gameType');
      if (!gameType.ok) return gameType;
      const slots: PreparedSlot[] = [];
      for (const slot of element.children) {
        if (slot.name !== 'slot' || slots.length >= MAX_SLOTS) return err('request/bad-slot');
        const canTimeout = bool(slot, 'canTimeout', true);
        const shouldBePaused = bool(slot, 'shouldBePaused', false);
        const bot = bool(slot, 'bot', false);
        if (!canTimeout.ok) return canTimeout;
        if (!shouldBePaused.ok) return shouldBePaused;
        if (!bot.ok) return bot;
        slots.push({ displayName: attr(slot, 'displayName') ?? '', canTimeout: canTimeout.value, shouldBePaused: shouldBePaused.value, bot: bot.value });
      }
      return ok({ kind: 'prepare', gameType: gameType.value, slots });
    }
    case 'observe':
      return withRoom(element, (roomId) => ok({ kind: 'observe', roomId }));
    case 'pause':
      return withRoom(element, (roomId) => {
        const pause = bool(element, 'pause', true);
        return pause.ok ? ok({ kind: 'pause', roomId, pause: pause.value }) : pause;
      });
    case 'step':
      return withRoom(element, (roomId) => {
        const forced = bool(element, 'forced', false);
        return forced.ok ? ok({ kind: 'step', roomId, forced: forced.value }) : forced;
      });
    case 'cancel':
      return withRoom(element, (roomId) => ok({ kind: 'cancel', roomId }));
    case 'testMode': {
      const testMode = bool(element, 'testMode', false);
      return testMode.ok ? ok({ kind: 'testMode', testMode: testMode.value }) : testMode;
    }
    case 'scoreForPlayer': {
      const displayName = required(element, 'displayName');
      return displayName.ok ? ok({ kind: 'scoreForPlayer', displayName: displayName.value }) : displayName;
    }
    case 'freeReservation': {
      const reservation = required(element, 'reservation');
      return reservation.ok ? ok({ kind: 'freeReservation', reservation: reservation.value }) : reservation;
    }
    case 'close':
    case CLOSE_CONNECTION:
      return ok({ kind: 'close' });
    case 'room':
      return withRoom(element, (roomId) => ok({ kind: 'room', roomId, element }));
    default:
      return err('request/unknown');
  }
}

/** The reply to `prepare`: the room and one reservation code per slot, in slot order. */
export function preparedElement(roomId: string, reservations: readonly string[]): XmlElement {
  return el('prepared', { roomId }, reservations.map((code) => el('reservation', {}, [], code)));
}

/** What administrators are told when a player joins a room (`existing`: the room was open before). */
export function joinedGameRoomElement(roomId: string, existing: boolean): XmlElement {
  return el('joinedGameRoom', { roomId, existing });
}

/** The answer to `testMode`. */
export function testingElement(testMode: boolean): XmlElement {
  return el('testing', { testMode });
}

/** A sum as it is; a mean with six decimals, as the real server prints it (`61.800012`). */
function scoreValue(value: number, aggregation: string): string {
  return aggregation === 'SUM' ? String(value) : value.toFixed(6);
}

/**
 * The answer to `scoreForPlayer`: the tally of test mode (the real server's `Score` object), or
 * `<playerScore/>` for a name that has played no test game, as the real server answers it.
 */
export function playerScoreElement(score: TestScore | null): XmlElement {
  if (score === null) return el('playerScore', {}, []);
  const values = SCORE_FRAGMENTS.map((fragment, i) =>
    el('values', {}, [fragmentElement(fragment), el('value', {}, [], scoreValue(score.values[i] ?? 0, fragment.aggregation))]),
  );
  return el('playerScore', {}, [el('score', { displayName: score.displayName, numberOfTests: score.games }, values)]);
}

export const renderTesting = (testMode: boolean): string => renderMessage(testingElement(testMode));
export const renderPlayerScore = (score: TestScore | null): string => renderMessage(playerScoreElement(score));
export const renderPrepared = (roomId: string, reservations: readonly string[]): string => renderMessage(preparedElement(roomId, reservations));
export const renderJoinedGameRoom = (roomId: string, existing: boolean): string => renderMessage(joinedGameRoomElement(roomId, existing));

/**
 * The game arguments a prepared room is created with (hase-und-igel.ts), from the slots of a
 * `prepare` request: the room id, who may time out, and whether it starts paused.
 */
export function preparedGameArgs(roomId: string, slots: readonly PreparedSlot[]): Record<string, string> {
  const can = [0, 1].map((i) => String(slots[i]?.canTimeout ?? true));
  // Display names as given, cut to what the game takes; a missing slot is named as the real
  // server names an unprepared player.
  const name = (i: number): string => (slots[i]?.displayName ?? UNKNOWN_DISPLAY_NAME).replace(/[\x00-\x1f]/g, ' ').slice(0, 64);
  return {
    room: roomId,
    canTimeout: can.join(','),
    paused: String(slots.some((slot) => slot.shouldBePaused)),
    redName: name(0),
    blueName: name(1),
  };
}

/** The display name of both players of a plain `join` in the real server. */
export const UNKNOWN_DISPLAY_NAME = 'Unknown';

/** The game arguments of a room for plain joins: both players are `Unknown`, as in the real server. */
export function openGameArgs(roomId: string): Record<string, string> {
  return { room: roomId, redName: UNKNOWN_DISPLAY_NAME, blueName: UNKNOWN_DISPLAY_NAME };
}
