import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { DEFAULT_LIMITS } from '../gateways/server-limits.js';
import { MemoryTournamentStore, type TournamentStore } from '../store/tournament-store.js';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';
import { ok, type Result } from '../util/result.js';
import type { BotMatchRequest, EndedMatch, MatchHost, TournamentSpec } from './server-tournament.js';
import { SHARED_POLL_MS, SharedTournaments, TAKEN_OVER_REASON } from './shared-tournaments.js';

/**
 * Nodes of a cluster in one process: each its own SharedTournaments, match host and manual clock
 * (a node whose clock is not moved does nothing: a dead or paused node), over one store.
 */
const LEASE_MS = 10_000;
const REFRESH_MS = 2_000;

/** A node's matches: they end when the test says, the first seat winning. */
class FakeHost implements MatchHost {
  readonly started: { id: string; request: BotMatchRequest }[] = [];
  private readonly pending = new Map<string, (ended: EndedMatch | null) => void>();
  readonly aborted: string[] = [];
  constructor(private readonly node: string) {}

  start(request: BotMatchRequest): Result<string> {
    const id = `${this.node}-m${this.started.length}`;
    this.started.push({ id, request });
    return ok(id);
  }

  ended(id: string): Promise<EndedMatch | null> {
    return new Promise((resolve) => this.pending.set(id, resolve));
  }

  abort(id: string, reason: string): void {
    this.aborted.push(id);
    this.finish(id, reason);
  }

  open(): string[] {
    return [...this.pending.keys()];
  }

