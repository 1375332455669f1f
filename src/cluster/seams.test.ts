import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import type { MatchInfo } from '../protocol/coco/messages.js';
import { ClusterHub, HubLink, type HubEvent, type HubRequest } from './hub.js';
import { ipcChannel, portEnd } from './ipc-channel.js';
import { MemoryHub } from './memory-hub.js';
import type { BridgeMessage, ClusterLink, DirectoryEntry } from './seams.js';
import { RedisLink } from './redis-link.js';
import { ManualClock } from '../util/clock.js';
import { startRedis, type RedisServer } from '../../test/support/services.js';

/** A set of nodes sharing one cluster; `stop` releases what the implementation holds. */
interface Cluster {
  /** A node that has joined (Redis: connected, subscribed and leased). */
  node(name: string): ClusterLink | Promise<ClusterLink>;
  /** The node's process died: the cluster notices (the primary sees a worker exit; a lease runs out). */
  kill(name: string): void | Promise<void>;
  stop(): void | Promise<void>;
  /** Times the shared GameNew buckets. */
  readonly clock: ManualClock;
}

function info(id: string, overrides: Partial<MatchInfo> = {}): MatchInfo {
  return { players: 2, bots: 0, timeout: 30, args: {}, id, name: id, game: 'roshambo', running: false, time: 0, connected: [], spectators: 0, password: false, verified: false, ...overrides };
}

function entry(node: string, id: string, overrides: Partial<MatchInfo> = {}): DirectoryEntry {
  return { node, info: info(id, overrides), origin: 'coco', owner: null };
}

/**
 * Waits until `check` holds, turning the event loop (messages cross microtasks, ports, IPC, a
 * socket to Redis). Past the first turns it waits for timers too, so that a round trip to a
 * server on a busy machine is waited for; the bound only turns a lost message into a failure.
 */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; !check(); turn++) {
    if (turn > 5000) throw new Error('the condition never held');
    await new Promise((resolve) => (turn < 1000 ? setImmediate(resolve) : setTimeout(resolve, 2)));
  }
}

