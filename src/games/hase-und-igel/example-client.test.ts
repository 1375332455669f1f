import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';

/** From dist/src/games/hase-und-igel/ back to the repository's examples/. */
const SCRIPT = fileURLToPath(new URL('../../../../examples/hase-und-igel/random_client.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Runs the example as a player program: the seat's lines go to its stdin, its stdout to the seat. */
function pythonPlayer(seed: string): LocalPlayer {
  return (io) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('python3', [SCRIPT, seed], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => io.write(chunk));
      child.stderr.on('data', (chunk: string) => (stderr += chunk));
      child.stdin.on('error', () => {});
      void (async () => {
        for (;;) {
          const line = await io.readLine();
          if (line === null || child.exitCode !== null) break;
          child.stdin.write(`${line}\n`);
        }
        child.stdin.end();
      })();
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`random_client.py exited with ${code}: ${stderr}`))));
    });
}

const game = createHaseUndIgelGame();
/**
 * These tests are about the protocol, not the time limits: a Python interpreter starting on a busy
 * machine can take longer than the 2 s soft limit before its first move, so the limits are wide.
 */
const WIDE_LIMITS = { softTimeout: '300', hardTimeout: '3600' };

test('the Python example client plays a whole game of legal moves against the server bot', { skip: !hasPython && 'python3 is not installed' }, async () => {
  const record = await playLocalMatch({
    game,
    params: { bots: 1, players: 2, args: { seed: 'example-1', ...WIDE_LIMITS } },
    players: [{ name: 'python', play: pythonPlayer('1') }],
    seed: 'example-1',
  });
  assert.equal(record.outcome.error, null);
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/, record.outcome.result!.reason);
  assert.equal(record.outcome.seats[0]!.closeReason, null, 'the example closed its stream itself');
  assert.ok(record.sent[0]!.startsWith('<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>\n'));
  assert.ok(record.sent[0]!.endsWith('</protocol>\n'));
});

test('two Python example clients play a whole game of legal moves against each other', { skip: !hasPython && 'python3 is not installed' }, async () => {
  const record = await playLocalMatch({
    game,
    params: { args: { seed: 'example-2', ...WIDE_LIMITS } },
    players: [
      { name: 'red', play: pythonPlayer('2') },
      { name: 'blue', play: pythonPlayer('3') },
    ],
    seed: 'example-2',
  });
  assert.equal(record.outcome.error, null);
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/, record.outcome.result!.reason);
  assert.ok((record.received[0]!.match(/<lastMove>/g) ?? []).length > 20);
});
