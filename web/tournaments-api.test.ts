import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEntrantLines, readTournament, readTournamentList, tournamentPath } from './tournaments-api.js';

test('entrant lines: NAME is the game\'s bot, NAME=BOT a named one, blank lines skipped', () => {
  assert.deepEqual(parseEntrantLines('ann\n\n  bob = rock \ncid='), [
    { name: 'ann', bot: null },
    { name: 'bob', bot: 'rock' },
    { name: 'cid', bot: null },
  ]);
});

test('a tournament as the server sends it is read; an unknown error (null) stays null, junk does not throw', () => {
  const t = readTournament({
    id: 'ab12',
    version: 3,
    game: 'roshambo',
    state: 'running',
    total: 2,
    running: [{ pairing: 1, match: 'm1', players: ['b', 'a'] }],
    results: [{ pairing: 0, players: ['a', 'b'], outcome: '1-0', match: 'm0', reason: 'done' }],
    standings: { rows: [{ name: 'a', elo: 12.5, error95: null, losNext: 0.7, points: 1, games: 1, wins: 1, draws: 0, losses: 0 }] },
  });
  assert.equal(t.running[0]!.match, 'm1');
  assert.equal(t.results[0]!.outcome, '1-0');
  assert.equal(t.standings[0]!.error95, null);
  assert.equal(t.standings[0]!.losNext, 0.7);
  assert.deepEqual(readTournament('junk').results, []);
  assert.deepEqual(readTournamentList({ games: [{ name: 'g', bots: ['x'] }, { name: 'h', bots: null }] }).games, [
    { name: 'g', bots: ['x'] },
    { name: 'h', bots: null },
  ]);
  assert.equal(tournamentPath('a b', 4), '/api/tournaments/a%20b?after=4');
});

test('a tournament of more players: its players per match and each row\'s mean place; an older server\'s body reads as 2 players', () => {
  const t = readTournament({
    players: 3,
    results: [{ pairing: 0, players: ['a', 'b', 'c'], outcome: '2-1-3', match: 'm0', reason: 'done' }],
    standings: { rows: [{ name: 'b', elo: 50, error95: 200, losNext: 0.6, points: 1, games: 1, wins: 1, draws: 0, losses: 0, place: 1 }] },
  });
  assert.equal(t.players, 3);
  assert.equal(t.standings[0]!.place, 1);
  assert.equal(t.results[0]!.outcome, '2-1-3');
  const old = readTournament({ standings: { rows: [{ name: 'a' }] } });
  assert.equal(old.players, 2);
  assert.equal(old.standings[0]!.place, null);
  assert.equal(readTournament({ players: 1.5 }).players, 2);
});
