import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configureMatch } from '../games/game-params.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import type { GameDefinition } from '../match/game.js';
import { ManualClock } from '../util/clock.js';
import { ok } from '../util/result.js';
import type { EndedMatch, MatchHost, TournamentSpec } from './server-tournament.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { silentLog } from '../util/log.js';
import { TournamentArchive } from './tournament-archive.js';
import { TournamentDirectory, type TournamentLimits } from './server-tournaments.js';
import { parseTournamentRequest } from './tournament-request.js';

/** Matches end when the test calls `endAll`, or at once without scores when aborted. */
function host(): MatchHost & { endAll(): void } {
  let n = 0;
  const pending = new Map<string, (ended: EndedMatch) => void>();
  return {
    start: () => ok(`m${n++}`),
    ended: (id) => new Promise((resolve) => pending.set(id, resolve)),
    abort: (id, reason) => {
      pending.get(id)?.({ scores: null, reason, error: null, closures: [null, null] });
      pending.delete(id);
    },
    endAll: () => {
      const ending = [...pending.values()];
      pending.clear();
      for (const resolve of ending) resolve({ scores: [1, 0], reason: 'done', error: null, closures: [null, null] });
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

test('shutdown interrupts every running tournament, and resolves once their running matches are tallied', async () => {
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
    assert.equal(view.state, 'interrupted');
    assert.equal(view.error, 'server shutdown');
    assert.equal(view.results.length, 2, 'the 2 running matches counted, no more started');
  }
});

test('with an archive, tournaments come back after a restart: an ended one as it was, a running one interrupted, and no more than tournaments-kept', async () => {
  const store = new MemoryHistoryStore();
  const clock = new ManualClock();
  const matches = host();
  let n = 0;
  const firstArchive = new TournamentArchive(store, silentLog);
  const first = new TournamentDirectory({ host: matches, games: () => [roshambo], limits: LIMITS, clock, ids: () => `t${n++}`, archive: firstArchive });
  const ended = first.create(spec());
  assert.ok(ended.ok);
  await settle();
  matches.endAll();
  await ended.value.done;
  await clock.advance(1000);
  const running = first.create(spec(3));
  assert.ok(running.ok);
  await settle();
  matches.endAll();
  await settle();
  assert.equal(running.value.view().results.length, 2);
  // A crash now: the store as it is (the second tournament's record says running, with 2 results)
  // is what the next server reads.
  await firstArchive.flushed();
  const crashed = new MemoryHistoryStore();
  for (const stored of await store.tournaments()) {
    await crashed.saveTournament(stored);
    for (const [i, result] of stored.results.entries()) await crashed.addTournamentResult(stored.id, i, result);
  }
  assert.match((await crashed.tournaments()).find((t) => t.id === 't1')!.body, /"state":"running"/);
  const stopping = first.shutdown('test over');
  matches.endAll();
  await stopping;

  const archive = new TournamentArchive(crashed, silentLog);
  const second = new TournamentDirectory({ host: host(), games: () => [roshambo], limits: LIMITS, clock, ids: () => `t${n++}`, archive });
  await second.restore();
  assert.deepEqual(second.list().map((t) => [t.id, t.state, t.finished, t.total]), [['t1', 'interrupted', 2, 6], ['t0', 'finished', 2, 2]]);
  const t0 = second.get('t0')!.view();
  const original = ended.value.view();
  assert.deepEqual({ ...t0, standings: null }, { ...original, standings: null });
  assert.deepEqual(t0.standings.rows.map((r) => [r.name, r.points, r.games]), original.standings.rows.map((r) => [r.name, r.points, r.games]));
  assert.equal(second.get('t1')!.view().error, 'the server stopped while it ran');
  // The interrupted state is written back; an interrupted tournament cannot be stopped.
  await archive.flushed();
  assert.match((await crashed.tournaments()).find((t) => t.id === 't1')!.body, /"state":"interrupted"/);
  const refused = second.stop('t1');
  assert.equal(refused.ok ? 'stopped' : refused.error.code, 'tournament/not-running');

  // A new one, stopped (its 2 running matches count unfinished), pushes the oldest ended one out of memory and of the store (tournaments-kept 2).
  const next = second.create(spec());
  assert.ok(next.ok);
  await settle();
  second.stop(next.value.id);
  await next.value.done;
  await archive.flushed();
  assert.deepEqual((await crashed.tournaments()).map((t) => [t.id, t.results.length]), [['t2', 2], ['t1', 2]]);
  assert.deepEqual(second.list().map((t) => [t.id, t.state]), [['t2', 'stopped'], ['t1', 'interrupted']]);
});

test('an archive that cannot write logs it and the tournament goes on; a record it cannot read is left out', async () => {
  const store = new MemoryHistoryStore();
  const errors: string[] = [];
  const log = { info: () => {}, warn: () => {}, error: (message: string) => void errors.push(message) };
  const failing = Object.assign(Object.create(store) as MemoryHistoryStore, { saveTournament: () => Promise.reject(new Error('disk full')) });
  const archive = new TournamentArchive(failing, log);
  const matches = host();
  const directory = new TournamentDirectory({ host: matches, games: () => [roshambo], limits: LIMITS, clock: new ManualClock(), ids: () => 'x1', archive });
  const created = directory.create(spec());
  assert.ok(created.ok);
  await settle();
  matches.endAll();
  await created.value.done;
  await archive.flushed();
  assert.equal(created.value.current, 'finished');
  assert.ok(errors.length > 0 && errors.every((e) => /^tournament x1 could not be kept in the history: /.test(e)), errors.join('\n'));

  await store.saveTournament({ id: 'bad', createdAt: 1, body: '{"version":1,"spec":{"game":"roshambo"}}' });
  await store.saveTournament({ id: 'odd', createdAt: 2, body: 'not json' });
  errors.length = 0;
  const reader = new TournamentDirectory({ host: host(), games: () => [roshambo], limits: LIMITS, clock: new ManualClock(), archive: new TournamentArchive(store, log) });
  await reader.restore();
  assert.deepEqual(reader.list(), []);
  assert.deepEqual(errors.map((e) => e.replace(/:.*/, '')).sort(), ['tournament bad in the history cannot be read, left out', 'tournament odd in the history cannot be read, left out']);
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
