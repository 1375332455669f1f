import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { err, ok, type Result } from '../util/result.js';
import { Random } from '../match/random.js';
import { roundRobin } from './pairings.js';
import { resultLine, ServerTournament, type BotMatchRequest, type EndedMatch, type MatchHost, type TournamentSpec } from './server-tournament.js';

/** A host whose matches end only when the test says, with the scores it says. */
class FakeHost implements MatchHost {
  readonly requests: { id: string; request: BotMatchRequest }[] = [];
  private readonly pending = new Map<string, (ended: EndedMatch | null) => void>();
  /** Matches started and not yet ended, at most ever. */
  peak = 0;
  constructor(private readonly refuseFrom = Infinity) {}

  start(request: BotMatchRequest): Result<string> {
    if (this.requests.length >= this.refuseFrom) return err('Server is at maximum capacity');
    const id = `m${this.requests.length}`;
    this.requests.push({ id, request });
    return ok(id);
  }

  ended(id: string): Promise<EndedMatch | null> {
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.peak = Math.max(this.peak, this.pending.size);
    });
  }

  /** Ends the match as the lobby does when told to: without scores, `reason` in its record. */
  abort(id: string, reason: string): void {
    this.aborted.push(id);
    this.finish(id, { scores: null, reason, error: null, closures: [null, null] });
  }

  readonly aborted: string[] = [];

  /** Matches waiting for their end, oldest first. */
  open(): string[] {
    return [...this.pending.keys()];
  }

  finish(id: string, ended: EndedMatch | null): void {
    const resolve = this.pending.get(id)!;
    this.pending.delete(id);
    resolve(ended);
  }

  request(id: string): BotMatchRequest {
    return this.requests.find((r) => r.id === id)!.request;
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function spec(overrides: Partial<TournamentSpec> = {}): TournamentSpec {
  return {
    game: 'roshambo',
    format: 'round-robin',
    rounds: 1,
    concurrency: 1,
    entrants: [
      { name: 'a', bot: null },
      { name: 'b', bot: 'greedy' },
      { name: 'c', bot: null },
    ],
    args: { rounds: '3' },
    timeout: null,
    seed: 'coco',
    ...overrides,
  };
}

/**
 * Ends the open matches one at a time, the one to end picked by `pick` (seeded), each won by the
 * seat `winner` says, until the tournament is over; checks at every step that at most `bound`
 * matches were open.
 */
async function drive(host: FakeHost, tournament: ServerTournament, bound: number, winner: (request: BotMatchRequest) => 0 | 1 | null, pick = Random.fromSeed('drive')): Promise<void> {
  let over = false;
  void tournament.done.then(() => (over = true));
  for (;;) {
    await settle();
    const open = host.open();
    assert.ok(open.length <= bound, `${open.length} matches open at once, more than ${bound}`);
    if (open.length === 0) {
      if (over) return;
      continue;
    }
    const id = pick.pick(open);
    const seat = winner(host.request(id));
    host.finish(id, { scores: seat === null ? [1, 1] : seat === 0 ? [2, 0] : [0, 2], reason: 'done', error: null, closures: [null, null] });
  }
}

const players = (request: BotMatchRequest, names: Record<string, string | null>): string[] => request.lineup.map((bot) => Object.entries(names).find(([, b]) => b === bot)![0]);

test('a round robin creates every pairing of the schedule, in its seat order, with the entrants\' bots', async () => {
  const host = new FakeHost();
  const t = new ServerTournament('t1', spec({ entrants: [{ name: 'a', bot: 'x' }, { name: 'b', bot: 'y' }, { name: 'c', bot: null }] }), host, new ManualClock());
  await drive(host, t, 1, () => 0);
  await t.done;
  const bots = { a: 'x', b: 'y', c: null };
  const expected = roundRobin(3, 1).map((p) => p.seats.map((i) => ['a', 'b', 'c'][i]!));
  assert.deepEqual(host.requests.map((r) => players(r.request, bots)), expected);
  assert.deepEqual(host.requests.map((r) => r.request.name), expected.map((_, i) => `tour t1 #${i}`));
  assert.ok(host.requests.every((r) => r.request.game === 'roshambo' && r.request.args['rounds'] === '3'));
  assert.equal(t.view().state, 'finished');
  assert.equal(t.view().results.length, 6);
});

test('seats alternate: each pair plays as often in each seat order', async () => {
  const host = new FakeHost();
  const entrants = ['p', 'q', 'r', 's'].map((name) => ({ name, bot: name }));
  const t = new ServerTournament('t2', spec({ entrants, rounds: 3, concurrency: 3 }), host, new ManualClock());
  await drive(host, t, 3, () => 1);
  const first = new Map<string, number>();
  for (const { request } of host.requests) {
    const key = request.lineup.join('>');
    first.set(key, (first.get(key) ?? 0) + 1);
  }
  for (const a of ['p', 'q', 'r', 's']) for (const b of ['p', 'q', 'r', 's']) if (a !== b) assert.equal(first.get(`${a}>${b}`), 3, `${a} first against ${b}`);
  // Seat 1 won every match: with strictly alternated seats everyone scores the same.
  assert.deepEqual(t.view().standings.rows.map((row) => row.points), [9, 9, 9, 9]);
});

test('the concurrency bound holds while matches end in any order, and is reached', async () => {
  for (const concurrency of [1, 2, 5]) {
    const host = new FakeHost();
    const entrants = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, bot: null }));
    const t = new ServerTournament('t3', spec({ entrants, rounds: 2, concurrency }), host, new ManualClock());
    await drive(host, t, concurrency, () => 0, Random.fromSeed(`order ${concurrency}`));
    assert.equal(host.requests.length, 40);
    assert.equal(host.peak, concurrency);
    assert.equal(t.peakRunning, concurrency);
  }
});

