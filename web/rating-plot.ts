/**
 * The geometry of the rating-over-time plot (pure, tested under Node): one point a match, evenly
 * spaced (matches, not days, are what move a rating, and a burst of matches in one evening would
 * otherwise be one vertical smear), rating upwards, inside a box of `width` x `height` less `pad`.
 */
export interface PlotGeometry {
  /** The SVG polyline's `points`. */
  readonly points: string;
  /** The ratings at the top and bottom edges of the drawing area. */
  readonly top: number;
  readonly bottom: number;
}

export function plotGeometry(ratings: readonly number[], width: number, height: number, pad: number): PlotGeometry | null {
  if (ratings.length === 0) return null;
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  // A flat line (or a single match) is drawn across the middle.
  if (high - low < 1e-9) {
    low -= 1;
    high += 1;
  }
  const innerWidth = width - 2 * pad;
  const innerHeight = height - 2 * pad;
  const step = ratings.length > 1 ? innerWidth / (ratings.length - 1) : 0;
  const points = ratings.map((rating, i) => {
    const x = ratings.length > 1 ? pad + i * step : width / 2;
    const y = pad + ((high - rating) / (high - low)) * innerHeight;
    return `${round(x)},${round(y)}`;
  });
  return { points: points.join(' '), top: high, bottom: low };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
