import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseManifest } from './manifest.js';
import { instantiateParam, templateArgs } from './param-template.js';
import { createExternalGame } from './external-game.js';

const BASE = { name: 'g', command: ['python3', 'server.py'], min_players: 2, max_players: 4 };

test('a minimal manifest gets the documented defaults', () => {
  assert.deepEqual(parseManifest(BASE, 'entry'), {
    ok: true,
    value: {
      kind: 'game',
      name: 'g',
      command: ['python3', 'server.py'],
      param: '{num_players}',
      minPlayers: 2,
      maxPlayers: 4,
      defaultPlayers: 2,
      defaultTimeout: 30,
      maxBots: 0,
      args: {},
      description: 'description.md',
      bots: [],
      lineLimit: 1024,
      readyDeadline: 3,
      stallDeadline: null,
      maxMatchSeconds: 3600,
      maxOutputBytes: 64 * 1024 * 1024,
      playerErrorLimit: 1,
      vis: 'inline',
    },
  });
});

test('a bots_for manifest names a game and one or more bot programs', () => {
  assert.deepEqual(parseManifest({ bots_for: 'roshambo', bot: ['python3', 'bot.py'] }, 'e'), {
    ok: true,
    value: { kind: 'bots_for', game: 'roshambo', bots: [['python3', 'bot.py']] },
  });
  assert.deepEqual(parseManifest({ bots_for: 'roshambo', bots: [['a'], ['b', 'c']] }, 'e'), {
    ok: true,
    value: { kind: 'bots_for', game: 'roshambo', bots: [['a'], ['b', 'c']] },
  });
});

