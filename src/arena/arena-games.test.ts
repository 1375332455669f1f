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
