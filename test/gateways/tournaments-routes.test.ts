import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { roshambo } from '../../src/games/roshambo/roshambo.js';
import { AddressLimits } from '../../src/gateways/address-limits.js';
import { PeerAddresses } from '../../src/gateways/peer-addresses.js';
import { HttpRoutes } from '../../src/gateways/http-routes.js';
import { DEFAULT_LIMITS, type ServerLimits } from '../../src/gateways/server-limits.js';
import { TournamentsApi } from '../../src/gateways/tournaments-api.js';
import { Lobby } from '../../src/lobby/lobby.js';
import { InlineCompute } from '../../src/match/compute.js';
import type { GameDefinition } from '../../src/match/game.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { LobbyMatchHost } from '../../src/tournament/lobby-match-host.js';
import type { MatchHost } from '../../src/tournament/server-tournament.js';
import { TournamentDirectory } from '../../src/tournament/server-tournaments.js';
import { LocalTournaments } from '../../src/tournament/tournament-service.js';
import { ManualClock, systemClock, type Clock } from '../../src/util/clock.js';
import { ok } from '../../src/util/result.js';

const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));
const PASSWORD = 'master-pw';

/** A game like roshambo whose bots are named programs (as an external game's are). */
const namedBots: GameDefinition<any> = { ...roshambo, name: 'named', botChoices: ['rock', 'paper'] };
const noBots: GameDefinition<any> = { ...roshambo, name: 'botless', botChoices: [] };

interface Served {
  readonly base: string;
  readonly store: MemoryHistoryStore;
  readonly directory: TournamentDirectory;
  close(): Promise<void>;
}

/** The tournament routes on a real HTTP server, over `host` (the lobby's by default). */
async function serve(limits: Partial<ServerLimits> = {}, makeHost?: () => MatchHost, clock: Clock = systemClock): Promise<Served> {
  const all: ServerLimits = { ...DEFAULT_LIMITS, ...limits };
  const store = new MemoryHistoryStore();
  const games = [roshambo, namedBots, noBots];
  const lobby = new Lobby({ games, store, compute: new InlineCompute(), verificationPassword: PASSWORD, clock });
  const lobbyHost = new LobbyMatchHost(lobby, store);
  const directory = new TournamentDirectory({
    host: makeHost?.() ?? lobbyHost,
    games: () => games,
    limits: { running: all['tournaments-running'], kept: all['tournaments-kept'], entrants: all['tournament-entrants'], matches: all['tournament-matches'], concurrency: all['tournament-concurrency'] },
    clock,
    changed: (id) => local.changed(id),
    ids: (() => {
      let n = 0;
      return () => `t${n++}`;
    })(),
  });
  const local: LocalTournaments = new LocalTournaments(directory, clock, 2 * all['tournaments-kept'] + all['tournaments-running']);
  const api = new TournamentsApi({ tournaments: local, games: () => games, verificationPassword: PASSWORD, addresses: new AddressLimits(all, clock), peers: PeerAddresses.direct(), limits: all, clock });
  const routes = new HttpRoutes(store, WEB_ROOT, { tournaments: api });
  const http: Server = createServer((request, response) => void routes.handle(request, response).catch(() => response.destroy()));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    store,
    directory,
    async close() {
      await lobby.shutdown();
      lobbyHost.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await routes.close();
    },
  };
}

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    game: 'roshambo',
    password: PASSWORD,
    format: 'round-robin',
    rounds: 1,
    concurrency: 2,
    entrants: [
      { name: 'ann', bot: null },
      { name: 'bob', bot: null },
    ],
    args: { rounds: '3', pace: '0' },
    ...overrides,
  };
}

async function post(base: string, payload: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}/api/tournaments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  return { status: response.status, json: await response.json() };
}

async function stop(base: string, id: string, payload: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}/api/tournaments/${id}/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  return { status: response.status, json: await response.json() };
}

async function get(base: string, path: string): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, json: await response.json() };
}

/** Follows a tournament with long polls until it is over. */
async function untilOver(base: string, id: string): Promise<any> {
  let view = (await get(base, `/api/tournaments/${id}`)).json;
  while (view.state === 'running') view = (await get(base, `/api/tournaments/${id}?after=${view.version}`)).json;
  return view;
}