/** The contract of the lobby directory and the node bus, for every implementation. */
function contract(name: string, open: () => Cluster): void {
  async function using(body: (cluster: Cluster) => Promise<void>): Promise<void> {
    const cluster = open();
    try {
      await body(cluster);
    } finally {
      await cluster.stop();
    }
  }

  test(`${name}: a match one node publishes is listed and watched by every node, in order`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const seen: string[] = [];
      b.directory.watch({ put: (e) => void seen.push(`put ${e.node} ${e.info.id} ${e.info.connected.join(',')}`), removed: (id, node) => void seen.push(`removed ${node} ${id}`) });
      await a.directory.put(entry('a', 'm1'));
      await a.directory.put(entry('a', 'm2'));
      await a.directory.put(entry('a', 'm1', { connected: ['alice'] }));
      await a.directory.remove('m2');
      await until(() => seen.length === 4);
      assert.deepEqual(seen, ['put a m1 ', 'put a m2 ', 'put a m1 alice', 'removed a m2']);
      const listed = await b.directory.list();
      assert.deepEqual(listed.map((e) => [e.node, e.info.id, e.info.connected]), [['a', 'm1', ['alice']]]);
    }));

  test(`${name}: once a put settles, every node finds the match in the directory at once (no waiting for its watchers)`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      assert.equal(await b.directory.find('m1'), null, 'nobody published it yet');
      await a.directory.put(entry('a', 'm1'));
      assert.deepEqual(await b.directory.find('m1'), entry('a', 'm1'));
      await a.directory.remove('m1');
      await a.directory.list(); // the removal was applied
      assert.equal(await b.directory.find('m1'), null, 'and not once removed');
    }));

  test(`${name}: a node cannot publish for another node nor take its ids; removing an unknown id is nothing`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      await a.directory.put(entry('a', 'm1'));
      await b.directory.put(entry('a', 'forged'));
      await b.directory.put(entry('b', 'm1', { name: 'taken over' }));
      await b.directory.remove('m1');
      await b.directory.remove('nothing');
      await b.directory.list(); // answered after b's requests, which travel the same channel
      const listed = await a.directory.list();
      assert.deepEqual(listed.map((e) => [e.node, e.info.id, e.info.name]), [['a', 'm1', 'm1']]);
    }));

  test(`${name}: a node that joins later is given what was published before`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      await a.directory.put(entry('a', 'early'));
      await a.directory.list(); // the hub has it
      // Not awaited when already there: the hubs tell a node's watchers of the earlier matches in
      // the turn it connects, Redis tells each watcher when it starts watching.
      const joining = cluster.node('late');
      const late = joining instanceof Promise ? await joining : joining;
      const seen: string[] = [];
      late.directory.watch({ put: (e) => void seen.push(e.info.id), removed: () => {} });
      assert.deepEqual((await late.directory.list()).map((e) => e.info.id), ['early']);
      await until(() => seen.length === 1);
      assert.deepEqual(seen, ['early'], 'and watchers are told of it');
    }));

  test(`${name}: messages between two nodes arrive in order with their bytes intact; to a gone node they are dropped`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const got: BridgeMessage[] = [];
      const from: string[] = [];
      b.bus.listen((sender, message) => {
        from.push(sender);
        got.push(message);
      });
      const bytes = new Uint8Array([0, 1, 2, 255, 10]);
      for (let i = 0; i < 50; i++) a.bus.send('b', { t: 'to-player', key: `k${i}`, bytes });
      a.bus.send('nobody', { t: 'leave', key: 'lost' });
      a.bus.send('b', { t: 'leave', key: 'last' });
      await until(() => got.length === 51);
      assert.deepEqual(got.map((m) => m.key), [...Array.from({ length: 50 }, (_, i) => `k${i}`), 'last']);
      assert.ok(from.every((sender) => sender === 'a'));
      const first = got[0] as Extract<BridgeMessage, { t: 'to-player' }>;
      assert.deepEqual([...first.bytes], [0, 1, 2, 255, 10]);
    }));

  test(`${name}: when a node goes down, its matches leave the directory and the others are told`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const c = await cluster.node('c');
      await a.directory.put(entry('a', 'on-a'));
      await b.directory.put(entry('b', 'on-b'));
      const removed: string[] = [];
      const down: string[] = [];
      c.directory.watch({ put: () => {}, removed: (id, node) => void removed.push(`${node} ${id}`) });
      c.bus.onNodeDown((node) => void down.push(node));
      b.bus.onNodeDown((node) => void down.push(`b saw ${node}`));
      await c.directory.list();
      await cluster.kill('a');
      await until(() => down.length === 2);
      assert.deepEqual(removed, ['a on-a']);
      assert.deepEqual(down.sort(), ['a', 'b saw a']);
      assert.deepEqual((await c.directory.list()).map((e) => e.info.id), ['on-b']);
    }));

  test(`${name}: a node that leaves is seen going down like one that died`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      await a.directory.put(entry('a', 'm'));
      const down: string[] = [];
      b.bus.onNodeDown((node) => void down.push(node));
      await b.directory.list();
      a.close();
      await until(() => down.length === 1);
      assert.deepEqual(await b.directory.list(), []);
    }));

  test(`${name}: the connection slots of one address count on every node together; a slot given back is free again`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      assert.equal(await a.addresses.openConnection('10.0.0.1', 3), true);
      assert.equal(await a.addresses.openConnection('10.0.0.1', 3), true);
      assert.equal(await b.addresses.openConnection('10.0.0.1', 3), true);
      assert.equal(await b.addresses.openConnection('10.0.0.1', 3), false, 'three held on two nodes: the budget of three is spent');
      assert.equal(await a.addresses.openConnection('10.0.0.1', 3), false);
      assert.equal(await b.addresses.openConnection('10.0.0.2', 3), true, 'another address has its own budget');
      a.addresses.closeConnection('10.0.0.1');
      await a.directory.list(); // answered after a's close, which travels the same channel
      assert.equal(await b.addresses.openConnection('10.0.0.1', 3), true);
      assert.equal(await a.addresses.openConnection('10.0.0.1', 3), false);
    }));

  test(`${name}: the connection slots a node held go with it when it goes down`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const down: string[] = [];
      b.bus.onNodeDown((node) => void down.push(node));
      assert.equal(await a.addresses.openConnection('10.0.0.1', 2), true);
      assert.equal(await a.addresses.openConnection('10.0.0.1', 2), true);
      assert.equal(await b.addresses.openConnection('10.0.0.1', 2), false);
      await cluster.kill('a');
      await until(() => down.length === 1);
      assert.equal(await b.addresses.openConnection('10.0.0.1', 2), true);
      assert.equal(await b.addresses.openConnection('10.0.0.1', 2), true);
      assert.equal(await b.addresses.openConnection('10.0.0.1', 2), false);
    }));

  test(`${name}: a network is just another key: its slots and tokens count on every node together, apart from its addresses'`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const network = 'net:10.0.0.0/24';
      assert.equal(await a.addresses.openConnection('10.0.0.1', 1), true);
      assert.equal(await a.addresses.openConnection(network, 2), true);
      assert.equal(await b.addresses.openConnection('10.0.0.2', 1), true);
      assert.equal(await b.addresses.openConnection(network, 2), true);
      assert.equal(await a.addresses.openConnection(network, 2), false, 'two addresses of one network spent its budget of two on two nodes');
      assert.equal(await b.addresses.openConnection('net:10.0.1.0/24', 2), true, 'another network has its own budget');
      assert.equal(await a.addresses.takeGameNew(network, 1), 0);
      assert.ok((await b.addresses.takeGameNew(network, 1)) > 0, 'one bucket per network for both nodes');
      assert.equal(await b.addresses.takeGameNew('10.0.0.3', 1), 0, 'an address of it has its own bucket');
    }));

  test(`${name}: a directory entry carries its maker's network to every node`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const seen: (string | null | undefined)[] = [];
      b.directory.watch({ put: (e) => void seen.push(e.network), removed: () => {} });
      await a.directory.put({ ...entry('a', 'm1'), owner: '10.0.0.1', network: 'net:10.0.0.0/24' });
      await until(() => seen.length === 1);
      assert.deepEqual(seen, ['net:10.0.0.0/24']);
      assert.equal((await b.directory.list())[0]!.network, 'net:10.0.0.0/24');
    }));

  test(`${name}: the GameNew tokens of one address are shared by the nodes and come back with time`, () =>
    using(async (cluster) => {
      const nodes = [await cluster.node('a'), await cluster.node('b')];
      const perMinute = 120;
      let taken = 0;
      let wait = 0;
      while (wait === 0 && taken <= perMinute) {
        wait = await nodes[taken % 2]!.addresses.takeGameNew('10.0.0.1', perMinute);
        if (wait === 0) taken++;
      }
      assert.equal(taken, perMinute, 'one bucket for both nodes');
      assert.equal(wait, 500, 'a token comes back every 60 / 120 s');
      assert.equal(await nodes[0]!.addresses.takeGameNew('10.0.0.2', perMinute), 0, 'another address has its own bucket');
      await cluster.clock.advance(500);
      assert.equal(await nodes[1]!.addresses.takeGameNew('10.0.0.1', perMinute), 0);
      assert.ok((await nodes[0]!.addresses.takeGameNew('10.0.0.1', perMinute)) > 0);
    }));

  test(`${name}: shared token buckets are spent by every node together, all of a request's or none, and refill with time`, () =>
    using(async (cluster) => {
      const [a, b] = [await cluster.node('a'), await cluster.node('b')];
      const HOUR = 3_600_000;
      const address = (key: string) => ({ key: `registrations:${key}`, capacity: 2, refillMs: HOUR });
      const network = { key: 'registrations:net:10.0.0.0/24', capacity: 3, refillMs: HOUR };
      assert.equal(await a.addresses.takeTokens([address('10.0.0.1'), network]), null);
      assert.equal(await b.addresses.takeTokens([address('10.0.0.1'), network]), null);
      assert.deepEqual(await a.addresses.takeTokens([address('10.0.0.1'), network]), { index: 0, waitMs: HOUR / 2 }, 'the address spent its two on two nodes; nothing taken');
      assert.equal(await b.addresses.takeTokens([address('10.0.0.2'), network]), null, 'the network still had its third: the refusal above took none');
      assert.deepEqual(await a.addresses.takeTokens([address('10.0.0.3'), network]), { index: 1, waitMs: HOUR / 3 }, 'the network is spent');
      assert.equal(await b.addresses.takeTokens([address('10.0.0.3')]), null, 'the refused request took nothing of 10.0.0.3 either');
      assert.equal(await b.addresses.takeTokens([address('10.0.0.3')]), null);
      await cluster.clock.advance(HOUR / 3);
      assert.equal(await b.addresses.takeTokens([address('10.0.0.2'), network]), null, 'a network token is back after an hour / 3');
    }));

  test(`${name}: a lease is held by one node at a time, renewed under one epoch, and taken under the next once it runs out, is released or its node dies`, () =>
    using(async (cluster) => {
      const a = await cluster.node('a');
      const b = await cluster.node('b');
      const c = await cluster.node('c');
      const first = await a.leases!.claim('arena', 1_000);
      assert.equal(first.node, 'a');
      assert.deepEqual(await b.leases!.claim('arena', 1_000), first, 'b is told who holds it');
      await cluster.clock.advance(900);
      assert.deepEqual(await a.leases!.claim('arena', 1_000), first, 'a renewal keeps the epoch');
      await cluster.clock.advance(900);
      assert.deepEqual(await b.leases!.claim('arena', 1_000), first, 'renewed: still a\'s');
      assert.equal((await b.leases!.claim('other', 1_000)).node, 'b', 'each name is a lease of its own');
      await cluster.clock.advance(1_101);
      const second = await b.leases!.claim('arena', 1_000);
      assert.deepEqual(second, { node: 'b', epoch: first.epoch + 1 }, 'run out: taken under the next epoch');
      assert.deepEqual(await a.leases!.claim('arena', 1_000), second, 'and its old holder is told so');
      await b.leases!.release('arena');
      await a.leases!.release('arena'); // not a's: changes nothing
      const third = await c.leases!.claim('arena', 5_000);
      assert.deepEqual(third, { node: 'c', epoch: first.epoch + 2 }, 'released: free at once');
      await cluster.kill('c');
      await b.directory.list();
      const fourth = await a.leases!.claim('arena', 60_000);
      assert.deepEqual(fourth, { node: 'a', epoch: first.epoch + 3 }, 'its node dead (at once, or once its lease ran out): free');
    }));
}

