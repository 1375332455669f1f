import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../support/services.js';

// Two real cocod processes, nodes of one cluster through a real redis-server and one real
// PostgreSQL, with short leases (2 s, refreshed every 0.5 s). One is paused (SIGSTOP) past its
// lease: the test waits for what the nodes log and what PostgreSQL holds, never for time.
const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const LEASE = ['--limit', 'redis-lease-seconds=2', '--limit', 'redis-lease-refresh-seconds=0.5'];
let redis: RedisServer;
let postgres: PostgresServer;
let history: string;
let paused: ServerProcess;
let survivor: ServerProcess;

async function startNode(): Promise<ServerProcess> {
  const node = await startServer(['--redis', redis.url, '--postgres', history, ...LEASE], null);
  await node.waitForLog(/node \S+ joined the cluster through Redis/);
  return node;
}

async function stored(id: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: history });
  await client.connect();
  try {
    return (await client.query('SELECT id, seq, reason, scores, ended_at, size FROM matches WHERE id = $1', [id])).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

before(async () => {
  redis = await startRedis();
  postgres = await startPostgres();
  history = await postgres.createDatabase('fencing');
  paused = await startNode();
  survivor = await startNode();
});
after(async () => {
  paused?.kill('SIGCONT');
  await Promise.all([paused?.stop(), survivor?.stop()]);
  await redis?.stop();
  await postgres?.stop();
});

test('a node paused (SIGSTOP) past its lease: a survivor records its running match as node failure; woken (SIGCONT), it records nothing over it, says why in one line, tells its own players "node failure" as the record says, tells a player it bridged to a match of the survivor that this match went on without it, and exits', async () => {
  const id = await newMatch(paused.url, ['roshambo', '-a', 'rounds=1000', '-a', 'pace=0.5']);
  for (let attempt = 0; !(await coco(survivor.url, ['lobby'])).stdout.includes(id); attempt++) assert.ok(attempt < 200, `match ${id} never listed on the survivor`);
  // A match the survivor runs, with Gina bridged to it through the node to be paused: declared
  // dead, that node leaves her seat, she retires and Hal wins. Woken, the node stops; it must not
  // tell her "node failure" (that ended its own match only): her match went on without her.
  const other = await newMatch(survivor.url, ['roshambo', '-a', 'rounds=1000', '-a', 'pace=0.5']);
  for (let attempt = 0; !(await coco(paused.url, ['lobby'])).stdout.includes(other); attempt++) assert.ok(attempt < 200, `match ${other} never listed on the node to be paused`);
  const gina = startCoco(paused.url, ['connect', other, '-n', 'gina', '--', 'python3', BOT, 'ROCK']);
  const hal = startCoco(survivor.url, ['connect', other, '-n', 'hal', '--', 'python3', BOT, 'PAPER']);
  for (const player of [gina, hal]) await player.waitForOutput(/> match started/);
  // Carol is bridged through the survivor: she hears of the failure from it. Dave is on the paused
  // node itself: he hears nothing until it wakes, and then the same as the record says.
  const carol = startCoco(survivor.url, ['connect', id, '-n', 'carol', '--', 'python3', BOT, 'ROCK']);
  const dave = startCoco(paused.url, ['connect', id, '-n', 'dave', '--', 'python3', BOT, 'ROCK']);
  for (const player of [carol, dave]) await player.waitForOutput(/> match started/);

  paused.kill('SIGSTOP');
  await survivor.waitForLog(new RegExp(`match ${id} recorded as ended by node failure`));
  const ended = await carol.done;
  assert.match(ended.stdout, /> match ended: no result \(node failure\)/, JSON.stringify(ended));
  const before = await stored(id);
  assert.equal(before.length, 1);
  assert.equal(before[0]!['reason'], 'node failure');

  paused.kill('SIGCONT');
  const code = await paused.exited;
  assert.equal(code, 1, 'a node declared dead exits 1, for its supervisor to start a new one');
  // Not "server shutdown": the woken node ends its match as the survivor recorded it.
  const woken = await dave.done;
  assert.match(woken.stdout, /> match ended: no result \(node failure\)/, JSON.stringify(woken));
  // Hal won when Gina's seat was left; Gina, cut off by her node's eviction, is told her match
  // went on without her, not the reason that ended her node's own match.
  assert.match((await hal.done).stdout, /> match ended: you won \S+ \(gina retired in round \d+\)/);
  const cutOff = await gina.done;
  assert.doesNotMatch(cutOff.stdout, /node failure/, JSON.stringify(cutOff) + paused.log());
  // Said in the close frame; or, should coco read the record from the stopping node's history
  // first, the record itself (the truth too). Never the stopping node's own reason.
  assert.match(cutOff.stdout, /> match ended: (cut off \(this node stopped before your match ended: the node running it goes on without you\)|you lost \S+ \(gina retired in round \d+\))\n/, JSON.stringify(cutOff));
  const [record] = await stored(other);
  assert.match(String(record?.['reason']), /^gina retired in round \d+$/);
  assert.deepEqual(await stored(id), before, 'the survivor\'s record is unchanged');
  const refusals = paused.log().split('\n').filter((line) => /lost its lease/.test(line));
  assert.equal(refusals.length, 1, paused.log());
  assert.match(refusals[0]!, new RegExp(`node \\S+ \\(epoch \\d+\\) lost its lease to node \\S+: its writes are refused .*not recorded: ${id}; this node records nothing more and stops`));
  assert.doesNotMatch(paused.log(), new RegExp(`match ${id} recorded\\b`), 'the woken node does not claim to have recorded it');
  assert.equal(survivor.log().split(`match ${id} recorded as ended by node failure`).length, 2, 'recorded once');
  assert.match((await coco(survivor.url, ['history'])).stdout, new RegExp(`${id}\\s.*no result \\(node failure\\)`));
});

test('cocod --nodes 2 --redis --postgres: a forked node paused past its lease is fenced like a node of another machine: its number comes from PostgreSQL, a survivor records its match as node failure, and woken it is refused its write, records nothing, exits and is replaced', async () => {
  const machine = await startServer(['--nodes', '2', '--redis', redis.url, '--postgres', history, ...LEASE], null);
  try {
    const joined = await machine.waitForLog(/(node-\d+\.1): node \S+ joined the cluster through Redis[^\n]*node number \d+ \(match ids start with (\d{3})\), from (\S+)[\s\S]*?(node-\d+\.1): node \S+ joined the cluster through Redis[^\n]*node number \d+ \(match ids start with (\d{3})\), from (\S+)/);
    assert.deepEqual([joined[3], joined[6]], ['PostgreSQL', 'PostgreSQL'], 'each forked node takes its number from the database');
    const prefixes = new Map([[joined[2]!, joined[1]!], [joined[5]!, joined[4]!]]);
    const id = await newMatch(machine.url, ['roshambo', '-a', 'rounds=1000', '-a', 'pace=0.5']);
    const forked = prefixes.get(id.slice(0, 3));
    assert.ok(forked, `match ${id} made by one of the forked nodes (${[...prefixes].join(' ')})`);
    const [, pid] = machine.log().match(new RegExp(`node ${forked!.replace('.', '\\.')} started \\(pid (\\d+)\\)`))!;
    // Played through the separate node: the players hear of the failure from the cluster.
    const players = [startCoco(survivor.url, ['connect', id, '-n', 'erin', '--', 'python3', BOT, 'ROCK']), startCoco(survivor.url, ['connect', id, '-n', 'fred', '--', 'python3', BOT, 'ROCK'])];
    for (const player of players) await player.waitForOutput(/> match started/);

    process.kill(Number(pid), 'SIGSTOP');
    const failure = new RegExp(`match ${id} recorded as ended by node failure`);
    // The first to notice cleans up: the other forked node, or a node of the other "machine".
    await Promise.race([paused, survivor, machine].map((node) => node.waitForLog(failure).catch(() => new Promise(() => {}))));
    for (const finished of await Promise.all(players.map((player) => player.done))) assert.match(finished.stdout, /> match ended: no result \(node failure\)/);
    const before = await stored(id);
    assert.equal(before.length, 1);

    process.kill(Number(pid), 'SIGCONT');
    await machine.waitForLog(new RegExp(`node ${forked!.replace('.', '\\.')} exited \\(code 1\\)`));
    assert.deepEqual(await stored(id), before, "the survivor's record is unchanged");
    const refusal = machine.log().split('\n').filter((line) => line.startsWith(`${forked}: `) && /lost its lease/.test(line));
    assert.equal(refusal.length, 1, machine.log());
    assert.match(refusal[0]!, new RegExp(`its writes are refused .*not recorded: ${id}; this node records nothing more and stops`));
    assert.doesNotMatch(machine.log(), new RegExp(`${forked!.replace('.', '\\.')}: match ${id} recorded\\b`));
    await machine.waitForLog(/node node-\d+\.2 replaces /);
  } finally {
    await machine.stop();
  }
});