describe('a server tournament through the HTTP API, on a real lobby', () => {
  let served: Served;
  before(async () => {
    served = await serve();
  });
  after(() => served.close());

  test('POST creates it (201), a long poll follows it to its end, and its matches are ordinary recorded matches', async () => {
    const created = await post(served.base, body({ rounds: 2 }));
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.equal(created.json.id, 't0');
    assert.equal(created.json.total, 4);
    const view = await untilOver(served.base, created.json.id);
    assert.equal(view.state, 'finished');
    assert.equal(view.results.length, 4);
    assert.deepEqual(view.running, []);
    assert.deepEqual(view.results.map((r: any) => r.pairing).sort(), [0, 1, 2, 3]);
    assert.deepEqual(view.results.map((r: any) => r.players.join(' ')).sort(), ['ann bob', 'ann bob', 'bob ann', 'bob ann']);
    assert.deepEqual(view.standings.rows.map((row: any) => row.name).sort(), ['ann', 'bob']);
    assert.equal(view.standings.rows.reduce((sum: number, row: any) => sum + row.games, 0), 8);
    for (const r of view.results) {
      const record = await served.store.get(r.match);
      assert.ok(record, `match ${r.match} is in the history`);
      assert.equal(record.name, `tour t0 #${r.pairing}`);
      // Recorded under the entrants' names in the pairing's seat order, not ServerBot$0/$1.
      assert.deepEqual(record.players, r.players);
      assert.deepEqual(record.scores, r.scores);
    }
    const list = await get(served.base, '/api/tournaments');
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.tournaments.map((t: any) => [t.id, t.state, t.finished, t.total]), [['t0', 'finished', 4, 4]]);
    assert.deepEqual(list.json.games.find((g: any) => g.name === 'named').bots, ['rock', 'paper']);
    assert.equal(list.json.games.find((g: any) => g.name === 'roshambo').bots, null);
    assert.deepEqual(list.json.limits, { running: 4, entrants: 32, matches: 2000, concurrency: 16 });
  });

  test('POST .../stop with the password stops a running tournament now: its running matches end recorded with the reason, its standings stay', async () => {
    // Matches of several seconds: they are still running when the stop comes.
    const created = await post(served.base, body({ entrants: [{ name: 'ann', bot: null }, { name: 'bob', bot: null }, { name: 'cid', bot: null }], args: { rounds: '100', pace: '0.05' } }));
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const id = created.json.id;
    let view = created.json;
    while (view.running.length === 0) view = (await get(served.base, `/api/tournaments/${id}?after=${view.version}`)).json;

    assert.equal((await fetch(`${served.base}/api/tournaments/${id}/stop`)).status, 405);
    const cases: [string, unknown, number, string][] = [
      [id, '{nope', 400, 'tournament/bad-json'],
      [id, { password: PASSWORD, why: 'bored' }, 400, 'tournament/unknown-field'],
      [id, {}, 403, 'tournament/password'],
      ['zzz', { password: PASSWORD }, 404, 'tournament/not-found'],
      [id, { password: 'not-it' }, 403, 'tournament/password'],
    ];
    for (const [which, payload, status, code] of cases) {
      const answer = await stop(served.base, which, payload);
      assert.equal(answer.status, status, `${JSON.stringify(payload)}: ${JSON.stringify(answer.json)}`);
      assert.equal(answer.json.code, code);
      assert.equal(typeof answer.json.error, 'string');
    }
    assert.equal((await get(served.base, `/api/tournaments/${id}`)).json.state, 'running', 'a refused stop changes nothing');

    const stopped = await stop(served.base, id, { password: PASSWORD });
    assert.equal(stopped.status, 200, JSON.stringify(stopped.json));
    assert.equal(stopped.json.state, 'stopped');
    assert.equal(stopped.json.error, 'the tournament was stopped');
    const running: string[] = stopped.json.running.map((r: any) => r.match);
    assert.ok(running.length > 0);
    await served.directory.get(id)!.done;
    const after = (await get(served.base, `/api/tournaments/${id}`)).json;
    assert.equal(after.state, 'stopped');
    assert.deepEqual(after.running, []);
    assert.ok(after.results.length < after.total, 'no match started after the stop');
    for (const match of running) {
      const result = after.results.find((r: any) => r.match === match);
      assert.equal(result?.outcome, '*', `match ${match} counts as unfinished`);
      assert.equal(result.reason, 'the tournament was stopped');
      const record = await served.store.get(match);
      assert.equal(record?.reason, 'the tournament was stopped');
      assert.equal(record.scores, null);
    }
    assert.deepEqual(after.standings.rows.map((row: any) => row.name).sort(), ['ann', 'bob', 'cid']);

    const again = await stop(served.base, id, { password: PASSWORD });
    assert.equal(again.status, 409);
    assert.equal(again.json.code, 'tournament/not-running');
    assert.match(again.json.error, /is stopped already/);
    // The first test's tournament ran to its end.
    const finished = await stop(served.base, 't0', { password: PASSWORD });
    assert.equal(finished.status, 409);
    assert.match(finished.json.error, /tournament t0 is finished already: only a running one can be stopped/);
  });

  test('malformed requests get a 4xx with a stable code and words', async () => {
    const cases: [unknown, number, string][] = [
      ['{not json', 400, 'tournament/bad-json'],
      ['[1,2]', 400, 'tournament/bad-json'],
      [body({ color: 'red' }), 400, 'tournament/unknown-field'],
      [body({ rounds: 0 }), 400, 'tournament/bad-field'],
      [body({ rounds: 1.5 }), 400, 'tournament/bad-field'],
      [body({ concurrency: '2' }), 400, 'tournament/bad-field'],
      [body({ format: 'knockout' }), 400, 'tournament/bad-field'],
      [body({ entrants: [{ name: 'solo', bot: null }] }), 400, 'tournament/bad-field'],
      [body({ entrants: [{ name: 'x', bot: null }, { name: 'x', bot: null }] }), 400, 'tournament/bad-field'],
      [body({ entrants: [{ name: 'Server$', bot: null }, { name: 'x', bot: null }] }), 400, 'tournament/bad-field'],
      [body({ entrants: [{ name: 'a', level: 3 }, { name: 'x' }] }), 400, 'tournament/unknown-field'],
      [body({ timeout: -1 }), 400, 'tournament/bad-field'],
      [body({ game: 'nope' }), 404, 'tournament/no-game'],
      [body({ entrants: [{ name: 'a', bot: 'scissors' }, { name: 'b', bot: null }] }), 400, 'tournament/no-bot'],
      [body({ game: 'named', entrants: [{ name: 'a', bot: 'rock' }, { name: 'b', bot: 'lizard' }] }), 400, 'tournament/no-bot'],
      [body({ game: 'botless' }), 400, 'tournament/no-bot'],
      [body({ args: { rounds: 'many' } }), 400, 'tournament/bad-args'],
    ];
    for (const [payload, status, code] of cases) {
      const answer = await post(served.base, payload);
      assert.equal(answer.status, status, `${JSON.stringify(payload)}: ${JSON.stringify(answer.json)}`);
      assert.equal(answer.json.code, code, JSON.stringify(payload));
      assert.equal(typeof answer.json.error, 'string');
    }
    assert.deepEqual((await get(served.base, '/api/tournaments/zzz')).json.code, 'tournament/not-found');
    assert.equal((await get(served.base, '/api/tournaments/zzz')).status, 404);
    assert.equal((await fetch(`${served.base}/api/tournaments`, { method: 'DELETE' })).status, 405);
  });

  test('named bots of a game take their seats by name', async () => {
    const created = await post(served.base, body({ game: 'named', entrants: [{ name: 'r', bot: 'rock' }, { name: 'p', bot: 'paper' }] }));
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const view = await untilOver(served.base, created.json.id);
    assert.equal(view.results.length, 2);
  });
});

