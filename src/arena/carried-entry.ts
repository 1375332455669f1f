/**
 * What an entry brings with it when it is queued again on a cluster's next pairing node
 * (src/cluster/cluster-arena.ts): how long each of its free places has waited already, and whom
 * it met in its last game. Without it a takeover would start every waiting time again (the pairing
 * window narrows back) and forget the rematch delay (pairing.ts).
 *
 * Waiting is carried as durations (ms waited when the door sent the entry), not clock times: the
 * nodes of a Redis cluster are separate machines whose clocks need not agree. What comes from
 * another node is raw input: parseCarriedEntry keeps only what the pairing node's own limits allow.
 */
import { isValidUserName } from '../lobby/names.js';
import { isBotName } from '../match/match.js';
import { BOT_PLAYER } from '../ratings/rating.js';

/** As a door sends it (the `carried` of an `arena-enter` message). */
export interface CarriedEntry {
  /** Milliseconds each free place of the entry has waited, as the door counts them. */
  readonly waitedMs: readonly number[];
  /** The names of the entry's last game, itself left out. */
  readonly lastMet: readonly string[];
}

/** The pairing node's bounds for what it believes of a carried entry. */
export interface CarriedBounds {
  /** Places the entry has (its concurrency): more waiting times than that are dropped. */
  readonly places: number;
  /** Seats of the game: a last game had at most this many other names. */
  readonly seats: number;
  /** The entry's own name (never its own opponent). */
  readonly name: string;
  /** Longest wait believed (`arena-carried-wait-seconds`, in ms); longer ones are cut to it. */
  readonly maxWaitMs: number;
}

/** The carried entry as the queue takes it: each wait within [0, maxWaitMs], longest first; valid names only. */
export interface AcceptedCarry {
  readonly waitedMs: readonly number[];
  readonly lastMet: readonly string[];
}

/** Nothing carried: a new entry. */
export const NOTHING_CARRIED: AcceptedCarry = { waitedMs: [], lastMet: [] };

/**
 * Validates and bounds what a door says its entry carries. Never refuses the entry: what is not
 * believable is dropped or clamped (a wait that is not a number, or negative, counts as none; one
 * longer than the bound is cut to it; a name that is no player's is dropped).
 */
export function parseCarriedEntry(raw: unknown, bounds: CarriedBounds): AcceptedCarry {
  if (typeof raw !== 'object' || raw === null) return NOTHING_CARRIED;
  const { waitedMs, lastMet } = raw as { waitedMs?: unknown; lastMet?: unknown };
  const waits = Array.isArray(waitedMs)
    ? waitedMs
        .slice(0, bounds.places)
        .map((ms) => (typeof ms === 'number' && Number.isFinite(ms) ? Math.min(Math.max(0, Math.floor(ms)), bounds.maxWaitMs) : 0))
        .sort((a, b) => b - a)
    : [];
  const met = Array.isArray(lastMet)
    ? // A table's names, the entry's own among them, at most: nothing longer is looked through.
      [...new Set(lastMet.slice(0, bounds.seats).filter((name): name is string => typeof name === 'string' && name !== bounds.name && isPlayerName(name)))].slice(0, bounds.seats - 1)
    : [];
  return { waitedMs: waits, lastMet: met };
}

/** An anchor's name: the game's usual bot, or `ServerBot$BOT` for a named bot (arena.ts: anchorName). */
const ANCHOR = new RegExp(`^${BOT_PLAYER}(\\$[\\x21-\\x7e]{1,64})?$`);

/** A name a player of an arena game can have: an entrant's or an anchor's. */
function isPlayerName(name: string): boolean {
  return ANCHOR.test(name) || (isValidUserName(name) && !isBotName(name));
}
