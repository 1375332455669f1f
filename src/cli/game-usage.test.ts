import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gamesJson } from '../games/games-api.js';
import { paceArgSpec } from '../games/game-params.js';
import { formatArgUsage, usageJson } from './game-usage.js';

const PACE = paceArgSpec(1);
const LISTED = { name: 'chess', args: { pace: { description: PACE.description, regex: PACE.regex } } };
const DESCRIBED = gamesJson([{ name: 'chess', args: { pace: PACE } }]).games[0]!;

test('coco list GAME: one line per argument with its hint, default and example', () => {
  assert.equal(
    formatArgUsage('chess', LISTED, DESCRIBED),
    'Arguments (coco new chess -a NAME=VALUE):\n  pace  seconds to wait between moves, 0 to 30; default 1; for example 1.5\n',
  );
});

test('from a server without GET /api/games (the reference), the lines are the descriptions GameList gives', () => {
  assert.equal(formatArgUsage('chess', LISTED, undefined), `Arguments (coco new chess -a NAME=VALUE):\n  pace  ${PACE.description}\n`);
  assert.equal(formatArgUsage('none', { name: 'none', args: {} }, undefined), '');
});

test('an argument without a fixed default says what happens instead', () => {
  const described = gamesJson([{ name: 'g', args: { room: { ...PACE, hint: 'the room id', default: null, defaultNote: 'a fresh UUID', example: 'r1' } } }]).games[0]!;
  assert.equal(formatArgUsage('g', undefined, described), 'Arguments (coco new g -a NAME=VALUE):\n  room  the room id; default: a fresh UUID; for example r1\n');
});

test('coco list -u keeps description and regex first and adds hint, example and default when the server gives them', () => {
  assert.deepEqual(usageJson(LISTED, DESCRIBED), { pace: { description: PACE.description, regex: PACE.regex, hint: PACE.hint, example: '1.5', default: '1' } });
  assert.deepEqual(usageJson(LISTED, undefined), { pace: { description: PACE.description, regex: PACE.regex } });
});
