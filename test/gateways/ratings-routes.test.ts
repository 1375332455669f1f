import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HttpRoutes } from '../../src/gateways/http-routes.js';
import { boardCsv, csvText, parseRatingsPath } from '../../src/gateways/ratings-api.js';
import type { MatchRecord } from '../../src/store/history-store.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';

const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));

function verified(id: string, players: string[], scores: number[], endedAt: number): MatchRecord {
  return {
    id,
    game: 'roshambo',
    name: `match ${id}`,
    args: {},
    players,
    bots: 0,
    scores,
    reason: 'done',
    error: null,
    seed: 's',
    verified: true,
    startedAt: endedAt - 1000,
    endedAt,
    spectatorStream: Buffer.from(''),
    visJson: '[]',
    artifacts: {},
  };
}

test('ratings paths: the board, its CSV export and a player, percent-decoded; anything else is not one', () => {
  assert.deepEqual(parseRatingsPath('/api/ratings/roshambo'), { kind: 'board', game: 'roshambo' });
  assert.deepEqual(parseRatingsPath('/api/ratings/roshambo.csv'), { kind: 'csv', game: 'roshambo' });
  assert.deepEqual(parseRatingsPath('/api/ratings/roshambo/a%2Fb'), { kind: 'player', game: 'roshambo', player: 'a/b' });
  assert.equal(parseRatingsPath('/api/ratings/roshambo/%zz'), 'bad-escape');
  assert.equal(parseRatingsPath('/api/ratings/a/b/c'), null);
});

test('CSV fields are quoted when they must be, and a leading formula character is defused', () => {
  assert.equal(csvText('alice'), 'alice');
  assert.equal(csvText('a,"b"'), '"a,""b"""');
  assert.equal(csvText('=1+1'), "'=1+1");
  assert.equal(boardCsv([]), 'rank,player,rating,mu,sigma,games\r\n');
});

describe('the ratings API', () => {
  const store = new MemoryHistoryStore();
  const routes = new HttpRoutes(store, WEB_ROOT, { games: () => [{ name: 'roshambo', args: {} }] });
  const http: Server = createServer((request, response) => {
    routes.handle(request, response).catch(() => response.destroy());
  });
  let base = '';

  before(async () => {
    await store.record(verified('m1', ['alice', 'bob'], [3, 1], 1000));
    await store.record(verified('m2', ['carol', 'alice'], [0, 2], 2000));
    await store.record({ ...verified('m3', ['alice', 'bob'], [0, 9], 3000), verified: false });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await routes.close();
  });

  test('GET /api/ratings/GAME is the leaderboard as JSON, best first, ranked from 1, cut to ?limit', async () => {
    const response = await fetch(`${base}/api/ratings/roshambo`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { game: string; ratings: { rank: number; player: string; rating: number; mu: number; sigma: number; games: number }[] };
    assert.equal(body.game, 'roshambo');
    // carol lost to an alice already rated above a newcomer, which costs less than bob's loss to a newcomer.
    assert.deepEqual(body.ratings.map((r) => [r.rank, r.player, r.games]), [[1, 'alice', 2], [2, 'carol', 1], [3, 'bob', 1]]);
    assert.ok(Math.abs(body.ratings[0]!.rating - (body.ratings[0]!.mu - 3 * body.ratings[0]!.sigma)) < 1e-9);
    const cut = (await (await fetch(`${base}/api/ratings/roshambo?limit=1`)).json()) as { ratings: unknown[] };
    assert.equal(cut.ratings.length, 1);
  });

  test('GET /api/ratings/GAME.csv is the same board as a CSV attachment', async () => {
    const response = await fetch(`${base}/api/ratings/roshambo.csv`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="roshambo-ratings.csv"');
    const lines = (await response.text()).split('\r\n');
    assert.equal(lines[0], 'rank,player,rating,mu,sigma,games');
    assert.deepEqual(lines.slice(1, 4).map((line) => line.split(',').slice(0, 2)), [['1', 'alice'], ['2', 'carol'], ['3', 'bob']]);
    assert.equal(lines[4], '');
    assert.equal((await (await fetch(`${base}/api/ratings/roshambo.csv?limit=2`)).text()).split('\r\n').length, 4);
  });

  test('GET /api/ratings/GAME/PLAYER is their rating after each rated match, oldest first, and their matches, newest first', async () => {
    const response = await fetch(`${base}/api/ratings/roshambo/alice`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { player: string; history: { match_id: string; ended_at: number; rating: number }[]; matches: { id: string; verified: boolean }[] };
    assert.equal(body.player, 'alice');
    assert.deepEqual(body.history.map((p) => [p.match_id, p.ended_at]), [['m1', 1000], ['m2', 2000]]);
    assert.deepEqual(body.matches.map((m) => m.id), ['m3', 'm2', 'm1']);
    const cut = (await (await fetch(`${base}/api/ratings/roshambo/alice?limit=1`)).json()) as typeof body;
    assert.deepEqual([cut.history.map((p) => p.match_id), cut.matches.map((m) => m.id)], [['m2'], ['m3']]);
    const nobody = (await (await fetch(`${base}/api/ratings/roshambo/nobody`)).json()) as typeof body;
    assert.deepEqual([nobody.history, nobody.matches], [[], []]);
  });

  test('an unknown game is 404 and a malformed escape 400, as JSON', async () => {
    for (const [path, status] of [['/api/ratings/nope', 404], ['/api/ratings/nope.csv', 404], ['/api/ratings/roshambo/%zz', 400]] as const) {
      const response = await fetch(base + path);
      assert.equal(response.status, status, path);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      await response.arrayBuffer();
    }
  });
});
