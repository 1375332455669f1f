import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultPlayers } from './game-params.js';
import { roshambo } from './roshambo/roshambo.js';
import { gamesJson } from './games-api.js';
import { readGamesJson } from '../protocol/games-json.js';

test('GET /api/games gives each game\'s default players per match, as its configure applies it, and it reads back', () => {
  assert.equal(defaultPlayers(roshambo), 2);
  const body = gamesJson([{ ...roshambo, defaultPlayers: defaultPlayers(roshambo) }, { name: 'bare', args: {} }]);
  assert.equal(body.games[0]!.default_players, 2);
  // A game described without them says nothing of its players.
  assert.equal('default_players' in body.games[1]!, false);
  const read = readGamesJson(JSON.parse(JSON.stringify(body)))!;
  assert.equal(read.games[0]!.default_players, 2);
  assert.equal('default_players' in read.games[1]!, false);
  // A mistyped value is left out, as a server that does not say.
  assert.equal('default_players' in readGamesJson({ games: [{ name: 'g', args: [], default_players: 'four' }] })!.games[0]!, false);
});
