import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, coco, newMatch, runCocod, startCoco, startServer, type Finished, type ServerProcess } from '../support/processes.js';

/**
 * What `coco` tells its user: the end of a match with its result and why, one exit status for
 * each way out (README.md, "Exit statuses"), and every error as one line on stderr. Real cocod
 * and coco processes.
 */

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Plays ROCK once, then reads to the end of its input without answering: its seat times out. */
const PLAYS_ONCE = 'import sys\nfor _ in range(3): sys.stdin.readline()\nprint("ROCK", flush=True)\nfor _ in sys.stdin: pass\n';

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

/** An error is one line on stderr: `coco: ...`, no stack trace. */
function assertOneLine(done: Finished, pattern: RegExp): void {
  assert.match(done.stderr, /^[^\n]+\n$/, `not one line: ${JSON.stringify(done.stderr)}`);
  assert.match(done.stderr, pattern);
}

test('coco --version and cocod --version print the package version', async () => {
  assert.equal((await coco(server.url, ['--version'])).stdout, `coco ${VERSION}\n`);
  const cocod = await runCocod(['--version']);
  assert.equal(cocod.code, 0);
  assert.equal(cocod.stdout, `cocod ${VERSION}\n`);
});

test('a wrong command line is one line on stderr with status 2, for coco and cocod', async () => {
  const done = await coco(server.url, ['connect']);
  assert.equal(done.code, 2);
  assertOneLine(done, /^coco: connect needs a match id \(see coco lobby\) \(coco --help shows the usage\)\n$/);
  const badUrl = await coco('notaurl', ['list']);
  assert.equal(badUrl.code, 2);
  assertOneLine(badUrl, /^coco: -s takes a WebSocket address such as ws:\/\/127\.0\.0\.1:8088\/, not "notaurl"/);
  const cocod = await runCocod(['--no-such-option']);
  assert.equal(cocod.code, 2);
  assertOneLine(cocod, /^cocod: Unknown option '--no-such-option'.* \(cocod --help shows the options\)\n$/);
});

test('cocod on a busy port says so in one line, with status 1', async () => {
  const done = await runCocod(['-p', String(server.port), '-d', ':memory:', '-v', 'master']);
  assert.equal(done.code, 1);
  // Its log lines (JSON) come first; the failure is the last line, plain text.
  assert.match(done.stderr, new RegExp(`(^|\\n)cocod: cannot listen on 127\\.0\\.0\\.1:${server.port}: it is in use \\(another cocod\\?\\); choose another port with -p PORT\\n$`));
  assert.doesNotMatch(done.stderr, /\n\s+at /);
});

test('a refused join exits with status 3, one line with what to do, and no word of the program', async () => {
  // A well-formed id of no match: a real one with another first letter.
  const real = await newMatch(server.url, ['roshambo']);
  const id = `${real.startsWith('a') ? 'b' : 'a'}${real.slice(1)}`;
  const done = await coco(server.url, ['connect', id, '-n', 'refused', '--', 'python3', BOT, 'ROCK']);
  assert.equal(done.code, 3, done.stdout + done.stderr);
  assertOneLine(done, /^coco: Game "\w+" does not exists \(coco lobby lists the waiting and running matches, coco history the finished ones\)\n$/);
  assert.doesNotMatch(done.stdout, /program exited/);
  // Spectating and `history` say the same of the same id.
  for (const args of [['connect', '-s', id], ['history', id]]) {
    const other = await coco(server.url, args);
    assert.equal(other.code, 3);
    assert.equal(other.stderr, done.stderr);
  }
});

test('a server that cannot be reached exits with status 4', async () => {
  const done = await coco('ws://127.0.0.1:1/', ['connect', 'abc', '--', 'python3', BOT, 'ROCK']);
  assert.equal(done.code, 4);
  assertOneLine(done, /^coco: cannot connect to ws:\/\/127\.0\.0\.1:1\/: .*\n$/);
});

test('a program that cannot start exits with status 5 before taking a seat', async () => {
  const id = await newMatch(server.url, ['roshambo']);
  const done = await coco(server.url, ['connect', id, '--', './does-not-exist']);
  assert.equal(done.code, 5);
  assertOneLine(done, /^coco: cannot run the program "\.\/does-not-exist": not found \(check the path; a program in this folder needs \.\/ before its name\)\n$/);
  assert.equal(done.stdout, '');
  assert.match((await coco(server.url, ['lobby'])).stdout, new RegExp(`${id}\\s.*\\s0/2\\s`));
});

const CRASHES = [
  { how: 'exits with code 3', script: 'import sys; print("args", sys.argv[1:], file=sys.stderr, flush=True); sys.exit(3)', line: 'program exited with code 3' },
  { how: 'is killed by a signal', script: 'import os, signal, sys; print("args", sys.argv[1:], file=sys.stderr, flush=True); os.kill(os.getpid(), signal.SIGKILL)', line: 'program exited with a signal' },
] as const;

for (const { how, script, line } of CRASHES) {
  test(`a program that ${how} mid-match exits with status 6; options after -- are its own`, async () => {
    const id = await newMatch(server.url, ['roshambo', '-b', '1', '-t', '2', '-a', 'rounds=1']);
    const done = await coco(server.url, ['connect', id, '-n', 'crash', '--', 'python3', '-c', script, '--help']);
    assert.equal(done.code, 6, done.stdout + done.stderr);
    // coco stays connected, as the reference client does, and the server scores the silent seat.
    assert.match(done.stdout, new RegExp(`> ${line} before the match ended; staying connected until the server ends the match\\n> match ended: you lost .*\\n$`));
    // --help after -- went to the program, and coco printed no help of its own.
    assert.match(done.stderr, /args \['--help'\]/);
    assert.doesNotMatch(done.stdout, /Usage: coco/);
  });
}