test('results are tallied by entrant from the seat each one had', async () => {
  const host = new FakeHost();
  const entrants = [
    { name: 'weak', bot: 'w' },
    { name: 'strong', bot: 's' },
    { name: 'mid', bot: 'm' },
  ];
  const strength: Record<string, number> = { w: 0, m: 1, s: 2 };
  const t = new ServerTournament('t4', spec({ entrants, rounds: 2, concurrency: 2 }), host, new ManualClock());
  await drive(host, t, 2, (r) => (strength[r.lineup[0]!]! > strength[r.lineup[1]!]! ? 0 : 1));
  const view = t.view();
  assert.deepEqual(view.standings.rows.map((row) => [row.name, row.points, row.wins, row.losses]), [
    ['strong', 8, 8, 0],
    ['mid', 4, 4, 4],
    ['weak', 0, 0, 8],
  ]);
  assert.ok(view.standings.rows[0]!.elo > view.standings.rows[1]!.elo);
  for (const r of view.results) assert.equal(r.outcome, strength[entrants.find((e) => e.name === r.players[0])!.bot]! > strength[entrants.find((e) => e.name === r.players[1])!.bot]! ? '1-0' : '0-1');
  assert.deepEqual(view.running, []);
});

test('while matches run the view lists them with their match ids and entrants', async () => {
  const host = new FakeHost();
  const t = new ServerTournament('t5', spec({ concurrency: 2 }), host, new ManualClock());
  await settle();
  assert.deepEqual(t.view().running, [
    { pairing: 0, match: 'm0', players: ['a', 'b'] },
    { pairing: 1, match: 'm1', players: ['b', 'a'] },
  ]);
  assert.equal(t.view().total, 6);
  host.finish('m1', { scores: [0, 1], reason: 'done', error: null, closures: [null, null] });
  await settle();
  assert.deepEqual(t.view().running.map((r) => r.match), ['m0', 'm2']);
  assert.deepEqual(t.view().results.map((r) => [r.match, r.outcome, r.players]), [['m1', '0-1', ['b', 'a']]]);
  t.stop('stopped by test');
  // The stop ends the running matches itself, with its reason.
  assert.deepEqual(host.aborted, ['m0', 'm2']);
  assert.deepEqual(host.open(), []);
  await t.done;
  assert.equal(t.view().state, 'stopped');
  assert.equal(host.requests.length, 3, 'no match started after the stop');
  assert.deepEqual(t.view().results.map((r) => [r.outcome, r.reason]), [['0-1', 'done'], ['*', 'stopped by test'], ['*', 'stopped by test']]);
});

test('an interrupted tournament (the server stopping) starts no more matches and leaves the running ones to the shutdown', async () => {
  const host = new FakeHost();
  const t = new ServerTournament('t8', spec({ concurrency: 2 }), host, new ManualClock());
  await settle();
  t.interrupt('server shutdown');
  assert.deepEqual(host.aborted, []);
  for (const id of host.open()) host.finish(id, { scores: [1, 0], reason: 'done', error: null, closures: [null, null] });
  await t.done;
  const view = t.view();
  assert.deepEqual([view.state, view.error, view.results.length, host.requests.length], ['interrupted', 'server shutdown', 2, 2]);
  t.stop('too late');
  assert.equal(t.view().state, 'interrupted', 'an interrupted tournament is not stopped again');
});

