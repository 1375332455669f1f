import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runUciBridge } from './uci-bridge.js';

const ENGINE = fileURLToPath(new URL('../../../../test/fixtures/uci_engine.mjs', import.meta.url));

/** Runs the bridge against the scripted engine; feeds `stream` as the server would, line by line as moves come out. */
async function bridge(engineMoves: string, answers: (move: string) => string[], first: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'uci-'));
  const log = join(dir, 'engine.log');
  process.env.UCI_LOG = log;
  process.env.UCI_MOVES = engineMoves;
  const input = new PassThrough();
  const output = new PassThrough();
  const sent: string[] = [];
  let pending = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    pending += chunk;
    let at;
    while ((at = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      sent.push(line);
      for (const reply of answers(line)) {
        if (reply === 'EOF') input.end();
        else input.write(`${reply}\n`);
      }
    }
  });
  for (const line of first) input.write(`${line}\n`);
  const errors: string[] = [];
  try {
    const code = await runUciBridge({ engine: process.execPath, engineArgs: [ENGINE], movetime: 5, options: { 'Skill Level': '0' }, input, output, log: (line) => errors.push(line) });
    return { code, sent, errors, engine: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the engine\'s moves go out in the stream\'s forms; the game reaches the engine in standard UCI', async () => {
  // White: e4, Nf3, Bc4, then castles (UCI e1g1), then resigns when the scripted server ends the game.
  const replies: Record<string, string[]> = {
    'e2 e4': ['OK <e2> <e4>', 'OK <e7> <e5>'],
    'g1 f3': ['OK <g1> <f3>', 'OK <b8> <c6>'],
    'f1 c4': ['OK <f1> <c4>', 'OK <g8> <f6>'],
    'castle e1 g1 h1 f1': ['OK <castle> <e1> <g1> <h1> <f1>', 'DRAW <PROPOSED>'],
    NO: ['DRAW <REFUSED>', 'RETIRE', 'WINNER <WHITE>'],
  };
  const result = await bridge('e2e4 g1f3 f1c4 e1g1', (line) => replies[line] ?? [], ['alice', 'bob', '0']);
  assert.deepEqual(result.errors, []);
  assert.equal(result.code, 0);
  assert.deepEqual(result.sent, ['e2 e4', 'g1 f3', 'f1 c4', 'castle e1 g1 h1 f1', 'NO']);
  assert.deepEqual(result.engine.filter((line) => line.startsWith('position') || line.startsWith('setoption')), [
    'setoption name Skill Level value 0',
    'position startpos',
    'position startpos moves e2e4 e7e5',
    'position startpos moves e2e4 e7e5 g1f3 b8c6',
    'position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6',
  ]);
  assert.equal(result.engine.at(-1), 'quit');
});

test('black waits for White\'s move, and the end of the stream ends the bridge and the engine', async () => {
  const replies: Record<string, string[]> = {
    'a7 a5': ['OK <a7> <a5>', 'OK <b2> <b4>'],
    'a5 b4': ['EOF'],
  };
  const result = await bridge('a7a5 a5b4', (line) => replies[line] ?? [], ['alice', 'bob', '1', 'OK <e2> <e4>']);
  // a5xb4 is an ordinary capture (b4 is occupied): the plain form.
  assert.deepEqual(result.sent, ['a7 a5', 'a5 b4']);
  assert.equal(result.code, 0);
  assert.equal(result.engine.at(-1), 'quit');
});

test('an engine that gives an illegal move or no move stops the bridge with an error', async () => {
  const result = await bridge('e2e5', () => [], ['alice', 'bob', '0']);
  assert.equal(result.code, 1);
  assert.match(result.errors.join('\n'), /e2e5 is not legal/);
});
