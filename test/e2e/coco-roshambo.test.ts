import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';

const BOT = join(ROOT, 'test/fixtures/gesture_bot.py');
let server: ServerProcess;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

/** Seconds in a `coco lobby` duration such as `9m58s`. */
function seconds(duration: string): number {
  const [, m, s] = /^(?:(\d+)m)?(\d+)s$/.exec(duration)!;
  return Number(m ?? 0) * 60 + Number(s);
}

test('two programs play roshambo through coco connect while a spectator watches; the match goes to the history', async () => {
  const before = Date.now();
  const id = await newMatch(server.url, ['roshambo', 'E2E match', '-a', 'rounds=3', '-a', 'pace=0']);
  const lobby = await coco(server.url, ['lobby']);
  const after = Date.now();
  const row = new RegExp(`${id}\\s+no\\s+E2E match\\s+roshambo\\s+0/2\\s+0\\s+30\\s+no\\s+Expires in (\\S+)`).exec(lobby.stdout);
  assert.ok(row, lobby.stdout);
  // The match was made, and the table printed, between `before` and `after`: 600 s of life, less
  // what passed in between (however long a busy machine took), shown in whole seconds.
  const shown = seconds(row[1]!);
  assert.ok(shown <= 600 && shown >= Math.floor(600 - (after - before) / 1000) - 1, `expires in ${row[1]} (${after - before} ms after creation)`);
  const spectator = startCoco(server.url, ['connect', '-s', id]);
  await spectator.waitForOutput(/> spectating/);
  const alice = startCoco(server.url, ['connect', id, '-n', 'alice', '--', 'python3', BOT, 'ROCK']);
  await alice.waitForOutput(/> joined/);
  const bob = await coco(server.url, ['connect', id, '-n', 'bob', '-c', 'pipe', '--', 'python3', BOT, 'PAPER', '--pipe']);
  assert.equal(bob.code, 0, bob.stderr);
  // PAPER beats ROCK in each of the 3 rounds; the result comes from the server's history API.
  assert.match(bob.stdout, /> match started\n> match ended: you won 3-0 \(.+\)\n$/);
  assert.match((await alice.done).stdout, /> match ended: you lost 0-3 \(.+\)\n$/);
  assert.match(bob.stderr, /bob against alice, 3 rounds/);
  const a = await alice.done;
  assert.equal(a.code, 0, a.stderr);
  const watched = await spectator.done;
  assert.equal(watched.code, 0);
  const stream = watched.stdout.split('> reached current status\n')[1]!.split('> match ended')[0]!;
  assert.match(stream, /^(alice\nbob|bob\nalice)\n3\n/);
  const lines = stream.trim().split('\n');
  assert.equal(lines.length, 3 + 6);
  await server.recorded(id);
  const history = await coco(server.url, ['history', id]);
  assert.equal(history.stdout, stream);
  assert.match((await coco(server.url, ['history'])).stdout, new RegExp(id));
});

/**
 * A roshambo player in sh, which starts at once even on a busy machine (a python one may take
 * longer than the short timeouts below): ROCK each round until the opponent retires.
 */
const ROCK_UNTIL_RETIRE = 'read me; read other; read rounds; while echo ROCK; read answer && [ "$answer" != RETIRE ]; do :; done';

test('a player whose program leaves mid-game has retired: the opponent receives RETIRE, and coco says the program left early (status 6)', async () => {
  // coco stays connected (as the reference client does): the seat retires when its timeout passes.
  const id = await newMatch(server.url, ['roshambo', '-a', 'rounds=5', '-a', 'pace=0', '-t', '2']);
  const quitter = startCoco(server.url, ['connect', id, '-n', 'quitter', '--', 'python3', BOT, 'ROCK', '--quit-after', '1']);
  await quitter.waitForOutput(/> joined/);
  const stayer = await coco(server.url, ['connect', id, '-n', 'stayer', '--', 'sh', '-c', ROCK_UNTIL_RETIRE]);
  assert.equal(stayer.code, 0, stayer.stdout + stayer.stderr);
  const quit = await quitter.done;
  // It exited with code 0, and its seat then timed out: the program had not finished its match.
  assert.equal(quit.code, 6, quit.stdout + quit.stderr);
  assert.match(quit.stdout, /> match ended: you lost 0-1 \(quitter retired in round 2; you did not answer in time\)\n$/);
  await server.recorded(id);
  const history = await coco(server.url, ['history', id]);
  assert.match(history.stdout, /\n5\nROCK\nROCK\n(RETIRE\nROCK|ROCK\nRETIRE)\n$/);
});

