import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { createClobberGame } from './clobber.js';

/** examples/ sits at the repository root; this file runs from dist/src/games/clobber/. */
const EXAMPLE_BOT = fileURLToPath(new URL('../../../../examples/clobber/bot.py', import.meta.url));
const game = createClobberGame({ botLimits: { maxNodes: 300 } });

/**
 * Runs a program as a child process and joins its stdin/stdout to the player's line stream. A
 * program that does not exit at the end of its input hangs the test until the runner's per-file
 * timeout fails it (a kill timer would trip on a busy machine instead).
 */
function programPlayer(command: string, args: readonly string[], stderr: string[]): LocalPlayer {
  return (io) =>
    new Promise<void>((resolve) => {
      const child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (text: string) => io.write(text));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => stderr.push(text));
      child.stdin.on('error', () => {}); // the program may exit before reading everything
      child.on('close', () => resolve());
      void (async () => {
        for (;;) {
          const line = await io.readLine();
          if (line === null) break;
          child.stdin.write(`${line}\n`);
        }
        child.stdin.end();
      })();
    });
}

test('the example Python bot plays a 3-game match against the server bot without an error', async () => {
  const stderr: string[] = [];
  const record = await playLocalMatch({
    game,
    params: { args: { columns: '6', rows: '6', games: '3', pace: '0' }, bots: 1, players: 2 },
    players: [{ name: 'PyBot', play: programPlayer('python3', [EXAMPLE_BOT, 'PyBot', '7'], stderr) }],
    seed: 'python-example',
  });
  assert.equal(stderr.join(''), '');
  assert.match(record.sent[0]!, /^play clobber PyBot\n/);
  assert.doesNotMatch(record.received[0]!, /error|end/);
  const gameStarts = record.received[0]!.split('\n').filter((line) => /^\d+ \d+ [01]$/.test(line));
  assert.deepEqual(gameStarts, ['6 6 1', '6 6 0', '6 6 1'], 'colours alternate from game to game');
  assert.doesNotMatch(record.spectatorStream, /illegal-move|bad-syntax|out-of-turn|timeout|disconnected/);
  assert.equal(record.outcome.result!.scores.reduce((a, b) => a + b, 0), 3);
});

test('two example Python bots play each other on the default board', async () => {
  const stderr: string[] = [];
  const record = await playLocalMatch({
    game,
    params: { args: { games: '2', pace: '0' } },
    players: [
      { name: 'One', play: programPlayer('python3', [EXAMPLE_BOT, 'One', '1'], stderr) },
      { name: 'Two', play: programPlayer('python3', [EXAMPLE_BOT, 'Two', '2'], stderr) },
    ],
  });
  assert.equal(stderr.join(''), '');
  assert.doesNotMatch(record.spectatorStream, /illegal-move|bad-syntax|out-of-turn|timeout|disconnected/);
  assert.match(record.spectatorStream, /result 2 winner \S+ loser \S+ no-move\nscore One \d Two \d\n$/);
});
