/**
 * Ratings from a tournament's results: the maximum-likelihood Elo of a Bradley-Terry model, where
 * player i scores against j with probability γi / (γi + γj) and a draw counts as half a win.
 * Elo = 400·log10(γ), shifted so that the players' mean is 0. Solved with Hunter's MM iteration
 * (each step γi ← Wi / Σj nij / (γi + γj) raises the likelihood), which needs no step size.
 *
 * The maximum exists only when every player can be reached from every other through "scored
 * against" links (Hunter 2004, assumption 1); a player who won or lost every game breaks it and
 * its rating would run off to infinity. Then, and only then, each player is given one virtual draw
 * against an average (Elo 0) opponent, which keeps every rating finite; `regularized` says so.
 *
 * A game of k > 2 players comes in as its ranking split into its k(k-1)/2 pairwise results
 * (standings.ts), each weighted 1/(k-1): a player's k - 1 results in one game weigh 1 in all, so
 * a k-player game counts for each player as much as one 2-player game, in the rating and in its
 * error bar. This composite likelihood was chosen over a Plackett-Luce model because it is the
 * same MM code and error computation (weight 1 gives exactly the 2-player figures), it takes
 * shared places as draws (Plackett-Luce has no ties), and it does not count the k - 1 results of
 * one ranking, which are not independent, as k - 1 separate games: at full weight the error bars
 * would claim a certainty the rankings do not give.
 */

/** One game between two players (indices), from the first one's side: 1 a win, 0.5 a draw, 0 a loss. */
export interface Game {
  readonly a: number;
  readonly b: number;
  readonly score: 0 | 0.5 | 1;
  /** How much the game counts: 1 (the default) for a 2-player game, 1/(k-1) for a pair from a k-player ranking. */
  readonly weight?: number;
}

export interface Ratings {
  /** Elo of each player, mean 0. */
  readonly elo: readonly number[];
  /** Half-width of the 95 % confidence interval of each Elo (1.96 standard errors); Infinity with no games. */
  readonly error95: readonly number[];
  /** Covariance of the Elos, for comparisons (see `superiority`). */
  readonly covariance: readonly (readonly number[])[];
  /** True when the virtual draws were needed (see above). */
  readonly regularized: boolean;
}

/** Elo points per natural-log unit of strength. */
const ELO_PER_NAT = 400 / Math.LN10;
const MAX_ITERATIONS = 100_000;
const TOLERANCE = 1e-10;

/** Whether every player reaches every other through "scored against" links. */
function stronglyConnected(players: number, games: readonly Game[]): boolean {
  const reach = Array.from({ length: players }, (_, i) => Array.from({ length: players }, (_, j) => i === j));
  for (const { a, b, score } of games) {
    if (score > 0) reach[a]![b] = true;
    if (score < 1) reach[b]![a] = true;
  }
  for (let k = 0; k < players; k++) for (let i = 0; i < players; i++) for (let j = 0; j < players; j++) if (reach[i]![k] && reach[k]![j]) reach[i]![j] = true;
  return reach.every((row) => row.every(Boolean));
}

/** Inverse of a symmetric positive-definite matrix (Gauss-Jordan; the matrices are small). */
function invert(matrix: readonly (readonly number[])[]): number[][] {
  const n = matrix.length;
  const m = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    for (let c = 0; c < 2 * n; c++) m[col]![c]! /= p;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]!;
      if (f !== 0) for (let c = 0; c < 2 * n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row) => row.slice(n));
}

