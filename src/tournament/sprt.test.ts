import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../match/random.js';
import { bounds, llr, parseSprt, sprtStatus, SPRT_DEFAULTS, type SprtSettings } from './sprt.js';

function close(actual: number, expected: number, within: number): void {
  assert.ok(Math.abs(actual - expected) <= within, `${actual} is not within ${within} of ${expected}`);
}

test('the bounds for alpha = beta = 0.05 are ln(0.05/0.95) ≈ -2.944 and ln(0.95/0.05) ≈ 2.944', () => {
  const { lower, upper } = bounds(SPRT_DEFAULTS);
  close(lower, -2.944439, 1e-6);
  close(upper, 2.944439, 1e-6);
  const skewed = bounds({ ...SPRT_DEFAULTS, alpha: 0.1, beta: 0.2 });
  close(skewed.lower, Math.log(0.2 / 0.9), 1e-12);
  close(skewed.upper, Math.log(0.8 / 0.1), 1e-12);
});

test('the LLR by hand: 60 wins, 20 draws, 20 losses against elo0=0, elo1=50', () => {
  const settings = { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 };
  const mean = 0.7;
  const variance = (60 * 0.3 ** 2 + 20 * 0.2 ** 2 + 20 * 0.7 ** 2) / 100;
  const s0 = 0.5;
  const s1 = 1 / (1 + 10 ** (-50 / 400));
  close(llr({ wins: 60, draws: 20, losses: 20 }, settings), (100 * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance), 1e-9);
  assert.equal(sprtStatus({ wins: 60, draws: 20, losses: 20 }, settings).verdict, 'H1');
});

test('no games, or no variation in the scores, give an LLR of 0', () => {
  assert.equal(llr({ wins: 0, draws: 0, losses: 0 }, SPRT_DEFAULTS), 0);
  assert.equal(llr({ wins: 0, draws: 7, losses: 0 }, SPRT_DEFAULTS), 0);
});

/** Plays seeded games at `trueElo` until the test decides (or 100 000 games). */
function run(trueElo: number, settings: SprtSettings, seed: string): { verdict: string | null; games: number } {
  const random = Random.fromSeed(seed);
  const p = 1 / (1 + 10 ** (-trueElo / 400));
  const tally = { wins: 0, draws: 0, losses: 0 };
  for (let games = 1; games <= 100_000; games++) {
    const u = random.float();
    // A third of the games drawn, the rest split to give the expected score p.
    if (u < 1 / 3) tally.draws++;
    else if (random.float() < (p - 1 / 6) / (2 / 3)) tally.wins++;
    else tally.losses++;
    const status = sprtStatus(tally, settings);
    if (status.verdict) return { verdict: status.verdict, games };
  }
  return { verdict: null, games: 100_000 };
}

test('on a seeded stream of results the test stops: H1 for a clearly stronger player, H0 for an equal one', () => {
  const settings = { elo0: 0, elo1: 30, alpha: 0.05, beta: 0.05 };
  const stronger = run(60, settings, 'sprt-1');
  assert.equal(stronger.verdict, 'H1');
  assert.ok(stronger.games < 5000, String(stronger.games));
  const equal = run(0, settings, 'sprt-2');
  assert.equal(equal.verdict, 'H0');
  // Deterministic: the same seed stops at the same game.
  assert.deepEqual(run(60, settings, 'sprt-1'), stronger);
});

test('--sprt settings: defaults, overrides, and refusals', () => {
  assert.deepEqual(parseSprt([]), { ok: true, value: SPRT_DEFAULTS });
  assert.deepEqual(parseSprt(['elo1=10', 'alpha=0.1']), { ok: true, value: { ...SPRT_DEFAULTS, elo1: 10, alpha: 0.1 } });
  assert.equal(parseSprt(['elo2=3']).ok, false);
  assert.equal(parseSprt(['elo0=x']).ok, false);
  assert.equal(parseSprt(['elo0=10', 'elo1=5']).ok, false);
  assert.equal(parseSprt(['alpha=1']).ok, false);
});
