import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { BotIO } from '../../match/game.js';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { roshambo } from '../roshambo/roshambo.js';
import { royalur } from './royalur.js';

/** The example programs under examples/ at the repository root (tests run from dist/src/games/royalur/). */
const EXAMPLES = new URL('../../../../examples/', import.meta.url).pathname;
interface ChildRun {
  code: number | null;
  stderr: string;
}

/** Pumps the game's lines to the program and the program's lines to the game. */
function connect(io: BotIO, toChild: Writable, fromChild: Readable): void {
  toChild.on('error', () => {}); // the program may exit before reading everything
  createInterface({ input: fromChild, crlfDelay: Infinity }).on('line', (line) => io.write(`${line}\n`));
  void (async () => {
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) toChild.write(`${line}\n`);
    toChild.end();
  })();
}

/**
 * A player that is a real program, spoken to over its stdin and stdout (coco's stdio channel).
 * An example that never exits hangs its test until the runner's per-file timeout fails it; no kill
 * timer here, since a busy machine would trip it.
 */
function program(command: string, args: string[], run: ChildRun): LocalPlayer {
  return (io) =>
    new Promise<void>((resolve) => {
      const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      child.stderr.setEncoding('utf8').on('data', (text: string) => (run.stderr += text));
      connect(io, child.stdin, child.stdout);
      child.on('close', (code) => {
        run.code = code;
        resolve();
      });
    });
}

/** The same over two named pipes passed in COCO_PIPEIN / COCO_PIPEOUT (coco's pipe channel). */
function pipeProgram(command: string, args: string[], dir: string, run: ChildRun): LocalPlayer {
  return (io) =>
    new Promise<void>((resolve) => {
      const pipeIn = join(dir, 'in');
      const pipeOut = join(dir, 'out');
      execFileSync('mkfifo', [pipeIn, pipeOut]);
      const child = spawn(command, args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, COCO_PIPEIN: pipeIn, COCO_PIPEOUT: pipeOut },
      });
      child.stderr.setEncoding('utf8').on('data', (text: string) => (run.stderr += text));
      connect(io, createWriteStream(pipeIn), createReadStream(pipeOut));
      child.on('close', (code) => {
        run.code = code;
        resolve();
      });
    });
}

/** A roshambo player that plays `moves`, then sends a word that is no gesture, and reads on. */
function roshamboThenGarbage(moves: string[]): LocalPlayer {
  return async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    for (const move of moves) {
      io.write(`${move}\n`);
      await io.readLine();
    }
    io.write('LIZARD\n');
    while ((await io.readLine()) !== null);
  };
}

const GESTURE_LINES = /^((ROCK|PAPER|SCISSORS)\n)*$/;

test('the Python royalur example plays a whole match over stdio against the server bot', async () => {
  const run: ChildRun = { code: null, stderr: '' };
  const record = await playLocalMatch({
    game: royalur,
    params: { args: { pace: '0' }, bots: 1, players: 2 },
    seed: 'python-example',
    players: [{ name: 'Python', play: program('python3', [join(EXAMPLES, 'royalur/bot.py')], run) }],
  });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /Traceback/);
  // It only ever sent legal moves: the match ended with all tokens of one side home.
  assert.match(record.outcome.result!.reason, /wins: all 7 tokens home/);
  assert.match(run.stderr, /(Python|ServerBot\$0) wins/);
  assert.match(record.sent[0]!, /^([0-6]\n)+$/);
});

test('the Python royalur example also plays over the pipe channel (COCO_PIPEIN / COCO_PIPEOUT)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'royalur-pipe-'));
  try {
    const run: ChildRun = { code: null, stderr: '' };
    const record = await playLocalMatch({
      game: royalur,
      params: { args: { pace: '0' }, bots: 1, players: 2 },
      seed: 'python-pipe',
      players: [{ name: 'Piped', play: pipeProgram('python3', [join(EXAMPLES, 'royalur/bot.py')], dir, run) }],
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(record.outcome.result!.reason, /wins: all 7 tokens home/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Python royalur example stops cleanly when its opponent retires', async () => {
  const run: ChildRun = { code: null, stderr: '' };
  const record = await playLocalMatch({
    game: royalur,
    params: { args: { pace: '0' } },
    seed: 'python-retire',
    players: [
      { name: 'Python', play: program('python3', [join(EXAMPLES, 'royalur/bot.py')], run) },
      { name: 'Quitter', play: async (io) => { for (let i = 0; i < 4; i++) await io.readLine(); } },
    ],
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(record.outcome.result!.reason, /^Python wins: Quitter disconnected$/);
});

test('the Python roshambo example plays every round and stops at RETIRE', async () => {
  const full: ChildRun = { code: null, stderr: '' };
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '30', pace: '0' }, bots: 1, players: 2 },
    players: [{ name: 'Python', play: program('python3', [join(EXAMPLES, 'roshambo/bot.py')], full) }],
  });
  assert.equal(full.code, 0, full.stderr);
  assert.match(record.sent[0]!, GESTURE_LINES);
  assert.equal(record.sent[0]!.split('\n').length - 1, 30);
  assert.match(record.outcome.result!.reason, /after 30 rounds/);

  const retired: ChildRun = { code: null, stderr: '' };
  const early = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '30', pace: '0' } },
    players: [
      { name: 'Python', play: program('python3', [join(EXAMPLES, 'roshambo/bot.py')], retired) },
      { name: 'Liar', play: roshamboThenGarbage(['ROCK', 'ROCK']) },
    ],
  });
  assert.equal(retired.code, 0, retired.stderr);
  assert.match(retired.stderr, /Liar retired/);
  assert.equal(early.sent[0]!.split('\n').length - 1, 3);
});

test('the C roshambo example compiles with cc, plays every round and stops at RETIRE', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'roshambo-c-'));
  try {
    const binary = join(dir, 'bot');
    execFileSync('cc', ['-O2', '-Wall', '-o', binary, join(EXAMPLES, 'roshambo/bot.c')], { stdio: 'pipe' });
    // Against the Python example: both programs as children of one match.
    const c: ChildRun = { code: null, stderr: '' };
    const python: ChildRun = { code: null, stderr: '' };
    const record = await playLocalMatch({
      game: roshambo,
      params: { args: { rounds: '25', pace: '0' } },
      players: [
        { name: 'C', play: program(binary, [], c) },
        { name: 'Python', play: program('python3', [join(EXAMPLES, 'roshambo/bot.py')], python) },
      ],
    });
    assert.equal(c.code, 0, c.stderr);
    assert.equal(python.code, 0, python.stderr);
    assert.match(record.sent[0]!, GESTURE_LINES);
    assert.equal(record.sent[0]!.split('\n').length - 1, 25);
    assert.match(c.stderr, /^C \d+ - \d+ Python\n$/);

    const retired: ChildRun = { code: null, stderr: '' };
    const early = await playLocalMatch({
      game: roshambo,
      params: { args: { rounds: '25', pace: '0' } },
      players: [
        { name: 'Liar', play: roshamboThenGarbage(['PAPER']) },
        { name: 'C', play: program(binary, [], retired) },
      ],
    });
    assert.equal(retired.code, 0, retired.stderr);
    assert.match(retired.stderr, /Liar retired/);
    assert.equal(early.sent[1]!.split('\n').length - 1, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
