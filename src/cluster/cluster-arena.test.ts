import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewMatchRequest } from '../lobby/lobby.js';
import { MemoryHub } from './memory-hub.js';
import type { BridgeMessage, ClusterLink } from './seams.js';
import type { EndedMatch } from '../tournament/server-tournament.js';
import { ManualClock } from '../util/clock.js';
import { silentLog } from '../util/log.js';
import { ok, type Result } from '../util/result.js';
import { Arena, type ArenaEntrant, type ArenaGameSettings, type ArenaPairing, type ArenaReport } from '../arena/arena.js';
import { ClusterArena, ARENA_ANSWER_MS } from './cluster-arena.js';
import { MemoryArenaStore } from '../arena/memory-arena-store.js';
import type { PairingWindow } from '../arena/pairing.js';

/** One node's lobby as its arena sees it: the test ends each match. */
class NodeHost {
  readonly created: { id: string; request: NewMatchRequest }[] = [];
  private readonly endings = new Map<string, (ended: EndedMatch | null) => void>();
  constructor(private readonly node: string) {}
  create(request: NewMatchRequest): Result<string> {
    const id = `${this.node}-m${this.created.length + 1}`;
    this.created.push({ id, request });
    return ok(id);
  }
  ended(id: string): Promise<EndedMatch | null> {
    return new Promise((resolve) => this.endings.set(id, resolve));
  }
  abort(id: string): void {
    this.endings.get(id)?.(null);
  }
  running(): boolean {
    return true;
  }
  joined(): readonly string[] {
    return [];
  }
  /** The lobby shuts down: what runs ends unplayed. */
  endAll(): void {
    for (const resolve of this.endings.values()) resolve(null);
  }
  end(id: string, scores: number[]): void {
    this.endings.get(id)!({ scores, reason: 'done', error: null, closures: scores.map(() => null) });
  }
}

class Told implements ArenaEntrant {
  readonly pairings: ArenaPairing[] = [];
  readonly reports: ArenaReport[] = [];
  readonly heard: string[] = [];
  paired(pairing: ArenaPairing): void {
    this.pairings.push(pairing);
    this.heard.push(`paired ${pairing.id}`);
  }
  finished(report: ArenaReport): void {
    this.reports.push(report);
    this.heard.push(`finished ${report.id} ${report.outcome}`);
  }
  held(): void {}
}

const ROSHAMBO: ArenaGameSettings = { game: 'roshambo', seats: 2, args: { rounds: '5' }, timeout: null, anchorGames: 0 };
const LEASE_MS = 10_000;
const REFRESH_MS = 2_000;
const CLAIMED: Record<string, string> = { amy: 'amy-token' };

/** Nodes of one in-process cluster, each with its lobby (NodeHost) and its door to the one arena; one ratings store. */
function clusterOf(perAddress = 8, window?: PairingWindow) {
  const clock = new ManualClock();
  const memory = new MemoryHub(clock);
  const store = new MemoryArenaStore();
  const sent: BridgeMessage[] = [];
  const nodes = new Map<string, { link: ClusterLink; host: NodeHost; arena: ClusterArena }>();
  const node = async (name: string) => {
    const raw = memory.link(name);
    // Every message a node sends, for the test to read.
    const link: ClusterLink = { ...raw, bus: { ...raw.bus, node: raw.bus.node, send: (to, message) => (sent.push(message), raw.bus.send(to, message)) } };
    const host = new NodeHost(name);
    const arena = new ClusterArena({
      bus: link.bus,
      leases: raw.leases!,
      clock,
      log: silentLog,
      checkName: async (player, token) => (CLAIMED[player] !== undefined && CLAIMED[player] !== token ? `The name "${player}" is claimed: give its token` : null),
      gameNames: ['roshambo'],
      startArena: () =>
        new Arena({
          host,
          store,
          clock,
          log: silentLog,
          checkName: async () => null,
          games: [ROSHAMBO],
          limits: { entries: 10, perName: 4, perAddress, joinSeconds: 30, failures: 3, holdSeconds: 300, carriedWaitSeconds: 60 },
          passwords: () => 'secret',
          ...(window && { window }),
        }),
      leaseMs: LEASE_MS,
      refreshMs: REFRESH_MS,
    });
    await arena.ready;
    nodes.set(name, { link: raw, host, arena });
    return { host, arena };
  };
  const stop = async () => {
    for (const { arena, host } of nodes.values()) {
      const closed = arena.close();
      host.endAll();
      await closed;
    }
  };
  return { clock, memory, store, sent, node, nodes, stop };
}

