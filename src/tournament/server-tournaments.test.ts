import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configureMatch } from '../games/game-params.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import type { GameDefinition } from '../match/game.js';
import { ManualClock } from '../util/clock.js';
import { ok } from '../util/result.js';
import type { EndedMatch, MatchHost, TournamentSpec } from './server-tournament.js';
import { TournamentDirectory, type TournamentLimits } from './server-tournaments.js';
import { parseTournamentRequest } from './tournament-request.js';

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

/** A stand-in game of 3 to 6 players (4 by default) with server bots. */
const TRIO: GameDefinition = {
  ...roshambo,
  name: 'trio',
  args: {},
  configure: (params) => configureMatch(params, { minPlayers: 3, maxPlayers: 6, defaultPlayers: 4, maxBots: 6, defaultTimeout: 5 }, {}, () => ok(null)),
};

const trioSpec = (entrants: number, overrides: Partial<TournamentSpec> = {}): TournamentSpec => ({
  ...spec(),
  game: 'trio',
  entrants: Array.from({ length: entrants }, (_, i) => ({ name: `e${i}`, bot: null })),
  ...overrides,
});

test('a game of more players: its default seats unless asked, at least that many entrants, the match limit counts tables of k', () => {
  const directory = new TournamentDirectory({ host: host(), games: () => [TRIO, roshambo], limits: { ...LIMITS, running: 10 }, clock: new ManualClock() });
  const byDefault = directory.create(trioSpec(5));
  assert.ok(byDefault.ok);
  assert.equal(byDefault.value.view().players, 4);
  assert.equal(byDefault.value.view().total, 4 * 5);
  const three = directory.create(trioSpec(5, { players: 3 }));
  assert.ok(three.ok);
  assert.equal(three.value.view().total, 3 * 10);
  const few = directory.create(trioSpec(3));
  assert.deepEqual(few.ok ? null : few.error, { code: 'tournament/bad-field', error: 'a game of 4 players needs at least 4 entrants, not 3' });
  const seven = directory.create(trioSpec(5, { players: 7 }));
  assert.equal(seven.ok ? null : seven.error.code, 'tournament/bad-args');
  // 8 entrants at tables of 3: 56 tables, 168 matches, past the 100 of LIMITS.
  const many = directory.create(trioSpec(8, { players: 3 }));
  assert.deepEqual(many.ok ? null : many.error, { code: 'tournament/too-many-matches', error: 'round-robin of 8 entrants at tables of 3 over 1 rounds is 168 matches: at most 100 (limit tournament-matches)' });
  // A 2-player game keeps its 2 seats and its words.
  const two = directory.create(spec());
  assert.ok(two.ok);
  assert.equal(two.value.view().players, 2);
  assert.equal(directory.create({ ...spec(), players: 3 }).ok, false);
});

test('a creation request may name the players of a match; null or absent is the game\'s default', () => {
  const body = { game: 'trio', entrants: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], password: 'pw' };
  const asked = parseTournamentRequest(JSON.stringify({ ...body, players: 3 }));
  assert.equal(asked.ok ? asked.value.spec.players : 'refused', 3);
  const absent = parseTournamentRequest(JSON.stringify(body));
  assert.equal(absent.ok ? absent.value.spec.players : 'refused', null);
  for (const players of [1, 2.5, '3']) {
    const bad = parseTournamentRequest(JSON.stringify({ ...body, players }));
    assert.equal(bad.ok ? 'accepted' : bad.error.code, 'tournament/bad-field', String(players));
  }
});
