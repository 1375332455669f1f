import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../match/random.js';
import { eloFromScore, losFromWinsLosses, normalCdf, rate, superiority, type Game } from './elo.js';

function close(actual: number, expected: number, within: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= within, `${what} ${actual} is not within ${within} of ${expected}`);
}

/** `wins` wins, `draws` draws and `losses` losses of a against b. */
function games(a: number, b: number, wins: number, draws: number, losses: number): Game[] {
  return [...Array(wins).fill(1), ...Array(draws).fill(0.5), ...Array(losses).fill(0)].map((score: 0 | 0.5 | 1) => ({ a, b, score }));
}

test('two players, A scores 75 %: A is 400·log10(3) ≈ 190.85 above B, mean 0', () => {
  const r = rate(2, games(0, 1, 3, 0, 1));
  close(r.elo[0]! - r.elo[1]!, 400 * Math.log10(3), 1e-6);
  close(r.elo[0]! + r.elo[1]!, 0, 1e-9);
  assert.equal(r.regularized, false);
  close(eloFromScore(0.75), 190.8485, 1e-4);
});

test('two players, 4 games at 75 %: the 95 % error of each is 1.96·√(1/(4·n·p(1-p)))·400/ln10 ≈ 196.58', () => {
  const r = rate(2, games(0, 1, 3, 0, 1));
  close(r.error95[0]!, 196.5802, 1e-3);
  close(r.error95[1]!, 196.5802, 1e-3);
});

test('draws count as half points: 1 win, 2 draws, 1 loss is an even score', () => {
  const r = rate(2, games(0, 1, 1, 2, 1));
  close(r.elo[0]!, 0, 1e-6);
});

test('a cycle (each beats the next) rates everyone equal', () => {
  const r = rate(3, [...games(0, 1, 2, 0, 0), ...games(1, 2, 2, 0, 0), ...games(2, 0, 2, 0, 0)]);
  for (const e of r.elo) close(e, 0, 1e-6);
  assert.equal(r.regularized, false);
});

test("at the maximum each player's expected score equals its actual score (seeded random results)", () => {
  const random = Random.fromSeed('elo');
  const strengths = [0, 1, -0.5, 0.3, 2];
  const played: Game[] = [];
  for (let n = 0; n < 400; n++) {
    const a = random.int(5);
    const b = (a + 1 + random.int(4)) % 5;
    const p = 1 / (1 + Math.exp(strengths[b]! - strengths[a]!));
    const u = random.float();
    played.push({ a, b, score: u < p * 0.8 ? 1 : u < p * 0.8 + 0.2 ? 0.5 : 0 });
  }
  const r = rate(5, played);
  assert.equal(r.regularized, false);
  for (let i = 0; i < 5; i++) {
    let actual = 0;
    let expected = 0;
    for (const g of played) {
      if (g.a !== i && g.b !== i) continue;
      const other = g.a === i ? g.b : g.a;
      actual += g.a === i ? g.score : 1 - g.score;
      expected += 1 / (1 + 10 ** ((r.elo[other]! - r.elo[i]!) / 400));
    }
    close(expected, actual, 1e-6, `player ${i}`);
  }
  // The strongest by construction comes first.
  assert.equal(r.elo.indexOf(Math.max(...r.elo)), 4);
});

test('a player who won every game gets a finite rating through the virtual draws', () => {
  const r = rate(2, games(0, 1, 5, 0, 0));
  assert.equal(r.regularized, true);
  assert.ok(Number.isFinite(r.elo[0]!) && r.elo[0]! > 100, String(r.elo[0]));
  close(r.elo[0]!, -r.elo[1]!, 1e-6);
  assert.ok(Number.isFinite(r.error95[0]!));
});

test('no games: ratings 0 with an infinite error', () => {
  const r = rate(3, []);
  assert.deepEqual(r.elo, [0, 0, 0]);
  assert.ok(r.error95.every((e) => e === Infinity));
});

test('the head-to-head LOS is ½ + ½·erf((W-L)/√(2(W+L))): 10-5 gives 0.9016, 6-3 gives Φ(1) = 0.8413', () => {
  close(losFromWinsLosses(10, 5), 0.9016472, 1e-6);
  close(losFromWinsLosses(6, 3), 0.8413447, 1e-6);
  assert.equal(losFromWinsLosses(0, 0), 0.5);
  close(normalCdf(1.96), 0.975, 1e-4);
});

