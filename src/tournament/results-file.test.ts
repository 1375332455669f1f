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

test('outcomes from more seats: each seat\'s finishing place, ties sharing the better one', () => {
  assert.equal(outcomeOf([5, 3, 3, 1]), '1-2-2-4');
  assert.equal(outcomeOf([0, 2, 1]), '3-1-2');
  assert.equal(outcomeOf([1, 1, 1]), '1-1-1');
  assert.equal(outcomeOf([1]), '*');
});

test('n-seat lines round-trip; places must be one per seat and within the seats; 2-seat lines parse as before', () => {
  withDir((dir) => {
    const path = join(dir, 'results.jsonl');
    const file = ResultsFile.open(path);
    const written = [
      line(0, { players: ['a', 'b', 'c', 'd'], scores: [5, 3, 3, 1], outcome: '1-2-2-4' }),
      line(1, { players: ['b', 'c', 'd', 'a'], scores: null, outcome: '*', crashed: ['d'] }),
      line(2),
    ];
    for (const result of written) file.append(result);
    assert.deepEqual(ResultsFile.open(path).previous, written);
  });
  const text = (fields: Partial<ResultLine>): string => JSON.stringify(line(0, fields));
  const three = { players: ['a', 'b', 'c'], scores: [1, 2, 3] };
  assert.equal(parseResults(text({ ...three, outcome: '3-2-1' })).ok, true);
  for (const outcome of ['3-2', '1-0', '1-2-4', '0-1-2', '1-2-3-4', '1--2'] as ResultLine['outcome'][]) {
    const parsed = parseResults(`${text({ ...three, outcome })}\n${text({})}\n`);
    assert.equal(parsed.ok, false, outcome);
  }
  assert.equal(parseResults(`${text({ outcome: '1-2-3' as ResultLine['outcome'] })}\n${text({})}\n`).ok, false);
});
