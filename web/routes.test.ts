import { test } from 'node:test';
import assert from 'node:assert/strict';
import { href, parseRoute } from './routes.js';

test('every hash route parses to its view', () => {
  assert.deepEqual(parseRoute(''), { name: 'lobby' });
  assert.deepEqual(parseRoute('#/'), { name: 'lobby' });
  assert.deepEqual(parseRoute('#/games'), { name: 'games' });
  assert.deepEqual(parseRoute('#/games/chess'), { name: 'game', game: 'chess' });
  assert.deepEqual(parseRoute('#/games/chess/x'), { name: 'not-found', path: '/games/chess/x' });
  assert.deepEqual(parseRoute('#/new'), { name: 'new', game: null });
  assert.deepEqual(parseRoute('#/new?game=roshambo'), { name: 'new', game: 'roshambo' });
  assert.deepEqual(parseRoute('#/match/0123456789abc'), { name: 'match', id: '0123456789abc' });
  assert.deepEqual(parseRoute('#/history?game=dama&player=ann'), { name: 'history', game: 'dama', player: 'ann' });
  assert.deepEqual(parseRoute('#/history'), { name: 'history', game: '', player: '' });
  assert.deepEqual(parseRoute('#/replay/abc'), { name: 'replay', id: 'abc', step: null });
  assert.deepEqual(parseRoute('#/replay/abc?step=31'), { name: 'replay', id: 'abc', step: 31 });
  assert.deepEqual(parseRoute('#/replay/abc?step=-2'), { name: 'replay', id: 'abc', step: null });
  assert.deepEqual(parseRoute('#/demo'), { name: 'demo', t: null });
  assert.deepEqual(parseRoute('#/demo?t=3.5'), { name: 'demo', t: 3.5 });
  assert.deepEqual(parseRoute('#/import'), { name: 'import' });
  assert.deepEqual(parseRoute('#/ratings/chess'), { name: 'ratings', game: 'chess' });
  assert.deepEqual(parseRoute('#/ratings/chess/ann'), { name: 'rating', game: 'chess', player: 'ann' });
  assert.deepEqual(parseRoute('#/ratings'), { name: 'leaderboards' });
  assert.deepEqual(parseRoute(href.leaderboards()), { name: 'leaderboards' });
  assert.deepEqual(parseRoute('#/match'), { name: 'not-found', path: '/match' });
  assert.deepEqual(parseRoute('#/nope/x/y'), { name: 'not-found', path: '/nope/x/y' });
});

test('built links parse back to the same route', () => {
  assert.deepEqual(parseRoute(href.game('hase-und-igel')), { name: 'game', game: 'hase-und-igel' });
  assert.deepEqual(parseRoute(href.game('a b/c')), { name: 'game', game: 'a b/c' });
  assert.deepEqual(parseRoute(href.match('a b/c')), { name: 'match', id: 'a b/c' });
  assert.deepEqual(parseRoute(href.replay('x%y')), { name: 'replay', id: 'x%y', step: null });
  assert.deepEqual(parseRoute(href.replay('x%y', 0)), { name: 'replay', id: 'x%y', step: 0 });
  assert.deepEqual(parseRoute(href.history({ game: 'a&b', player: 'c d' })), { name: 'history', game: 'a&b', player: 'c d' });
  assert.deepEqual(parseRoute(href.ratings('hase-und-igel')), { name: 'ratings', game: 'hase-und-igel' });
  assert.deepEqual(parseRoute(href.rating('chess', 'a/b?c')), { name: 'rating', game: 'chess', player: 'a/b?c' });
  assert.deepEqual(parseRoute(href.newMatch('royal ur')), { name: 'new', game: 'royal ur' });
  assert.deepEqual(parseRoute('#/match/%E0%A4%A'), { name: 'match', id: '%E0%A4%A' });
});

test('tournament routes: the list and one tournament, built and parsed back', () => {
  assert.deepEqual(parseRoute(href.tournaments()), { name: 'tournaments' });
  assert.deepEqual(parseRoute(href.tournament('ab12')), { name: 'tournament', id: 'ab12' });
});

test('arena routes: the index, a game\'s arena and a player in it, built and parsed alike', () => {
  assert.deepEqual(parseRoute('#/arena'), { name: 'arenas' });
  assert.deepEqual(parseRoute(href.arena('roshambo')), { name: 'arena', game: 'roshambo' });
  assert.deepEqual(parseRoute(href.arenaPlayer('roshambo', 'a/b c')), { name: 'arena-player', game: 'roshambo', player: 'a/b c' });
  assert.deepEqual(parseRoute('#/arena/x/y/z'), { name: 'not-found', path: '/arena/x/y/z' });
});
