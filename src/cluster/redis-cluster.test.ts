import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { Lobby, type LobbyPort, type MatchMember, type MatchWatcher, type NewMatchRequest, type PlayerSeat } from '../lobby/lobby.js';
import { nodeMatchId, normalizeMatchId } from '../lobby/match-id.js';
import { InlineCompute } from '../match/compute.js';
import type { SeatCloseReason } from '../match/seat.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { ManualClock } from '../util/clock.js';
import { silentLog } from '../util/log.js';
import type { Result } from '../util/result.js';
import { startRedis, type RedisServer } from '../../test/support/services.js';
import { CLUSTER_UNAVAILABLE, ClusterLobby } from './cluster-lobby.js';
import { NODE_FAILURE_REASON, recordLost } from './node-failure.js';
import { Redis } from 'ioredis';
import { RedisLink } from './redis-link.js';

/**
 * Nodes of one Redis cluster in this process, each its own Lobby and RedisLink on a real
 * redis-server, sharing one history store (as nodes on several machines share PostgreSQL). One
 * manual clock times the matches and the leases: a lease runs out when a test moves it.
 */
const LEASE_MS = 10_000;
let redis: RedisServer;
let clusters = 0;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});

async function cluster(names: readonly string[]) {
  const prefix = `cluster${clusters++}:`;
  const store = new MemoryHistoryStore();
  const clock = new ManualClock();
  const nodes = new Map<string, { link: RedisLink; local: Lobby; cluster: ClusterLobby }>();
  for (const name of names) {
    const link = await RedisLink.connect({
      url: redis.url,
      node: name,
      prefix,
      clock,
      useClockTime: true,
      leaseMs: LEASE_MS,
      refreshMs: LEASE_MS / 5,
      offlineBufferBytes: 1 << 20,
      recordLost: (entries) => recordLost(store, entries, silentLog, clock),
    });
    const local = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock, matchIds: () => nodeMatchId(link.nodeNumber) });
    nodes.set(name, { link, local, cluster: new ClusterLobby(local, link) });
  }
  const node = (name: string) => nodes.get(name)!;
  return {
    node,
    store,
    clock,
    /** The node's process is killed: no goodbye, its lease just runs out; the survivors' next beat sees it. */
    async kill(name: string) {
      node(name).link.crash();
      nodes.delete(name);
      await clock.advance(LEASE_MS + 1);
      for (const other of nodes.values()) await other.link.beat();
    },
    async stop() {
      for (const { cluster: lobby } of nodes.values()) await lobby.shutdown();
      await Promise.all([...nodes.values()].map(({ link }) => link.closed));
    },
  };
}

function request(overrides: Partial<NewMatchRequest> = {}): NewMatchRequest {
  return { name: 'Test', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: { pace: '0', rounds: '3' }, password: null, verification: null, ...overrides };
}

