/**
 * Plays a tournament's schedule (pairings.ts) with a given way of playing one pairing, at most K at
 * once: the local `coco tournament` (programs on this machine) and the server's tournaments
 * (server bots) both go through here, so that they pair, order and stop the same way.
 */
import { binomial, gauntlet, roundRobin, swissRound, tableMeetings, type Format, type Pairing } from './pairings.js';
import { placesOf, seatPoints } from './places.js';
import type { ResultLine } from './results-file.js';
import { err, ok, type Result } from '../util/result.js';

/**
 * The most matches a schedule may have, whoever plays it: a round-robin of many players at
 * tables of many seats grows as a binomial coefficient (64 entrants at tables of 32 would be
 * some 10^19 matches), and its pairings are made in memory. A server has its own, smaller
 * `tournament-matches`.
 */
export const SCHEDULE_LIMITS = { matches: 1_000_000 } as const;

export interface ScheduleSettings {
  readonly format: Format;
  readonly rounds: number;
  /** The players' names, in the tournament's order (pairings name them by index). */
  readonly names: readonly string[];
  /** Seats of each match (the game's player count): tables of this many players. */
  readonly seatsPerMatch: number;
  /** Swiss: breaks ties between equal scores. */
  readonly seed: string;
  readonly concurrency: number;
}

export interface ScheduleHooks {
  /**
   * The results so far, in the order they came (read again before each swiss round, which is
   * paired from the rounds before it); `play` appends to it.
   */
  readonly results: readonly ResultLine[];
  /** Pairings already played (a resumed tournament): they are skipped. */
  readonly done: ReadonlySet<number>;
  /** Whether to start another pairing (false once stopped, or decided by an SPRT). */
  readonly more: () => boolean;
  /** Plays one pairing; it records its result itself. */
  readonly play: (pairing: Pairing) => Promise<void>;
  /** Sees each batch of pairings before any is played (a resumed file is checked against it). */
  readonly check?: (pairings: readonly Pairing[]) => void;
}

/** Matches in one round of the format at tables of `seatsPerMatch` (swiss: with the players left over sitting out). */
export function matchesPerRound(format: Format, players: number, seatsPerMatch = 2): number {
  if (format === 'gauntlet') return seatsPerMatch * binomial(players - 1, seatsPerMatch - 1);
  if (format === 'swiss') return seatsPerMatch * Math.floor(players / seatsPerMatch);
  return seatsPerMatch * binomial(players, seatsPerMatch);
}

/** Matches in the whole schedule. */
export function scheduleSize(format: Format, players: number, rounds: number, seatsPerMatch = 2): number {
  return matchesPerRound(format, players, seatsPerMatch) * rounds;
}

/** Whether the schedule can be played: enough players for one table, and within `limit` matches. */
export function checkSchedule(format: Format, players: number, rounds: number, seatsPerMatch: number, limit: number = SCHEDULE_LIMITS.matches): Result<number> {
  if (players < seatsPerMatch) return err(`a game of ${seatsPerMatch} players needs at least ${seatsPerMatch} entrants, not ${players}`);
  const size = scheduleSize(format, players, rounds, seatsPerMatch);
  if (size > limit) return err(`a ${format} of ${players} entrants at tables of ${seatsPerMatch} over ${rounds} rounds is ${size} matches: at most ${limit}`);
  return ok(size);
}

/** Runs `work` on `items`, at most `width` at once, taking the next only while `more()`. */
export async function pool<T>(items: readonly T[], width: number, more: () => boolean, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && more()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** Plays the whole schedule; resolves when the last pairing started has finished. */
export async function runSchedule(settings: ScheduleSettings, hooks: ScheduleHooks): Promise<void> {
  const checked = checkSchedule(settings.format, settings.names.length, settings.rounds, settings.seatsPerMatch);
  if (!checked.ok) throw new Error(checked.error);
  if (settings.format === 'swiss') return runSwiss(settings, hooks);
  const make = settings.format === 'gauntlet' ? gauntlet : roundRobin;
  const schedule = make(settings.names.length, settings.rounds, settings.seatsPerMatch);
  hooks.check?.(schedule);
  await pool(
    schedule.filter((p) => !hooks.done.has(p.index)),
    settings.concurrency,
    hooks.more,
    hooks.play,
  );
}

/**
 * Swiss rounds one after the other, each paired from the results of the rounds before: the
 * pairing is deterministic, so a re-run with the same results makes the same rounds and plays
 * only the games missing from them.
 */
async function runSwiss(settings: ScheduleSettings, hooks: ScheduleHooks): Promise<void> {
  const { names } = settings;
  const met = new Set<string>();
  const byes = names.map(() => 0);
  let first = 0;
  for (let round = 0; round < settings.rounds && hooks.more(); round++) {
    const points = names.map(() => 0);
    // Only the rounds before this one count, even when the results already have later games.
    for (const r of hooks.results) {
      const places = r.pairing < first ? placesOf(r.outcome) : null;
      if (places === null) continue;
      seatPoints(places).forEach((p, seat) => (points[names.indexOf(r.players[seat]!)]! += p));
    }
    const next = swissRound({ points, met, byes }, round, settings.seed, first, settings.seatsPerMatch);
    hooks.check?.(next.pairings);
    for (const p of next.pairings) for (const key of tableMeetings(p.seats)) met.add(key);
    for (const player of next.sittingOut) byes[player]!++;
    first += next.pairings.length;
    await pool(
      next.pairings.filter((p) => !hooks.done.has(p.index)),
      settings.concurrency,
      hooks.more,
      hooks.play,
    );
  }
}