test('each invalid manifest is refused with an error naming the entry and the field', () => {
  const arg = { description: 'd', regex: '\\d+', default: '1' };
  const cases: [unknown, RegExp][] = [
    [[], /must be a JSON object/],
    [{ ...BASE, name: undefined }, /field "name" is required and must be a string/],
    [{ ...BASE, name: 'bad name' }, /field "name" must be 1 to 64 letters/],
    [{ ...BASE, command: undefined }, /field "command" must be a non-empty list of strings/],
    [{ ...BASE, command: [] }, /field "command" must be a non-empty list/],
    [{ ...BASE, command: 'python3 server.py' }, /field "command" must be a non-empty list/],
    [{ ...BASE, command: ['python3', 3] }, /field "command" must contain only non-empty strings/],
    [{ ...BASE, min_players: undefined }, /field "min_players" must be an integer from 1 to 64 \(it is required\)/],
    [{ ...BASE, max_players: 1 }, /field "max_players" must be an integer from 2 to 64/],
    [{ ...BASE, default_players: 5 }, /field "default_players" must be an integer from 2 to 4/],
    [{ ...BASE, default_timeout: 0 }, /field "default_timeout" must be a number of seconds above 0/],
    [{ ...BASE, max_bots: 1 }, /field "max_bots" must be 0 when "bots" names no bot program/],
    [{ ...BASE, max_bots: 5, bots: [['x']] }, /field "max_bots" must be an integer from 0 to 4/],
    [{ ...BASE, bots: [['python3'], []] }, /field "bots\[1\]" must be a non-empty list/],
    [{ ...BASE, max_player: 3 }, /unknown field "max_player" \(known: name, command/],
    [{ ...BASE, param: '{num_playrs}' }, /field "param" unknown placeholder \{num_playrs\}/],
    [{ ...BASE, param: '{num_players}\n' }, /field "param" must be one line/],
    [{ ...BASE, param: '{arg:size}' }, /field "param" uses \{arg:size\} but "args" does not declare size/],
    [{ ...BASE, args: { size: arg } }, /field "args.size" is declared but "param" has no \{arg:size\}/],
    [{ ...BASE, param: '{arg:size}', args: { size: { ...arg, regex: '(' } } }, /in "args.size": field "regex" is not a valid regular expression/],
    [{ ...BASE, param: '{arg:size}', args: { size: { ...arg, default: 'x' } } }, /in "args.size": field "default" does not match its regex/],
    [{ ...BASE, param: '{arg:size}', args: { size: { description: 'd', regex: '.*' } } }, /in "args.size": field "default" is required/],
    [{ ...BASE, param: '{arg:size}', args: { size: { ...arg, min: 1 } } }, /in "args.size": unknown field "min"/],
    [{ ...BASE, param: '{arg:size}', args: { size: { ...arg, example: 'x' } } }, /in "args.size": field "example" must match its regex/],
    [{ ...BASE, param: '{arg:size}', args: { size: { ...arg, hint: 3 } } }, /in "args.size": field "hint" must be a string/],
    [{ ...BASE, args: { 'bad-name': arg } }, /field "args.bad-name" has a bad name/],
    [{ ...BASE, description: '../secret.md' }, /field "description" must be a .md file name inside the game folder/],
    [{ ...BASE, vis: 'standalone' }, /field "vis" must be "inline" or "none"/],
    [{ ...BASE, line_limit: 10 }, /field "line_limit" must be an integer from 64 to 1048576/],
    [{ ...BASE, ready_deadline: -1 }, /field "ready_deadline" must be a number of seconds/],
    [{ ...BASE, stall_deadline: 'soon' }, /field "stall_deadline" must be a number of seconds/],
    [{ ...BASE, player_error_limit: 0 }, /field "player_error_limit" must be an integer from 1/],
    [{ bots_for: 'roshambo' }, /field "bot" or "bots" is required/],
    [{ bots_for: 'roshambo', bot: ['a'], bots: [['b']] }, /field "bot" or "bots" is required \(exactly one of them\)/],
    [{ bots_for: 'roshambo', bots: [] }, /field "bots" must name at least one program/],
    [{ bots_for: 'roshambo', bot: ['a'], command: ['x'] }, /unknown field "command"/],
  ];
  for (const [raw, error] of cases) {
    const parsed = parseManifest(raw, 'external game entry "mygame"');
    assert.ok(!parsed.ok, JSON.stringify(raw));
    assert.match(parsed.error, /^external game entry "mygame": /, JSON.stringify(raw));
    assert.match(parsed.error, error, JSON.stringify(raw));
  }
});

test('the param template substitutes {num_players}, the spec spelling {num_player}, {timeout} and {arg:NAME}', () => {
  const template = 'p={num_players} q={num_player} t={timeout} {arg:size}x{arg:size} {"json":{}} {arg:mode}';
  assert.deepEqual(templateArgs(template), { ok: true, value: ['size', 'size', 'mode'] });
  assert.equal(
    instantiateParam(template, { players: 3, timeout: 2.5, args: { size: '8', mode: '{num_players}' } }),
    'p=3 q=3 t=2.5 8x8 {"json":{}} {num_players}',
  );
});

test('configure applies argument defaults and refuses values outside the regex or with control characters', () => {
  const manifest = parseManifest(
    {
      ...BASE,
      param: '{arg:size} {arg:name}',
      args: { size: { description: 'size', regex: '[1-9]', default: '5' }, name: { description: 'any', regex: '.*', default: 'x' } },
    },
    'e',
  );
  assert.ok(manifest.ok && manifest.value.kind === 'game');
  const game = createExternalGame(manifest.value, '/tmp', 'text');
  const configure = (args: Record<string, string>, players: number | null = null, bots = 0) =>
    game.configure({ players, bots, timeout: null, args });
  const ok = configure({ size: '7' });
  assert.ok(ok.ok);
  assert.deepEqual(ok.value.config.args, { size: '7', name: 'x' });
  assert.equal(ok.value.players, 2);
  assert.equal(ok.value.timeout, 30);
  assert.deepEqual(configure({ size: '10' }), { ok: false, error: 'Cannot create game: Argument "size" must match [1-9] (size), not "10"' });
  assert.ok(!configure({ name: 'a\nrecv 1 cheat' }).ok);
  assert.ok(!configure({ nope: '1' }).ok);
  assert.ok(!configure({}, 5).ok);
  assert.ok(!configure({}, 2, 1).ok);
  // GameList sends the declared description and regex (json-codec picks them); the rest is derived for people.
  assert.deepEqual(game.args['size'], {
    description: 'size',
    regex: '[1-9]',
    hint: 'size',
    expects: 'a whole number from 1 to 9',
    example: '5',
    default: '5',
    defaultNote: null,
    range: { min: 1, max: 9, integer: true, odd: false },
  });
  assert.equal(game.args['name']!.description, 'any');
  assert.equal(game.args['name']!.regex, '.*');
});
