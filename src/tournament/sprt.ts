/**
 * A sequential probability ratio test between two players, as cutechess-cli runs it: H0 says the
 * first player is `elo0` Elo stronger than the second, H1 says `elo1`. The log-likelihood ratio is
 * the generalized SPRT's normal approximation over game scores (trinomial: win, draw, loss), with
 * Elo turned into an expected score by the logistic model, s(e) = 1 / (1 + 10^(-e/400)):
 *
 *   LLR = N · (s1 - s0) · (2·x̄ - s0 - s1) / (2·σ²)
 *
 * where x̄ is the mean score per game and σ² its variance per game. The test accepts H1 once
 * LLR ≥ ln((1-β)/α) and H0 once LLR ≤ ln(β/(1-α)).
 */

export interface SprtSettings {
  readonly elo0: number;
  readonly elo1: number;
  readonly alpha: number;
  readonly beta: number;
}

export const SPRT_DEFAULTS: SprtSettings = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 };

export interface Tally {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

export type SprtVerdict = 'H0' | 'H1' | null;

export interface SprtStatus {
  readonly llr: number;
  readonly lower: number;
  readonly upper: number;
  /** The hypothesis accepted, or null while the test goes on. */
  readonly verdict: SprtVerdict;
}

export function bounds(settings: SprtSettings): { readonly lower: number; readonly upper: number } {
  return { lower: Math.log(settings.beta / (1 - settings.alpha)), upper: Math.log((1 - settings.beta) / settings.alpha) };
}

function expectedScore(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** The LLR; 0 while the scores do not vary (no games, or all of one kind), as cutechess has it. */
export function llr(tally: Tally, settings: SprtSettings): number {
  const n = tally.wins + tally.draws + tally.losses;
  if (n === 0) return 0;
  const mean = (tally.wins + tally.draws / 2) / n;
  const variance = (tally.wins * (1 - mean) ** 2 + tally.draws * (0.5 - mean) ** 2 + tally.losses * mean ** 2) / n;
  if (variance <= 0) return 0;
  const s0 = expectedScore(settings.elo0);
  const s1 = expectedScore(settings.elo1);
  return (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
}

export function sprtStatus(tally: Tally, settings: SprtSettings): SprtStatus {
  const value = llr(tally, settings);
  const { lower, upper } = bounds(settings);
  return { llr: value, lower, upper, verdict: value >= upper ? 'H1' : value <= lower ? 'H0' : null };
}

/** Raw settings such as `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any subset; the rest default). */
export function parseSprt(words: readonly string[]): { readonly ok: true; readonly value: SprtSettings } | { readonly ok: false; readonly error: string } {
  const settings: Record<string, number> = { ...SPRT_DEFAULTS };
  for (const word of words) {
    const [key, text, ...extra] = word.split('=');
    if (key === undefined || text === undefined || extra.length || !(key in SPRT_DEFAULTS)) return { ok: false, error: `--sprt takes elo0=, elo1=, alpha= and beta=, not "${word}"` };
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value)) return { ok: false, error: `${key} must be a number, not "${text}"` };
    settings[key] = value;
  }
  const value = settings as unknown as SprtSettings;
  if (!(value.alpha > 0 && value.alpha < 1 && value.beta > 0 && value.beta < 1)) return { ok: false, error: 'alpha and beta must be between 0 and 1' };
  if (!(value.elo1 > value.elo0)) return { ok: false, error: 'elo1 must be above elo0' };
  return { ok: true, value };
}