export function rate(players: number, games: readonly Game[]): Ratings {
  const wins = new Array<number>(players).fill(0);
  const meetings = Array.from({ length: players }, () => new Array<number>(players).fill(0));
  for (const { a, b, score, weight = 1 } of games) {
    wins[a]! += weight * score;
    wins[b]! += weight * (1 - score);
    meetings[a]![b]! += weight;
    meetings[b]![a]! += weight;
  }
  const regularized = players > 1 && !stronglyConnected(players, games);
  // The virtual opponent: one draw against γ = 1 for everyone, when needed.
  const virtualGames = regularized ? 1 : 0;
  let gamma = new Array<number>(players).fill(1);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = gamma.map((g, i) => {
      let denominator = virtualGames / (g + 1);
      for (let j = 0; j < players; j++) if (meetings[i]![j]) denominator += meetings[i]![j]! / (g + gamma[j]!);
      return denominator === 0 ? g : (wins[i]! + virtualGames / 2) / denominator;
    });
    // Without the virtual opponent the model fixes only ratios: scale by the geometric mean to
    // keep the numbers tame. With it, its γ = 1 fixes the scale, and scaling would move the maximum.
    const logMean = regularized ? 0 : next.reduce((sum, g) => sum + Math.log(g), 0) / players;
    const scaled = next.map((g) => g / Math.exp(logMean));
    const change = Math.max(...scaled.map((g, i) => Math.abs(Math.log(g) - Math.log(gamma[i]!))));
    gamma = scaled;
    if (change < TOLERANCE) break;
  }
  const theta = gamma.map(Math.log);
  // Fisher information in θ = ln γ: each game adds p(1-p) to both diagonals, takes it off both crossings.
  const information = Array.from({ length: players }, () => new Array<number>(players).fill(0));
  for (let i = 0; i < players; i++) {
    if (virtualGames) information[i]![i]! += virtualGames * logisticVariance(theta[i]!);
    for (let j = 0; j < players; j++) {
      if (i === j || !meetings[i]![j]) continue;
      const v = meetings[i]![j]! * logisticVariance(theta[i]! - theta[j]!);
      information[i]![i]! += v;
      information[i]![j]! -= v;
    }
  }
  // The ratings are known up to a shift, fixed by "mean 0": the covariance of the centred θ is the
  // pseudo-inverse of the information, which is (I + J/n)⁻¹ - J/n when only shifts are free.
  const played = games.length > 0;
  const covariance = played
    ? invert(information.map((row) => row.map((x) => x + 1 / players))).map((row) => row.map((x) => (x - 1 / players) * ELO_PER_NAT ** 2))
    : information.map((row) => row.map(() => Infinity));
  const mean = theta.reduce((sum, t) => sum + t, 0) / players;
  return {
    elo: theta.map((t) => (t - mean) * ELO_PER_NAT),
    error95: covariance.map((row, i) => 1.96 * Math.sqrt(Math.max(0, row[i]!))),
    covariance,
    regularized,
  };
}

/** p(1-p) for a strength difference d (in nats). */
function logisticVariance(d: number): number {
  const p = 1 / (1 + Math.exp(-d));
  return p * (1 - p);
}

/** Standard normal distribution function (Abramowitz-Stegun 7.1.26 erf, error below 1.5e-7). */
export function normalCdf(x: number): number {
  return 0.5 * (1 + erf(x / Math.SQRT2));
}

export function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return sign * y;
}

/**
 * Likelihood of superiority of player i over j from the model: the probability that i's true
 * rating is above j's, given the estimates and their covariance.
 */
export function superiority(ratings: Ratings, i: number, j: number): number {
  const c = ratings.covariance;
  const variance = c[i]![i]! + c[j]![j]! - 2 * c[i]![j]!;
  const diff = ratings.elo[i]! - ratings.elo[j]!;
  if (!(variance > 0) || !Number.isFinite(variance)) return diff > 0 ? 1 : diff < 0 ? 0 : 0.5;
  return normalCdf(diff / Math.sqrt(variance));
}

/** The usual head-to-head LOS (draws carry no information): ½ + ½·erf((W - L) / √(2(W + L))). */
export function losFromWinsLosses(wins: number, losses: number): number {
  if (wins + losses === 0) return 0.5;
  return 0.5 + 0.5 * erf((wins - losses) / Math.sqrt(2 * (wins + losses)));
}

/** The Elo difference that gives an expected score `score` (0 < score < 1). */
export function eloFromScore(score: number): number {
  return -400 * Math.log10(1 / score - 1);
}
