import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { CocoClient } from '../../src/client/coco-client.js';
import { tournament } from '../../src/cli/coco-tournament.js';
import { NO_DELETE, deleteOwnMatches } from '../../src/cli/delete-match.js';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { RawClient } from '../support/raw-client.js';
import { startFakeServer } from '../support/fake-coco-server.js';

/**
 * `coco delete ID` (LobbyDeleteMatch) against a real cocod: one's own waiting match, someone
 * else's, an unknown id, a running one; and `coco tournament` stopped right after it made its
 * matches leaves none of them waiting in the lobby.
 */

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
/** Any of 127.0.0.0/8 reaches the server: another address than coco's 127.0.0.1. */
const STRANGER = '127.0.0.2';

let server: ServerProcess;
const sweep = markTestProcesses();

before(async () => {
  server = await startServer();
});
after(async () => {
  try {
    await server?.stop();
  } finally {
    await sweep();
  }
});

async function waitingIds(): Promise<string[]> {
  const client = await CocoClient.connect(server.url);
  try {
    const { info } = await client.request({ type: 'LobbyList' }, 'LobbyList');
    return info.filter((match) => !match.running).map((match) => match.id);
  } finally {
    client.close();
  }
}

/** A raw client from `from` that shook hands. */
async function rawClient(from?: string): Promise<RawClient> {
  const client = await RawClient.open(server.url, from);
  await client.ask('{"Handshake":{"magic":"coco","version":2}}');
  return client;
}

test('coco delete ID removes one\'s own waiting match: a player waiting in it hears LobbyDelete, and the lobby no longer lists it', async () => {
  const id = await newMatch(server.url, ['roshambo']);
  const waiting = await rawClient();
  assert.match((await waiting.ask(`{"LobbyJoinMatch":{"id":"${id}","name":"ann","password":null}}`)) ?? '', /"Ok"/);
  const done = await coco(server.url, ['delete', id]);
  assert.equal(done.code, 0, done.stderr);
  assert.equal(done.stdout, `match ${id} deleted\n`);
  assert.equal(done.stderr, '');
  await waiting.until((frames) => frames.some((frame) => frame.text === `{"LobbyDelete":{"id":"${id}"}}`));
  waiting.close();
  assert.ok(!(await waitingIds()).includes(id));
  await server.waitForLog(new RegExp(`match ${id} deleted by its maker`));
});

test('coco delete of someone else\'s match is refused with status 3 and a hint; the master password deletes it', async () => {
  const maker = await rawClient(STRANGER);
  const reply = await maker.ask('{"GameNew":{"name":"theirs","game":"roshambo","params":{"players":null,"bots":0,"timeout":null},"args":{},"password":null,"verification":null}}');
  const id = (JSON.parse(reply!) as { GameNew: { id: { Ok: string } } }).GameNew.id.Ok;
  maker.close();
  const refused = await coco(server.url, ['delete', id]);
  assert.equal(refused.code, 3);
  assert.equal(
    refused.stderr,
    `coco: Game "${id}" was made from another address: only its maker or the server's master password may delete it (coco delete -v PASSWORD deletes any waiting match with the master password)\n`,
  );
  assert.ok((await waitingIds()).includes(id), 'still waiting');
  const wrong = await coco(server.url, ['delete', id, '-v', 'guess']);
  assert.equal(wrong.code, 3);
  assert.match(wrong.stderr, /^coco: "guess" is the wrong verification password\n$/);
  const master = await coco(server.url, ['delete', id, '-v', 'master']);
  assert.equal(master.code, 0, master.stderr);
  assert.ok(!(await waitingIds()).includes(id));
});

test('coco delete of an unknown id, or of a running match, is refused with status 3 in the lobby\'s words', async () => {
  const real = await newMatch(server.url, ['roshambo', '-b', '1', '-a', 'rounds=1000']);
  const unknown = `${real.startsWith('a') ? 'b' : 'a'}${real.slice(1)}`;
  const none = await coco(server.url, ['delete', unknown]);
  assert.equal(none.code, 3);
  assert.equal(none.stderr, `coco: Game "${unknown}" does not exists (coco lobby lists the waiting and running matches, coco history the finished ones)\n`);
  const malformed = await coco(server.url, ['delete', 'nope']);
  assert.equal(malformed.code, 3);
  assert.match(malformed.stderr, /^coco: Invalid ID: /);
  // A player takes the one free seat: the match runs.
  const player = await rawClient();
  await player.ask(`{"LobbyJoinMatch":{"id":"${real}","name":"ann","password":null}}`);
  await player.until((frames) => frames.some((frame) => frame.text === '{"MatchStarted":{}}'));
  const running = await coco(server.url, ['delete', real]);
  assert.equal(running.code, 3);
  assert.equal(running.stderr, `coco: Game "${real}" is already running (watch it with coco connect -s ${real})\n`);
  player.close();
  await server.recorded(real);
  const usage = await coco(server.url, ['delete']);
  assert.equal(usage.code, 2);
});

