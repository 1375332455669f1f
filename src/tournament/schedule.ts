/**
 * Plays a tournament's schedule (pairings.ts) with a given way of playing one pairing, at most K at
 * once: the local `coco tournament` (programs on this machine) and the server's tournaments
 * (server bots) both go through here, so that they pair, order and stop the same way.
 */
import { gauntlet, meetingKey, roundRobin, swissRound, type Format, type Pairing } from './pairings.js';
import type { ResultLine } from './results-file.js';

export interface ScheduleSettings {
  readonly format: Format;
  readonly rounds: number;
  /** The players' names, in the tournament's order (pairings name them by index). */
  readonly names: readonly string[];
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

/** Matches in one round of the format (swiss: with one player sitting out when they are odd). */
export function matchesPerRound(format: Format, players: number): number {
  if (format === 'gauntlet') return 2 * (players - 1);
  if (format === 'swiss') return 2 * Math.floor(players / 2);
  return players * (players - 1);
}

/** Matches in the whole schedule. */
export function scheduleSize(format: Format, players: number, rounds: number): number {
  return matchesPerRound(format, players) * rounds;
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
  if (settings.format === 'swiss') return runSwiss(settings, hooks);
  const schedule = settings.format === 'gauntlet' ? gauntlet(settings.names.length, settings.rounds) : roundRobin(settings.names.length, settings.rounds);
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
      if (r.outcome === '*' || r.pairing >= first) continue;
      const [a, b] = r.players.map((name) => names.indexOf(name)) as [number, number];
      points[a]! += r.outcome === '1-0' ? 1 : r.outcome === '0-1' ? 0 : 0.5;
      points[b]! += r.outcome === '0-1' ? 1 : r.outcome === '1-0' ? 0 : 0.5;
    }
    const next = swissRound({ points, met, byes }, round, settings.seed, first);
    hooks.check?.(next.pairings);
    for (const p of next.pairings) met.add(meetingKey(...p.seats));
    if (next.bye !== null) byes[next.bye]!++;
    first += next.pairings.length;
    await pool(
      next.pairings.filter((p) => !hooks.done.has(p.index)),
      settings.concurrency,
      hooks.more,
      hooks.play,
    );
  }
}
