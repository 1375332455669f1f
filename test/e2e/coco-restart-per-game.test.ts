import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markTestProcesses, processesWithTag } from '../../src/games/external/test-support.js';
import { COCO, ROOT, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';

/**
 * `coco connect --restart-per-game` with a real server, a real QTP engine that crashes in its
 * first game and hangs in its second, and our engine as the opponent (through coco too).
 */

const FLAKY = join(ROOT, 'test/fixtures/flaky_engine.py');
/**
 * The interpreter itself, not a version manager's shim (pyenv's runs several shell scripts at each
 * start, which on a busy machine can take seconds: every game here starts the engine anew).
 */
const PYTHON = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || 'python3';
/**
 * coco's deadline for an answer: the hung engine costs this long. Every start and every other
 * answer of the engine must come within it, so it is wide for a busy machine.
 */
const ANSWER_WITHIN_SECONDS = 10;
let server: ServerProcess;
let stateDir: string;
const sweep = markTestProcesses();

before(async () => {
  server = await startServer();
  stateDir = mkdtempSync(join(tmpdir(), 'coco-flaky-'));
});
after(async () => {
  try {
    await server?.stop();
  } finally {
    await sweep();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
});

/** The lines of game `game` in a quoridor spectator stream, from its `game` line to its `result`. */
function gameLines(stream: string, game: number): string[] {
  const lines = stream.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`game ${game} `));
  const end = lines.findIndex((line) => line.startsWith(`result ${game} `));
  assert.ok(start >= 0 && end > start, stream);
  return lines.slice(start, end + 1);
}

test('with --restart-per-game an engine that crashed in one game and hung in the next plays the third game with a fresh start', async () => {
  // The server's own timeout is the longest allowed, so that only coco's --answer-within ends the
  // hung engine: that is the order the test is about, and no clock race can change it.
  const id = await newMatch(server.url, ['quoridor', '-t', '600', '-a', 'size=5', '-a', 'games=3', '-a', 'pace=0']);
  const flaky = startCoco(server.url, ['connect', id, '-n', 'flaky', '--restart-per-game', '--answer-within', String(ANSWER_WITHIN_SECONDS), '--', PYTHON, FLAKY, stateDir]);
  await flaky.waitForOutput(/> joined/);
  const steady = await coco(server.url, ['connect', id, '-n', 'steady', '--', process.execPath, COCO, 'qtp-engine', '--nodes', '200']);
  assert.equal(steady.code, 0, steady.stdout + steady.stderr);
  const done = await flaky.done;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /> the engine exited with code 3; a new one starts with the next game\n/);
  assert.match(done.stdout, new RegExp(`> the engine did not answer within ${ANSWER_WITHIN_SECONDS}s: stopping it; a new one starts with the next game\n`));
  assert.match(done.stdout, /> match ended: (you won|you lost|a draw) .*\n$/);

  // One start per game, and none of them (nor the hung one's child) is left.
  assert.deepEqual(readdirSync(stateDir).sort(), ['1', '2', '3'], done.stdout + done.stderr);
  const starts = [...done.stderr.matchAll(/flaky start (\d) pid \d+ tag (\S+)\n/g)];
  assert.deepEqual(starts.map((m) => m[1]), ['1', '2', '3']);
  for (const [, , tag] of starts) assert.deepEqual(processesWithTag(tag!), []);

  await server.recorded(id);
  const stream = (await coco(server.url, ['history', id])).stdout;
  const colorOf = (game: number): string => new RegExp(`^game ${game} (?:black flaky white steady|black steady white flaky)$`, 'm').exec(stream)![0].startsWith(`game ${game} black flaky`) ? 'black' : 'white';
  // Games 1 and 2 are lost on coco's `?`, not by leaving: the seat stays for game 3.
  assert.match(gameLines(stream, 1).at(-1)!, new RegExp(`^result 1 \\w+ ${colorOf(1)} answered "\\? the engine exited"$`));
  assert.match(gameLines(stream, 2).at(-1)!, new RegExp(`^result 2 \\w+ ${colorOf(2)} answered "\\? the engine did not answer in time"$`));
  const third = gameLines(stream, 3);
  assert.match(third.at(-1)!, /^result 3 \w+ .*(reached row|move limit)/);
  const flakyMoves = third.filter((line) => line.startsWith(`${colorOf(3)} `));
  assert.ok(flakyMoves.length >= 2, `the fresh engine played game 3:\n${third.join('\n')}`);
});

test('with --restart-per-game a healthy engine is told to quit after each game and a fresh one plays the next', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'coco-healthy-'));
  try {
    // Starts 1 and 2 of the fixture misbehave; this engine's starts are 3 and 4.
    writeFileSync(join(dir, '1'), '');
    writeFileSync(join(dir, '2'), '');
    const id = await newMatch(server.url, ['quoridor', '-t', '600', '-a', 'size=5', '-a', 'games=2', '-a', 'pace=0']);
    const healthy = startCoco(server.url, ['connect', id, '-n', 'healthy', '--restart-per-game', '--', PYTHON, FLAKY, dir]);
    await healthy.waitForOutput(/> joined/);
    const steady = await coco(server.url, ['connect', id, '-n', 'steady', '--', process.execPath, COCO, 'qtp-engine', '--nodes', '200']);
    assert.equal(steady.code, 0, steady.stdout + steady.stderr);
    const done = await healthy.done;
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.match(done.stdout, /> match started\n> match ended: (you won|you lost|a draw) .*\n$/);
    const starts = [...done.stderr.matchAll(/flaky start (\d) pid \d+ tag (\S+)\n/g)];
    assert.deepEqual(starts.map((m) => m[1]), ['3', '4']);
    for (const [, , tag] of starts) assert.deepEqual(processesWithTag(tag!), []);
    await server.recorded(id);
    const stream = (await coco(server.url, ['history', id])).stdout;
    for (const game of [1, 2]) assert.match(gameLines(stream, game).at(-1)!, new RegExp(`^result ${game} \\w+ .*(reached row|move limit)`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