test('coco delete against a server without LobbyDeleteMatch (it closes the connection, as the reference does) says so with status 1', async () => {
  const fake = await startFakeServer();
  try {
    const run = startCoco(fake.url, ['delete', 'abc']);
    const peer = await fake.nextPeer();
    const request = await peer.nextRequest();
    assert.deepEqual(request, { type: 'LobbyDeleteMatch', id: 'abc', verification: null });
    peer.close();
    const done = await run.done;
    assert.equal(done.code, 1);
    assert.equal(done.stderr, `coco: ${NO_DELETE}\n`);
  } finally {
    await fake.stop();
  }
});

test('a tournament stopped right after it made its matches deletes them: none is left waiting', async () => {
  const stop = new AbortController();
  let out = '';
  const players = ['rock', 'paper', 'scissors', 'lizard'].map((name) => ['--player', `${name}=python3 ${BOT} ROCK`]).flat();
  const status = await tournament(server.url, ['roshambo', ...players, '--concurrency', '3', '-a', 'rounds=3'], {
    write: (text) => {
      out += text;
      // Ctrl-C as the first match is made, before any program is started; the other two are being made.
      if (/^Started game/m.test(out)) stop.abort('SIGINT');
    },
    tty: false,
    signal: stop.signal,
  });
  assert.equal(status, 130);
  const made = [...out.matchAll(/^Started game \d+ of \d+ \(.*\), match (\w+)$/gm)].map((m) => m[1]!);
  assert.ok(made.length >= 1, out);
  assert.doesNotMatch(out, /^Finished game/m);
  const waiting = await waitingIds();
  for (const id of made) {
    assert.ok(!waiting.includes(id), `match ${id} was left waiting`);
    await server.waitForLog(new RegExp(`match ${id} deleted by its maker`));
  }
});

test('coco tournament killed with SIGINT just as the server makes its matches leaves none of them waiting', async () => {
  const players = ['rock', 'paper', 'scissors'].map((name) => ['--player', `${name}=python3 ${BOT} ROCK`]).flat();
  const before = new Set(await waitingIds());
  const logged = server.log().length;
  const run = startCoco(server.url, ['tournament', 'roshambo', ...players, '--concurrency', '3', '-a', 'rounds=1000']);
  // As soon as the server has made a match of this run (coco may not even have the id yet).
  await server.waitForLog(new RegExp(`[^]{${logged}}[^]*match \\w+ of roshambo created`));
  run.child.kill('SIGINT');
  const done = await run.done;
  assert.equal(done.code, 130, done.stderr);
  const left = (await waitingIds()).filter((id) => !before.has(id));
  assert.deepEqual(left, [], 'no match of the tournament waits in the lobby');
});

test('a stopped tournament\'s clean-up gives up on a server that does not answer (CLEANUP_WAIT_MS) or closes, and leaves the matches to expire', async () => {
  const fake = await startFakeServer();
  try {
    const silent = deleteOwnMatches(fake.url, ['aaaaaaaaaaaaa', 'bbbbbbbbbbbbb']);
    const peer = await fake.nextPeer();
    assert.deepEqual(await peer.nextRequest(), { type: 'LobbyDeleteMatch', id: 'aaaaaaaaaaaaa', verification: null });
    // No answer: after CLEANUP_WAIT_MS the connection is given up, and the second id is not tried.
    assert.deepEqual(await silent, []);
    const closing = deleteOwnMatches(fake.url, ['ccccccccccccc']);
    const second = await fake.nextPeer();
    await second.nextRequest();
    second.close();
    assert.deepEqual(await closing, []);
  } finally {
    await fake.stop();
  }
});