test('superiority from the model: above ½ for the better player, the two sides adding to 1', () => {
  const r = rate(2, games(0, 1, 30, 0, 10));
  const los = superiority(r, 0, 1);
  assert.ok(los > 0.99, String(los));
  close(los + superiority(r, 1, 0), 1, 1e-9);
});

/** The weighted log-likelihood of a Bradley-Terry model at strengths `theta` (nats). */
function logLikelihood(theta: readonly number[], played: readonly Game[]): number {
  return played.reduce((sum, { a, b, score, weight = 1 }) => {
    const p = 1 / (1 + Math.exp(theta[b]! - theta[a]!));
    return sum + weight * (score * Math.log(p) + (1 - score) * Math.log(1 - p));
  }, 0);
}

/** The maximum over θ1, θ2 (θ0 = 0) by grid search, coarse then fine: no MM involved. */
function bruteForceMaximum(played: readonly Game[]): number[] {
  let best = [0, 0, 0];
  let bestValue = -Infinity;
  const scan = (centre: readonly number[], half: number, step: number): void => {
    const [, c1, c2] = centre as [number, number, number];
    for (let x = c1 - half; x <= c1 + half; x += step) {
      for (let y = c2 - half; y <= c2 + half; y += step) {
        const value = logLikelihood([0, x, y], played);
        if (value > bestValue) [bestValue, best] = [value, [0, x, y]];
      }
    }
  };
  scan([0, 0, 0], 3, 0.01);
  scan(best, 0.02, 0.0001);
  return best;
}

test('3-player rankings: their pairwise results, weighted 1/2, have the maximum a brute-force search finds', () => {
  // Four games of a, b, c by their places; each becomes 3 pairwise results of weight 1/2.
  const rankings: [number[], number[]][] = [
    [[0, 1, 2], [1, 2, 3]],
    [[1, 0, 2], [1, 2, 3]],
    [[2, 0, 1], [1, 2, 3]],
    [[0, 2, 1], [1, 2, 3]],
  ];
  const played: Game[] = rankings.flatMap(([players, places]) => {
    const pairs: Game[] = [];
    for (let s = 0; s < 3; s++) for (let t = s + 1; t < 3; t++) pairs.push({ a: players[s]!, b: players[t]!, score: places[s]! < places[t]! ? 1 : 0, weight: 0.5 });
    return pairs;
  });
  const r = rate(3, played);
  assert.equal(r.regularized, false);
  const theta = bruteForceMaximum(played);
  const mean = theta.reduce((a, b) => a + b, 0) / 3;
  const ELO_PER_NAT = 400 / Math.LN10;
  theta.forEach((t, i) => close(r.elo[i]!, (t - mean) * ELO_PER_NAT, 0.1, `player ${i}`));
  // a was first twice and second twice: strongest; b and c won once each.
  assert.ok(r.elo[0]! > r.elo[1]! && r.elo[0]! > r.elo[2]!);
});

test('3-player rankings in every rotation: everyone is rated 0 (by symmetry)', () => {
  const played: Game[] = [[0, 1, 2], [1, 2, 0], [2, 0, 1]].flatMap((order) => [
    { a: order[0]!, b: order[1]!, score: 1 as const, weight: 0.5 },
    { a: order[0]!, b: order[2]!, score: 1 as const, weight: 0.5 },
    { a: order[1]!, b: order[2]!, score: 1 as const, weight: 0.5 },
  ]);
  const r = rate(3, played);
  r.elo.forEach((elo) => close(elo, 0, 1e-6));
});

test('a weight is a fraction of a game: two results of weight 1/2 rate exactly as one of weight 1, error bars too', () => {
  const whole = games(0, 1, 3, 1, 1);
  const halves = whole.flatMap((g) => [{ ...g, weight: 0.5 }, { ...g, weight: 0.5 }]);
  const a = rate(2, whole);
  const b = rate(2, halves);
  a.elo.forEach((elo, i) => close(b.elo[i]!, elo, 1e-6));
  a.error95.forEach((e, i) => close(b.error95[i]!, e, 1e-6));
  assert.deepEqual(rate(2, whole.map((g) => ({ ...g, weight: 1 }))), a);
});
