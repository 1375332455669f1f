import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { Lobby, type MatchMember, type MatchWatcher, type NewMatchRequest, type PasswordAttempts, type PlayerSeat } from '../lobby/lobby.js';
import { InlineCompute } from '../match/compute.js';
import type { SeatCloseReason } from '../match/seat.js';
import type { MatchInfo } from '../protocol/coco/messages.js';
import type { LiveSeats } from '../protocol/coco/messages.js';
import type { VisEvent } from '../protocol/vis-event.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { ManualClock } from '../util/clock.js';
import type { Result } from '../util/result.js';
import { ClusterLobby } from './cluster-lobby.js';
import type { DirectoryEntry } from './seams.js';
import { MemoryHub } from './memory-hub.js';

/**
 * Two nodes in one process, each with its own Lobby, sharing an in-process hub and one history
 * store (as the nodes of `cocod --nodes N` share the primary's). The clock is the test's.
 */
function twoNodes(options: { maxMatches?: number; maxWaitingPerOwner?: number; maxWaitingPerNetwork?: number } = {}) {
  const memory = new MemoryHub();
  const store = new MemoryHistoryStore();
  const clock = new ManualClock();
  /** Every entry each node put to the directory, in order. */
  const puts: DirectoryEntry[] = [];
  const node = (name: string) => {
    const local = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock, ...options });
    const link = memory.link(name);
    const put = link.directory.put.bind(link.directory);
    (link.directory as { put: typeof put }).put = (entry) => {
      puts.push(entry);
      return put(entry);
    };
    return { local, cluster: new ClusterLobby(local, link, options) };
  };
  return { a: node('a'), b: node('b'), memory, store, clock, puts };
}

/** Alice joins match `id` through `aliceVia`, then Bob through `bobVia`; resolves once both are seated. */
async function seatAliceAndBob(id: string, aliceVia: ClusterLobby, bobVia = aliceVia): Promise<{ alice: ReturnType<typeof player>; bob: ReturnType<typeof player> }> {
  const alice = player();
  const bob = player();
  await answer(aliceVia.join(id, 'alice', null, alice.member));
  await answer(bobVia.join(id, 'bob', null, bob.member));
  await until(() => alice.seat !== null && bob.seat !== null);
  return { alice, bob };
}

function request(overrides: Partial<NewMatchRequest> = {}): NewMatchRequest {
  return { name: 'Test', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: { pace: '0', rounds: '3' }, password: null, verification: null, ...overrides };
}

/** A player as a front door holds one: what the game wrote, how the seat closed. */
function player(log: string[] = []) {
  const p = {
    seat: null as PlayerSeat | null,
    received: '',
    closed: null as SeatCloseReason | null,
    infos: [] as MatchInfo[],
    member: {
      updated: (info: MatchInfo) => void p.infos.push(info),
      expired: (id: string) => void log.push(`expired ${id}`),
      started: (seat: PlayerSeat) => {
        p.seat = seat;
        log.push(`started ${seat.name}`);
        seat.attach({ send: (bytes) => void (p.received += Buffer.from(bytes).toString()), close: (reason) => void (p.closed = reason) });
      },
    } satisfies MatchMember,
  };
  return p;
}

function spectator() {
  const s = {
    stream: '',
    phase: 'waiting',
    watcher: {
      updated: () => {},
      started: (history: Buffer) => {
        s.phase = 'started';
        s.stream += history.toString();
      },
      data: (bytes: Uint8Array) => void (s.stream += Buffer.from(bytes).toString()),
      ended: () => void (s.phase = 'ended'),
    } satisfies MatchWatcher,
  };
  return s;
}

