import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lobby, SHUTDOWN_REASON, type MatchMember, type MatchWatcher, type NewMatchRequest, type PasswordAttempts } from './lobby.js';
import { InlineCompute } from '../match/compute.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import type { MatchRecord } from '../store/history-store.js';
import type { Seat } from '../match/seat.js';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';

function request(overrides: Partial<NewMatchRequest> = {}): NewMatchRequest {
  return { name: 'Test', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: { pace: '0' }, password: null, verification: null, ...overrides };
}

function makeLobby(options: { maxWaitingPerOwner?: number; maxWaitingPerNetwork?: number; maxMatches?: number; maxSpectators?: number; maxGameArgs?: number } = {}) {
  const store = new MemoryHistoryStore();
  const clock = new ManualClock();
  const logs: string[] = [];
  const log = lineLog((line) => logs.push(line));
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock, log, ...options });
  return { lobby, store, clock, logs };
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
  assert.deepEqual(lobby.create(request(), 'coco', { owner: 'A' }), { ok: false, error: "Too many waiting matches: at most 2 per address (the server's master password lifts this)" });
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

/** Attempts that remember which secret each call was about. */
function recordingAttempts(): PasswordAttempts & { calls: string[] } {
  const calls: string[] = [];
  return { calls, refusal: (secret) => {
      calls.push(`refusal ${secret}`);
      return null;
    },
    failed: (secret) => void calls.push(`failed ${secret}`), succeeded: (secret) => void calls.push(`succeeded ${secret}`) };
}

test('password attempts name their secret: the master password, or the match\'s own', () => {
  const { lobby } = makeLobby();
  const guard = recordingAttempts();
  const created = lobby.create(request({ password: 'pw', verification: 'master' }), 'coco', { owner: 'A', passwords: guard });
  assert.ok(created.ok);
  assert.equal(lobby.join(created.value, 'bob', 'PW', member(), { owner: 'A', passwords: guard }).ok, false);
  assert.equal(lobby.join(created.value, 'bob', null, member(), { owner: 'A', passwords: guard }).ok, false, 'no password is a wrong one');
  assert.ok(lobby.join(created.value, 'bob', 'pw', member(), { owner: 'A', passwords: guard }).ok);
  const secret = `match:${created.value}`;
  assert.deepEqual(guard.calls, ['refusal master', 'succeeded master', `refusal ${secret}`, `failed ${secret}`, `refusal ${secret}`, `failed ${secret}`, `refusal ${secret}`, `succeeded ${secret}`]);
});

test('waiting matches count per network too: the addresses of one network share maxWaitingPerNetwork', () => {
  const { lobby } = makeLobby({ maxWaitingPerOwner: 2, maxWaitingPerNetwork: 3 });
  assert.ok(lobby.create(request(), 'coco', { owner: 'A1', network: 'N' }).ok);
  assert.ok(lobby.create(request(), 'coco', { owner: 'A1', network: 'N' }).ok);
  assert.ok(lobby.create(request(), 'coco', { owner: 'A2', network: 'N' }).ok);
  assert.deepEqual(lobby.create(request(), 'coco', { owner: 'A3', network: 'N' }), {
    ok: false,
    error: "Too many waiting matches from your network: at most 3 per network (the server's master password lifts this)",
  });
  assert.ok(lobby.create(request(), 'coco', { owner: 'B1', network: 'M' }).ok, 'another network is not affected');
  assert.ok(lobby.create(request({ verification: 'master' }), 'coco', { owner: 'A3', network: 'N' }).ok, 'the master password lifts it');
});

