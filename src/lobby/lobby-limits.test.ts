import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lobby, SHUTDOWN_REASON, type MatchMember, type MatchWatcher, type NewMatchRequest, type PasswordAttempts } from './lobby.js';
import { InlineCompute } from '../match/compute.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import type { MatchRecord } from '../store/history-store.js';
import type { Seat } from '../match/seat.js';
import { ManualClock } from '../util/clock.js';

function request(overrides: Partial<NewMatchRequest> = {}): NewMatchRequest {
  return { name: 'Test', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: { pace: '0' }, password: null, verification: null, ...overrides };
}

function makeLobby(options: { maxWaitingPerOwner?: number; maxSpectators?: number; maxGameArgs?: number } = {}) {
  const store = new MemoryHistoryStore();
  const clock = new ManualClock();
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock, ...options });
  return { lobby, store, clock };
}

function member(onStart: (seat: Seat) => void = () => {}): MatchMember {
  return { updated: () => {}, expired: () => {}, started: onStart };
}

/** A store that says when it records, to check what comes first. */
class RecordingStore extends MemoryHistoryStore {
  constructor(private readonly events: string[]) {
    super();
  }

  override async record(record: MatchRecord): Promise<void> {
    this.events.push(`recorded: ${record.reason} ${JSON.stringify(record.scores)}`);
    await super.record(record);
  }
}

const watcher: MatchWatcher = { updated: () => {}, started: () => {}, data: () => {}, ended: () => {} };

/** Attempts that refuse after `allowed` failures, like the per-address back-off. */
function attempts(allowed: number): PasswordAttempts & { failures: number; successes: number } {
  const state = {
    failures: 0,
    successes: 0,
    refusal: () => (state.failures >= allowed ? 'Too many wrong passwords' : null),
    failed: () => void state.failures++,
    succeeded: () => void state.successes++,
  };
  return state;
}

test('one requester may keep at most maxWaitingPerOwner waiting matches; others are not affected', () => {
  const { lobby } = makeLobby({ maxWaitingPerOwner: 2 });
  assert.ok(lobby.create(request(), 'coco', { owner: 'A' }).ok);
  assert.ok(lobby.create(request(), 'coco', { owner: 'A' }).ok);
  assert.deepEqual(lobby.create(request(), 'coco', { owner: 'A' }), { ok: false, error: 'Too many waiting matches: at most 2 per address' });
  assert.ok(lobby.create(request(), 'coco', { owner: 'B' }).ok);
  assert.ok(lobby.create(request()).ok, 'a front door with no requester (an administrator) is not counted');
});

test('a match that starts no longer counts as waiting for its creator', async () => {
  const { lobby, clock } = makeLobby({ maxWaitingPerOwner: 1 });
  const created = lobby.create(request({ params: { players: 2, bots: 1, timeout: null } }), 'coco', { owner: 'A' });
  assert.ok(created.ok);
  assert.equal(lobby.create(request(), 'coco', { owner: 'A' }).ok, false);
  let seat: Seat | null = null;
  lobby.join(created.value, 'alice', null, member((s) => (seat = s)));
  await clock.advance(0);
  assert.ok(seat);
  assert.ok(lobby.create(request(), 'coco', { owner: 'A' }).ok);
  (seat as Seat).close('removed');
  await lobby.shutdown();
});

test('wrong master passwords go through the requester\'s attempts; once refused, even the right one is not checked', () => {
  const { lobby } = makeLobby();
  const guard = attempts(2);
  assert.equal(lobby.create(request({ verification: 'guess-1' }), 'coco', { owner: 'A', passwords: guard }).ok, false);
  assert.equal(lobby.create(request({ verification: 'guess-2' }), 'coco', { owner: 'A', passwords: guard }).ok, false);
  assert.deepEqual(lobby.create(request({ verification: 'master' }), 'coco', { owner: 'A', passwords: guard }), { ok: false, error: 'Too many wrong passwords' });
  assert.equal(guard.failures, 2);
  const fresh = attempts(2);
  assert.ok(lobby.create(request({ verification: 'master' }), 'coco', { owner: 'B', passwords: fresh }).ok);
  assert.equal(fresh.successes, 1);
});

