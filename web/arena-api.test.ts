import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arenaRatingPoints, readArena, readArenaPlayer } from './arena-api.js';

test('arena body: queue, live games, leaderboard and games are read; malformed entries are left out', () => {
  const arena = readArena({
    game: 'roshambo',
    players: 2,
    args: { rounds: '10', bad: 3 },
    queue: [{ name: 'amy', rating: 1.5, waiting_since: 5, playing: 0, concurrency: 1, held_until: null, anchor: false }, { rating: 2 }],
    live: [{ id: 'm1', players: ['a', 'b'], rating: 4, started_at: 1 }, { players: [] }],
    leaderboard: [{ rank: 1, player: 'a', rating: 3, mu: 30, sigma: 9, games: 2, wins: 2, draws: 0, losses: 0, last_seen: 9 }],
    games: [{ match_id: 'm0', ended_at: 9, players: ['a', 'b'], scores: [1, 0], ratings: [3, -3] }],
  });
  assert.deepEqual(arena.args, { rounds: '10' });
  assert.deepEqual(arena.queue.map((q) => [q.name, q.heldUntil]), [['amy', null]]);
  assert.deepEqual(arena.live.map((l) => l.id), ['m1']);
  assert.equal(arena.leaderboard[0]!.losses, 0);
  assert.deepEqual(arena.games[0]!.scores, [1, 0]);
});

test('arena player: the rating chart has one point per game, oldest first, at the player\'s seat', () => {
  const { rating, games } = readArenaPlayer({
    rating: null,
    games: [
      { match_id: 'new', ended_at: 20, players: ['b', 'a'], scores: [0, 1], ratings: [-1, 5] },
      { match_id: 'old', ended_at: 10, players: ['a', 'b'], scores: [1, 0], ratings: [2, -2] },
    ],
  });
  assert.equal(rating, null);
  assert.deepEqual(arenaRatingPoints('a', games).map((p) => [p.matchId, p.rating]), [['old', 2], ['new', 5]]);
});
