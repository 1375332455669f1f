import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { RatingPoint } from './ratings-api.js';
import { matchLabel, ratingSeries } from './rating-series.js';

/**
 * A player's rating over their matches, drawn by uPlot: axes, a cursor whose legend reads the
 * match, its date, the rating and mu, and a click on the plot opens the replay of the match under
 * the cursor. One point a match, evenly spaced: matches, not days, are what move a rating, and a
 * burst of matches in one evening would otherwise be one vertical smear.
 */

export interface RatingChart {
  /** Stops following the container's width and frees the canvas. */
  destroy(): void;
}

export function drawRatingChart(
  container: HTMLElement,
  history: readonly RatingPoint[],
  options: { readonly formatDate: (ms: number) => string; readonly openMatch: (id: string) => void },
): RatingChart {
  // Canvas needs colours, not CSS variables: the page's own, read once.
  const style = getComputedStyle(container);
  const accent = style.getPropertyValue('--accent').trim() || '#2457c5';
  const muted = style.getPropertyValue('--muted').trim() || '#777';
  const text = style.color || '#222';
  const axis = { stroke: text, grid: { stroke: 'rgba(128,128,128,0.15)' }, ticks: { stroke: 'rgba(128,128,128,0.3)' } };
  const size = (): { width: number; height: number } => ({ width: Math.max(240, Math.min(container.clientWidth, 900)), height: 220 });
  const fixed = (_: uPlot, value: number | null): string => (value === null || !Number.isFinite(value) ? '–' : value.toFixed(2));
  const chart = new uPlot(
    {
      ...size(),
      class: 'rating-chart',
      cursor: { drag: { x: false, y: false }, points: { size: 8 } },
      scales: { x: { time: false } },
      axes: [
        // Whole matches only: no grid line between match 1 and match 2.
        { ...axis, label: 'match', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] },
        { ...axis, label: 'rating', size: 56 },
      ],
      series: [
        { label: 'match', value: (_u, x) => matchLabel(history, x, options.formatDate) },
        { label: 'rating (mu − 3 sigma)', stroke: accent, width: 2, points: { show: history.length <= 60 }, value: fixed },
        { label: 'mu', stroke: muted, width: 1, dash: [4, 4], points: { show: false }, value: fixed },
      ],
    },
    ratingSeries(history),
    container,
  );
  const open = (): void => {
    const index = chart.cursor.idx;
    const point = index === null || index === undefined ? undefined : history[index];
    if (point) options.openMatch(point.matchId);
  };
  chart.over.addEventListener('click', open);
  chart.over.title = 'Click to replay the match under the cursor';
  const resize = new ResizeObserver(() => chart.setSize(size()));
  resize.observe(container);
  return {
    destroy() {
      resize.disconnect();
      chart.destroy();
    },
  };
}
