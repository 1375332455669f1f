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
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GameDefinition } from '../match/game.js';
import type { TournamentDirectory } from '../tournament/server-tournaments.js';
import type { TournamentView } from '../tournament/server-tournament.js';
import { parseStopRequest, parseTournamentRequest, type TournamentRefusal } from '../tournament/tournament-request.js';
import type { Clock } from '../util/clock.js';
import { addressKey, type AddressLimits } from './address-limits.js';
import type { PeerAddresses } from './peer-addresses.js';
import { readBodyWithin, type RequestBodies } from './request-body.js';
import type { ServerLimits } from './server-limits.js';

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
};

export interface TournamentsApiOptions {
  readonly directory: TournamentDirectory;
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
  /** Each tournament's change count, and the long polls waiting for the next change. */
  private readonly versions = new Map<string, number>();
  private readonly polls = new Map<string, Set<() => void>>();

  constructor(private readonly options: TournamentsApiOptions) {
    this.digest = sha256(options.verificationPassword);
  }

  /** Tell this after each change of tournament `id` (TournamentDirectory's `changed`). */
  changed(id: string): void {
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
    // Forgotten tournaments' counts go too, now and then (the directory keeps a bounded number).
    if (this.versions.size > 2 * this.options.limits['tournaments-kept'] + this.options.limits['tournaments-running']) {
      for (const known of this.versions.keys()) if (known !== id && !this.options.directory.get(known)) this.versions.delete(known);
    }
    const waiting = this.polls.get(id);
    this.polls.delete(id);
    for (const wake of waiting ?? []) wake();
  }

  /** Handles a request below /api/tournaments; false when the path is not one of ours. */
  async handle(url: URL, request: IncomingMessage, response: ServerResponse, send: Send): Promise<boolean> {
    if (url.pathname === '/api/tournaments') {
      if (request.method === 'POST') await this.create(request, response, send);
      else if (request.method === 'GET' || request.method === 'HEAD') await send(200, this.listJson());
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
    if (after !== null && /^\d+$/.test(after) && this.options.directory.get(id)) await this.nextChange(id, Number(after), response);
    const tournament = this.options.directory.get(id);
    if (!tournament) await send(404, { code: 'tournament/not-found', error: `no tournament "${id}"` });
    else await send(200, this.viewJson(tournament.view()));
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
    const created = this.options.directory.create(parsed.value.spec);
    if (!created.ok) return refuse(created.error);
    return send(201, this.viewJson(created.value.view()));
  }

  private async stop(id: string, request: IncomingMessage, response: ServerResponse, send: Send): Promise<void> {
    const refuse = (refusal: TournamentRefusal, headers?: Record<string, string>): Promise<void> => send(STATUS[refusal.code], refusal, headers);
    const text = await this.body(request, response, send);
    if (text === null) return;
    const parsed = parseStopRequest(text);
    if (!parsed.ok) return refuse(parsed.error);
    // The list is public: saying that an id is unknown before the password tells nobody anything.
    if (!this.options.directory.get(id)) return refuse({ code: 'tournament/not-found', error: `no tournament "${id}"` });
    const denied = this.checkPassword(request, parsed.value.password, 'stopping');
    if (denied) return refuse(denied.refusal, denied.headers);
    const stopped = this.options.directory.stop(id);
    if (!stopped.ok) return refuse(stopped.error);
    return send(200, this.viewJson(stopped.value.view()));
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

  /** Null when `password` is the verification password; else the refusal (a wrong one counts towards the address's back-off). */
  private checkPassword(request: IncomingMessage, password: string, doing: string): { refusal: TournamentRefusal; headers?: Record<string, string> } | null {
    const address = addressKey(this.options.peers.ofRequest(request).address);
    const { addresses } = this.options;
    const wait = addresses.passwordWait(address);
    if (wait > 0) return { refusal: { code: 'tournament/password-backoff', error: `too many wrong passwords from your address: try again in ${wait} s` }, headers: { 'retry-after': String(wait) } };
    if (!timingSafeEqual(sha256(password), this.digest)) {
      addresses.passwordFailed(address);
      return { refusal: { code: 'tournament/password', error: `wrong verification password: ${doing} a tournament needs the server's (cocod --verification-password)` } };
    }
    addresses.passwordSucceeded(address);
    return null;
  }

  /**
   * Resolves at the next change of `id` after version `after`, or after TOURNAMENT_POLL_SECONDS,
   * or when the client leaves; at once when nothing will change any more: the tournament is over
   * and no match of it runs (a stopped one's matches take a moment to end).
   */
  private nextChange(id: string, after: number, response: ServerResponse): Promise<void> {
    const tournament = this.options.directory.get(id);
    const settled = !tournament || (tournament.current !== 'running' && tournament.view().running.length === 0);
    if ((this.versions.get(id) ?? 0) > after || settled) return Promise.resolve();
    return new Promise((resolve) => {
      const waiting = this.polls.get(id) ?? new Set();
      this.polls.set(id, waiting);
      const done = (): void => {
        cancel();
        waiting.delete(done);
        response.off('close', done);
        resolve();
      };
      const cancel = this.options.clock.setTimer(TOURNAMENT_POLL_SECONDS * 1000, done, { weak: true });
      waiting.add(done);
      response.once('close', done);
    });
  }

  private listJson(): unknown {
    const { limits } = this.options;
    return {
      tournaments: this.options.directory.list().map((t) => ({ id: t.id, game: t.game, format: t.format, state: t.state, entrants: t.entrants, total: t.total, finished: t.finished, running: t.running, created_at: t.createdAt })),
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

  private viewJson(view: TournamentView): unknown {
    return {
      id: view.id,
      version: this.versions.get(view.id) ?? 0,
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

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
