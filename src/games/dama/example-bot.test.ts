import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BotIO } from '../../match/game.js';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { ok } from '../../util/result.js';
import { dama, type DamaConfig } from './dama.js';
import { perft } from './perft.js';
import { startPosition } from './rules.js';

// From dist/src/games/dama/ back to the repository root.
const BOT_PY = fileURLToPath(new URL('../../../../examples/dama/bot.py', import.meta.url));

/** Runs a program as a child process and joins it to the match as a player: stdin gets the stream, stdout is its moves. */
function childProcess(command: string, args: readonly string[]): { play: LocalPlayer; stderr: () => string; sent: string[] } {
  let errors = '';
  const sent: string[] = [];
  const play = async (io: BotIO): Promise<void> => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        sent.push(line);
        io.write(`${line}\n`);
      }
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    child.stdin.on('error', () => {}); // the program may exit before reading everything
    for (;;) {
      const line = await io.readLine();
      if (line === null) break;
      child.stdin.write(`${line}\n`);
    }
    child.stdin.end();
    await exited;
  };
  return { play, stderr: () => errors, sent };
}

test('the example Python bot plays a whole match as a child process against the server bot, with legal moves only', async () => {
  const game: typeof dama = {
    ...dama,
    configure: (params) => {
      const configured = dama.configure(params);
      if (!configured.ok) return configured;
      const config: DamaConfig = { ...configured.value.config, botBudget: { maxNodes: 1500 } };
      return ok({ ...configured.value, config });
    },
  };
  const python = childProcess('python3', [BOT_PY, '--seed', '7']);
  const record = await playLocalMatch({
    game,
    params: { args: { pace: '0' }, bots: 1, players: 2 },
    seed: 'example-bot',
    players: [{ name: 'PythonBot', play: python.play }],
  });
  assert.equal(python.stderr(), '');
  assert.doesNotMatch(record.received[0]!, /Mossa non valida riprova!|non valid[oa]!|Non hai selezionato/, 'every move the example sent was legal');
  assert.match(record.received[0]!, /\nGame Over ;\)\n\n$/);
  assert.ok(python.sent.length > 5, `the example played ${python.sent.length} moves`);
  const reason = record.outcome.result!.reason;
  assert.match(reason, /has no (pieces left|legal move)$|^draw/, reason);
  assert.deepEqual(record.outcome.result!.scores, [0, 1], `the server bot should win: ${reason}`);
});

test("the example bot's move generator agrees with the engine (perft to depth 6 from the start)", () => {
  const run = spawnSync('python3', [BOT_PY, '--perft', '6'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const counts = run.stdout.trim().split('\n').map((line) => Number(line.split(' ')[1]));
  const board = Int8Array.from(startPosition().board);
  assert.deepEqual(counts, [1, 2, 3, 4, 5, 6].map((depth) => perft(board, 1, depth)));
});