contract('in-process hub', () => {
  const clock = new ManualClock();
  const memory = new MemoryHub(clock);
  return { node: (name) => memory.link(name), kill: (name) => void memory.hub.down(name), stop: () => {}, clock };
});

// The IPC implementation: the hub as the primary of `cocod --nodes N` holds it, each node reaching
// it over its own channel. A MessagePort carries the same structured clones as cluster IPC with
// `serialization: 'advanced'`; test/e2e/nodes.test.ts runs the real processes.
contract('hub over IPC channels', () => {
  const clock = new ManualClock();
  const hub = new ClusterHub(clock);
  const ports: MessageChannel[] = [];
  return {
    clock,
    node: (name) => {
      const pipe = new MessageChannel();
      ports.push(pipe);
      const primarySide = ipcChannel<HubRequest, HubEvent>(portEnd(pipe.port1), 'hub');
      primarySide.receive(hub.connect(name, (event) => primarySide.send(event)));
      return new HubLink(name, ipcChannel<HubEvent, HubRequest>(portEnd(pipe.port2), 'hub'));
    },
    kill: (name) => void hub.down(name),
    stop: () => {
      for (const pipe of ports) {
        pipe.port1.close();
        pipe.port2.close();
      }
    },
  };
});

// The Redis implementation on a real redis-server: each test its own key prefix, the nodes' leases
// timed by one manual clock, so a killed node's lease runs out when the test says.
let redis: RedisServer;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});

let clusters = 0;
export const TEST_LEASE_MS = 10_000;
contract('Redis', () => {
  const prefix = `contract${clusters++}:`;
  const clock = new ManualClock();
  const links = new Map<string, RedisLink>();
  return {
    clock,
    node: async (name) => {
      const link = await RedisLink.connect({ url: redis.url, node: name, prefix, clock, useClockTime: true, leaseMs: TEST_LEASE_MS, refreshMs: TEST_LEASE_MS / 5, offlineBufferBytes: 1 << 20 });
      links.set(name, link);
      return link;
    },
    kill: async (name) => {
      links.get(name)!.crash();
      links.delete(name);
      await clock.advance(TEST_LEASE_MS + 1);
      for (const link of links.values()) await link.beat();
    },
    stop: async () => {
      for (const link of links.values()) link.close();
      await Promise.all([...links.values()].map((link) => link.closed));
    },
  };
});