function player() {
  const p = {
    seat: null as PlayerSeat | null,
    received: '',
    closed: null as SeatCloseReason | null,
    expired: false,
    member: {
      updated: () => {},
      expired: () => void (p.expired = true),
      started: (seat: PlayerSeat) => {
        p.seat = seat;
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

/** Waits until `check` holds: messages cross a socket to Redis, and a reconnection waits for ioredis's back-off. */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; !check(); turn++) {
    if (turn > 20_000) throw new Error('the condition never held');
    await new Promise((resolve) => (turn < 1000 ? setImmediate(resolve) : setTimeout(resolve, 2)));
  }
}

async function answer<T>(value: Result<T> | Promise<Result<T>>): Promise<Result<T>> {
  return value;
}

/** Plays alice (ROCK PAPER SCISSORS) against bob (ROCK x3) in a match of `host`, the players and a spectator coming through the lobbies given. */
async function play(host: LobbyPort, aliceDoor: LobbyPort, bobDoor: LobbyPort, watchDoor: LobbyPort, seen: (id: string) => Promise<void>) {
  const created = (await host.create(request()));
  assert.ok(created.ok);
  const id = created.value;
  await seen(id);
  const watcher = spectator();
  assert.ok((await answer(watchDoor.spectate(id, watcher.watcher))).ok);
  const alice = player();
  const bob = player();
  assert.ok((await answer(aliceDoor.join(id, 'alice', null, alice.member))).ok);
  assert.ok((await answer(bobDoor.join(id, 'bob', null, bob.member))).ok);
  await until(() => alice.seat !== null && bob.seat !== null);
  for (const gesture of ['ROCK', 'PAPER', 'SCISSORS']) {
    alice.seat!.receive(Buffer.from(`${gesture}\n`));
    bob.seat!.receive(Buffer.from('ROCK\n'));
  }
  await until(() => alice.closed !== null && bob.closed !== null && watcher.phase === 'ended');
  return { id, alice: alice.received, bob: bob.received, stream: watcher.stream, closed: [alice.closed, bob.closed] };
}

test('Redis cluster: players and a spectator on two other nodes get byte for byte what a single node gives them', async () => {
  // The reference: one plain lobby, everyone local, the same seed and clock start.
  const store = new MemoryHistoryStore();
  const single = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed', clock: new ManualClock() });
  const alone = await play(single, single, single, single, async () => {});
  await single.shutdown();

  const nodes = await cluster(['a', 'b', 'c']);
  try {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => nodes.node(name).cluster);
    const bridged = await play(a!, b!, c!, c!, (id) => until(() => b!.find(id) !== null && c!.find(id) !== null));
    assert.equal(bridged.alice, alone.alice, 'the player on node b');
    assert.equal(bridged.bob, alone.bob, 'the player on node c');
    assert.equal(bridged.stream, alone.stream, 'the spectator on node c');
    assert.deepEqual(bridged.closed, ['match-over', 'match-over']);
    await nodes.node('a').local.idle();
    const record = await nodes.store.get(bridged.id);
    assert.equal(record?.spectatorStream.toString(), alone.stream, 'and the record, made by node a');
    await until(() => b!.find(bridged.id) === null && c!.find(bridged.id) === null);
  } finally {
    await nodes.stop();
  }
});

test('Redis cluster: each node makes ids of its own (its number in the first 16 bits), listed by every node in order of creation', async () => {
  const nodes = await cluster(['a', 'b']);
  try {
    const a = nodes.node('a');
    const b = nodes.node('b');
    assert.notEqual(a.link.nodeNumber, b.link.nodeNumber);
    const ids: string[] = [];
    for (const lobby of [a.cluster, b.cluster, a.cluster]) {
      const made = (await lobby.create(request()));
      assert.ok(made.ok);
      ids.push(made.value);
      // Published from two connections: the order is that in which Redis got them.
      await until(() => a.cluster.find(made.value) !== null && b.cluster.find(made.value) !== null);
    }
    for (const id of ids) assert.ok(normalizeMatchId(id).ok, 'the reference form');
    assert.equal(ids[0]!.slice(0, 3), ids[2]!.slice(0, 3), 'one node, one prefix');
    assert.notEqual(ids[0]!.slice(0, 3), ids[1]!.slice(0, 3));
    await until(() => a.cluster.list().length === 3 && b.cluster.list().length === 3);
    assert.deepEqual((await a.link.directory.list()).map((entry) => entry.info.id), ids, 'the directory lists them in first-published order');
  } finally {
    await nodes.stop();
  }
});

test('Redis cluster: a waiting match is deleted through another node by the address that made it, and leaves the directory; another address is refused', async () => {
  const nodes = await cluster(['a', 'b']);
  try {
    const a = nodes.node('a');
    const b = nodes.node('b');
    const maker = { owner: '10.0.0.1' };
    const made = await answer(a.cluster.create(request(), 'coco', maker));
    assert.ok(made.ok);
    await until(() => b.cluster.find(made.value) !== null);
    const refused = await answer(b.cluster.delete(made.value, null, { owner: '10.0.0.2' }));
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.error, /was made from another address/);
    assert.deepEqual(await answer(b.cluster.delete(made.value, null, maker)), { ok: true, value: made.value });
    assert.equal(b.cluster.find(made.value), null);
    await until(() => a.cluster.find(made.value) === null);
    // The directory itself (what a third node would read) no longer has it.
    for (let turn = 0; (await a.link.directory.find(made.value)) !== null; turn++) {
      if (turn > 200) assert.fail('the directory kept the deleted match');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await nodes.stop();
  }
});

test('Redis cluster: a node killed mid-match: a survivor records its running match as a node failure, a player bridged from elsewhere is told, other matches go on', async () => {
  const nodes = await cluster(['a', 'b', 'c']);
  try {
    const [b, c] = ['b', 'c'].map((name) => nodes.node(name).cluster);
    const a = nodes.node('a').cluster;
    const doomed = (await a.create(request({ args: { pace: '0', rounds: '100' } })));
    const waiting = (await a.create(request()));
    const other = (await b!.create(request({ args: { pace: '0', rounds: '2' } })));
    assert.ok(doomed.ok && waiting.ok && other.ok);
    await until(() => c!.list().length === 3 && b!.list().length === 3);
    const alice = player();
    const bob = player();
    assert.ok((await answer(c!.join(doomed.value, 'alice', null, alice.member))).ok);
    assert.ok((await answer(a.join(doomed.value, 'bob', null, bob.member))).ok);
    const carol = player();
    const dave = player();
    assert.ok((await answer(c!.join(other.value, 'carol', null, carol.member))).ok);
    assert.ok((await answer(b!.join(other.value, 'dave', null, dave.member))).ok);
    await until(() => alice.seat !== null && carol.seat !== null && dave.seat !== null);
    await until(() => c!.find(doomed.value)?.running === true);
    alice.seat!.receive(Buffer.from('ROCK\n'));
    bob.seat!.receive(Buffer.from('PAPER\n'));
    await until(() => alice.received.includes('PAPER'));

    await nodes.kill('a');
    await until(() => alice.closed !== null);
    assert.equal(alice.closed, 'shutdown', 'the bridged seat ends, no fault of the player');
    const record = await nodes.store.get(doomed.value);
    assert.equal(record?.reason, NODE_FAILURE_REASON, 'recorded before the player was told');
    assert.deepEqual([...(record?.players ?? [])].sort(), ['alice', 'bob']);
    assert.equal(await nodes.store.get(waiting.value), null, 'a waiting match is just gone');
    await until(() => b!.list().length === 1 && c!.list().length === 1);

    // The match on b goes on to its end.
    for (let round = 0; round < 2; round++) {
      carol.seat!.receive(Buffer.from('ROCK\n'));
      dave.seat!.receive(Buffer.from('SCISSORS\n'));
    }
    await until(() => carol.closed !== null && dave.closed !== null);
    await nodes.node('b').local.idle();
    const played = await nodes.store.get(other.value);
    assert.ok(played);
    assert.equal(played.scores?.[played.players.indexOf('carol')], 2, 'carol won both rounds');
    assert.equal(carol.closed, 'match-over');
  } finally {
    await nodes.stop();
  }
});

test('Redis cluster: exactly one survivor cleans up after a dead node, however many look', async () => {
  const nodes = await cluster(['a', 'b', 'c', 'd']);
  try {
    const a = nodes.node('a').cluster;
    const running = (await a.create(request({ args: { pace: '0', rounds: '100' } })));
    assert.ok(running.ok);
    const alice = player();
    const bob = player();
    await answer(a.join(running.value, 'alice', null, alice.member));
    await answer(a.join(running.value, 'bob', null, bob.member));
    await until(() => nodes.node('b').cluster.find(running.value)?.running === true);
    let records = 0;
    const record = nodes.store.record.bind(nodes.store);
    nodes.store.record = async (match) => {
      records++;
      return record(match);
    };
    nodes.node('a').link.crash();
    await nodes.clock.advance(LEASE_MS + 1);
    // b, c and d all look at once.
    await Promise.all(['b', 'c', 'd'].map((name) => nodes.node(name).link.beat()));
    assert.equal(records, 1);
    await nodes.node('a').local.shutdown();
  } finally {
    for (const name of ['b', 'c', 'd']) await nodes.node(name).cluster.shutdown();
  }
});

test('Redis cluster: Redis restarted mid-match: new matches are refused meanwhile, the match goes on and finishes, the directory is rebuilt', async () => {
  const nodes = await cluster(['a', 'b']);
  try {
    const a = nodes.node('a');
    const b = nodes.node('b');
    const made = (await a.cluster.create(request({ args: { pace: '0', rounds: '2' } })));
    assert.ok(made.ok);
    const id = made.value;
    await until(() => b.cluster.find(id) !== null);
    const alice = player();
    const bob = player();
    assert.ok((await answer(b.cluster.join(id, 'alice', null, alice.member))).ok);
    assert.ok((await answer(a.cluster.join(id, 'bob', null, bob.member))).ok);
    await until(() => alice.seat !== null && bob.seat !== null);
    alice.seat!.receive(Buffer.from('ROCK\n'));
    bob.seat!.receive(Buffer.from('PAPER\n'));
    const kept = (await b.cluster.create(request()));
    assert.ok(kept.ok);
    await until(() => a.cluster.find(kept.value) !== null);

    await redis.halt();
    await until(() => !a.link.available() && !b.link.available());
    assert.deepEqual((await a.cluster.create(request())), { ok: false, error: CLUSTER_UNAVAILABLE }, 'every front door creates through the lobby, which refuses');
    assert.deepEqual(b.local.create(request()), { ok: false, error: CLUSTER_UNAVAILABLE }, 'the TCP ports use the node lobby: refused too');
    // The bridged player's move waits in the bounded buffer while Redis is away.
    alice.seat!.receive(Buffer.from('SCISSORS\n'));
    bob.seat!.receive(Buffer.from('PAPER\n'));
    await redis.start();

    await until(() => a.link.available() && b.link.available());
    await until(() => alice.closed !== null && bob.closed !== null);
    assert.equal(alice.closed, 'match-over');
    await a.local.idle();
    assert.deepEqual((await nodes.store.get(id))?.scores, [1, 1], 'a round each: every move crossed');
    // The restarted Redis was empty: each node published its matches again, every node lists them.
    await until(() => a.cluster.find(kept.value) !== null && a.cluster.find(id) === null);
    const later = (await a.cluster.create(request()));
    assert.ok(later.ok, 'new matches are made again');
    await until(() => b.cluster.find(later.value) !== null);
    // Both, in no fixed order: the order of first publication is whichever node published first
    // after the restart, b republishing `kept` or a creating `later`.
    assert.deepEqual((await b.link.directory.list()).map((entry) => entry.info.id).sort(), [kept.value, later.value].sort());
  } finally {
    await nodes.stop();
  }
});

test('Redis cluster: a node declared dead while it was cut off learns so, stops publishing and is told to stop', async () => {
  const prefix = `evicted${clusters++}:`;
  const clock = new ManualClock();
  let evicted = 0;
  const options = { url: redis.url, prefix, clock, useClockTime: true, leaseMs: LEASE_MS, refreshMs: LEASE_MS / 5, offlineBufferBytes: 1 << 20 };
  const a = await RedisLink.connect({ ...options, node: 'a', onEvicted: () => void evicted++ });
  const lost: string[] = [];
  const b = await RedisLink.connect({ ...options, node: 'b', recordLost: async (entries) => void lost.push(...entries.map((entry) => entry.info.id)) });
  const raw = new Redis(redis.url);
  try {
    await a.directory.put({ node: 'a', info: { ...runningInfo('m1') }, origin: 'coco', owner: null });
    // Past the grace after b joined (in which nobody is declared dead), with no beat of a under way.
    await clock.advance(LEASE_MS + 1);
    await a.beat();
    // As if a had missed its refreshes: its lease ran out a while ago.
    await raw.zadd(`${prefix}leases`, 0, 'a');
    await b.beat();
    await until(() => evicted === 1);
    assert.deepEqual(lost, ['m1'], 'b cleaned up after a');
    assert.equal(a.available(), false);
    await a.directory.put({ node: 'a', info: runningInfo('m2'), origin: 'coco', owner: null });
    assert.deepEqual((await b.directory.list()).map((entry) => entry.info.id), [], 'a dead node publishes nothing');
  } finally {
    raw.disconnect();
    a.close();
    b.close();
    await Promise.all([a.closed, b.closed]);
  }
});

function runningInfo(id: string) {
  return { players: 2, bots: 0, timeout: 30, args: {}, id, name: id, game: 'roshambo', running: true, time: 0, connected: ['x', 'y'], spectators: 0, password: false, verified: false };
}

test('Redis cluster: while Redis is away, messages between nodes wait up to redis-offline-buffer-bytes, then go in order; past the limit they are dropped and counted', async () => {
  const prefix = `buffer${clusters++}:`;
  const clock = new ManualClock();
  const said: string[] = [];
  const log = { info: (m: string) => void said.push(m), warn: (m: string) => void said.push(m), error: (m: string) => void said.push(m) };
  const options = { url: redis.url, prefix, clock, useClockTime: true, leaseMs: LEASE_MS, refreshMs: LEASE_MS / 5 };
  // One batch of 100 seat bytes is 100 bytes and its header: two fit in 300 bytes, three do not.
  const a = await RedisLink.connect({ ...options, node: 'a', offlineBufferBytes: 300, log });
  const b = await RedisLink.connect({ ...options, node: 'b', offlineBufferBytes: 300 });
  const got: string[] = [];
  b.bus.listen((_from, message) => void got.push(message.key));
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  try {
    await redis.halt();
    await until(() => !a.available() && !b.available());
    for (const key of ['k1', 'k2', 'k3']) {
      a.bus.send('b', { t: 'to-player', key, bytes: new Uint8Array(100) });
      await turn(); // one batch each
    }
    await redis.start();
    await until(() => a.available() && b.available() && got.length >= 2);
    a.bus.send('b', { t: 'to-player', key: 'k4', bytes: new Uint8Array(100) });
    await until(() => got.includes('k4'));
    assert.deepEqual(got, ['k1', 'k2', 'k4'], 'what fitted, in order, then what came after; k3 was dropped');
    assert.ok(said.some((line) => line.includes('1 bus messages were dropped while Redis was unreachable (redis-offline-buffer-bytes)')), said.join('\n'));
  } finally {
    a.close();
    b.close();
    await Promise.all([a.closed, b.closed]);
  }
});