/** Nodes a (which takes the lease first and pairs), b and c; amy enters through b, cid through c; resolves once a paired them. */
async function amyAndCidPairedOnA(cluster: ReturnType<typeof clusterOf>) {
  const a = await cluster.node('a');
  const b = await cluster.node('b');
  const c = await cluster.node('c');
  const amy = new Told();
  const cid = new Told();
  assert.ok((await b.arena.enter({ game: 'roshambo', name: 'amy', token: 'amy-token', concurrency: 1, address: 'x1' }, amy)).ok);
  assert.ok((await c.arena.enter({ game: 'roshambo', name: 'cid', concurrency: 1, address: 'x2' }, cid)).ok);
  await until(() => amy.pairings.length === 1 && cid.pairings.length === 1);
  return { a, b, c, amy, cid };
}

/** Turns the event loop until `check` holds (messages cross microtasks; the arena pairs on setImmediate). */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; !check(); turn++) {
    if (turn > 500) throw new Error('the condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('cluster arena: entrants on two nodes queue in one arena, on the node holding the lease, are paired into a match there and rated in the one store', async () => {
  const cluster = clusterOf();
  try {
    const a = await cluster.node('a');
    const b = await cluster.node('b');
    assert.deepEqual(b.arena.pairingNode(), { node: 'a', epoch: 1 }, 'the first node took the lease');
    const amy = new Told();
    const bob = new Told();
    const enteredB = await b.arena.enter({ game: 'roshambo', name: 'amy', token: 'amy-token', concurrency: 1, address: 'x1' }, amy);
    assert.ok(enteredB.ok, 'entered through the node that does not pair');
    assert.deepEqual([enteredB.value.args, enteredB.value.seats], [{ rounds: '5' }, 2], 'with the arena\'s settings, from the pairing node');
    assert.ok((await a.arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'x2' }, bob)).ok);
    await until(() => amy.pairings.length === 1 && bob.pairings.length === 1);
    assert.equal(b.host.created.length, 0, 'nothing is made on the node that does not pair');
    const id = a.host.created[0]!.id;
    assert.deepEqual(amy.pairings[0], { id, password: 'secret', players: ['amy', 'bob'] });
    const view = await b.arena.view('roshambo');
    assert.deepEqual(view?.live.map((g) => g.id), [id], 'any node reads the queue and the live games of the pairing node');
    a.host.end(id, [1, 3]);
    await until(() => amy.reports.length === 1 && bob.reports.length === 1);
    assert.deepEqual([amy.reports[0]!.outcome, bob.reports[0]!.outcome], ['loss', 'win']);
    assert.deepEqual((await cluster.store.board('roshambo', 10)).map((r) => [r.player, r.games, r.wins]), [['bob', 1, 1], ['amy', 1, 0]]);
    assert.ok(!cluster.sent.some((message) => JSON.stringify(message).includes('amy-token')), 'the token never left the door\'s node');
  } finally {
    await cluster.stop();
  }
});

test('cluster arena: a claimed name is refused without its token at its door; the per-address limit counts every node\'s entries', async () => {
  const cluster = clusterOf(1);
  try {
    const a = await cluster.node('a');
    const b = await cluster.node('b');
    const refused = await b.arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'x1' }, new Told());
    assert.deepEqual(refused, { ok: false, error: 'The name "amy" is claimed: give its token' });
    assert.equal(cluster.sent.filter((m) => m.t === 'arena-enter').length, 0, 'refused before anything was sent');
    assert.ok((await a.arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'x1' }, new Told())).ok);
    const second = await b.arena.enter({ game: 'roshambo', name: 'cid', concurrency: 1, address: 'x1' }, new Told());
    assert.equal(second.ok, false);
    assert.match(second.ok ? '' : second.error, /arena-entries-per-address/);
    assert.deepEqual(await b.arena.enter({ game: 'chess', name: 'cid', concurrency: 1, address: 'x3' }, new Told()), { ok: false, error: 'Game "chess" has no arena on this server' });
  } finally {
    await cluster.stop();
  }
});

