import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';

const EXAMPLES = join(ROOT, 'examples');
/**
 * The player timeout of the external games' matches here. These tests are about the protocol:
 * a Python interpreter starting on a busy machine may need longer than the examples' limits.
 */
const WIDE_TIMEOUT = '120';
let server: ServerProcess;
let gamesDir: string;

/**
 * The external examples as they are, but for a wide `ready_deadline` (5 s by default): a player
 * or bot program must say `ready` within it, and interpreter start-up counts against it.
 */
function examplesWithWideDeadlines(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-examples-'));
  cpSync(join(EXAMPLES, 'external'), dir, { recursive: true });
  for (const game of readdirSync(dir)) {
    const file = join(dir, game, 'game.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...manifest, ready_deadline: 300 }));
  }
  return dir;
}

before(async () => {
  gamesDir = examplesWithWideDeadlines();
  server = await startServer(['--games', gamesDir]);
});
after(async () => {
  // Each step runs even if one before it failed, so that no server outlives the file.
  try {
    await server?.stop();
  } finally {
    if (gamesDir) rmSync(gamesDir, { recursive: true, force: true });
  }
});

test('the example royalur bot plays over the pipe channel against the Python example over stdio', async () => {
  const id = await newMatch(server.url, ['royalur', '-a', 'pace=0']);
  const spectator = startCoco(server.url, ['connect', '-s', id]);
  await spectator.waitForOutput(/> spectating/);
  const piped = startCoco(server.url, ['connect', id, '-n', 'piped', '-c', 'pipe', '--', 'python3', join(EXAMPLES, 'royalur/bot.py')]);
  await piped.waitForOutput(/> joined/);
  const stdio = await coco(server.url, ['connect', id, '-n', 'stdio', '--', 'python3', join(EXAMPLES, 'royalur/bot.py')]);
  assert.equal(stdio.code, 0, stdio.stderr);
  assert.equal((await piped.done).code, 0);
  const watched = await spectator.done;
  const stream = watched.stdout.split('> reached current status\n')[1]!.split('> match ended')[0]!;
  assert.match(stream, /^(piped\nstdio|stdio\npiped)\n([01] [01] [01] [01]\n|[0-6]\n)+$/);
  assert.doesNotMatch(stream, /RETIRE/, 'both example bots play only legal moves');
});

test('the C and Python roshambo examples play each other through coco', async () => {
  const id = await newMatch(server.url, ['roshambo', '-a', 'rounds=20', '-a', 'pace=0']);
  const python = startCoco(server.url, ['connect', id, '-n', 'py', '--', 'python3', join(EXAMPLES, 'roshambo/bot.py')]);
  await python.waitForOutput(/> joined/);
  const c = await coco(server.url, ['connect', id, '-n', 'c', '--', 'sh', '-c', `cc -O2 -o "$TMPDIR_BOT" "${join(EXAMPLES, 'roshambo/bot.c')}" && exec "$TMPDIR_BOT"`], {
    env: { TMPDIR_BOT: join(server.databaseFile, '..', 'roshambo-bot') },
  });
  assert.equal(c.code, 0, c.stderr);
  assert.equal((await python.done).code, 0);
  await server.recorded(id);
  const history = await coco(server.url, ['history', id]);
  assert.equal(history.stdout.split('\n').length, 3 + 40 + 1);
});

test('an external game registered with --games is listed and played through coco with its bots; its replay log is kept', async () => {
  assert.match((await coco(server.url, ['list'])).stdout, /^- connect4$/m);
  const listed = (await coco(server.url, ['list', 'connect4'])).stdout;
  assert.match(listed, /Implementation details/);
  // An external game's hint is its description; its example, its default.
  assert.match(listed, /\n {2}cols {2}board width in columns \(default 7, from 4 to 12\); default 7; for example 7\n/);
  const id = await newMatch(server.url, ['connect4', '-b', '1', '-a', 'cols=7', '-t', WIDE_TIMEOUT]);
  const human = await coco(server.url, ['connect', id, '-n', 'me', '--', 'python3', join(EXAMPLES, 'external/connect4/bot.py')]);
  assert.equal(human.code, 0, human.stderr);
  await server.recorded(id);
  const response = await fetch(`http://127.0.0.1:${server.port}/api/history/${id}`);
  const record = (await response.json()) as { players: string[]; scores: number[] | null; error: string | null; artifacts: string[]; vis: unknown[] };
  assert.equal(record.error, null);
  assert.deepEqual([...record.players].sort(), ['ServerBot$0', 'me']);
  assert.equal(record.scores?.length, 2);
  assert.ok(record.vis.length > 0, 'the game drew itself');
  assert.deepEqual(record.artifacts, ['replay.log', 'report.json', 'transcript-0.txt', 'transcript-1.txt']);
  // The controller's report: the bots played by the rules, and the scores as the game server printed them.
  const report = (await (await fetch(`http://127.0.0.1:${server.port}/api/history/${id}/artifacts/report.json`)).json()) as Record<string, unknown>;
  assert.deepEqual(report['player_errors'], []);
  assert.equal((report['printed_scores'] as string[]).length, 2);
  const mine = record.players.indexOf('me');
  const transcript = await (await fetch(`http://127.0.0.1:${server.port}/api/history/${id}/artifacts/transcript-${mine}.txt`)).text();
  assert.match(transcript, new RegExp(`^# seat ${mine}, me: `), transcript);
  assert.match(transcript, /\n\d+\.\d{3} > \d+\n/, transcript);
  // How the seat ended depends on who noticed first (the game over, or coco closing): either way a note.
  assert.match(transcript, /\n\d+\.\d{3} # [^\n]+\n$/, transcript);
  const log = await (await fetch(`http://127.0.0.1:${server.port}/api/history/${id}/artifacts/replay.log`)).text();
  assert.match(log, /^\d{3}\.\d{6} > vis inline\n\d{3}\.\d{6} > param 2 7 6 120\n/);
  assert.match(log, /\n\d{3}\.\d{6} > start\n/);
  assert.match(log, /< over /);
});

test('a 4-player simultaneous-move external game runs with one human and three server bots', async () => {
  const id = await newMatch(server.url, ['lowest-unique', '-n', '4', '-b', '3', '-a', 'rounds=3', '-t', WIDE_TIMEOUT]);
  const human = await coco(server.url, ['connect', id, '-n', 'me', '--', 'python3', join(EXAMPLES, 'external/lowest-unique/bot.py')]);
  assert.equal(human.code, 0, human.stderr);
  await server.recorded(id);
  const record = (await (await fetch(`http://127.0.0.1:${server.port}/api/history/${id}`)).json()) as { players: string[]; scores: number[] | null; error: string | null };
  assert.equal(record.error, null);
  assert.equal(record.players.length, 4);
  assert.equal(record.scores?.length, 4);
});

test('quoridor: the built-in engine (coco qtp-engine) and the Python example engine play a match through coco connect', async () => {
  const id = await newMatch(server.url, ['quoridor', '-a', 'size=5', '-a', 'games=2', '-a', 'pace=0']);
  const spectator = startCoco(server.url, ['connect', '-s', id]);
  await spectator.waitForOutput(/> spectating/);
  const ours = startCoco(server.url, ['connect', id, '-n', 'engine', '--', process.execPath, join(ROOT, 'dist/src/cli/coco.js'), 'qtp-engine', '--time', '0.05']);
  await ours.waitForOutput(/> joined/);
  const random = await coco(server.url, ['connect', id, '-n', 'random', '--', 'python3', join(EXAMPLES, 'quoridor/random_engine.py')]);
  assert.equal(random.code, 0, random.stderr);
  assert.equal((await ours.done).code, 0);
  const watched = (await spectator.done).stdout;
  assert.match(watched, /engine/);
  await server.recorded(id);
  const record = (await (await fetch(`http://127.0.0.1:${server.port}/api/history/${id}`)).json()) as { players: string[]; scores: number[] };
  const engineSeat = record.players.indexOf('engine');
  assert.equal(record.scores[engineSeat], 2, `the engine wins both games: ${JSON.stringify(record)}`);
});
