import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ordinal, rating } from 'openskill';
import { BOT_PLAYER, INITIAL_SKILL, displayedRating, rateMatch, ratedName, ratedStandings, standings, type Skill } from './rating.js';

/** Equal to the 3 decimals the package's README prints (it truncates, so within 1e-3). */
function near(actual: Skill, expected: Skill): void {
  assert.ok(Math.abs(actual.mu - expected.mu) < 1e-3 && Math.abs(actual.sigma - expected.sigma) < 1e-3, `${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
}

test('a newcomer starts at mu 25, sigma 25/3, and is displayed at mu - 3 sigma (0)', () => {
  assert.deepEqual(INITIAL_SKILL, { mu: 25, sigma: 25 / 3 });
  assert.ok(Math.abs(displayedRating(INITIAL_SKILL)) < 1e-12);
  assert.ok(Math.abs(displayedRating({ mu: 43.07, sigma: 2.42 }) - 35.81) < 1e-9);
});

test("the newcomer's skill and the displayed rating are openskill's own (rating(), ordinal())", () => {
  assert.deepEqual(INITIAL_SKILL, rating());
  for (const skill of [INITIAL_SKILL, { mu: 43.07, sigma: 2.42 }, { mu: -3, sigma: 0.5 }]) assert.equal(displayedRating(skill), ordinal(skill));
});

test('the rating library is loaded when a rating is first computed, not when this module is imported', () => {
  // Nothing this module imports, directly or through its own imports, names openskill statically...
  const bare = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(fileURLToPath(new URL(specifier, pathToFileURL(file))));
      else bare.add(specifier);
    }
  };
  visit(fileURLToPath(new URL('./rating.js', import.meta.url)));
  assert.ok(seen.size > 1, 'the walk followed the imports');
  assert.ok(!bare.has('openskill'), `imported at load: ${[...bare].join(', ')}`);
  // ...and a fresh process (this one's module cache holds openskill, imported above) loads it at the first rating.
  const script = `
    import { createRequire } from 'node:module';
    const cache = createRequire(import.meta.url).cache;
    const loaded = () => Object.keys(cache).some((path) => path.includes('/openskill/'));
    const rating = await import(process.argv[1]);
    const before = loaded();
    rating.rateMatch([{ player: 'a', score: 1 }, { player: 'b', score: 0 }], () => undefined);
    console.log(JSON.stringify({ before, after: loaded() }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, fileURLToPath(new URL('./rating.js', import.meta.url))], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { before: false, after: true });
});

test("four newcomers scored 37, 19, 37, 42 move as the openskill README's score example says, the tie alike", () => {
  const ranked = standings(['a', 'b', 'c', 'd'], [37, 19, 37, 42])!;
  const after = rateMatch(ranked, () => undefined);
  near(after[0]!, { mu: 24.689, sigma: 8.179 });
  near(after[1]!, { mu: 22.826, sigma: 8.179 });
  near(after[2]!, { mu: 24.689, sigma: 8.179 });
  near(after[3]!, { mu: 27.795, sigma: 8.263 });
  assert.deepEqual(after[0], after[2]);
});

test('a win between two newcomers moves them symmetrically, and an existing skill is the starting point', () => {
  const [winner, loser] = rateMatch(standings(['alice', 'bob'], [1, 0])!, () => undefined);
  near(winner!, { mu: 27.635, sigma: 8.066 });
  near(loser!, { mu: 22.365, sigma: 8.066 });
  const [again] = rateMatch(standings(['alice', 'bob'], [1, 0])!, (player) => (player === 'alice' ? winner : loser));
  assert.ok(again!.mu > winner!.mu && again!.sigma < winner!.sigma);
});

test("server bots' seats are rated as one player, ServerBot, with the best score of its seats", () => {
  assert.equal(ratedName('ServerBot$3'), BOT_PLAYER);
  assert.equal(ratedName('ServerBot'), 'ServerBot');
  assert.equal(ratedName('alice'), 'alice');
  assert.deepEqual(standings(['alice', 'ServerBot$0', 'ServerBot$1'], [1, 0, 2]), [
    { player: 'alice', score: 1 },
    { player: 'ServerBot', score: 2 },
  ]);
});

test('a match rates nobody without scores, with scores not matching the seats or not finite, or with one player', () => {
  assert.equal(standings(['a', 'b'], null), null);
  assert.equal(standings(['a', 'b'], [1]), null);
  assert.equal(standings(['a', 'b'], [1, Number.NaN]), null);
  assert.equal(standings(['ServerBot$0', 'ServerBot$1'], [1, 0]), null);
});

test('only a verified match is rated', () => {
  assert.equal(ratedStandings({ verified: false, players: ['a', 'b'], scores: [1, 0] }), null);
  assert.deepEqual(ratedStandings({ verified: true, players: ['a', 'b'], scores: [1, 0] }), [
    { player: 'a', score: 1 },
    { player: 'b', score: 0 },
  ]);
});