/** A host whose matches never end (not even when aborted): tournaments stay running for as long as a test needs. */
const endless = (): MatchHost => {
  let n = 0;
  return { start: () => ok(`m${n++}`), ended: () => new Promise(() => {}), abort: () => {} };
};

describe('the named limits of server tournaments', () => {
  let served: Served;
  before(async () => {
    served = await serve({ 'tournaments-running': 2, 'tournament-entrants': 3, 'tournament-matches': 12, 'tournament-concurrency': 4, 'tournament-request-bytes': 2048, 'password-free-attempts': 2 }, endless, new ManualClock());
  });
  after(() => served.close());

  const entrants = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `e${i}`, bot: null }));

  test('tournament-entrants, tournament-matches and tournament-concurrency are checked before anything runs', async () => {
    assert.equal((await post(served.base, body({ entrants: entrants(4) }))).json.code, 'tournament/too-many-entrants');
    // 3 entrants, round robin: 6 matches a round; 2 rounds fit 12, 3 do not.
    assert.equal((await post(served.base, body({ entrants: entrants(3), rounds: 3 }))).json.code, 'tournament/too-many-matches');
    assert.equal((await post(served.base, body({ rounds: 9007199254740991 }))).json.code, 'tournament/too-many-matches');
    assert.equal((await post(served.base, body({ concurrency: 5 }))).json.code, 'tournament/too-much-concurrency');
  });

  test('tournaments-running: past it, 429', async () => {
    assert.equal((await post(served.base, body({ entrants: entrants(3), rounds: 2, concurrency: 4 }))).status, 201);
    assert.equal((await post(served.base, body())).status, 201);
    const third = await post(served.base, body());
    assert.equal(third.status, 429);
    assert.equal(third.json.code, 'tournament/too-many-running');
    const list = await get(served.base, '/api/tournaments');
    assert.deepEqual(list.json.tournaments.map((t: any) => [t.state, t.running]), [['running', 2], ['running', 4]]);
  });

  test('tournament-request-bytes: a larger body is refused with 413', async () => {
    const answer = await post(served.base, body({ seed: 'x'.repeat(60), args: { pad: 'y'.repeat(4000) } }));
    assert.equal(answer.status, 413);
    assert.equal(answer.json.code, 'tournament/body-too-large');
  });

  test('a wrong password is refused (403), and after the free attempts the address waits (429)', async () => {
    assert.equal((await post(served.base, body({ password: 'guess1' }))).json.code, 'tournament/password');
    assert.equal((await post(served.base, body({ password: 'guess2' }))).status, 403);
    // The third wrong one in a row starts the back-off (password-free-attempts 2): even the right one waits.
    assert.equal((await post(served.base, body({ password: 'guess3' }))).status, 403);
    const third = await post(served.base, body({ password: PASSWORD }));
    assert.equal(third.status, 429);
    assert.equal(third.json.code, 'tournament/password-backoff');
  });
});
