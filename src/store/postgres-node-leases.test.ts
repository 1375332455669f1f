import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { MatchRecord } from './history-store.js';
import { LeaseTakenOverError, hasLeaseFencing, isLeaseTakenOver } from './node-lease.js';
import { PostgresHistoryStore } from './postgres-history-store.js';
import { NODE_LEASES_TABLE } from './postgres-node-leases.js';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';
import { finishedMatch } from '../../test/support/match-records.js';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';

// The fencing of a cluster's writes by lease, against a real PostgreSQL: two stores stand for two
// nodes sharing one history, "a" the node paused past its lease and "b" the survivor.
let postgres: PostgresServer;
let databases = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres.stop();
});

function fresh(): Promise<string> {
  return postgres.createDatabase(`leases_${++databases}`);
}

function match(id: string, endedAt: number, extra: Partial<MatchRecord> = {}): MatchRecord {
  return finishedMatch(id, { scores: [2, 1], verified: true, startedAt: endedAt - 1000, endedAt, spectatorStream: Buffer.from(`stream of ${id}\n`), ...extra });
}

/** What a survivor records for a match of a dead node (node-failure.ts). */
function lost(id: string, endedAt: number): MatchRecord {
  return match(id, endedAt, { scores: null, reason: 'node failure', spectatorStream: Buffer.alloc(0) });
}

interface Node {
  store: PostgresHistoryStore;
  lines: string[];
  takenOverBy: string[];
}

async function node(url: string, name: string, epoch: number, clock = new ManualClock()): Promise<Node> {
  const lines: string[] = [];
  const takenOverBy: string[] = [];
  const store = await PostgresHistoryStore.open(url, { clock, log: lineLog((line) => lines.push(line)) });
  await store.holdLease({ node: name, epoch }, (by) => takenOverBy.push(by)).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  return { store, lines, takenOverBy };
}

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

test('a node whose lease was taken over writes nothing: its record is refused, the survivor\'s stands, and the refusal is said once, in one line', async () => {
  const url = await fresh();
  const a = await node(url, 'node-a', 1);
  const b = await node(url, 'node-b', 2);
  try {
    assert.ok(hasLeaseFencing(a.store));
    await a.store.record(match('m1', 1000));
    await b.store.takeOverLease('node-a', 'node-b');
    await b.store.record(lost('m2', 2000));
    // a wakes: its running match ends as "server shutdown", and another one after it.
    await assert.rejects(a.store.record(match('m2', 3000, { reason: 'server shutdown', scores: null })), (error: unknown) => {
      assert.ok(error instanceof LeaseTakenOverError);
      assert.ok(isLeaseTakenOver(error));
      assert.equal(error.by, 'node-b');
      return true;
    });
    await assert.rejects(a.store.record(match('m3', 4000)), LeaseTakenOverError);
    assert.deepEqual(a.takenOverBy, ['node-b'], 'told once');
    const refusals = a.lines.filter((line) => /lost its lease/.test(line));
    assert.equal(refusals.length, 1, a.lines.join('\n'));
    assert.match(refusals[0]!, /^error: history database .*: node node-a \(epoch 1\) lost its lease to node node-b: its writes are refused .*not recorded: m2; this node records nothing more and stops$/);
    assert.deepEqual(await b.store.ids(), ['m1', 'm2']);
    assert.equal((await b.store.get('m2'))?.reason, 'node failure');
    assert.deepEqual(b.takenOverBy, [], 'the survivor goes on');
    await b.store.record(match('m4', 5000));
    assert.deepEqual(await b.store.ids(), ['m1', 'm2', 'm4']);
  } finally {
    await a.store.close();
    await b.store.close();
  }
});

test('a record that waited in the backlog through an outage is not written once the lease was taken over meanwhile', async () => {
  const url = await fresh();
  const clock = new ManualClock();
  const a = await node(url, 'node-a', 1, clock);
  let b: Node | null = null;
  try {
    await postgres.halt();
    await a.store.record(match('waiting', 1000));
    assert.equal(a.store.queueDepth, 1);
    await postgres.start();
    b = await node(url, 'node-b', 2);
    await b.store.takeOverLease('node-a', 'node-b');
    await b.store.record(lost('waiting', 2000));
    await assert.rejects(a.store.flush(), LeaseTakenOverError);
    assert.equal(a.store.queueDepth, 0, 'the backlog is dropped');
    assert.deepEqual(a.takenOverBy, ['node-b']);
    assert.equal(a.lines.filter((line) => /lost its lease/.test(line)).length, 1, a.lines.join('\n'));
    assert.match(a.lines.find((line) => /lost its lease/.test(line))!, /not recorded: waiting;/);
    assert.equal((await b.store.get('waiting'))?.reason, 'node failure');
    assert.equal(clock.pending, 0, 'no retry left armed');
  } finally {
    await postgres.start();
    await a.store.close();
    await b?.store.close();
  }
});

test('a take-over is kept: the first taker stays named, and a node registering under a name taken over is refused at once', async () => {
  const url = await fresh();
  const b = await node(url, 'node-b', 2);
  const c = await node(url, 'node-c', 3);
  try {
    // Taken over before it ever registered (it was paused between taking its number and joining).
    await b.store.takeOverLease('node-a', 'node-b');
    await c.store.takeOverLease('node-a', 'node-c');
    const [row] = await rows(url, `SELECT taken_over_by FROM ${NODE_LEASES_TABLE} WHERE node = 'node-a'`);
    assert.equal(row?.['taken_over_by'], 'node-b');
    await assert.rejects(node(url, 'node-a', 1), /node node-a \(epoch 1\) lost its lease to node node-b/);
  } finally {
    await b.store.close();
    await c.store.close();
  }
});

test('a write carrying another epoch of the same name is refused (a lease is its name and its epoch)', async () => {
  const url = await fresh();
  const a = await node(url, 'node-a', 1);
  const impostor = await PostgresHistoryStore.open(url, { clock: new ManualClock() });
  try {
    await assert.rejects(impostor.holdLease({ node: 'node-a', epoch: 7 }, () => {}), /epoch 1 of the same name/);
    await a.store.record(match('m1', 1000));
    assert.deepEqual(await a.store.ids(), ['m1']);
  } finally {
    await a.store.close();
    await impostor.close();
  }
});
