import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readGamesJson, type ArgJson } from '../src/protocol/games-json.js';
import { argValueFits } from '../src/games/arg-value.js';
import { argHintText, argPlaceholder, argValueError } from './arg-check.js';

/** pace as GET /api/games gives it (see test/gateways/http-routes.test.ts for the server's side). */
const PACE_JSON = {
  name: 'pace',
  description: 'minimum seconds between turns (default 1, from 0 to 30)',
  regex: String.raw`^(30(\.0*)?|[12]?\d(\.\d*)?|\.\d+)$`,
  hint: 'seconds to wait between moves, 0 to 30',
  expects: 'a number from 0 to 30',
  problem: 'pace must be a number from 0 to 30 (for example 1.5)',
  example: '1.5',
  default: '1',
  default_note: null,
  range: { min: 0, max: 30, integer: false, odd: false },
};

const pace = (): ArgJson => readGamesJson({ games: [{ name: 'roshambo', args: [PACE_JSON] }] })!.games[0]!.args[0]!;

test('GET /api/games is read field by field; junk becomes harmless defaults', () => {
  assert.deepEqual(pace(), {
    name: 'pace',
    description: PACE_JSON.description,
    regex: PACE_JSON.regex,
    hint: PACE_JSON.hint,
    expects: PACE_JSON.expects,
    problem: PACE_JSON.problem,
    example: '1.5',
    default: '1',
    default_note: null,
    range: { min: 0, max: 30, integer: false, odd: false },
  });
  assert.equal(readGamesJson(null), null);
  assert.deepEqual(readGamesJson({ games: [{ name: 'g', args: [{ name: 'a', default: 3, range: { min: 'x' } }, { hint: 'no name' }] }, { args: [] }] }), { games: [
    { name: 'g', args: [{ name: 'a', description: '', regex: '', hint: '', expects: '', problem: '', example: '', default: null, default_note: null, range: null }] },
  ] });
});

test('a value out of range or off the pattern gets the error in words, never the regex', () => {
  for (const bad of ['31', '-1', 'abc', '30.5']) {
    const error = argValueError(pace(), bad);
    assert.equal(error, 'pace must be a number from 0 to 30 (for example 1.5)', bad);
    assert.ok(!error!.includes(PACE_JSON.regex));
  }
  for (const good of ['0', '1.5', '.5', '30']) assert.equal(argValueError(pace(), good), null, good);
});

test('ranges check whole and odd numbers; an unreadable regex leaves the check to the server', () => {
  const size = { regex: String.raw`^\d{1,2}$`, range: { min: 3, max: 25, integer: true, odd: true } };
  assert.deepEqual(['3', '9', '25', '4', '27', '1'].map((v) => argValueFits(size, v)), [true, true, true, false, false, false]);
  assert.equal(argValueFits({ regex: '(?<', range: null }, 'anything'), true);
  assert.equal(argValueFits({ regex: '', range: null }, 'anything'), true);
});

test('without a problem text from the server, the error is made from the hint and the example', () => {
  const arg: ArgJson = { ...pace(), problem: '' };
  assert.equal(argValueError(arg, '99'), 'pace is not valid: seconds to wait between moves, 0 to 30 (for example 1.5)');
});

test("the hint under a field is a sentence with the default, or what happens without a value", () => {
  assert.equal(argHintText(pace()), 'Seconds to wait between moves, 0 to 30. Default: 1.');
  assert.equal(argHintText({ ...pace(), hint: 'the room id players see', default: null, default_note: 'a fresh UUID' }), 'The room id players see. Default: a fresh UUID.');
  assert.equal(argHintText({ ...pace(), default: null }), 'Seconds to wait between moves, 0 to 30.');
});

test('the placeholder is the default the hint states, or its words when there is no fixed value', () => {
  assert.equal(argPlaceholder(pace()), '1');
  assert.match(argHintText(pace()), new RegExp(`Default: ${argPlaceholder(pace())}\\.$`));
  assert.equal(argPlaceholder({ ...pace(), default: null, default_note: 'the match timeout' }), 'the match timeout');
  assert.equal(argPlaceholder({ ...pace(), default: null, default_note: null }), 'default');
});
