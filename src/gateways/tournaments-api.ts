/**
 * The HTTP API of the server's tournaments (the coco WebSocket protocol stays as it is):
 *   GET  /api/tournaments            the list (newest first), each game's bots, the limits
 *   POST /api/tournaments            create one (JSON, see tournament-request.ts): 201 and its view
 *   GET  /api/tournaments/ID         standings, running and finished matches
 *   GET  /api/tournaments/ID?after=V the same once its `version` is past V (long poll, at most
 *                                    TOURNAMENT_POLL_SECONDS), to follow it live
 *   POST /api/tournaments/ID/stop    stop a running one now ({"password": ...}): 200 and its view
 * Creation needs the server's verification password: a tournament keeps the server's own cores
 * busy with bots and no player behind it, which a GameNew cannot (it leaves a seat to a player).
 * Stopping one needs it too: whoever may start tournaments may stop them, nobody else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GameDefinition } from '../match/game.js';
import type { FollowedTournament, TournamentService } from '../tournament/tournament-service.js';
import { parseStopRequest, parseTournamentRequest, type TournamentRefusal } from '../tournament/tournament-request.js';
import type { Clock } from '../util/clock.js';
import { addressKey, type AddressLimits } from './address-limits.js';
import type { PeerAddresses } from './peer-addresses.js';
import { readBodyWithin, type RequestBodies } from './request-body.js';
import type { ServerLimits } from './server-limits.js';
import { secretDigest, secretEquals } from '../util/secret.js';
import { err } from '../util/result.js';

/** Longest a long poll waits for a change before answering with the tournament as it is. */
export const TOURNAMENT_POLL_SECONDS = 25;

/** The HTTP status of each refusal. */
const STATUS: Readonly<Record<TournamentRefusal['code'], number>> = {
  'tournament/bad-json': 400,
  'tournament/bad-field': 400,
  'tournament/unknown-field': 400,
  'tournament/no-game': 404,
  'tournament/no-bot': 400,
  'tournament/bad-args': 400,
  'tournament/too-many-entrants': 400,
  'tournament/too-many-matches': 400,
  'tournament/too-much-concurrency': 400,
  'tournament/too-many-running': 429,
  'tournament/password': 403,
  'tournament/password-backoff': 429,
  'tournament/body-too-large': 413,
  'tournament/body-too-slow': 408,
  'tournament/body-too-many': 429,
  'tournament/not-found': 404,
  'tournament/not-running': 409,
  'tournament/unavailable': 503,
};

export interface TournamentsApiOptions {
  /** The server's tournaments: its own (LocalTournaments), or a cluster's (SharedTournaments). */
  readonly tournaments: TournamentService;
  readonly games: () => readonly GameDefinition<any>[];
  readonly verificationPassword: string;
  readonly addresses: AddressLimits;
  /** The client of a request (behind a trusted proxy, the one it names): password back-off counts by it. */
  readonly peers: PeerAddresses;
  readonly limits: ServerLimits;
  readonly clock: Clock;
  /** Reads request bodies within the body deadline, the per-address count and the memory budget (shared with the replay import); without it, with the size limit alone. */
  readonly bodies?: RequestBodies;
}

type Send = (status: number, body: unknown, headers?: Record<string, string>) => Promise<void>;

export class TournamentsApi {
  private readonly digest: Buffer;

  constructor(private readonly options: TournamentsApiOptions) {
    this.digest = secretDigest(options.verificationPassword);
  }

