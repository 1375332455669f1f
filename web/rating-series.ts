import type { RatingPoint } from './ratings-api.js';

/** The rating chart's data (rating-chart.ts), apart from uPlot so that it is tested under Node. */

/** The plot's columns: match number (1, 2, ...), rating (mu - 3 sigma), mu. */
export type RatingSeries = [xs: number[], ratings: number[], mus: number[]];

export function ratingSeries(history: readonly RatingPoint[]): RatingSeries {
  return [history.map((_, i) => i + 1), history.map((point) => point.rating), history.map((point) => point.mu)];
}

/** The cursor's line for match number `x`: "match 3 of 12, 2026-11-24 19:27". */
export function matchLabel(history: readonly RatingPoint[], x: number | null | undefined, formatDate: (ms: number) => string): string {
  const point = x === null || x === undefined ? undefined : history[x - 1];
  return point ? `match ${x} of ${history.length}, ${formatDate(point.endedAt)}` : '';
}