test('wrong match passwords go through the requester\'s attempts too', () => {
  const { lobby } = makeLobby();
  const created = lobby.create(request({ password: 'pw' }));
  assert.ok(created.ok);
  const guard = attempts(1);
  assert.deepEqual(lobby.join(created.value, 'bob', 'nope', member(), { owner: 'A', passwords: guard }), { ok: false, error: 'Wrong password' });
  assert.deepEqual(lobby.join(created.value, 'bob', 'pw', member(), { owner: 'A', passwords: guard }), { ok: false, error: 'Too many wrong passwords' });
  assert.ok(lobby.join(created.value, 'bob', 'pw', member(), { owner: 'B', passwords: attempts(1) }).ok);
});

test('spectators of one match are limited, and so are visualizer subscribers', () => {
  const { lobby } = makeLobby({ maxSpectators: 2 });
  const created = lobby.create(request());
  assert.ok(created.ok);
  assert.ok(lobby.spectate(created.value, { ...watcher }).ok);
  assert.ok(lobby.spectate(created.value, { ...watcher }).ok);
  assert.deepEqual(lobby.spectate(created.value, { ...watcher }), { ok: false, error: 'Too many spectators: at most 2 per match' });
  const sink = () => ({ history: () => {}, event: () => {}, end: () => {} });
  assert.ok(lobby.watchVis(created.value, sink()).ok);
  const second = lobby.watchVis(created.value, sink());
  assert.ok(second.ok);
  assert.equal(lobby.watchVis(created.value, sink()).ok, false);
  second.value();
  assert.ok(lobby.watchVis(created.value, sink()).ok, 'a subscriber that left frees its place');
});

test('a GameNew with more game arguments than maxGameArgs is refused', () => {
  const { lobby } = makeLobby({ maxGameArgs: 3 });
  const args = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`k${i}`, 'v']));
  assert.deepEqual(lobby.create(request({ args })), { ok: false, error: 'Too many game arguments: 4 > 3' });
});

test('shutdown ends a running match as "server shutdown" (no player\'s fault), recorded before the players are told', async () => {
  const events: string[] = [];
  const store = new RecordingStore(events);
  const clock = new ManualClock();
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock });
  const created = lobby.create(request({ args: { pace: '0', rounds: '100' } }));
  assert.ok(created.ok);
  const seats: Seat[] = [];
  for (const name of ['alice', 'bob']) lobby.join(created.value, name, null, member((seat) => seats.push(seat)));
  await clock.advance(0);
  for (const seat of seats) seat.attach({ send: () => {}, close: (reason) => events.push(`${seat.name} told: ${reason}`) });
  for (const seat of seats) seat.receive(Buffer.from('ROCK\n'));
  await clock.advance(0);
  await lobby.shutdown();
  assert.equal(events[0], `recorded: ${SHUTDOWN_REASON} null`);
  assert.deepEqual(events.slice(1).sort(), ['alice told: shutdown', 'bob told: shutdown']);
  const record = await store.get(created.value);
  assert.equal(record?.reason, SHUTDOWN_REASON);
  assert.match(record!.artifacts['transcript-0.txt']!, /the seat was closed: shutdown/);
});

test('a match that ends normally is recorded before its players are told', async () => {
  const events: string[] = [];
  const store = new RecordingStore(events);
  const clock = new ManualClock();
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock });
  const created = lobby.create(request({ args: { pace: '0', rounds: '1' } }));
  assert.ok(created.ok);
  const seats: Seat[] = [];
  for (const name of ['alice', 'bob']) lobby.join(created.value, name, null, member((seat) => seats.push(seat)));
  await clock.advance(0);
  for (const seat of seats) {
    seat.attach({ send: () => {}, close: (reason) => events.push(`${seat.name} told: ${reason}`) });
    seat.receive(Buffer.from('ROCK\n'));
  }
  await lobby.idle();
  assert.equal(events[0], 'recorded: draw 0-0 after 1 rounds [0,0]');
  assert.deepEqual(events.slice(1).sort(), ['alice told: match-over', 'bob told: match-over']);
});