  /** Handles a request below /api/tournaments; false when the path is not one of ours. */
  async handle(url: URL, request: IncomingMessage, response: ServerResponse, send: Send): Promise<boolean> {
    if (url.pathname === '/api/tournaments') {
      if (request.method === 'POST') await this.create(request, response, send);
      else if (request.method === 'GET' || request.method === 'HEAD') await this.listJson().then((list) => send(200, list), (error: unknown) => this.unavailable(error, send));
      else await send(405, { error: 'GET the tournaments or POST one' });
      return true;
    }
    const stop = /^\/api\/tournaments\/([0-9a-z]{1,32})\/stop$/.exec(url.pathname);
    if (stop) {
      if (request.method === 'POST') await this.stop(stop[1]!, request, response, send);
      else await send(405, { error: 'POST {"password": ...} to stop the tournament' });
      return true;
    }
    const one = /^\/api\/tournaments\/([0-9a-z]{1,32})$/.exec(url.pathname);
    if (!one) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      await send(405, { error: 'only GET is supported' });
      return true;
    }
    const id = one[1]!;
    const after = url.searchParams.get('after');
    try {
      if (after !== null && /^\d+$/.test(after)) await this.nextChange(id, Number(after), response);
      const tournament = await this.options.tournaments.find(id);
      if (!tournament) await send(404, { code: 'tournament/not-found', error: `no tournament "${id}"` });
      else await send(200, this.viewJson(tournament));
    } catch (error) {
      await this.unavailable(error, send);
    }
    return true;
  }

  private async create(request: IncomingMessage, response: ServerResponse, send: Send): Promise<void> {
    const refuse = (refusal: TournamentRefusal, headers?: Record<string, string>): Promise<void> => send(STATUS[refusal.code], refusal, headers);
    const text = await this.body(request, response, send);
    if (text === null) return;
    const parsed = parseTournamentRequest(text);
    if (!parsed.ok) return refuse(parsed.error);
    const denied = this.checkPassword(request, parsed.value.password, 'creating');
    if (denied) return refuse(denied.refusal, denied.headers);
    const created = await this.options.tournaments.create(parsed.value.spec).catch((error: unknown) => err(unavailableRefusal(error)));
    if (!created.ok) return refuse(created.error);
    return send(201, this.viewJson(created.value));
  }

  private async stop(id: string, request: IncomingMessage, response: ServerResponse, send: Send): Promise<void> {
    const refuse = (refusal: TournamentRefusal, headers?: Record<string, string>): Promise<void> => send(STATUS[refusal.code], refusal, headers);
    const text = await this.body(request, response, send);
    if (text === null) return;
    const parsed = parseStopRequest(text);
    if (!parsed.ok) return refuse(parsed.error);
    // The list is public: saying that an id is unknown before the password tells nobody anything.
    const known = await this.options.tournaments.find(id).catch((error: unknown) => unavailableRefusal(error));
    if (known !== null && 'code' in known) return refuse(known);
    if (!known) return refuse({ code: 'tournament/not-found', error: `no tournament "${id}"` });
    const denied = this.checkPassword(request, parsed.value.password, 'stopping');
    if (denied) return refuse(denied.refusal, denied.headers);
    const stopped = await this.options.tournaments.stop(id).catch((error: unknown) => err(unavailableRefusal(error)));
    if (!stopped.ok) return refuse(stopped.error);
    return send(200, this.viewJson(stopped.value));
  }

  /** The request's body as text within tournament-request-bytes, or null once refused (or the client left). */
  private async body(request: IncomingMessage, response: ServerResponse, send: Send): Promise<string | null> {
    const maxBytes = this.options.limits['tournament-request-bytes'];
    const body = await (this.options.bodies?.read(request, maxBytes) ?? readBodyWithin(request, maxBytes));
    if (body.ok) return body.body.toString('utf8');
    if (body.reason === 'aborted') return null;
    // The rest of the body is left unread: the connection closes after the answer.
    response.setHeader('connection', 'close');
    const refusal: TournamentRefusal =
      body.reason === 'too-large' ? { code: 'tournament/body-too-large', error: `a tournament request may be at most ${maxBytes} bytes (limit tournament-request-bytes)` }
      : body.reason === 'too-slow' ? { code: 'tournament/body-too-slow', error: `the request body did not arrive within ${this.options.limits['request-body-seconds']} s (limit request-body-seconds)` }
      : { code: 'tournament/body-too-many', error: 'your address is sending too many request bodies at once (limit request-bodies-per-address)' };
    await send(STATUS[refusal.code], refusal);
    return null;
  }

  /**
   * Null when `password` is the verification password; else the refusal. A wrong one counts towards
   * the address's back-off on the master password: the same secret as GameNew's verification, so
   * the two doors share one count.
   */
  private checkPassword(request: IncomingMessage, password: string, doing: string): { refusal: TournamentRefusal; headers?: Record<string, string> } | null {
    const address = addressKey(this.options.peers.ofRequest(request).address);
    const { addresses } = this.options;
    const wait = addresses.passwordWait(address, 'master');
    if (wait > 0) return { refusal: { code: 'tournament/password-backoff', error: `too many wrong passwords from your address: try again in ${wait} s` }, headers: { 'retry-after': String(wait) } };
    if (!secretEquals(password, this.digest)) {
      addresses.passwordFailed(address, 'master');
      return { refusal: { code: 'tournament/password', error: `wrong verification password: ${doing} a tournament needs the server's (cocod --verification-password)` } };
    }
    addresses.passwordSucceeded(address, 'master');
    return null;
  }

  /** Resolves at the next change of `id` after version `after`, within TOURNAMENT_POLL_SECONDS, or when the client leaves. */
  private nextChange(id: string, after: number, response: ServerResponse): Promise<void> {
    const gone = new AbortController();
    const leave = (): void => gone.abort();
    response.once('close', leave);
    return this.options.tournaments.nextChange(id, after, TOURNAMENT_POLL_SECONDS * 1000, gone.signal).finally(() => response.off('close', leave));
  }

  /** The store of a cluster's tournaments failed (a database outage): said, not a crash. */
  private unavailable(error: unknown, send: Send): Promise<void> {
    const refusal = unavailableRefusal(error);
    return send(STATUS[refusal.code], refusal);
  }

  private async listJson(): Promise<unknown> {
    const { limits } = this.options;
    const tournaments = await this.options.tournaments.list();
    return {
      tournaments: tournaments.map((t) => ({ id: t.id, game: t.game, format: t.format, state: t.state, entrants: t.entrants, total: t.total, finished: t.finished, running: t.running, created_at: t.createdAt })),
      // What the form offers: each game's named bots, or null where the game has its one bot.
      games: this.options.games().map((g) => ({ name: g.name, bots: g.botChoices ?? null })),
      limits: {
        running: limits['tournaments-running'],
        entrants: limits['tournament-entrants'],
        matches: limits['tournament-matches'],
        concurrency: limits['tournament-concurrency'],
      },
    };
  }

  private viewJson({ view, version }: FollowedTournament): unknown {
    return {
      id: view.id,
      version,
      game: view.game,
      format: view.format,
      rounds: view.rounds,
      concurrency: view.concurrency,
      entrants: view.entrants,
      args: view.args,
      timeout: view.timeout,
      players: view.players,
      state: view.state,
      error: view.error,
      created_at: view.createdAt,
      ended_at: view.endedAt,
      total: view.total,
      running: view.running,
      results: view.results,
      standings: {
        games: view.standings.games,
        draws: view.standings.draws,
        regularized: view.standings.ratings.regularized,
        // Infinity (no games yet) is not JSON: null stands for it.
        rows: view.standings.rows.map((row) => ({ ...row, error95: Number.isFinite(row.error95) ? row.error95 : null })),
      },
    };
  }
}

function unavailableRefusal(error: unknown): TournamentRefusal {
  return { code: 'tournament/unavailable', error: `the tournaments cannot be reached now: ${error instanceof Error ? error.message : String(error)}` };
}
