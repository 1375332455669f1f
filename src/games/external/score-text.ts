/**
 * The scores of an `over` line as the reference controller reads them: each a float in the
 * grammar of Rust's `f64::from_str` (optional sign, then digits with an optional fraction and
 * exponent, or `inf`, `infinity`, `nan` in any case), so `inf` and `NaN` are accepted.
 *
 * The match runtime keeps finite scores only (they are ranked, stored as JSON and sent as JSON,
 * none of which has a NaN or an infinity), so a non-finite score is stored as the extreme value
 * that ranks it where it belongs: `+inf` as the largest double, `-inf` and `NaN` as the most
 * negative one (a NaN is no score at all and ranks last). The text as printed is kept beside it
 * in the match's report, and the web page shows that text.
 */

const FLOAT = /^[+-]?(?:inf|infinity|nan|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)$/i;

/** The value of a score token, or null when the reference controller would refuse it. */
export function parseScore(token: string): number | null {
  if (!FLOAT.test(token)) return null;
  const negative = token.startsWith('-');
  const word = token.replace(/^[+-]/, '').toLowerCase();
  if (word === 'nan') return NaN;
  if (word === 'inf' || word === 'infinity') return negative ? -Infinity : Infinity;
  // Number() reads this grammar exactly, and overflows to an infinity as Rust does ("1e400").
  return Number(token);
}

/** The finite value a score is stored and ranked as (see above). */
export function storedScore(score: number): number {
  if (Number.isFinite(score)) return score;
  return score === Infinity ? Number.MAX_VALUE : -Number.MAX_VALUE;
}
