import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outcomeOf, parseResults, ResultsFile, type ResultLine } from './results-file.js';

function line(pairing: number, fields: Partial<ResultLine> = {}): ResultLine {
  return { pairing, players: ['alice', 'bob'], scores: [1, 0], outcome: '1-0', match: `m${pairing}`, reason: 'alice wins', crashed: [], timedOut: [], illegal: [], ...fields };
}

function withDir(work: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'coco-results-'));
  try {
    work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('outcomes from two seats: 1-0, 0-1, 1/2-1/2, and * without a result', () => {
  assert.equal(outcomeOf([3, 0]), '1-0');
  assert.equal(outcomeOf([0, 1]), '0-1');
  assert.equal(outcomeOf([2, 2]), '1/2-1/2');
  assert.equal(outcomeOf(null), '*');
});

test('lines appended one by one read back the same (round trip), a missing file is empty', () => {
  withDir((dir) => {
    const path = join(dir, 'results.jsonl');
    assert.deepEqual(ResultsFile.open(path).previous, []);
    const file = ResultsFile.open(path);
    const written = [line(0), line(1, { scores: null, outcome: '*', reason: 'bob could not be started', crashed: ['bob'] }), line(2, { timedOut: ['bob'] })];
    for (const result of written) file.append(result);
    assert.equal(readFileSync(path, 'utf8').split('\n').length, 4);
    assert.deepEqual(ResultsFile.open(path).previous, written);
  });
});

test('a last line cut short by a kill is ignored, and the next line starts on a line of its own', () => {
  withDir((dir) => {
    const path = join(dir, 'results.jsonl');
    writeFileSync(path, `${JSON.stringify(line(0))}\n${JSON.stringify(line(1)).slice(0, 30)}`);
    const file = ResultsFile.open(path);
    assert.deepEqual(file.previous.map((r) => r.pairing), [0]);
    file.append(line(1));
    assert.deepEqual(ResultsFile.open(path).previous, [line(0), line(1)]);
    // A whole last line without its line break is kept, and the next goes on a line of its own.
    writeFileSync(path, JSON.stringify(line(0)));
    ResultsFile.open(path).append(line(1));
    assert.deepEqual(ResultsFile.open(path).previous, [line(0), line(1)]);
    assert.equal(parseResults('garbage').ok, true);
  });
});

test('a broken line before the last is an error: the file is not a results file', () => {
  withDir((dir) => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'hello\n{"pairing":0}\n');
    assert.throws(() => ResultsFile.open(path), /line 1 is not a result line/);
  });
});