test('cluster arena: the pairing node dies; another takes the lease under the next epoch, the doors queue their entries there again, and a game of the dead node ends unrated for its entrants', async () => {
  const cluster = clusterOf();
  try {
    const { a, b, c, amy, cid } = await amyAndCidPairedOnA(cluster);
    const lost = a.host.created[0]!.id;
    // Node a's process dies: the cluster sees it go, and whoever renews first takes the lease.
    cluster.memory.hub.down('a');
    await until(() => amy.pairings.length === 2 && cid.pairings.length === 2);
    const holder = b.arena.pairingNode()!;
    assert.equal(holder.epoch, 2);
    assert.deepEqual(c.arena.pairingNode(), holder, 'both doors agree on the new holder');
    assert.deepEqual(amy.heard.slice(0, 2), [`paired ${lost}`, `finished ${lost} none`]);
    assert.match(amy.reports[0]!.reason, /pairing node changed/);
    const newHost = cluster.nodes.get(holder.node)!.host;
    const again = newHost.created[0]!.id;
    assert.equal(amy.pairings[1]!.id, again, 'queued again and paired on the new pairing node');
    // A message the dead holder sent late, under its old epoch, is not believed.
    const stale: BridgeMessage = { t: 'arena-finished', key: 'arena:b:0', epoch: 1, report: { id: again, players: ['amy', 'cid'], scores: [9, 0], outcome: 'win', rating: 99, reason: 'forged' } };
    cluster.nodes.get('c')!.link.bus.send('b', stale);
    newHost.end(again, [2, 2]);
    await until(() => amy.reports.length === 2 && cid.reports.length === 2);
    assert.deepEqual(amy.reports.map((r) => r.outcome), ['none', 'draw'], 'the stale message was dropped');
    assert.deepEqual((await cluster.store.board('roshambo', 10)).map((r) => r.games), [1, 1], 'only the game played to the end is rated');
  } finally {
    await cluster.stop();
  }
});

test('cluster arena: a holder that stops gives the lease up (the next renewal takes it); one whose lease ran out unrenewed is replaced after arena-lease-seconds; a door answers within ARENA_ANSWER_MS when the holder is silent', async () => {
  const cluster = clusterOf();
  try {
    const a = await cluster.node('a');
    const b = await cluster.node('b');
    await a.arena.close();
    await cluster.clock.advance(REFRESH_MS); // b's next renewal, well before a's lease would have run out
    await until(() => b.arena.pairingNode()?.node === 'b');
    assert.deepEqual(b.arena.pairingNode(), { node: 'b', epoch: 2 });
    // A third node whose holder went silent (b's timers stopped, its hub link alive): c waits for the lease to run out.
    const c = await cluster.node('c');
    assert.equal(c.arena.pairingNode()?.node, 'b');
    await b.arena.close();
    cluster.nodes.get('b')!.link.leases!.claim('arena-pairing', LEASE_MS); // b seems alive to the hub, then falls silent
    const entering = c.arena.enter({ game: 'roshambo', name: 'dan', concurrency: 1, address: 'x9' }, new Told());
    // Unanswered, then sent once more to the holder c renews to (b again, under its new epoch): unanswered too.
    await cluster.clock.advance(2 * ARENA_ANSWER_MS);
    const answered = await entering;
    assert.equal(answered.ok, false, 'a silent pairing node does not hold an entry forever');
    await cluster.clock.advance(LEASE_MS + REFRESH_MS - 2 * ARENA_ANSWER_MS);
    await until(() => c.arena.pairingNode()?.node === 'c');
    assert.ok((await c.arena.enter({ game: 'roshambo', name: 'dan', concurrency: 1, address: 'x9' }, new Told())).ok);
  } finally {
    await cluster.stop();
  }
});

test('cluster arena: an entry sent to a holder that just stopped, before its door learnt of the new one, is sent again to the new holder', async () => {
  const cluster = clusterOf();
  try {
    const a = await cluster.node('a');
    const b = await cluster.node('b');
    const c = await cluster.node('c');
    await a.arena.close();
    // c still believes a pairs: its entry goes to a, which no longer answers; meanwhile b takes the lease.
    const entering = c.arena.enter({ game: 'roshambo', name: 'dan', concurrency: 1, address: 'x9' }, new Told());
    await cluster.clock.advance(ARENA_ANSWER_MS);
    const entered = await entering;
    assert.ok(entered.ok, entered.ok ? '' : entered.error);
    assert.equal(b.arena.pairingNode()?.node, 'b');
    assert.deepEqual((await c.arena.view('roshambo'))?.queue.map((q) => q.name), ['dan'], 'queued with the new holder');
  } finally {
    await cluster.stop();
  }
});