async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; !check(); turn++) {
    if (turn > 2000) throw new Error('the condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function answer<T>(value: Result<T> | Promise<Result<T>>): Promise<Result<T>> {
  return value;
}

test('a match made on one node is listed, found and followed on the other, and leaves both when it ends', async () => {
  const { a, b } = twoNodes();
  const events: string[] = [];
  b.cluster.subscribe({ created: (i) => void events.push(`created ${i.id}`), updated: (i) => void events.push(`updated ${i.connected.join(',')}`), deleted: (id) => void events.push(`deleted ${id}`) });
  const created = (await a.cluster.create(request()));
  assert.ok(created.ok);
  await until(() => b.cluster.find(created.value) !== null);
  assert.deepEqual(b.cluster.list().map((i) => i.id), [created.value]);
  assert.equal(b.cluster.oldestWaiting('roshambo', 'coco')?.id, created.value);
  const alice = player();
  assert.ok((await answer(a.cluster.join(created.value, 'alice', null, alice.member))).ok);
  await until(() => events.includes('updated alice'));
  assert.deepEqual(events, [`created ${created.value}`, 'updated alice']);
  a.cluster.leave(created.value, alice.member);
  await until(() => events.length === 3);
  assert.equal(events[2], 'updated ');
});

test('each state of a match is put to the directory once: its start is put by the start gate, and the change notice after it puts nothing', async () => {
  const { a, b, puts } = twoNodes();
  const created = await a.cluster.create(request());
  assert.ok(created.ok);
  const id = created.value;
  await until(() => b.cluster.find(id) !== null);
  const { alice, bob } = await seatAliceAndBob(id, a.cluster, b.cluster);
  await until(() => b.cluster.find(id)?.running === true);
  for (let round = 0; round < 3; round++) {
    alice.seat!.receive(Buffer.from('ROCK\n'));
    bob.seat!.receive(Buffer.from('PAPER\n'));
  }
  await until(() => b.cluster.find(id) === null);
  await a.local.idle();
  const states = puts.filter((entry) => entry.info.id === id).map((entry) => `${entry.info.running ? 'running' : 'waiting'} ${entry.info.connected.join(',')}`);
  assert.deepEqual(states.filter((state) => state.startsWith('running')), ['running alice,bob'], 'the start is put once');
  assert.deepEqual(states, [...new Set(states)], `no state put twice: ${states.join('; ')}`);
});

test('players and spectators on another node play and watch as if local: same bytes, same record', async () => {
  const { a, b, store } = twoNodes();
  const created = (await a.cluster.create(request()));
  assert.ok(created.ok);
  const id = created.value;
  await until(() => b.cluster.find(id) !== null);
  const log: string[] = [];
  const far = spectator();
  const near = spectator();
  const watched = await answer(b.cluster.spectate(id, far.watcher));
  assert.ok(watched.ok && watched.value.id === id, 'the other node answers the spectator');
  assert.ok((await answer(a.cluster.spectate(id, near.watcher))).ok);
  const alice = player(log);
  const bob = player(log);
  const joined = await answer(b.cluster.join(id, 'alice', null, alice.member));
  assert.ok(joined.ok);
  assert.deepEqual(joined.value.connected, [], 'the reply shows the match before the join, as a local one does');
  assert.ok((await answer(a.cluster.join(id, 'bob', null, bob.member))).ok);
  await until(() => alice.seat !== null && bob.seat !== null);
  for (const gesture of ['ROCK', 'PAPER', 'SCISSORS']) {
    alice.seat!.receive(Buffer.from(`${gesture}\n`));
    bob.seat!.receive(Buffer.from('ROCK\n'));
  }
  await until(() => alice.closed !== null && bob.closed !== null && far.phase === 'ended');
  await a.local.idle();
  assert.equal(alice.closed, 'match-over');
  // After the opening (the two names and the rounds), each player gets the other's gestures.
  assert.equal(bob.received.split('\n').slice(3).join(' '), 'ROCK PAPER SCISSORS ', 'the bridged player\'s moves reached the game');
  assert.equal(alice.received.split('\n').slice(3).join(' '), 'ROCK ROCK ROCK ', 'and the game\'s bytes reached it');
  const record = await store.get(id);
  assert.ok(record);
  assert.deepEqual(record.scores, [1, 1], 'one round each: recorded by the node that ran it');
  assert.equal(far.stream, record.spectatorStream.toString(), 'the far spectator got the whole stream, byte for byte');
  assert.equal(near.stream, far.stream);
  await until(() => b.cluster.find(id) === null);
});

test('visualizer events of a match on another node reach a subscriber, then the end', async () => {
  const { a, b, store } = twoNodes();
  const created = (await a.cluster.create(request({ args: { pace: '0', rounds: '1' } })));
  assert.ok(created.ok);
  const id = created.value;
  await until(() => b.cluster.find(id) !== null);
  const events: VisEvent[] = [];
  let ended = false;
  const live = await answer(b.cluster.watchVis(id, { history: (json) => void events.push(...(JSON.parse(json.toString('utf8')) as VisEvent[])), event: (event) => void events.push(event), end: () => void (ended = true) }));
  assert.ok(live.ok);
  const { alice, bob } = await seatAliceAndBob(id, a.cluster);
  alice.seat!.receive(Buffer.from('ROCK\n'));
  bob.seat!.receive(Buffer.from('PAPER\n'));
  await until(() => ended);
  await a.local.idle();
  const record = await store.get(id);
  assert.ok(record && events.length > 0);
  assert.deepEqual(events, JSON.parse(record.visJson), 'every event the match recorded, in order');
});

test('the seats of a match on another node (turns, closes) reach a visualizer subscriber as they change', async () => {
  const { a, b } = twoNodes();
  const created = await a.cluster.create(request({ args: { pace: '0', rounds: '1' } }));
  assert.ok(created.ok);
  const id = created.value;
  await until(() => b.cluster.find(id) !== null);
  const told: LiveSeats[] = [];
  let ended = false;
  const live = await answer(b.cluster.watchVis(id, { history: () => {}, event: () => {}, seats: (seats) => void told.push(seats), end: () => void (ended = true) }));
  assert.ok(live.ok);
  const { alice, bob } = await seatAliceAndBob(id, a.cluster);
  await until(() => told.some((seats) => seats.seats.every((seat) => seat.turn !== null && seat.turn[1] === null)));
  alice.seat!.receive(Buffer.from('ROCK\n'));
  bob.seat!.receive(Buffer.from('PAPER\n'));
  await until(() => ended);
  await a.local.idle();
  const last = told.at(-1)!;
  assert.deepEqual(last.seats.map((seat) => [seat.name, seat.closed]).sort(), [['alice', 'match-over'], ['bob', 'match-over']]);
  assert.ok(last.seats.every((seat) => seat.turn !== null && seat.turn[1] !== null && seat.turn[2] !== null), 'each seat answered its turn, which had a limit');
});

test('a visualizer subscriber on another node who comes in the middle of a match gets the events so far as text, then the live ones', async () => {
  const { a, b, store } = twoNodes();
  const created = (await a.cluster.create(request({ args: { pace: '0', rounds: '2' } })));
  assert.ok(created.ok);
  const id = created.value;
  const { alice, bob } = await seatAliceAndBob(id, a.cluster);
  alice.seat!.receive(Buffer.from('ROCK\n'));
  bob.seat!.receive(Buffer.from('PAPER\n'));
  await until(() => b.cluster.find(id)?.running === true);
  const histories: string[] = [];
  const events: VisEvent[] = [];
  let ended = false;
  const live = await answer(
    b.cluster.watchVis(id, {
      history: (json) => void histories.push(json.toString('utf8')),
      event: (event) => void events.push(event),
      end: () => void (ended = true),
    }),
  );
  assert.ok(live.ok);
  await until(() => histories.length === 1);
  alice.seat!.receive(Buffer.from('ROCK\n'));
  bob.seat!.receive(Buffer.from('ROCK\n'));
  await until(() => ended);
  await a.local.idle();
  const record = await store.get(id);
  const history = JSON.parse(histories[0]!) as VisEvent[];
  assert.ok(history.length > 0 && events.length > 0, 'some events before the subscription, some after');
  assert.deepEqual([...history, ...events], JSON.parse(record!.visJson), 'every event the match recorded, once, in order');
  assert.ok(record!.visJson.startsWith(histories[0]!.slice(0, -1)), 'the history is the text the record begins with');
});

test('a node that goes down ends what other nodes bridged to it: seats close, spectators end, waiting players are told', async () => {
  const { a, b, memory } = twoNodes();
  const running = (await a.cluster.create(request({ args: { pace: '0', rounds: '50' } })));
  const waiting = (await a.cluster.create(request()));
  assert.ok(running.ok && waiting.ok);
  await until(() => b.cluster.list().length === 2);
  const log: string[] = [];
  const alice = player(log);
  const bob = player(log);
  const carol = player(log);
  const far = spectator();
  await answer(b.cluster.join(running.value, 'alice', null, alice.member));
  await answer(a.cluster.join(running.value, 'bob', null, bob.member));
  await answer(b.cluster.spectate(running.value, far.watcher));
  await answer(b.cluster.join(waiting.value, 'carol', null, carol.member));
  await until(() => alice.seat !== null && far.phase === 'started');
  memory.hub.down('a');
  await until(() => alice.closed !== null && far.phase === 'ended' && log.some((line) => line.startsWith('expired')));
  assert.equal(alice.closed, 'shutdown', 'no player\'s fault');
  assert.deepEqual(b.cluster.list(), [], 'the dead node\'s matches left the directory');
  const late = await answer(b.cluster.join(running.value, 'dave', null, player().member));
  assert.equal(late.ok, false);
  // The node that died is really gone in a real cluster; here its lobby still runs: stop it.
  await a.local.shutdown();
});

test('a bridged join is refused with the host\'s text, and password attempts count on the asking node', async () => {
  const { a, b } = twoNodes();
  const created = (await a.cluster.create(request({ password: 'secret' })));
  assert.ok(created.ok);
  await until(() => b.cluster.find(created.value) !== null);
  const tries: string[] = [];
  const passwords: PasswordAttempts = { refusal: () => (tries.filter((t) => t === 'failed').length >= 2 ? 'Too many wrong passwords: wait' : null), failed: () => void tries.push('failed'), succeeded: () => void tries.push('succeeded') };
  const requester = { owner: '10.0.0.1', passwords };
  const wrong = await answer(b.cluster.join(created.value, 'alice', 'guess', player().member, requester));
  assert.deepEqual(wrong, { ok: false, error: 'Wrong password' });
  const right = await answer(b.cluster.join(created.value, 'alice', 'secret', player().member, requester));
  assert.ok(right.ok);
  assert.deepEqual(tries, ['failed', 'succeeded']);
  const taken = await answer(b.cluster.join(created.value, 'alice', 'secret', player().member, requester));
  assert.deepEqual(taken, { ok: false, error: 'Username "alice" already taken' });
  await answer(b.cluster.join(created.value, 'x', 'guess', player().member, requester));
  const blocked = await answer(b.cluster.join(created.value, 'y', 'secret', player().member, requester));
  assert.deepEqual(blocked, { ok: false, error: 'Too many wrong passwords: wait' });
});

test('the lobby limits count every node\'s matches', async () => {
  const { a, b } = twoNodes({ maxMatches: 2 });
  assert.ok((await a.cluster.create(request())).ok);
  assert.ok((await a.cluster.create(request())).ok);
  await until(() => b.cluster.list().length === 2);
  assert.deepEqual((await b.cluster.create(request())), { ok: false, error: 'Server is at maximum capacity' });
});

test('waiting matches per network count every node\'s; the master password lifts the limit on every node too', async () => {
  const { a, b } = twoNodes({ maxWaitingPerNetwork: 2 });
  assert.ok((await a.cluster.create(request(), 'coco', { owner: '10.0.0.1', network: 'net:10.0.0.0/24' })).ok);
  assert.ok((await a.cluster.create(request(), 'coco', { owner: '10.0.0.2', network: 'net:10.0.0.0/24' })).ok);
  await until(() => b.cluster.list().length === 2);
  assert.deepEqual((await b.cluster.create(request(), 'coco', { owner: '10.0.0.3', network: 'net:10.0.0.0/24' })), {
    ok: false,
    error: "Too many waiting matches from your network: at most 2 per network (the server's master password lifts this)",
  });
  assert.ok((await b.cluster.create(request({ verification: 'master' }), 'coco', { owner: '10.0.0.3', network: 'net:10.0.0.0/24' })).ok);
  assert.ok((await b.cluster.create(request(), 'coco', { owner: '10.0.1.1', network: 'net:10.0.1.0/24' })).ok, 'another network is not affected');
});

test('a full cluster makes room for a newcomer\'s network with a waiting match of the node it reached', async () => {
  const { a, b } = twoNodes({ maxMatches: 3 });
  const flood = { owner: '10.0.0.1', network: 'net:10.0.0.0/24' };
  const oldest = (await b.cluster.create(request(), 'coco', flood));
  assert.ok(oldest.ok);
  assert.ok((await b.cluster.create(request(), 'coco', flood)).ok);
  assert.ok((await a.cluster.create(request(), 'coco', { owner: '10.0.9.1', network: 'net:10.0.9.0/24' })).ok);
  await until(() => a.cluster.list().length === 3 && b.cluster.list().length === 3);
  assert.deepEqual((await a.cluster.create(request(), 'coco', { owner: '10.0.5.1', network: 'net:10.0.5.0/24' })), { ok: false, error: 'Server is at maximum capacity' }, 'node a has no match of the network with the most');
  assert.ok((await b.cluster.create(request(), 'coco', { owner: '10.0.5.1', network: 'net:10.0.5.0/24' })).ok);
  assert.equal(b.cluster.find(oldest.value), null);
  await until(() => a.cluster.find(oldest.value) === null && a.cluster.list().length === 3);
});

test('a player who leaves a waiting match on another node is gone from it there', async () => {
  const { a, b } = twoNodes();
  const created = (await a.cluster.create(request()));
  assert.ok(created.ok);
  await until(() => b.cluster.find(created.value) !== null);
  const alice = player();
  assert.ok((await answer(b.cluster.join(created.value, 'alice', null, alice.member))).ok);
  await until(() => a.local.find(created.value)?.connected.length === 1);
  b.cluster.leave(created.value, alice.member);
  await until(() => a.local.find(created.value)?.connected.length === 0);
  await until(() => b.cluster.find(created.value)?.connected.length === 0);
});

test('a bridged player who floods is closed by the seat on the match\'s node, and the rest is not relayed', async () => {
  const { a, b } = twoNodes();
  const created = (await a.cluster.create(request({ args: { pace: '0', rounds: '1000' } })));
  assert.ok(created.ok);
  await until(() => b.cluster.find(created.value) !== null);
  const { alice, bob } = await seatAliceAndBob(created.value, b.cluster, a.cluster);
  const lines = Buffer.from('ROCK\n'.repeat(64 * 1024)); // 320 KiB of moves
  for (let i = 0; i < 40; i++) alice.seat!.receive(lines);
  await until(() => alice.closed !== null);
  assert.equal(alice.closed, 'flood');
  bob.seat!.receiveEnd();
  await a.local.idle();
});

test('a waiting match is deleted through any node by the address that made it, or with the master password; the node that hosts it decides', async () => {
  const { a, b, memory } = twoNodes({ maxWaitingPerOwner: 1 });
  const maker = { owner: '10.0.0.1', network: 'net:10.0.0.0/24' };
  const made = await answer(a.cluster.create(request(), 'coco', maker));
  assert.ok(made.ok);
  await until(() => b.cluster.find(made.value) !== null);
  const log: string[] = [];
  assert.ok((await answer(b.cluster.join(made.value, 'carol', null, player(log).member))).ok, 'a player waits in it through node b');
  // Refusals come back in the host's words.
  assert.deepEqual(await answer(b.cluster.delete(made.value, null, { owner: '10.0.0.2' })), {
    ok: false,
    error: `Game "${made.value}" was made from another address: only its maker or the server's master password may delete it`,
  });
  const unknown = `${made.value.startsWith('a') ? 'b' : 'a'}${made.value.slice(1)}`;
  assert.deepEqual(await answer(b.cluster.delete(unknown, null, maker)), { ok: false, error: `Game "${unknown}" does not exists` });
  assert.deepEqual(await answer(b.cluster.delete(made.value, null, maker)), { ok: true, value: made.value });
  // Node b forgets it at once: the maker's quota (1 waiting match) is free for its next GameNew there.
  assert.equal(b.cluster.find(made.value), null);
  assert.equal(a.local.find(made.value), null);
  await until(() => log.includes(`expired ${made.value}`));
  assert.ok((await answer(b.cluster.create(request(), 'coco', maker))).ok);

  const other = await answer(a.cluster.create(request(), 'coco', { owner: '10.0.0.7' }));
  assert.ok(other.ok);
  await until(() => b.cluster.find(other.value) !== null);
  assert.deepEqual(await answer(b.cluster.delete(other.value, 'guess', maker)), { ok: false, error: '"guess" is the wrong verification password' });
  assert.deepEqual(await answer(b.cluster.delete(other.value, 'master', maker)), { ok: true, value: other.value });
  await until(() => a.cluster.find(other.value) === null);

  // A delete whose host goes down before it answers is told so.
  const third = { owner: '10.0.0.3' };
  const last = await answer(a.cluster.create(request(), 'coco', third));
  assert.ok(last.ok);
  await until(() => b.cluster.find(last.value) !== null);
  const pending = answer(b.cluster.delete(last.value, null, third));
  memory.hub.down('a');
  assert.deepEqual(await pending, { ok: false, error: 'the node running this match stopped' });
  await a.local.shutdown();
  await b.local.shutdown();
});
