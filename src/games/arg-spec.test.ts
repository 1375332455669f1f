import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ArgSpec, GameDefinition } from '../match/game.js';
import { argProblem, argValueFits, integerArgSpec, numberArgSpec, textArgSpec } from './arg-spec.js';
import { argsInEffect, paceArgSpec } from './game-params.js';
import { BUILT_IN_GAMES } from './registry.js';

const configureWith = (game: GameDefinition<unknown>, args: Record<string, string>) => game.configure({ players: null, bots: 0, timeout: null, args });

/** Every argument of every built-in game, as `game/arg`. */
const ARGS = BUILT_IN_GAMES.flatMap((game) => Object.entries(game.args).map(([name, spec]) => ({ game, name, spec, where: `${game.name}/${name}` })));

test('there are arguments to check: every built-in game has at least pace', () => {
  for (const game of BUILT_IN_GAMES) assert.ok(Object.hasOwn(game.args, 'pace'), game.name);
});

test('every argument of every built-in game has a hint, what it expects, and an example its own game accepts', () => {
  for (const { game, name, spec, where } of ARGS) {
    assert.ok(spec.hint.trim() !== '', `${where}: hint`);
    assert.ok(spec.expects.trim() !== '', `${where}: expects`);
    assert.ok(spec.example !== '', `${where}: example`);
    assert.ok(argValueFits(spec, spec.example), `${where}: the example ${spec.example} passes the client's checks`);
    const configured = configureWith(game, { [name]: spec.example });
    assert.ok(configured.ok, `${where}: the game accepts its example ${spec.example}: ${configured.ok ? '' : configured.error}`);
  }
});

test('every stated default is a value the game accepts, and an argument without one says what happens instead', () => {
  for (const { game, name, spec, where } of ARGS) {
    if (spec.default === null) {
      assert.ok((spec.defaultNote ?? '').trim() !== '', `${where}: no default and no note`);
      continue;
    }
    assert.ok(argValueFits(spec, spec.default), `${where}: default ${spec.default} passes the client's checks`);
    assert.ok(configureWith(game, { [name]: spec.default }).ok, `${where}: the game accepts its default ${spec.default}`);
  }
});

test('the arguments in effect (what the history keeps) configure the same match as the request they come from', () => {
  for (const game of BUILT_IN_GAMES) {
    for (const given of [{}, { pace: '0' }] as Record<string, string>[]) {
      const inEffect = argsInEffect(game.args, given);
      assert.deepEqual(Object.keys(inEffect).sort(), Object.keys(game.args).filter((name) => game.args[name]!.default !== null || name in given).sort(), game.name);
      const asGiven = configureWith(game, given);
      const asRecorded = configureWith(game, inEffect);
      assert.ok(asGiven.ok && asRecorded.ok, game.name);
      assert.deepEqual(asRecorded.value.config, asGiven.value.config, `${game.name} ${JSON.stringify(inEffect)}`);
    }
  }
});

test("a numeric argument's range is the game's: both ends are accepted, the values just past them refused by the game and the client", () => {
  for (const { game, name, spec, where } of ARGS) {
    const range = spec.range;
    if (range === null) continue;
    for (const inside of [range.min, range.max]) {
      assert.ok(argValueFits(spec, String(inside)), `${where}: ${inside} fits`);
      assert.ok(configureWith(game, { [name]: String(inside) }).ok, `${where}: the game accepts ${inside}`);
    }
    const step = range.integer ? 1 : range.min > 0 && range.min < 1 ? range.min / 2 : 1;
    for (const outside of [range.min - step, range.max + step].filter((value) => value >= 0)) {
      assert.equal(argValueFits(spec, String(outside)), false, `${where}: ${outside} does not fit`);
      assert.equal(configureWith(game, { [name]: String(outside) }).ok, false, `${where}: the game refuses ${outside}`);
    }
  }
});

test("the error in words names the argument, what it must be and the example, never the regex", () => {
  for (const { name, spec, where } of ARGS) {
    const problem = argProblem(name, spec);
    assert.ok(problem.startsWith(`${name} must be `), where);
    assert.ok(problem.endsWith(` (for example ${spec.example})`), where);
    assert.ok(!problem.includes(spec.regex), where);
    assert.doesNotMatch(problem, /[\\^$]/, `${where}: ${problem}`);
  }
});

test('pace reads as the brief asks: hint, error in words, default and range', () => {
  const pace = paceArgSpec(1);
  assert.equal(pace.hint, 'seconds to wait between moves, 0 to 30');
  assert.equal(argProblem('pace', pace), 'pace must be a number from 0 to 30 (for example 1.5)');
  assert.equal(pace.default, '1');
  assert.deepEqual(pace.range, { min: 0, max: 30, integer: false, odd: false });
});

const WIRE = { description: 'd', regex: String.raw`^\d{1,3}$` };

test('the builders word hints and expectations from the meaning and the bounds', () => {
  const odd: ArgSpec = integerArgSpec({ ...WIRE, meaning: 'board size', odd: true, min: 3, max: 25, default: 9, example: '7' });
  assert.equal(odd.hint, 'board size, odd, 3 to 25');
  assert.equal(odd.expects, 'an odd whole number from 3 to 25');
  assert.equal(odd.default, '9');
  const walls = integerArgSpec({ ...WIRE, meaning: 'walls', min: 0, max: 100, default: null, defaultNote: 'depends on the size', example: '8' });
  assert.equal(walls.default, null);
  assert.equal(walls.defaultNote, 'depends on the size');
  const seconds = numberArgSpec({ ...WIRE, meaning: 'seconds', min: 0.5, max: 10, default: 2, example: '2.5' });
  assert.equal(seconds.expects, 'a number from 0.5 to 10');
  const text = textArgSpec({ ...WIRE, hint: 'a name', expects: 'letters', default: null, example: 'ab' });
  assert.equal(text.range, null);
});

test('the client-side check: the regex anchored, then the range (whole, odd)', () => {
  const odd = integerArgSpec({ ...WIRE, meaning: 'size', odd: true, min: 3, max: 25, default: 9, example: '7' });
  assert.deepEqual(['7', '8', '1', '27', '7.0', 'x', '', ' 7'].map((value) => argValueFits(odd, value)), [true, false, false, false, false, false, false, false]);
  const pace = paceArgSpec(1);
  assert.deepEqual(['0', '.5', '30', '30.5', '31', '-1', '1e1'].map((value) => argValueFits(pace, value)), [true, true, true, false, false, false, false]);
});
