import type { Compute } from './compute.js';

/**
 * How far below a move's time limit a server bot's thinking stops: the limit less a quarter of it,
 * at most a second. What is left covers sending the move and a worker that starts late.
 */
export const BOT_TIME_MARGIN = {
  /** At most this many milliseconds are kept back... */
  maxMs: 1000,
  /** ...and at most this share of the limit (short limits). */
  share: 0.25,
} as const;

/** The longest a bot may think about one move under a limit of `limitSeconds`. */
export function botTimeCapMs(limitSeconds: number): number {
  const limitMs = limitSeconds * 1000;
  if (!Number.isFinite(limitMs)) return Infinity;
  return Math.max(0, limitMs - Math.min(BOT_TIME_MARGIN.maxMs, limitMs * BOT_TIME_MARGIN.share));
}

/**
 * Runs a bot's search for a move asked for now. `wantedMs` is the bot's time budget (undefined for
 * a search bounded by nodes only, as tests use); it is capped below the move's limit and counted
 * from now, not from when a worker takes the search up. `args` builds the search's arguments for
 * the milliseconds it may run (undefined: no time bound).
 */
export function searchForMove<T>(
  compute: Compute,
  module: string,
  fn: string,
  wantedMs: number | undefined,
  limitSeconds: number,
  args: (ms: number | undefined) => readonly unknown[],
): Promise<T> {
  if (wantedMs === undefined) return compute.run<T>(module, fn, args(undefined));
  return compute.runTimed<T>(module, fn, { budgetMs: Math.min(wantedMs, botTimeCapMs(limitSeconds)), args });
}
