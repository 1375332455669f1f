import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { quoridor } from './quoridor.js';
import { builtInEngine } from './test-engines.js';

const ENGINE_CLI = fileURLToPath(new URL('./qtp-engine-cli.js', import.meta.url));
const RANDOM_ENGINE = fileURLToPath(new URL('../../../../examples/quoridor/random_engine.py', import.meta.url));

/** Runs a program as a player: the lines the game sends go to its stdin, its stdout goes back. */
function childPlayer(command: string, args: string[]): LocalPlayer {
  return async (io) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => io.write(chunk.toString('latin1')));
    child.stdin.on('error', () => {});
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) child.stdin.write(`${line}\n`);
    // A program that does not exit at the end of its input hangs the test, which the runner's
    // per-file timeout fails; a kill timer here would fail slow machines instead.
    child.stdin.end();
    await exited;
  };
}

test('the engine entry runs as a child process speaking QTP on stdin/stdout, and exits after quit', async () => {
  const child = spawn(process.execPath, [ENGINE_CLI, '--nodes', '300', '--seed', 'cli', '-unknown-flag'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // stdin stays open: the engine must leave on quit by itself.
  child.stdin.write('name\nboardsize 5\r\nclear_board\nwalls 3\n# a comment\n\nplaymove black C4\ngenmove white\nwinner\nfly\nquit\nname\n');
  // An engine that does not leave on quit hangs here until the runner's per-file timeout fails the test.
  const code = await exited;
  assert.equal(code, 0);
  assert.match(output, /^= Code Colosseum Quoridor\n\n=\n\n=\n\n=\n\n=\n\n= [A-E][1-5]( horizontal| vertical)?\n\n= false\n\n\? unknown command\n\n=\n\n$/);
});

test('the Python example engine plays whole games under our controller (and loses to our engine)', async () => {
  const record = await playLocalMatch({
    game: quoridor,
    params: { args: { pace: '0', games: '2' } },
    players: [
      { name: 'python', play: childPlayer('python3', [RANDOM_ENGINE, '-seed', '7']) },
      { name: 'ours', play: builtInEngine({ nodes: 200 }) },
    ],
  });
  const results = record.spectatorStream.split('\n').filter((line) => line.startsWith('result'));
  assert.equal(results.length, 2);
  for (const line of results) assert.match(line, /ours \(\w+\) reached row/, line);
  assert.deepEqual(record.outcome.result!.scores, [0, 2]);
  assert.ok(!record.sent[0]!.includes('?'), 'the Python engine accepted every command');
  assert.match(record.sent[0]!, /^= random-pawn\n\n/);
});

test('the Python example engine follows walls, jumps and sidesteps', async () => {
  const child = spawn('python3', [RANDOM_ENGINE], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('latin1')));
  const exited = new Promise((resolve) => child.on('close', resolve));
  child.stdin.end(
    'boardsize 9\nclear_board\nwalls 10\n' +
      'playmove white E2\nplaymove white E3\nplaymove white E4\nplaymove white E5\nplaymove black E8\nplaymove black E7\nplaymove black E6\n' +
      'playwall white E7 horizontal\n' + // behind black at E6 seen from E5: no straight jump
      'playmove white E7\nplaymove white D6\nundo\nplaymove white F6\nplaymove white F5\n' +
      'playwall black E6 vertical\n' + // between E and F beside rows 6 and 5: west of white at F5
      'playmove white E5\nplaymove white G5\nwinner\n',
  );
  await exited;
  assert.equal(
    output,
    '=\n\n'.repeat(3) + '=\n\n'.repeat(7) + '=\n\n' + '? illegal move\n\n' + '=\n\n'.repeat(5) + '? illegal move\n\n=\n\n= false\n\n',
  );
});
