import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isAlive, markTestProcesses, processesWithTag } from '../../src/games/external/test-support.js';
import { acceptJoin, fakeMatchInfo, startFakeServer, type FakeServer } from '../support/fake-coco-server.js';
import { ROOT, newMatch, startCoco, startServer, type RunningCoco, type ServerProcess } from '../support/processes.js';

/**
 * How `coco connect` leaves: after a normal match (the program may exit before MatchEnded comes),
 * when the server hangs up, and when coco itself is told to stop. Every way out must end the
 * program and all it started, even a program that never exits at end of input.
 */

const PARTING = join(ROOT, 'test/fixtures/parting_player.py');
const STUBBORN = join(ROOT, 'test/fixtures/stubborn_player.py');
/** The reference server sends MatchEnded this long after the last game bytes. */
const REFERENCE_END_DELAY_MS = 250;

let fake: FakeServer;
let server: ServerProcess;
// Whatever a failing test leaves running is killed when the file ends.
const sweep = markTestProcesses();

before(async () => {
  fake = await startFakeServer();
  server = await startServer();
});
after(async () => {
  try {
    await fake?.stop();
    await server?.stop();
  } finally {
    await sweep();
  }
});

/** Resolves once `pid` has exited (polled: /proc has no event for another process's exit). */
async function exitOf(pid: number): Promise<void> {
  while (isAlive(pid)) await delay(10);
}

interface Stubborn {
  readonly pid: number;
  readonly child: number;
  readonly tag: string;
}

async function stubbornInfo(coco: RunningCoco): Promise<Stubborn> {
  const [, pid, child, tags] = await coco.waitForStderr(/stubborn pid=(\d+) child=(\d+) tag=(\S+)\n/);
  return { pid: Number(pid), child: Number(child), tag: tags!.split(',').at(-1)! };
}

function assertAllGone(program: Stubborn): void {
  assert.equal(isAlive(program.pid), false, 'the program outlived coco');
  assert.equal(isAlive(program.child), false, "the program's child outlived coco");
  assert.deepEqual(processesWithTag(program.tag), [], 'processes with the program tag outlived coco');
}

for (const mode of ['before-last', 'after-last'] as const) {
  test(`a program that exits with code 0 ${mode === 'before-last' ? 'before' : 'after'} the last bytes is no early exit when MatchEnded comes ${REFERENCE_END_DELAY_MS} ms after them`, async () => {
    const coco = startCoco(fake.url, ['connect', 'm1', '-n', 'parting', '--', 'python3', PARTING, mode]);
    const peer = await acceptJoin(fake, 'm1');
    const [, pid] = /pid (\d+)\n/.exec(await peer.waitForBytes(/pid \d+\n/))!;
    peer.sendBytes(mode === 'before-last' ? 'go\n' : 'go\nlast\n');
    await peer.waitForBytes(/bye\n/);
    // The program has left before the server's last word, as it does against the reference.
    await exitOf(Number(pid));
    if (mode === 'before-last') peer.sendBytes('last\n');
    await delay(REFERENCE_END_DELAY_MS);
    peer.reply({ type: 'MatchEnded' });
    const done = await coco.done;
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.doesNotMatch(done.stdout, /before the match ended/);
    assert.match(done.stdout, /> match started\n> match ended\n$/);
  });
}

test('a program that exits with code 0 while the server does not end the match is reported after the grace; coco stays connected until the end, with status 6', async () => {
  const coco = startCoco(fake.url, ['connect', 'm2', '-n', 'parting', '--', 'python3', PARTING, 'before-last']);
  const peer = await acceptJoin(fake, 'm2');
  peer.sendBytes('go\n');
  await coco.waitForOutput(/> program exited with code 0 before the match ended; staying connected until the server ends the match\n/);
  // What the server still sends for the seat is not news for a program that has gone.
  peer.sendBytes('last\n');
  peer.reply({ type: 'MatchEnded' });
  const done = await coco.done;
  assert.equal(done.code, 6, done.stdout + done.stderr);
  assert.match(done.stdout, /staying connected until the server ends the match\n> match ended\n$/);
  await peer.closed;
});

test('a program that crashes mid-game leaves coco connected; when the server hangs up then, the status is still 6 (the program went first)', async () => {
  const coco = startCoco(fake.url, ['connect', 'm2b', '-n', 'crasher', '--', 'sh', '-c', 'read line; exit 3']);
  const peer = await acceptJoin(fake, 'm2b');
  peer.sendBytes('go\n');
  await coco.waitForOutput(/> program exited with code 3 before the match ended; staying connected until the server ends the match\n/);
  peer.close();
  const done = await coco.done;
  assert.equal(done.code, 6, done.stdout + done.stderr);
});

