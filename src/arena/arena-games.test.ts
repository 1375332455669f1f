import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { arenaGameSettings } from './arena-games.js';

test('arena games: every game gets an arena with its default seats; the operator\'s arguments are checked by the game at start', () => {
  const settings = arenaGameSettings([roshambo], { roshambo: { rounds: '10' } }, ['roshambo'], 3);
  assert.deepEqual(settings, { ok: true, value: [{ game: 'roshambo', seats: 2, args: { rounds: '10' }, timeout: null, anchorGames: 3 }] });
  assert.deepEqual(arenaGameSettings([roshambo], {}, [], 3), { ok: true, value: [{ game: 'roshambo', seats: 2, args: {}, timeout: null, anchorGames: 0 }] });
  const bad = arenaGameSettings([roshambo], { roshambo: { rounds: '0' } }, [], 3);
  assert.ok(!bad.ok && bad.error.startsWith('arena of roshambo: '));
  const unknown = arenaGameSettings([roshambo], {}, ['chess'], 3);
  assert.ok(!unknown.ok && unknown.error.includes('no game "chess"'));
});

test('arena games: GAME:BOT anchors a named bot of the game (several may, beside its usual bot); an unknown bot stops the server at start', () => {
  const withBots = { ...roshambo, botChoices: ['easy', 'hard'] };
  const settings = arenaGameSettings([withBots], {}, ['roshambo:hard', 'roshambo', 'roshambo:easy', 'roshambo:hard'], 2);
  assert.deepEqual(settings, { ok: true, value: [{ game: 'roshambo', seats: 2, args: {}, timeout: null, anchorGames: 2, anchorBots: ['hard', null, 'easy'] }] });
  const unknown = arenaGameSettings([withBots], {}, ['roshambo:nobody'], 2);
  assert.deepEqual(unknown, { ok: false, error: 'arena anchors: game roshambo has no server bot named "nobody" (its bots: easy, hard)' });
  assert.ok(!arenaGameSettings([roshambo], {}, ['roshambo:easy'], 2).ok, 'a game without named bots has none to anchor');
});