/** Turns the event loop a while, for a test that something does not happen. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

test('cluster arena: a pairing node replaced mid-wait keeps each entry\'s waiting time: the window goes on widening from where it was', async () => {
  // A window of 0 at once, widening by 1 mu a second: amy and bob, ~5 mu apart, meet after ~5 s of waiting.
  const cluster = clusterOf(8, { baseMu: 0, muPerSecond: 1, rematchAfterMs: 3_000 });
  try {
    await cluster.store.record({ matchId: 'earlier', game: 'roshambo', endedAt: 0, standings: [{ player: 'bob', score: 1 }, { player: 'amy', score: 0 }] });
    const [bob, amy] = (await cluster.store.skills('roshambo', ['bob', 'amy'])).values();
    const gapSeconds = bob!.mu - amy!.mu;
    assert.ok(gapSeconds > 4 && gapSeconds < 6, `the gap is ${gapSeconds}`);
    await cluster.node('a');
    const b = await cluster.node('b');
    const c = await cluster.node('c');
    const amyTold = new Told();
    const bobTold = new Told();
    const queuedAt = cluster.clock.now();
    assert.ok((await b.arena.enter({ game: 'roshambo', name: 'amy', token: 'amy-token', concurrency: 1, address: 'x1' }, amyTold)).ok);
    assert.ok((await c.arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'x2' }, bobTold)).ok);
    await cluster.clock.advance(4_000);
    await settle();
    assert.equal(amyTold.pairings.length, 0, 'after 4 s the window is still too narrow');
    cluster.memory.hub.down('a');
    await until(() => b.arena.pairingNode()?.epoch === 2 && c.arena.pairingNode()?.epoch === 2);
    const holder = cluster.nodes.get(b.arena.pairingNode()!.node)!;
    await until(() => cluster.sent.filter((m) => m.t === 'arena-entered' && m.epoch === 2 && m.error === null).length === 2);
    const view = await holder.arena.view('roshambo');
    assert.deepEqual(view?.queue.map((q) => [q.name, q.waitingSince]).sort(), [['amy', queuedAt], ['bob', queuedAt]], 'the new pairing node counts their waits from when they first queued');
    await cluster.clock.advance(2_000);
    await until(() => amyTold.pairings.length === 1 && bobTold.pairings.length === 1);
    assert.equal(amyTold.pairings[0]!.id, holder.host.created[0]!.id, 'paired by the new node after 6 s of waiting in all, 2 of them under it');
  } finally {
    await cluster.stop();
  }
});

test('cluster arena: a pairing node replaced right after a game keeps the rematch delay: the two who just met do not meet again at once', async () => {
  const cluster = clusterOf();
  try {
    const { a, b, c, amy, cid } = await amyAndCidPairedOnA(cluster);
    a.host.end(a.host.created[0]!.id, [2, 1]);
    await until(() => amy.reports.length === 1 && cid.reports.length === 1);
    cluster.memory.hub.down('a');
    await until(() => cluster.sent.filter((m) => m.t === 'arena-entered' && m.epoch === 2 && m.error === null).length === 2);
    const carried = cluster.sent.filter((m) => m.t === 'arena-enter' && m.epoch === 2).map((m) => (m.t === 'arena-enter' ? [m.request.name, m.carried?.lastMet] : []));
    assert.deepEqual(carried.sort(), [['amy', ['cid']], ['cid', ['amy']]], 'each door says whom its entry last met');
    await settle();
    assert.equal(amy.pairings.length, 1, 'not paired again at once by the new node');
    await cluster.clock.advance(2_000);
    await settle();
    assert.equal(amy.pairings.length, 1, 'nor before the rematch delay');
    await cluster.clock.advance(1_000);
    await until(() => amy.pairings.length === 2 && cid.pairings.length === 2);
    assert.equal(cluster.nodes.get(b.arena.pairingNode()!.node)!.host.created.length, 1, 'the rematch, once both have waited 3 s');
  } finally {
    await cluster.stop();
  }
});