test('when the server closes the connection before answering the join, coco says so, ends its program and exits with status 4 (connection)', async () => {
  const coco = startCoco(fake.url, ['connect', 'm3', '-n', 'refused', '--', 'python3', STUBBORN]);
  const program = await stubbornInfo(coco);
  const peer = await fake.nextPeer();
  assert.equal((await peer.nextRequest()).type, 'LobbyJoinMatch');
  peer.close();
  const done = await coco.done;
  assert.equal(done.code, 4);
  assert.match(done.stderr, /(^|\n)coco: cannot join match m3: the server closed the connection.*\n$/);
  assertAllGone(program);
});

test('when the connection is lost mid-game, coco ends a program that does not exit at end of input, and its child', async () => {
  const coco = startCoco(fake.url, ['connect', 'm4', '-n', 'lost', '--', 'python3', STUBBORN]);
  const program = await stubbornInfo(coco);
  const peer = await acceptJoin(fake, 'm4');
  peer.sendBytes('ping\n');
  await peer.waitForBytes(/echo ping\n/);
  peer.terminate();
  const done = await coco.done;
  assert.equal(done.code, 4);
  assert.match(done.stdout, /> match started\n> (the server closed the connection|connection error).*\n$/);
  assertAllGone(program);
});

test('coco connect also leaves cleanly when the server sends MatchEnded to a program that ignores end of input', async () => {
  const coco = startCoco(fake.url, ['connect', 'm5', '-n', 'ended', '--', 'python3', STUBBORN]);
  const program = await stubbornInfo(coco);
  const peer = await acceptJoin(fake, 'm5');
  peer.reply({ type: 'MatchEnded' });
  // The program gets end of input and EXIT_GRACE_MS to leave; this one never does, so coco stops it.
  const done = await coco.done;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /> the program did not exit after the match: stopping it\n$/);
  assertAllGone(program);
});

const SIGNALS = [
  { signal: 'SIGTERM', status: 143, args: ['--ignore-term'], why: 'a program that ignores SIGTERM is killed after the grace' },
  { signal: 'SIGINT', status: 130, args: [], why: 'as Ctrl-C would' },
  { signal: 'SIGHUP', status: 129, args: [], why: 'as a closing terminal would' },
] as const;

for (const { signal, status, args, why } of SIGNALS) {
  test(`coco connect killed by ${signal} ends its program's whole process group first (${why})`, async () => {
    const id = await newMatch(server.url, ['roshambo', '-a', 'rounds=1']);
    const coco = startCoco(server.url, ['connect', id, '-n', `sig${status}`, '--', 'python3', STUBBORN, ...args]);
    const program = await stubbornInfo(coco);
    await coco.waitForOutput(/> waiting for players/);
    coco.child.kill(signal);
    const done = await coco.done;
    assert.equal(done.code, status, done.stdout + done.stderr);
    assert.match(done.stdout, new RegExp(`> ${signal}: stopping the program\\n$`));
    assertAllGone(program);
  });
}

test('what a program prints before coco has reached the server is sent once the match starts, in order', async () => {
  // Compiled bots greet at once: this line is printed before the WebSocket is even open.
  const coco = startCoco(fake.url, ['connect', 'm-early', '-n', 'greeter', '--', 'sh', '-c', 'echo ready; exec cat']);
  const peer = await acceptJoin(fake, 'm-early');
  assert.equal(await peer.waitForBytes(/^ready\n/), 'ready\n');
  peer.sendBytes('ping\n');
  assert.equal(await peer.waitForBytes(/ping\n/), 'ready\nping\n');
  peer.reply({ type: 'MatchEnded' });
  const done = await coco.done;
  assert.equal(done.code, 0, done.stdout + done.stderr);
});

test('a spectating program that exits with code 0 just before the server ends the match is no early exit (status 0)', async () => {
  const coco = startCoco(fake.url, ['connect', '-s', 'm-watch', '--', 'sh', '-c', 'read line; exit 0']);
  const peer = await fake.nextPeer();
  const request = await peer.nextRequest();
  assert.deepEqual(request, { type: 'SpectateJoin', id: 'm-watch' });
  peer.reply({ type: 'SpectateJoined', info: { Ok: fakeMatchInfo('m-watch') } });
  peer.reply({ type: 'SpectateStarted' });
  peer.sendBytes('the end\n');
  await coco.waitForOutput(/> match started\n/);
  await delay(REFERENCE_END_DELAY_MS);
  peer.reply({ type: 'SpectateEnded' });
  const done = await coco.done;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.doesNotMatch(done.stdout, /before the match ended/);
});
