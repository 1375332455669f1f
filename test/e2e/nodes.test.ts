import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';

// `cocod --nodes 2`: two node processes behind one port, the primary holding the hub and the
// history. Connections are handed to the nodes in turn, so of the players and spectators of one
// match some reach it through the other node: the host logs each one it serves that way.
const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
let server: ServerProcess;

before(async () => {
  server = await startServer(['--nodes', '2']);
  await server.waitForLog(/listening on \S+ \(2 nodes/);
});
after(async () => {
  await server.stop();
});

test('players and spectators of one match on different nodes: right result, whole streams, one record', async () => {
  const id = await newMatch(server.url, ['roshambo', '-a', 'rounds=5', '-a', 'pace=0']);
  const spectators = [startCoco(server.url, ['connect', '-s', id]), startCoco(server.url, ['connect', '-s', id])];
  for (const spectator of spectators) await spectator.waitForOutput(/> spectating/);
  const alice = startCoco(server.url, ['connect', id, '-n', 'alice', '--', 'python3', BOT, 'ROCK']);
  await alice.waitForOutput(/> joined/);
  const bob = await coco(server.url, ['connect', id, '-n', 'bob', '--', 'python3', BOT, 'PAPER']);
  assert.equal(bob.code, 0, bob.stderr);
  assert.match(bob.stdout, /> match ended: you won 5-0 /);
  const a = await alice.done;
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /> match ended: you lost 0-5 /);
  assert.match(server.log(), new RegExp(`(joined|a spectator of) match ${id} (through|came through) node node-`), 'someone was bridged');
  await server.recorded(id);
  const recorded = (await coco(server.url, ['history', id])).stdout;
  for (const spectator of spectators) {
    const watched = await spectator.done;
    assert.equal(watched.code, 0);
    assert.equal(watched.stdout.split('> reached current status\n')[1]!.split('> match ended')[0], recorded, 'each spectator saw the recorded stream');
  }
  assert.equal(recorded.trim().split('\n').length, 3 + 10);
});

test('coco delete reaches a waiting match on either node: the node that hosts it removes it, and no node lists it', async () => {
  // Connections go to the nodes in turn: of three matches made one after the other, and deleted
  // in the same order, each delete reaches the other node than the one that made the match.
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await newMatch(server.url, ['roshambo']));
  for (const id of ids) {
    const done = await coco(server.url, ['delete', id]);
    assert.equal(done.code, 0, done.stderr);
    assert.equal(done.stdout, `match ${id} deleted\n`);
  }
  assert.match(server.log(), /match \w+ deleted through node node-/, 'a delete was bridged to the match\'s node');
  for (let i = 0; i < 2; i++) {
    const lobby = (await coco(server.url, ['lobby'])).stdout;
    for (const id of ids) assert.ok(!lobby.includes(id), lobby);
  }
});

test('a node killed mid-match: its match is recorded as ended by node failure, a player on the other node is told, and a new node takes its place', async () => {
  const id = await newMatch(server.url, ['roshambo', '-a', 'rounds=1000', '-a', 'pace=0.5']);
  const [, host] = (await server.waitForLog(new RegExp(`(node-\\d+\\.\\d+): match ${id} of roshambo created`))) as RegExpMatchArray;
  const players = [
    startCoco(server.url, ['connect', id, '-n', 'carol', '--', 'python3', BOT, 'ROCK']),
    startCoco(server.url, ['connect', id, '-n', 'dave', '--', 'python3', BOT, 'ROCK']),
  ];
  for (const player of players) await player.waitForOutput(/> match started/);
  const [, pid] = (await server.waitForLog(new RegExp(`node ${host!.replace('.', '\\.')} started \\(pid (\\d+)\\)`))) as RegExpMatchArray;
  process.kill(Number(pid), 'SIGKILL');
  await server.waitForLog(new RegExp(`match ${id} recorded as ended by node failure`));
  const ended = await Promise.all(players.map((player) => player.done));
  // The player whose connection was on the dead node lost it (status 4); a player on the other
  // node was still connected, and hears the match end with its recorded reason.
  const outcomes = ended.map((finished) => (/match ended: no result \(node failure\)/.test(finished.stdout) ? 'told' : finished.code === 4 ? 'lost connection' : JSON.stringify(finished)));
  for (const outcome of outcomes) assert.ok(outcome === 'told' || outcome === 'lost connection', outcome);
  assert.match((await coco(server.url, ['history'])).stdout, new RegExp(`${id}\\s.*no result \\(node failure\\)`));
  await server.waitForLog(new RegExp(`node node-\\d+\\.2 replaces ${host!.replace('.', '\\.')}`));
  // The platform plays on: a match from start to end, whichever node gets it.
  const next = await newMatch(server.url, ['roshambo', '-a', 'rounds=2', '-a', 'pace=0']);
  const first = startCoco(server.url, ['connect', next, '-n', 'erin', '--', 'python3', BOT, 'SCISSORS']);
  await first.waitForOutput(/> joined/);
  const second = await coco(server.url, ['connect', next, '-n', 'frank', '--', 'python3', BOT, 'PAPER']);
  assert.match(second.stdout, /> match ended: you lost 0-2 /);
  assert.equal((await first.done).code, 0);
});

test('a server tournament on --nodes 2: coco creates and follows it to its end, and each node answers for it', async () => {
  const run = await coco(server.url, ['tournament', 'roshambo', '--on-server', '-v', 'master', '--bot', 'ann', '--bot', 'bob', '--bot', 'cid', '-a', 'rounds=3', '-a', 'pace=0']);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const id = /^tournament ([0-9a-f]+) on the server/m.exec(run.stdout)?.[1];
  assert.ok(id, run.stdout);
  assert.equal(run.stdout.split('\n').filter((line) => /^Finished game \d+ /.test(line)).length, 6, run.stdout);
  // A new connection each: the nodes take them in turn, and every one knows the tournament.
  const answers = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/tournaments/${id}`, { headers: { connection: 'close' } });
      return { status: response.status, body: await response.text() };
    }),
  );
  assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
  assert.equal(new Set(answers.map((a) => a.body)).size, 1, 'the same tournament from every node');
  assert.equal(JSON.parse(answers[0]!.body).state, 'finished');
});

