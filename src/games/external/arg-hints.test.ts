import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { argProblem, argValueFits } from '../arg-spec.js';
import { externalArgSpec } from './arg-hints.js';
import { createExternalGame } from './external-game.js';
import { parseManifest } from './manifest.js';

const declared = (regex: string, fallback: string, extra: { hint?: string; example?: string } = {}) =>
  externalArgSpec({ description: 'board width in columns (default 7, from 4 to 12)', regex, default: fallback, ...extra });

test('a regex that accepts exactly a run of whole numbers becomes a range in words', () => {
  const cols = declared('[4-9]|1[0-2]', '7');
  assert.equal(cols.hint, 'board width in columns (default 7, from 4 to 12)');
  assert.equal(cols.expects, 'a whole number from 4 to 12');
  assert.deepEqual(cols.range, { min: 4, max: 12, integer: true, odd: false });
  assert.equal(cols.example, '7');
  assert.equal(cols.default, '7');
  assert.equal(argProblem('cols', cols), 'cols must be a whole number from 4 to 12 (for example 7)');
});

test('a choice of plain words is listed; anything else is described by its hint, never by the regex', () => {
  assert.equal(declared('fast|slow', 'fast').expects, 'one of fast, slow');
  assert.equal(declared('^(red|blue)$', 'red').expects, 'one of red, blue');
  for (const regex of [String.raw`\d+`, '.*', '[4-9]|1[2-3]', String.raw`\d+(\.\d+)?`, '[a-z]{1,8}']) {
    const spec = declared(regex, regex === '[a-z]{1,8}' ? 'abc' : '5');
    assert.equal(spec.range, null, regex);
    assert.equal(spec.expects, 'a value the game accepts for "board width in columns (default 7, from 4 to 12)"', regex);
  }
});

test("a manifest's own hint and example are used as declared", () => {
  const spec = declared('[4-9]|1[0-2]', '7', { hint: 'columns of the board', example: '9' });
  assert.equal(spec.hint, 'columns of the board');
  assert.equal(spec.example, '9');
  assert.equal(spec.default, '7');
});

test("every argument of the example external games has a hint and an example its own game accepts", () => {
  for (const example of ['connect4', 'lowest-unique']) {
    const path = fileURLToPath(new URL(`../../../../examples/external/${example}/game.json`, import.meta.url));
    const manifest = parseManifest(JSON.parse(readFileSync(path, 'utf8')), example);
    assert.ok(manifest.ok && manifest.value.kind === 'game', example);
    const game = createExternalGame(manifest.value, '/tmp', '');
    assert.ok(Object.keys(game.args).length > 0, example);
    for (const [name, spec] of Object.entries(game.args)) {
      assert.ok(spec.hint !== '' && spec.example !== '', `${example}/${name}`);
      assert.ok(argValueFits(spec, spec.example), `${example}/${name}`);
      assert.ok(game.configure({ players: null, bots: 0, timeout: null, args: { [name]: spec.example } }).ok, `${example}/${name}`);
      assert.notEqual(spec.range, null, `${example}/${name}: a range of whole numbers`);
    }
  }
});
