import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startServer, type ServerProcess } from '../support/processes.js';

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
let server: ServerProcess;
const dirs: string[] = [];

/** A user of their own: a config folder nobody else's coco reads, and no COCO_TOKEN from the runner's environment. */
function user(): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'coco-names-user-'));
  dirs.push(dir);
  return { env: { COCO_CONFIG_DIR: dir, COCO_TOKEN: '' }, dir };
}

before(async () => {
  server = await startServer(['--clobber-port', '0']);
});
after(async () => {
  await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A one-round roshambo against a server bot: the match ends as soon as one player has joined. */
function soloMatch(): Promise<string> {
  return newMatch(server.url, ['roshambo', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
}

/** The tokens `coco register` kept for this server, and the file's mode. */
function kept(dir: string): { tokens: Record<string, string>; mode: number } {
  const folder = join(dir, 'tokens');
  const [file] = readdirSync(folder);
  assert.ok(file, 'a token file was written');
  const path = join(folder, file);
  return { tokens: JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>, mode: statSync(path).mode & 0o777 };
}

test('a registered name is played with its token alone; rotate retires the old token; the operator releases the name', async () => {
  const owner = user();
  const other = user();
  const registered = await coco(server.url, ['register', 'alice'], { env: owner.env });
  assert.equal(registered.code, 0, registered.stderr);
  assert.match(registered.stdout, /^> registered "alice" on .+; its token is in .+\n$/);
  const first = kept(owner.dir);
  assert.equal(first.mode, 0o600);
  assert.match(first.tokens['alice'] ?? '', /^[A-Za-z0-9_-]{43}$/);

  // Nobody else can claim it.
  const again = await coco(server.url, ['register', 'alice'], { env: other.env });
  assert.equal(again.code, 3);
  assert.match(again.stderr, /^coco: Name "alice" is already claimed \(/);

  // The owner plays a match under the name; coco sends the token it kept.
  const played = await coco(server.url, ['connect', await soloMatch(), '-n', 'alice', '--', 'python3', BOT, 'ROCK'], { env: owner.env });
  assert.equal(played.code, 0, played.stderr);
  assert.match(played.stdout, /> match ended: (you won|you lost|a draw) /);

  // A second client is refused without a token, and with a wrong one (environment or file).
  const match = await soloMatch();
  const without = await coco(server.url, ['connect', match, '-n', 'alice', '--', 'python3', BOT, 'ROCK'], { env: other.env });
  assert.equal(without.code, 3);
  assert.match(without.stderr, /^coco: Name "alice" is claimed: playing it needs its token \(coco register/);
  const wrongEnv = await coco(server.url, ['connect', match, '-n', 'alice', '--', 'python3', BOT, 'ROCK'], { env: { ...other.env, COCO_TOKEN: 'not-the-token' } });
  assert.equal(wrongEnv.code, 3);
  assert.match(wrongEnv.stderr, /^coco: Wrong token for name "alice"/);
  const wrongFile = join(other.dir, 'wrong.token');
  writeFileSync(wrongFile, `${first.tokens['alice']}x\n`);
  const withFile = await coco(server.url, ['connect', match, '-n', 'alice', '--token-file', wrongFile, '--', 'python3', BOT, 'ROCK'], { env: other.env });
  assert.equal(withFile.code, 3);
  assert.match(withFile.stderr, /^coco: Wrong token for name "alice"/);
  // None of these took the seat: the match still waits for its player.
  assert.match((await coco(server.url, ['lobby'])).stdout, new RegExp(`${match}\\s+no\\s+roshambo\\s+roshambo\\s+1/2 \\(1 bot\\)`));

  // A bot on another machine plays with the token in a file (mode 0600 not required to read).
  const tokenFile = join(other.dir, 'alice.token');
  writeFileSync(tokenFile, `${first.tokens['alice']}\n`);
  const elsewhere = await coco(server.url, ['connect', match, '-n', 'alice', '--token-file', tokenFile, '--', 'python3', BOT, 'PAPER'], { env: other.env });
  assert.equal(elsewhere.code, 0, elsewhere.stderr);

  // Rotating needs the current token and retires it.
  const rotated = await coco(server.url, ['register', '--rotate', 'alice'], { env: owner.env });
  assert.equal(rotated.code, 0, rotated.stderr);
  assert.match(rotated.stdout, /^> rotated the token of "alice"/);
  const second = kept(owner.dir);
  assert.notEqual(second.tokens['alice'], first.tokens['alice']);
  assert.equal(second.mode, 0o600);
  const stale = await coco(server.url, ['connect', await soloMatch(), '-n', 'alice', '--token-file', tokenFile, '--', 'python3', BOT, 'ROCK'], { env: other.env });
  assert.equal(stale.code, 3);
  assert.match(stale.stderr, /^coco: Wrong token for name "alice"/);
  const rotateStale = await coco(server.url, ['register', '--rotate', 'alice', '--token-file', tokenFile], { env: other.env });
  assert.equal(rotateStale.code, 3);
  assert.match(rotateStale.stderr, /^coco: Wrong token for name "alice"/);
  const fresh = await coco(server.url, ['connect', await soloMatch(), '-n', 'alice', '--', 'python3', BOT, 'ROCK'], { env: owner.env });
  assert.equal(fresh.code, 0, fresh.stderr);

  // Releasing is the operator's: the master password, not a guess.
  const guessed = await coco(server.url, ['register', '--release', 'alice', '-v', 'guess'], { env: other.env });
  assert.equal(guessed.code, 3);
  assert.match(guessed.stderr, /^coco: Wrong verification password/);
  const released = await coco(server.url, ['register', '--release', 'alice', '-v', 'master'], { env: owner.env });
  assert.equal(released.code, 0, released.stderr);
  assert.match(released.stdout, /^> released "alice" on .+: anyone may play or register it now \(the token kept here is removed\)\n$/);
  const anyone = await coco(server.url, ['connect', await soloMatch(), '-n', 'alice', '--', 'python3', BOT, 'ROCK'], { env: other.env });
  assert.equal(anyone.code, 0, anyone.stderr);
  const twice = await coco(server.url, ['register', '--release', 'alice', '-v', 'master'], { env: owner.env });
  assert.equal(twice.code, 3);
  assert.match(twice.stderr, /^coco: Name "alice" is not claimed/);
});

test('an unclaimed name plays as before, with or without a token; the clobber port refuses a claimed name', async () => {
  const someone = user();
  const open = await coco(server.url, ['connect', await soloMatch(), '-n', 'nobody', '--', 'python3', BOT, 'ROCK'], { env: { ...someone.env, COCO_TOKEN: 'any' } });
  assert.equal(open.code, 0, open.stderr);
  assert.equal((await coco(server.url, ['register', 'clobberer'], { env: someone.env })).code, 0);
  const [, port] = await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/);
  const answer = await new Promise<string>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write('play clobber clobberer\n'));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
  });
  assert.equal(answer, 'error\n');
  await server.waitForLog(/"clobberer" is a claimed name, which the clobber port cannot play/);
});

test('names that break the player-name rule cannot be registered, and cost no registration', async () => {
  const someone = user();
  const bad = await coco(server.url, ['register', 'ServerBot$0'], { env: someone.env });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr, /^coco: "ServerBot\$0" is not a valid username \(a name is 1 to 16/);
});

test('registrations from one address are limited per hour (name-registrations-per-hour); a refused one says when to try again', async () => {
  const limited = await startServer(['--limit', 'name-registrations-per-hour=2']);
  try {
    const someone = user();
    for (const name of ['q1', 'q2']) assert.equal((await coco(limited.url, ['register', name], { env: someone.env })).code, 0, name);
    // A name already claimed is refused for that, without spending the quota.
    assert.match((await coco(limited.url, ['register', 'q1'], { env: someone.env })).stderr, /already claimed/);
    const third = await coco(limited.url, ['register', 'q3'], { env: someone.env });
    assert.equal(third.code, 3);
    assert.match(third.stderr, /^coco: Too many names registered: at most 2 an hour per address; try again in \d+ s\n$/);
    // The quota is the registrations' own: matches are still created from this address.
    await newMatch(limited.url, ['roshambo']);
  } finally {
    await limited.stop();
  }
});

test('with --nodes 2 a name claimed through one node is refused on the other (the claims are the primary history\'s)', async () => {
  const cluster = await startServer(['--nodes', '2']);
  try {
    await cluster.waitForLog(/listening on \S+ \(2 nodes/);
    const owner = user();
    const other = user();
    assert.equal((await coco(cluster.url, ['register', 'nodal'], { env: owner.env })).code, 0);
    // Connections go to the nodes in turn: of these consecutive refusals, each node answers some.
    for (let i = 0; i < 2; i++) {
      const id = await newMatch(cluster.url, ['roshambo', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
      const refusedHere = await coco(cluster.url, ['connect', id, '-n', 'nodal', '--', 'python3', BOT, 'ROCK'], { env: other.env });
      assert.equal(refusedHere.code, 3, refusedHere.stderr);
      assert.match(refusedHere.stderr, /^coco: Name "nodal" is claimed/);
      const played = await coco(cluster.url, ['connect', id, '-n', 'nodal', '--', 'python3', BOT, 'ROCK'], { env: owner.env });
      assert.equal(played.code, 0, played.stderr);
    }
  } finally {
    await cluster.stop();
  }
});