test('the rate of new matches is asked last, once the request is otherwise good, and never with the master password', () => {
  const { lobby } = makeLobby({ maxWaitingPerOwner: 1 });
  let asked = 0;
  const requester = { owner: 'A', network: 'N', newMatch: () => (++asked > 1 ? 'Too many new matches' : null) };
  assert.equal(lobby.create(request({ game: 'nope' }), 'coco', requester).ok, false);
  assert.equal(asked, 0, 'an invalid request spends nothing');
  assert.ok(lobby.create(request(), 'coco', requester).ok);
  assert.equal(asked, 1);
  assert.equal(lobby.create(request(), 'coco', requester).ok, false, 'refused by the waiting matches first');
  assert.equal(asked, 1, 'a request refused by the waiting matches spends nothing');
  assert.ok(lobby.create(request({ verification: 'master' }), 'coco', requester).ok);
  assert.equal(asked, 1, 'the master password is not counted');
});

test('a full lobby still admits a newcomer: the oldest waiting match of the network with the most expires, and its members are told', async () => {
  const { lobby, logs } = makeLobby({ maxMatches: 5, maxWaitingPerOwner: 10, maxWaitingPerNetwork: 10 });
  const flooder = (i: number) => ({ owner: `F${i}`, network: 'flood' });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const created = lobby.create(request(), 'coco', flooder(i));
    assert.ok(created.ok);
    ids.push(created.value);
  }
  for (let i = 0; i < 2; i++) assert.ok(lobby.create(request(), 'coco', { owner: `S${i}`, network: 'small' }).ok);
  const told: string[] = [];
  lobby.join(ids[0]!, 'waiter', null, { updated: () => {}, expired: (id) => told.push(id), started: () => {} });
  const deleted: string[] = [];
  lobby.subscribe({ created: () => {}, updated: () => {}, deleted: (id) => deleted.push(id) });
  assert.deepEqual(lobby.create(request(), 'coco', { owner: 'F9', network: 'flood' }), { ok: false, error: 'Server is at maximum capacity' }, 'a network that has waiting matches makes no room');
  assert.deepEqual(lobby.create(request(), 'coco', { owner: 'S9', network: 'small' }), { ok: false, error: 'Server is at maximum capacity' });
  assert.deepEqual(lobby.create(request()), { ok: false, error: 'Server is at maximum capacity' }, 'nor a request with no network');
  assert.equal(lobby.create(request({ game: 'nope' }), 'coco', { owner: 'X', network: 'new' }).ok, false);
  assert.equal(lobby.find(ids[0]!)?.id, ids[0], 'an invalid request expires nothing');
  const newcomer = lobby.create(request(), 'coco', { owner: 'X', network: 'new' });
  assert.ok(newcomer.ok, 'a network with no waiting match gets one');
  assert.equal(lobby.find(ids[0]!), null, 'the oldest of the network with the most is gone');
  assert.ok(lobby.find(ids[1]!) && lobby.find(ids[2]!));
  assert.deepEqual(told, [ids[0]], 'its member was told (LobbyDelete)');
  assert.deepEqual(lobby.counts(), { waiting: 5, running: 0 });
  assert.match(logs.join('\n'), new RegExp(`lobby full: match ${ids[0]} \\(waiting, made from network flood\\) expires to make room for a match from network new`));
  await Promise.resolve();
  assert.deepEqual(deleted, [ids[0]]);
});

test('a full lobby makes no room at the expense of running matches, nor of a network with a single waiting match', async () => {
  const { lobby, clock } = makeLobby({ maxMatches: 3 });
  const running = lobby.create(request({ params: { players: 2, bots: 1, timeout: null } }), 'coco', { owner: 'R', network: 'flood' });
  assert.ok(running.ok);
  const seats: Seat[] = [];
  lobby.join(running.value, 'alice', null, member((seat) => seats.push(seat)));
  await clock.advance(0);
  assert.equal(seats.length, 1);
  assert.ok(lobby.create(request(), 'coco', { owner: 'A', network: 'one' }).ok);
  assert.ok(lobby.create(request(), 'coco', { owner: 'B', network: 'two' }).ok);
  assert.deepEqual(lobby.create(request(), 'coco', { owner: 'C', network: 'three' }), { ok: false, error: 'Server is at maximum capacity' });
  assert.equal(lobby.find(running.value)?.running, true);
  seats[0]!.close('removed');
  await lobby.shutdown();
});