test('at the end each player reads the result and why (a timeout for the one that did not answer); a spectator reads every score', async () => {
  // The timeout is the time the silent player is given; a generous one keeps a busy machine's slow answers from
  // timing out the other player too.
  const id = await newMatch(server.url, ['roshambo', '-t', '12', '-a', 'rounds=3', '-a', 'pace=0']);
  const spectator = startCoco(server.url, ['connect', '-s', id]);
  await spectator.waitForOutput(/> spectating/);
  const once = startCoco(server.url, ['connect', id, '-n', 'once', '--', 'python3', '-c', PLAYS_ONCE]);
  await once.waitForOutput(/> joined/);
  const paper = await coco(server.url, ['connect', id, '-n', 'paper', '--', 'python3', BOT, 'PAPER']);
  assert.equal(paper.code, 0, paper.stdout + paper.stderr);
  assert.match(paper.stdout, /> match ended: you won 1-0 \(once retired in round 2\)\n$/);
  const timedOut = await once.done;
  assert.equal(timedOut.code, 0, timedOut.stdout + timedOut.stderr);
  assert.match(timedOut.stdout, /> match ended: you lost 0-1 \(once retired in round 2; you did not answer in time\)\n$/);
  const watched = await spectator.done;
  assert.match(watched.stdout, /> match ended: (once 0, paper 1|paper 1, once 0) \(once retired in round 2\)\n$/);
});

test('coco history prints a table newest first, --json the same as JSON; a running match is not in it yet', async () => {
  const first = await newMatch(server.url, ['roshambo', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
  assert.equal((await coco(server.url, ['connect', first, '-n', 'first', '--', 'python3', BOT, 'ROCK'])).code, 0);
  const second = await newMatch(server.url, ['roshambo', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
  assert.equal((await coco(server.url, ['connect', second, '-n', 'second', '--', 'python3', BOT, 'ROCK'])).code, 0);
  const table = await coco(server.url, ['history']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^ID\s+Game\s+Date\s+Players\s+Result\n/);
  const rows = table.stdout.split('\n');
  const at = (id: string): number => rows.findIndex((row) => row.startsWith(id));
  assert.ok(at(second) > 1 && at(second) < at(first), table.stdout);
  assert.match(rows[at(second)]!, /^\S+\s+roshambo\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+(ServerBot\$0, second|second, ServerBot\$0)\s+\d-\d \(.+\)$/);
  const json = JSON.parse((await coco(server.url, ['history', '--json'])).stdout) as { id: string; players: string[] }[];
  assert.deepEqual(
    json.filter((m) => m.id === first || m.id === second).map((m) => m.id),
    [second, first],
  );
  const newest = JSON.parse((await coco(server.url, ['history', '--json', '--limit', '1'])).stdout) as { id: string }[];
  assert.deepEqual(newest.map((m) => m.id), [second]);
  const waiting = await newMatch(server.url, ['roshambo']);
  const notYet = await coco(server.url, ['history', waiting]);
  assert.equal(notYet.code, 3);
  assertOneLine(notYet, new RegExp(`^coco: match "${waiting}" has not ended yet \\(watch it with coco connect -s ${waiting}\\)\\n$`));
});

test('a reader that stops early (coco history | head) is no error: coco says nothing and exits with 0', async () => {
  const running = startCoco(server.url, ['history']);
  // The read end is closed before coco writes: its writes fail with EPIPE.
  running.child.stdout!.destroy();
  const done = await running.done;
  assert.equal(done.stderr, '');
  assert.equal(done.code, 0);
});

test('coco ratings GAME prints the leaderboard of verified matches, --json the same rows; an unknown game is status 3', async () => {
  // Unverified: it rates nobody.
  const plain = await newMatch(server.url, ['roshambo', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
  assert.equal((await coco(server.url, ['connect', plain, '-n', 'unrated', '--', 'python3', BOT, 'ROCK'])).code, 0);
  const verified = await newMatch(server.url, ['roshambo', '-b', '1', '-v', 'master', '-a', 'rounds=1', '-a', 'pace=0']);
  assert.equal((await coco(server.url, ['connect', verified, '-n', 'rated', '--', 'python3', BOT, 'ROCK'])).code, 0);
  const table = await coco(server.url, ['ratings', 'roshambo']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^Rank\s+Player\s+Rating\s+Mu\s+Sigma\s+Games\n-+/);
  assert.match(table.stdout, /\n\s+[12]\s+rated\s+-?\d+\.\d\d\s+\d+\.\d\d\s+\d+\.\d\d\s+1\n/);
  assert.match(table.stdout, /\n\s+[12]\s+ServerBot\s+/);
  assert.doesNotMatch(table.stdout, /unrated/);
  const json = JSON.parse((await coco(server.url, ['ratings', 'roshambo', '--json'])).stdout) as { rank: number; player: string; games: number }[];
  assert.deepEqual(json.map((row) => row.player).sort(), ['ServerBot', 'rated']);
  assert.deepEqual(json.map((row) => row.rank), [1, 2]);
  assert.equal((JSON.parse((await coco(server.url, ['ratings', 'roshambo', '--json', '--limit', '1'])).stdout) as unknown[]).length, 1);
  const unknown = await coco(server.url, ['ratings', 'nosuchgame']);
  assert.equal(unknown.code, 3);
  assertOneLine(unknown, /^coco: Game not found: "nosuchgame"/);
  const missing = await coco(server.url, ['ratings']);
  assert.equal(missing.code, 2);  // A game nobody is rated in says why, rather than printing an empty table.
  const empty = await coco(server.url, ['ratings', 'dama']);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /^no ratings for dama yet: only verified matches are rated/);
});
