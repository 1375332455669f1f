import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { ManualClock } from '../util/clock.js';
import { ok } from '../util/result.js';
import type { EndedMatch, MatchHost, TournamentSpec } from './server-tournament.js';
import { TournamentDirectory, type TournamentLimits } from './server-tournaments.js';

/** Matches end when the test calls `endAll`. */
function host(): MatchHost & { endAll(): void } {
  let n = 0;
  const pending: ((ended: EndedMatch) => void)[] = [];
  return {
    start: () => ok(`m${n++}`),
    ended: () => new Promise((resolve) => pending.push(resolve)),
    endAll: () => {
      for (const resolve of pending.splice(0)) resolve({ scores: [1, 0], reason: 'done', error: null, closures: [null, null] });
    },
  };
}

const LIMITS: TournamentLimits = { running: 2, kept: 2, entrants: 8, matches: 100, concurrency: 4 };
const spec = (rounds = 1): TournamentSpec => ({
  game: 'roshambo',
  format: 'round-robin',
  rounds,
  concurrency: 2,
  entrants: [
    { name: 'a', bot: null },
    { name: 'b', bot: null },
  ],
  args: {},
  timeout: null,
  seed: 'coco',
});
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('finished tournaments past tournaments-kept are forgotten, oldest first; running ones never', async () => {
  const matches = host();
  let n = 0;
  const directory = new TournamentDirectory({ host: matches, games: () => [roshambo], limits: LIMITS, clock: new ManualClock(), ids: () => `t${n++}` });
  for (let i = 0; i < 4; i++) {
    assert.ok(directory.create(spec()).ok);
    await settle();
    matches.endAll();
    await settle();
  }
  // The list is newest first; t0 and t1 were forgotten when t2 and t3 came.
  assert.deepEqual(directory.list().map((t) => [t.id, t.state]), [['t3', 'finished'], ['t2', 'finished']]);
  assert.equal(directory.get('t0'), null);
});

test('shutdown stops every running tournament, and resolves once their running matches are tallied', async () => {
  const matches = host();
  const directory = new TournamentDirectory({ host: matches, games: () => [roshambo], limits: LIMITS, clock: new ManualClock() });
  const one = directory.create(spec(3));
  const two = directory.create(spec(3));
  assert.ok(one.ok && two.ok);
  const third = directory.create(spec());
  assert.equal(third.ok ? 'created' : third.error.code, 'tournament/too-many-running');
  await settle();
  let over = false;
  const stopping = directory.shutdown('server shutdown').then(() => (over = true));
  await settle();
  assert.equal(over, false, 'matches still running');
  matches.endAll();
  await stopping;
  for (const t of [one.value, two.value]) {
    const view = t.view();
    assert.equal(view.state, 'stopped');
    assert.equal(view.error, 'server shutdown');
    assert.equal(view.results.length, 2, 'the 2 running matches counted, no more started');
  }
});