test('a match the lobby refuses fails the tournament, and nothing more is started', async () => {
  const host = new FakeHost(2);
  const t = new ServerTournament('t6', spec({ concurrency: 1 }), host, new ManualClock());
  await drive(host, t, 1, () => 0);
  await t.done;
  const view = t.view();
  assert.equal(view.state, 'failed');
  assert.match(view.error!, /match 2 could not be created: Server is at maximum capacity/);
  assert.equal(view.results.length, 2);
});

test('swiss: the same seed and results make the same rounds', async () => {
  const run = async (): Promise<string[]> => {
    const host = new FakeHost();
    const entrants = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name, bot: name }));
    const t = new ServerTournament('t7', spec({ format: 'swiss', entrants, rounds: 3, concurrency: 2, seed: 'fixed' }), host, new ManualClock());
    await drive(host, t, 2, (r) => (r.lineup[0]! < r.lineup[1]! ? 0 : 1), Random.fromSeed('swiss order'));
    assert.equal(t.view().results.length, 18);
    return host.requests.map((r) => r.request.lineup.join('-'));
  };
  assert.deepEqual(await run(), await run());
});

test('a result line: outcome from the scores, incidents from the seats\' closures', () => {
  const line = resultLine(4, ['a', 'b'], 'm9', { scores: [0, 1], reason: 'a timed out', error: null, closures: ['timeout', null] });
  assert.deepEqual(line, { pairing: 4, players: ['a', 'b'], scores: [0, 1], outcome: '0-1', match: 'm9', reason: 'a timed out', crashed: [], timedOut: ['a'], illegal: [] });
  assert.deepEqual(resultLine(1, ['a', 'b'], 'm', { scores: [1, 0], reason: 'won', error: null, closures: ['removed', 'disconnected'] }).illegal, ['a']);
  assert.deepEqual(resultLine(1, ['a', 'b'], 'm', { scores: [1, 0], reason: 'won', error: null, closures: ['removed', 'disconnected'] }).crashed, ['b']);
  assert.equal(resultLine(1, ['a', 'b'], 'm', null).outcome, '*');
  assert.equal(resultLine(1, ['ann', 'bob'], 'm', { scores: [1, 0], reason: 'ServerBot$0 wins 3-1; ServerBot$1 gave up', error: null, closures: [null, null] }).reason, 'ann wins 3-1; bob gave up');
  assert.equal(resultLine(1, ['a', 'b'], 'm', { scores: null, reason: 'the game failed', error: 'boom', closures: [null, null] }).reason, 'the game failed: boom');
});

test('tables of 3: each match seats 3 bots in a rotation of its table, results carry the places, standings count by them', async () => {
  const host = new FakeHost();
  const entrants = ['p', 'q', 'r', 's'].map((name) => ({ name, bot: name }));
  const t = new ServerTournament('t3', spec({ entrants, players: 3, concurrency: 2 }), host, new ManualClock());
  assert.equal(t.view().total, 12);
  assert.equal(t.view().players, 3);
  // Each match: the bot named first alphabetically scores most, the next less, the last 0.
  for (;;) {
    await settle();
    const open = host.open();
    assert.ok(open.length <= 2);
    if (open.length === 0) break;
    const lineup = host.request(open[0]!).lineup as string[];
    const scores = lineup.map((bot) => 3 - [...lineup].sort().indexOf(bot));
    host.finish(open[0]!, { scores, reason: 'done', error: null, closures: [null, null, null] });
  }
  await t.done;
  assert.equal(host.requests.length, 12);
  assert.ok(host.requests.every((r) => r.request.lineup.length === 3));
  const expected = roundRobin(4, 1, 3).map((p) => p.seats.map((i) => ['p', 'q', 'r', 's'][i]!).join(' '));
  assert.deepEqual(host.requests.map((r) => r.request.lineup.join(' ')), expected);
  const view = t.view();
  assert.equal(view.state, 'finished');
  assert.ok(view.results.every((r) => r.players.length === 3 && /^\d-\d-\d$/.test(r.outcome)));
  // p beats everyone it meets: 9 games of 1 point; s loses all; q and r in between.
  assert.deepEqual(view.standings.rows.map((row) => [row.name, row.points, row.wins, row.place]), [
    ['p', 9, 9, 1],
    ['q', 6, 3, 15 / 9],
    ['r', 3, 0, 21 / 9],
    ['s', 0, 0, 3],
  ]);
});

test('a result line of more seats holds the places; bots are named by their seats in the reason', () => {
  const line = resultLine(4, ['x', 'y', 'z'], 'm9', { scores: [1, 5, 1], reason: 'ServerBot$1 bid lowest', error: null, closures: [null, null, 'timeout'] });
  assert.equal(line.outcome, '2-1-2');
  assert.equal(line.reason, 'y bid lowest');
  assert.deepEqual(line.timedOut, ['z']);
});
