import { randomBytes, randomUUID } from 'node:crypto';
import { openGameArgs, preparedGameArgs, type PreparedSlot } from '../games/hase-und-igel/front-door.js';
import { HASE_UND_IGEL } from '../games/hase-und-igel/hase-und-igel.js';
import type { Lobby, Requester } from '../lobby/lobby.js';
import { isValidUserName } from '../lobby/names.js';
import { botName } from '../match/match.js';
import { err, ok, type Result } from '../util/result.js';

/** Lobby origins of the matches this port makes: open ones (`join`) and prepared ones (`prepare`). */
export const SOCHA_ORIGIN = 'socha-port';
export const SOCHA_PREPARED_ORIGIN = 'socha-port-prepared';

/** The time limits every match of the port is made with (game arguments softTimeout, hardTimeout). */
export interface SochaTimeLimits {
  readonly softTimeout: number;
  readonly hardTimeout: number;
}

/** A seat reserved by `prepare`: who may take it with the reservation code. */
export interface Reservation {
  readonly roomId: string;
  readonly matchId: string;
  /** The player name the seat is held for (the slot's display name, made a valid user name). */
  readonly name: string;
  /** The match's password: prepared matches are closed to anyone without a reservation code. */
  readonly password: string;
}

export interface OpenRoom {
  readonly roomId: string;
  readonly matchId: string;
  /** Whether the room was waiting already (`joinedGameRoom existing`). */
  readonly existing: boolean;
}

/** Players in a prepared room: the platform's seats need distinct valid user names. */
const SEATS = 2;
const NAME_LIMIT = 16;

/**
 * Display names of the slots as player names: characters the lobby refuses become `_`, an empty
 * name becomes `playerN`, and a name given twice gets a suffix, so `prepare` never fails on names.
 * A slot for the server bot takes the lobby's name of that bot (`ServerBot$0`, ...).
 */
export function seatNames(slots: readonly PreparedSlot[]): string[] {
  const names: string[] = [];
  let bots = 0;
  for (let i = 0; i < SEATS; i++) {
    if (slots[i]?.bot) {
      names.push(botName(bots++));
      continue;
    }
    const raw = (slots[i]?.displayName ?? '').replace(/[^\x21-\x23\x25-\x7e]/g, '_').slice(0, NAME_LIMIT);
    let name = raw === '' ? `player${i + 1}` : raw;
    if (names.includes(name)) name = `${name.slice(0, NAME_LIMIT - 2)}#${i + 1}`;
    names.push(isValidUserName(name) ? name : `player${i + 1}`);
  }
  return names;
}

/**
 * The rooms this port made, by the Software-Challenge room id, and the reservation codes of the
 * prepared ones. Forgets a room when its match leaves the lobby (finished or expired).
 */
export class SochaRoomBook {
  private readonly matchByRoom = new Map<string, string>();
  private readonly roomByMatch = new Map<string, string>();
  private readonly reservations = new Map<string, Reservation>();
  private readonly stopFollowing: () => void;

  constructor(
    private readonly lobby: Lobby,
    private readonly limits: SochaTimeLimits,
  ) {
    this.stopFollowing = lobby.subscribe({ created: () => {}, updated: () => {}, deleted: (id) => this.forget(id) }).unsubscribe;
  }

  /**
   * The oldest waiting open room of the port, or a new one listed in the lobby, made for
   * `requester` if `mayCreate` (the per-address rate of new matches) says null.
   */
  openRoom(requester?: Requester, mayCreate: () => string | null = () => null): Result<OpenRoom> {
    const waiting = this.lobby.oldestWaiting(HASE_UND_IGEL, SOCHA_ORIGIN);
    const roomId = waiting && this.roomByMatch.get(waiting.id);
    if (waiting && roomId) return ok({ roomId, matchId: waiting.id, existing: true });
    const refusal = mayCreate();
    if (refusal) return err(refusal);
    // No name is listed in the seat order, so the lobby seats the players in the order they joined:
    // the first to join plays RED, as in the real server (the coco front door shuffles instead).
    const made = this.create('socha port', SOCHA_ORIGIN, [], null, [], requester);
    return made.ok ? ok({ ...made.value, existing: false }) : made;
  }

  /**
   * A room with a seat per slot (two), in slot order: the first slot plays RED. Each player's seat
   * is reserved under a code; a bot slot's seat is the server bot's, and has none.
   */
  prepare(slots: readonly PreparedSlot[]): Result<{ roomId: string; codes: string[] }> {
    const names = seatNames(slots);
    const password = randomBytes(12).toString('base64url');
    const made = this.create('socha prepared', SOCHA_PREPARED_ORIGIN, slots, password, names);
    if (!made.ok) return made;
    const { roomId, matchId } = made.value;
    const codes = names
      .filter((_, i) => !slots[i]?.bot)
      .map((name) => {
        const code = randomUUID();
        this.reservations.set(code, { roomId, matchId, name, password });
        return code;
      });
    return ok({ roomId, codes });
  }

  /** Takes a reservation (a code seats one client); null for an unknown or used code. */
  claim(code: string): Reservation | null {
    const reservation = this.reservations.get(code) ?? null;
    this.reservations.delete(code);
    return reservation;
  }

  /** Gives a reservation back when its client left before the game began, if the room still waits. */
  release(code: string, reservation: Reservation): void {
    if (this.roomByMatch.get(reservation.matchId) === reservation.roomId) this.reservations.set(code, reservation);
  }

  /** Voids one unused reservation (`freeReservation`); false if the code is unknown or used. */
  void(code: string): boolean {
    return this.reservations.delete(code);
  }

  /** Voids the unused reservations of a room (it left the lobby). */
  private dropReservations(roomId: string): void {
    for (const [code, reservation] of this.reservations) if (reservation.roomId === roomId) this.reservations.delete(code);
  }


  /** The lobby match of a room of this port, or of any hase-und-igel match created with that room id. */
  matchOf(roomId: string): string | null {
    const own = this.matchByRoom.get(roomId);
    if (own) return own;
    return this.lobby.list().find((match) => match.game === HASE_UND_IGEL && match.args.room === roomId)?.id ?? null;
  }

  close(): void {
    this.stopFollowing();
  }

  private create(
    name: string,
    origin: string,
    slots: readonly PreparedSlot[],
    password: string | null,
    seatOrder: readonly string[] | undefined,
    requester?: Requester,
  ): Result<{ roomId: string; matchId: string }> {
    const roomId = randomUUID();
    const args: Record<string, string> = {
      ...(origin === SOCHA_PREPARED_ORIGIN ? preparedGameArgs(roomId, slots) : openGameArgs(roomId)),
      softTimeout: String(this.limits.softTimeout),
      hardTimeout: String(this.limits.hardTimeout),
    };
    const created = this.lobby.create(
      {
        name,
        game: HASE_UND_IGEL,
        params: { players: SEATS, bots: slots.filter((slot) => slot.bot).length, timeout: this.limits.hardTimeout },
        args,
        password,
        verification: null,
        ...(seatOrder && { seatOrder }),
      },
      origin,
      requester,
    );
    if (!created.ok) return err(created.error);
    this.matchByRoom.set(roomId, created.value);
    this.roomByMatch.set(created.value, roomId);
    return ok({ roomId, matchId: created.value });
  }

  private forget(matchId: string): void {
    const roomId = this.roomByMatch.get(matchId);
    if (roomId === undefined) return;
    this.roomByMatch.delete(matchId);
    this.matchByRoom.delete(roomId);
    this.dropReservations(roomId);
  }
}