  finish(id: string, reason = 'done'): void {
    const resolve = this.pending.get(id);
    this.pending.delete(id);
    resolve?.({ scores: reason === 'done' ? [1, 0] : null, reason, error: null, closures: [null, null] });
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

function node(name: string, store: TournamentStore, start = 0, kept: number = DEFAULT_LIMITS['tournaments-kept']) {
  const clock = new ManualClock(start);
  const host = new FakeHost(name);
  const lines: string[] = [];
  const tournaments = new SharedTournaments({
    store,
    node: name,
    host,
    games: () => [roshambo],
    limits: { running: 4, kept, entrants: 32, matches: 100, concurrency: 4 },
    clock,
    log: lineLog((line) => lines.push(line)),
    leaseMs: LEASE_MS,
    refreshMs: REFRESH_MS,
  });
  tournaments.start();
  return { clock, host, tournaments, lines };
}

const SPEC: TournamentSpec = {
  game: 'roshambo',
  format: 'round-robin',
  rounds: 1,
  concurrency: 1,
  entrants: [
    { name: 'ann', bot: null },
    { name: 'bob', bot: null },
    { name: 'cid', bot: null },
  ],
  args: { rounds: '3' },
  timeout: null,
  seed: 's',
};

async function created(on: ReturnType<typeof node>): Promise<string> {
  const answer = await on.tournaments.create(SPEC);
  assert.ok(answer.ok, JSON.stringify(answer));
  return answer.value.view.id;
}

test('a tournament created on one node is found, listed and followed on another to its end, which ends its lease', async () => {
  const store = new MemoryTournamentStore();
  const a = node('a', store);
  const b = node('b', store);
  const id = await created(a);
  const seen = await b.tournaments.find(id);
  assert.equal(seen?.view.state, 'running');
  assert.deepEqual(seen?.view.running.map((r) => r.match), ['a-m0'], 'the running match shows on the other node');
  assert.deepEqual((await b.tournaments.list()).map((t) => [t.id, t.state, t.running]), [[id, 'running', 1]]);
  let version = seen!.version;
  assert.equal(seen?.view.total, 6, 'a round robin of 3: each pair twice, each seat once');
  for (let match = 0; match < 6; match++) {
    a.host.finish(`a-m${match}`);
    await settle();
    // Followed through node b: a long poll there answers once the store's version passed its last.
    await b.tournaments.nextChange(id, version, 60_000, new AbortController().signal);
    const now = await b.tournaments.find(id);
    assert.ok(now!.version > version);
    assert.equal(now!.view.results.length, match + 1);
    version = now!.version;
  }
  await settle();
  const end = await b.tournaments.find(id);
  assert.equal(end?.view.state, 'finished');
  assert.equal(end?.view.results.length, 6);
  assert.deepEqual(end?.view.running, []);
  assert.equal((await store.get(id))?.lease.until, null, 'over: nobody takes it over');
  assert.equal(b.host.started.length, 0, 'node b played nothing');
  await a.tournaments.shutdown('test over');
  await b.tournaments.shutdown('test over');
});

test('the running node dies: after its lease another node takes the tournament over, plays only the pairings without a result, and the dead node writes nothing more', async () => {
  const store = new MemoryTournamentStore();
  const a = node('a', store);
  const b = node('b', store);
  const id = await created(a);
  a.host.finish('a-m0');
  await settle();
  assert.deepEqual(a.host.open(), ['a-m1'], 'the second match runs on node a');
  // Node a stops (its clock stands still: no renewal); node b's time goes on past a's lease.
  await b.clock.advance(REFRESH_MS);
  assert.equal(b.host.started.length, 0, 'a live lease is not taken over');
  await b.clock.advance(LEASE_MS);
  await settle();
  assert.match(b.lines.join('\n'), new RegExp(`tournament ${id} taken over from node a \\(epoch 2\\): 1 matches recorded`));
  assert.deepEqual(b.host.started.map((s) => s.request.name), [`tour ${id} #1`], 'the pairing a was playing is played again, the recorded one is not');
  // Node a wakes (it was paused): its match ends, its write is refused, its copy stops (ending
  // the match it started before the refusal came back).
  a.host.finish('a-m1');
  await settle();
  assert.match(a.lines.join('\n'), new RegExp(`tournament ${id}: ${TAKEN_OVER_REASON}`));
  assert.deepEqual(a.host.open(), [], 'node a plays nothing more');
  assert.deepEqual(a.host.aborted, a.host.started.slice(2).map((s) => s.id));
  assert.equal((await store.get(id))?.results.length, 1, "node a's result after the takeover is not in the store");
  for (let match = 0; match < 5; match++) {
    b.host.finish(`b-m${match}`);
    await settle();
  }
  const end = await a.tournaments.find(id);
  assert.equal(end?.view.state, 'finished');
  assert.deepEqual(end?.view.results.map((r) => [r.pairing, r.match]), [[0, 'a-m0'], [1, 'b-m0'], [2, 'b-m1'], [3, 'b-m2'], [4, 'b-m3'], [5, 'b-m4']]);
  await a.tournaments.shutdown('test over');
  await b.tournaments.shutdown('test over');
});

test('a stop asked through another node stops the tournament on the node that runs it', async () => {
  const store = new MemoryTournamentStore();
  const a = node('a', store);
  const b = node('b', store);
  const id = await created(a);
  const stopping = b.tournaments.stop(id);
  await settle();
  // Node a renews its lease, sees the stop asked, and stops it (its running match is ended).
  await a.clock.advance(REFRESH_MS);
  await settle();
  // Node b's follow of the store reads it again.
  await b.clock.advance(SHARED_POLL_MS);
  const stopped = await stopping;
  assert.ok(stopped.ok, JSON.stringify(stopped));
  assert.equal(stopped.value.view.state, 'stopped');
  assert.deepEqual(a.host.aborted, ['a-m0']);
  const again = await b.tournaments.stop(id);
  assert.ok(!again.ok && again.error.code === 'tournament/not-running');
  const unknown = await b.tournaments.stop('nope');
  assert.ok(!unknown.ok && unknown.error.code === 'tournament/not-found');
  await a.tournaments.shutdown('test over');
  await b.tournaments.shutdown('test over');
});

test('a node that stops hands its running tournaments over at once: another node takes them over at its next look', async () => {
  const store = new MemoryTournamentStore();
  const a = node('a', store);
  const b = node('b', store);
  const id = await created(a);
  a.host.finish('a-m0');
  await settle();
  const stopping = a.tournaments.shutdown('server shutdown');
  // The node's shutdown ends its running matches (the lobby does so).
  await settle();
  for (const match of a.host.open()) a.host.finish(match, 'server shutdown');
  await stopping;
  assert.match(a.lines.join('\n'), new RegExp(`tournament ${id} handed over to the other nodes`));
  const handed = await store.get(id);
  assert.equal(handed?.results.length, 1, 'the match the shutdown ended is not tallied');
  assert.equal(JSON.parse(handed!.body).state, 'running');
  await b.clock.advance(REFRESH_MS);
  await settle();
  assert.deepEqual(b.host.started.map((s) => s.request.name), [`tour ${id} #1`]);
  const over = b.tournaments.shutdown('test over');
  await settle();
  for (const match of b.host.open()) b.host.finish(match, 'server shutdown');
  await over;
});

test('tournaments-kept counts in the shared store: past it, the oldest that is over is forgotten; running ones never are', async () => {
  const store = new MemoryTournamentStore();
  const a = node('a', store, 0, 1);
  const first = await created(a);
  const second = await created(a);
  const third = await created(a);
  const finish = async (id: string): Promise<void> => {
    for (let round = 0; round < 6; round++) {
      for (const match of a.host.open()) if (a.host.started.find((s) => s.id === match)!.request.name.startsWith(`tour ${id} `)) a.host.finish(match);
      await settle();
    }
  };
  await finish(first);
  await finish(second);
  assert.deepEqual((await store.list()).map((t) => [t.id, JSON.parse(t.body).state]), [
    [third, 'running'],
    [second, 'finished'],
  ]);
  const over = a.tournaments.shutdown('test over');
  await settle();
  for (const match of a.host.open()) a.host.finish(match, 'server shutdown');
  await over;
});

test('a store that refuses the creation: 503 tournament/unavailable, and the tournament does not run', async () => {
  const store = new MemoryTournamentStore();
  store.create = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  const a = node('a', store);
  const answer = await a.tournaments.create(SPEC);
  assert.ok(!answer.ok);
  assert.equal(answer.error.code, 'tournament/unavailable');
  assert.match(answer.error.error, /ECONNREFUSED/);
  await settle();
  assert.deepEqual(a.host.open(), [], 'its first match was ended');
  assert.deepEqual(await a.tournaments.list(), []);
  await a.tournaments.shutdown('test over');
});


test('a stop asked while the running node is dead: the node that takes the tournament over stops it at once, ending the match it had begun', async () => {
  const store = new MemoryTournamentStore();
  const a = node('a', store);
  const b = node('b', store);
  const id = await created(a);
  // Node a is gone (its clock stands still); the stop is asked through node b.
  const stopping = b.tournaments.stop(id);
  await settle();
  await b.clock.advance(LEASE_MS + REFRESH_MS);
  const stopped = await stopping;
  assert.ok(stopped.ok, JSON.stringify(stopped));
  assert.equal(stopped.value.view.state, 'stopped');
  assert.match(b.lines.join('\n'), new RegExp(`tournament ${id} taken over from node a`));
  assert.deepEqual(b.host.open(), [], 'the match it started at the takeover was ended');
  assert.deepEqual(b.host.aborted, b.host.started.map((s) => s.id));
  await b.tournaments.shutdown('test over');
});