test('a program that crashes mid-game leaves coco connected, as the reference client does: the server scores the silent seat, coco prints the result and exits with status 6', async () => {
  const id = await newMatch(server.url, ['roshambo', '-a', 'rounds=5', '-a', 'pace=0', '-t', '2']);
  const crasher = startCoco(server.url, ['connect', id, '-n', 'crasher', '--', 'sh', '-c', 'read me; read other; read rounds; echo PAPER; read answer; exit 3']);
  await crasher.waitForOutput(/> joined/);
  const stayer = await coco(server.url, ['connect', id, '-n', 'stayer', '--', 'sh', '-c', ROCK_UNTIL_RETIRE]);
  assert.equal(stayer.code, 0, stayer.stdout + stayer.stderr);
  // The opponent plays on until the seat's timeout, then wins by it (not by a disconnection).
  assert.match(stayer.stdout, /> match ended: you won 1-0 \(crasher retired in round 2\)\n$/);
  const crashed = await crasher.done;
  assert.equal(crashed.code, 6, crashed.stdout + crashed.stderr);
  assert.match(
    crashed.stdout,
    /> match started\n> program exited with code 3 before the match ended; staying connected until the server ends the match\n> match ended: you lost 0-1 \(crasher retired in round 2; you did not answer in time\)\n$/,
  );
  await server.recorded(id);
  const transcript = await coco(server.url, ['history', id]);
  assert.match(transcript.stdout, /\n5\n(PAPER\nROCK|ROCK\nPAPER)\n(RETIRE\nROCK|ROCK\nRETIRE)\n$/);
});

test('a password protects joining but not spectating', async () => {
  const id = await newMatch(server.url, ['roshambo', '-p', 's3cret', '-a', 'rounds=1', '-a', 'pace=0', '-b', '1']);
  const wrong = await coco(server.url, ['connect', id, '-p', 'nope', '--', 'python3', BOT, 'ROCK']);
  assert.equal(wrong.code, 3);
  assert.equal(wrong.stderr, "coco: Wrong password (give the match's password with -p)\n");
  const spectator = startCoco(server.url, ['connect', '-s', id]);
  await spectator.waitForOutput(/> spectating/);
  const right = await coco(server.url, ['connect', id, '-n', 'me', '-p', 's3cret', '--', 'python3', BOT, 'SCISSORS']);
  assert.equal(right.code, 0, right.stderr);
  assert.match(right.stderr, /me against ServerBot\$0, 1 rounds/);
  assert.equal((await spectator.done).code, 0);
});

test('the master password makes a verified match; a wrong one is refused with its text', async () => {
  const id = await newMatch(server.url, ['roshambo', 'Official', '-v', 'master']);
  assert.match((await coco(server.url, ['lobby'])).stdout, new RegExp(`${id}\\s+yes\\s+Official`));
  const wrong = await coco(server.url, ['new', 'roshambo', '-v', 'guess']);
  assert.equal(wrong.code, 3);
  assert.equal(wrong.stderr, 'coco: "guess" is the wrong verification password\n');
});

test('list and new report errors clearly with a non-zero exit status', async () => {
  assert.match((await coco(server.url, ['list'])).stdout, /^- roshambo$/m);
  const description = await coco(server.url, ['list', 'roshambo']);
  assert.match(description.stdout, /## Implementation details/);
  // After the description, each argument with its hint, default and example (from GET /api/games).
  assert.match(
    description.stdout,
    /\n\nArguments \(coco new roshambo -a NAME=VALUE\):\n {2}rounds {2}number of rounds, 1 to 9999; default 10; for example 5\n {2}pace {4}seconds to wait between moves, 0 to 30; default 1; for example 1\.5\n$/,
  );
  const usage = JSON.parse((await coco(server.url, ['list', 'roshambo', '-u'])).stdout) as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(usage).sort(), ['pace', 'rounds']);
  assert.deepEqual(Object.keys(usage['pace']!), ['description', 'regex', 'hint', 'example', 'default']);
  assert.equal(usage['pace']!['hint'], 'seconds to wait between moves, 0 to 30');
  assert.equal(usage['pace']!['example'], '1.5');
  const missing = await coco(server.url, ['list', 'checkers']);
  assert.equal(missing.code, 3);
  // The same words from `list` and `new`: the server's, then what to do.
  assert.equal(missing.stderr, 'coco: Game not found: "checkers" (coco list shows the games of this server)\n');
  const badGame = await coco(server.url, ['new', 'checkers']);
  assert.equal(badGame.code, 3);
  assert.equal(badGame.stderr, missing.stderr);
  const unreachable = await coco('ws://127.0.0.1:1/', ['list']);
  assert.equal(unreachable.code, 4);
  assert.match(unreachable.stderr, /cannot connect to ws:\/\/127\.0\.0\.1:1\//);
});
