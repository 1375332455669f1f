import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ServerMetrics } from './metrics.js';
import { REPLAY_LOG_MAX_BYTES } from '../games/external/replay-log.js';
import { ReplayLogImporter } from '../games/external/replay-log-importer.js';
import { normalizeMatchId } from '../lobby/match-id.js';
import { gamesJson, type DescribedGame } from '../games/games-api.js';
import { MAX_RATINGS_LIMIT, type HistoryStore, type MatchSummary, type RecordPart } from '../store/history-store.js';
import { boardCsv, boardJson, parseRatingsPath, pointJson, type RatingsRequest } from './ratings-api.js';
import { WEB_ASSET_TYPES, isWebAsset, securityHeaders } from './http-headers.js';
import { readBodyWithin, type RequestBodies } from './request-body.js';
import type { TournamentsApi } from './tournaments-api.js';
import { parseArenaPath, type ArenaApi, type ArenaRequest } from './arena-api.js';
import type { ConcurrencyGate } from './concurrency-gate.js';
import { RESPONSE_CHUNK_BYTES, ResponseWriter } from './response-writer.js';

export const HTTP_LIMITS = {
  /**
   * Largest body of POST /api/replay-log, in bytes (default 16 MiB, the size a match's own replay
   * log may reach). A larger Content-Length is refused (413) before the body is read.
   */
  replayLogMaxBytes: REPLAY_LOG_MAX_BYTES,
} as const;

export interface HttpRoutesOptions {
  /** Serves /metrics and feeds /health; without it /metrics is 404. */
  readonly metrics?: ServerMetrics;
  /** Writes the responses; pass one to count the bytes waiting for clients. */
  readonly responses?: ResponseWriter;
  /** Imports replay logs off the main thread; one is made when absent. */
  readonly importer?: ReplayLogImporter;
  readonly replayLogMaxBytes?: number;
  /**
   * Reads replay-log bodies within the body deadline, the per-address count and the memory budget;
   * without it a body is read with its size limit alone.
   */
  readonly bodies?: RequestBodies;
  /** The games with their arguments, served at /api/games; without it /api/games is 404. */
  readonly games?: () => readonly DescribedGame[];
  /** The server's tournaments below /api/tournaments; without it those paths are 404. */
  readonly tournaments?: TournamentsApi;
  /** The arena below /api/arena; without it those paths are 404. */
  readonly arena?: ArenaApi;
  /**
   * Bounds the history requests (a record, an artifact, the list, ratings) in flight, their
   * sending included, per address and in all (`history-reads`, `history-reads-per-address`);
   * unbounded without it.
   */
  readonly historyReads?: ConcurrencyGate;
  /** The key of the client's address for the per-address limits (addressKey); the socket's address by default. */
  readonly addressOf?: (request: IncomingMessage) => string;
  /** Bytes of a record's part read from the store at a time (RESPONSE_CHUNK_BYTES by default). */
  readonly sliceBytes?: number;
  /**
   * True while the server drains before it stops (CocoServer.drain): /health answers 503, so that
   * a balancer sends no new client here, while the history goes on answering this node's players.
   */
  readonly draining?: () => boolean;
}

/** The HTTP side of the server: the web page's files, the games and the history as JSON, /health and /metrics. */
export class HttpRoutes {
  private readonly responses: ResponseWriter;
  private readonly importer: ReplayLogImporter;
  private readonly metrics: ServerMetrics | null;
  private readonly replayLogMaxBytes: number;
  private readonly bodies: RequestBodies | null;
  private readonly games: HttpRoutesOptions['games'] | null;
  private readonly tournaments: TournamentsApi | null;
  private readonly arena: ArenaApi | null;
  /** How much of a record's part is read from the store at a time. */
  private readonly sliceBytes: number;
  private readonly historyReads: ConcurrencyGate | null;
  private readonly addressOf: (request: IncomingMessage) => string;
  private readonly draining: () => boolean;

  constructor(
    private readonly store: HistoryStore,
    /** Folder of the built web page (index.html and its assets). */
    private readonly webRoot: string,
    options: HttpRoutesOptions = {},
  ) {
    this.responses = options.responses ?? new ResponseWriter();
    this.importer = options.importer ?? new ReplayLogImporter();
    this.metrics = options.metrics ?? null;
    this.replayLogMaxBytes = options.replayLogMaxBytes ?? HTTP_LIMITS.replayLogMaxBytes;
    this.bodies = options.bodies ?? null;
    this.games = options.games ?? null;
    this.tournaments = options.tournaments ?? null;
    this.arena = options.arena ?? null;
    this.sliceBytes = options.sliceBytes ?? RESPONSE_CHUNK_BYTES;
    this.historyReads = options.historyReads ?? null;
    this.addressOf = options.addressOf ?? ((request) => request.socket.remoteAddress ?? '');
    this.draining = options.draining ?? (() => false);
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(securityHeaders(request.headers.host))) response.setHeader(name, value);
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/api/replay-log') {
      if (request.method !== 'POST') return this.json(response, 405, { error: 'POST a replay log' });
      return this.replayLog(request, response);
    }
    if (this.tournaments && url.pathname.startsWith('/api/tournaments')) {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> =>
        this.send(response, status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers }, JSON.stringify(body));
      if (await this.tournaments.handle(url, request, response, send)) return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return this.json(response, 405, { error: 'only GET is supported' });
    if (url.pathname === '/health') return this.health(response);
    if (url.pathname === '/metrics' && this.metrics) return this.send(response, 200, { 'content-type': this.metrics.contentType, 'cache-control': 'no-store' }, await this.metrics.text());
    if (url.pathname === '/api/games' && this.games) return this.json(response, 200, gamesJson(this.games()));
    if (url.pathname === '/api/history') return this.historyRead(request, response, () => this.historyList(url, response));
    const artifact = /^\/api\/history\/([^/]+)\/artifacts\/([^/]+)$/.exec(url.pathname);
    if (artifact) {
      const [id, name] = [decodePathPart(artifact[1]!), decodePathPart(artifact[2]!)];
      if (id === null || name === null) return this.badEscape(response);
      return this.historyRead(request, response, () => this.artifact(id, name, response));
    }
    if (url.pathname.startsWith('/api/ratings/')) {
      const asked = parseRatingsPath(url.pathname);
      if (asked === 'bad-escape') return this.badEscape(response);
      if (asked) return this.historyRead(request, response, () => this.ratings(asked, limitParam(url), response));
    }
    if (this.arena && url.pathname.startsWith('/api/arena/')) {
      const asked = parseArenaPath(url.pathname);
      if (asked === 'bad-escape') return this.badEscape(response);
      if (asked) return this.historyRead(request, response, () => this.arenaAnswer(this.arena!, asked, limitParam(url), response));
    }
    if (url.pathname.startsWith('/api/history/')) {
      const id = decodePathPart(url.pathname.slice('/api/history/'.length));
      if (id === null) return this.badEscape(response);
      return this.historyRead(request, response, () => this.historyMatch(id, response));
    }
    if (url.pathname === '/' || url.pathname === '/index.html') return this.file('index.html', response);
    if (url.pathname.startsWith('/static/')) return this.file(url.pathname.slice('/static/'.length), response);
    return this.json(response, 404, { error: `no such page: ${url.pathname}` });
  }

  /** Stops the replay-log thread. */
  close(): Promise<void> {
    return this.importer.close();
  }

  private health(response: ServerResponse): Promise<void> {
    const draining = this.draining();
    return this.json(response, draining ? 503 : 200, {
      status: draining ? 'draining' : 'ok',
      uptime_seconds: Math.round(process.uptime()),
      ...(this.metrics && this.metrics.snapshot()),
      replay_imports: this.importer.imports,
      http_responses_in_flight: this.responses.responsesInFlight,
      http_queued_bytes: this.responses.queuedBytes(),
    });
  }

  /**
   * Runs a history request if the gate lets it in (held until its response is sent, or its client
   * gone); past the gate's limits it is answered 503 with retry-after, and nothing is read.
   */
  private async historyRead(request: IncomingMessage, response: ServerResponse, read: () => Promise<void>): Promise<void> {
    if (!this.historyReads) return read();
    const admitted = this.historyReads.tryEnter(this.addressOf(request));
    if (!admitted.ok) {
      this.metrics?.refused(admitted.refusal === 'total' ? 'history_reads_busy' : 'history_reads_per_address');
      response.setHeader('retry-after', '1');
      return this.json(response, 503, {
        error: admitted.refusal === 'total' ? 'the server is answering too many history requests; try again shortly' : 'too many history requests from your address at once; try again when one is done',
      });
    }
    try {
      await read();
    } finally {
      admitted.release();
    }
  }

  private async historyList(url: URL, response: ServerResponse): Promise<void> {
    const number = (key: string): number | undefined => {
      const raw = url.searchParams.get(key);
      return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
    };
    const game = url.searchParams.get('game') || undefined;
    const player = url.searchParams.get('player') || undefined;
    const limit = number('limit');
    const before = number('before');
    const matches = await this.store.list({
      ...(game !== undefined && { game }),
      ...(player !== undefined && { player }),
      ...(limit !== undefined && { limit }),
      ...(before !== undefined && { before }),
    });
    return this.json(response, 200, { matches: matches.map(summaryJson) });
  }

  /**
   * A game's leaderboard (JSON, or CSV for export) or one player's rating history with their
   * matches. `limit` bounds every list (the store caps it at MAX_RATINGS_LIMIT and
   * MAX_HISTORY_LIMIT); the CSV export takes the most rows by default, the others 100.
   */
  private async ratings(asked: RatingsRequest, limit: number | undefined, response: ServerResponse): Promise<void> {
    const { game } = asked;
    if (this.games && !this.games().some((known) => known.name === game)) return this.json(response, 404, { error: `no game "${game}"` });
    if (asked.kind === 'board') return this.json(response, 200, { game, ratings: boardJson(await this.store.ratings(game, limit === undefined ? {} : { limit })) });
    if (asked.kind === 'csv') {
      const board = await this.store.ratings(game, { limit: limit ?? MAX_RATINGS_LIMIT });
      const filename = `${game}-ratings.csv`.replace(/[^\w.-]/g, '_');
      return this.send(response, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"` }, boardCsv(board));
    }
    const query = limit === undefined ? {} : { limit };
    const [history, matches] = await Promise.all([this.store.ratingHistory(game, asked.player, query), this.store.list({ game, player: asked.player, ...query })]);
    return this.json(response, 200, { game, player: asked.player, history: history.map(pointJson), matches: matches.map(summaryJson) });
  }

  /** An arena path (arena-api.ts); read through the history gate, since it reads the store. */
  private async arenaAnswer(arena: ArenaApi, asked: ArenaRequest, limit: number | undefined, response: ServerResponse): Promise<void> {
    const answer = await arena.answer(asked, limit);
    if ('csv' in answer) return this.send(response, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${answer.filename}"` }, answer.csv);
    return this.send(response, answer.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, JSON.stringify(answer.json));
  }

  /**
   * A finished match as one JSON object: its summary, its spectator stream as text, its
   * artifacts' names and its visualizer events (stored as JSON text, sent as they are). Sent a
   * piece at a time, each part read from the store a slice at a time as the client takes the last
   * (chunked: the stream's length as JSON text is known only once it is read).
   */
  private async historyMatch(id: string, response: ServerResponse): Promise<void> {
    const normal = normalizeMatchId(id);
    const outline = normal.ok ? await this.store.outline(normal.value) : null;
    if (!outline) return this.json(response, 404, { error: `no finished match "${id}"` });
    const matchId = outline.id;
    // `{...,"spectator_stream":""}` less its last two characters: the stream's text goes between the quotes.
    const head = JSON.stringify({ ...summaryJson(outline), spectator_stream: '' }).slice(0, -2);
    const middle = `","artifacts":${JSON.stringify(outline.artifacts.map((artifact) => artifact.name))},"vis":`;
    const slices = (part: RecordPart, bytes: number): AsyncIterable<Buffer> => this.slices(matchId, part, bytes);
    await this.responses.stream(response, 200, { 'content-type': 'application/json; charset=utf-8' }, {
      async *pieces() {
        yield Buffer.from(head);
        for await (const text of asText(slices({ kind: 'stream' }, outline.streamBytes))) yield Buffer.from(JSON.stringify(text).slice(1, -1));
        yield Buffer.from(middle);
        // Decoded and encoded again, as the whole text was: bytes that are not UTF-8 go out as U+FFFD.
        for await (const text of asText(slices({ kind: 'vis' }, outline.visBytes))) yield Buffer.from(text);
        yield Buffer.from('}');
      },
    });
  }

  private async artifact(id: string, name: string, response: ServerResponse): Promise<void> {
    const normal = normalizeMatchId(id);
    const outline = normal.ok ? await this.store.outline(normal.value) : null;
    const found = outline?.artifacts.find((artifact) => artifact.name === name);
    if (!outline || !found) return this.json(response, 404, { error: `no "${name}" for match "${id}"` });
    const filename = `${outline.id}-${name}`.replace(/[^\w.-]/g, '_');
    const slices = (): AsyncIterable<Buffer> => this.slices(outline.id, { kind: 'artifact', name }, found.bytes);
    // Shown in the browser as text (nosniff keeps it text), with a name for "save as".
    await this.responses.stream(response, 200, { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `inline; filename="${filename}"` }, { bytes: found.bytes, pieces: slices });
  }

  /**
   * A part's `bytes` bytes, read from the store a slice at a time, each only when asked for (when
   * the client has taken the last). A part that is gone or shorter than its outline said (the match
   * was removed meanwhile) is an error: the response is cut rather than sent short.
   */
  private async *slices(matchId: string, part: RecordPart, bytes: number): AsyncIterable<Buffer> {
    for (let offset = 0; offset < bytes; ) {
      const slice = await this.store.readPart(matchId, part, { offset, length: Math.min(this.sliceBytes, bytes - offset) });
      if (!slice || slice.length === 0) throw new Error(`match ${matchId}: its ${part.kind} ended at byte ${offset} of ${bytes} (removed while being sent)`);
      offset += slice.length;
      yield slice;
    }
  }

  /**
   * Turns a replay log of the reference format into visualizer events, to show it on the page.
   * The body is read first, within its deadline and budget (RequestBodies); only a body that has
   * arrived whole takes one of the few import places, so that slow senders hold no place. The
   * parsing runs on the importer's worker thread.
   */
  private async replayLog(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await (this.bodies?.read(request, this.replayLogMaxBytes) ?? readBodyWithin(request, this.replayLogMaxBytes));
    if (!body.ok) {
      switch (body.reason) {
        case 'aborted':
          return;
        case 'too-large':
          this.metrics?.refused('replay_log_too_large');
          return this.refuseUnread(response, 413, `a replay log may be at most ${this.replayLogMaxBytes} bytes`);
        case 'too-slow':
          this.metrics?.refused('request_body_seconds');
          return this.refuseUnread(response, 408, 'the replay log did not arrive in time (limit request-body-seconds)');
        case 'too-many':
          this.metrics?.refused('request_bodies_per_address');
          return this.refuseUnread(response, 429, 'your address is sending too many request bodies at once (limit request-bodies-per-address)');
      }
    }
    const ticket = this.importer.tryAdmit();
    if (!ticket) {
      this.metrics?.refused('replay_import_busy');
      return this.json(response, 503, { error: 'too many replay logs are being imported; try again shortly' });
    }
    try {
      let result;
      try {
        result = await ticket.run(body.body);
      } catch {
        // The import thread died: the log asked for more memory than its heap limit.
        this.metrics?.refused('replay_log_too_large');
        return this.json(response, 413, { error: 'this replay log needs more memory to import than the server allows' });
      }
      if (!result.ok) return this.json(response, 400, { error: result.error });
      await this.send(response, 200, { 'content-type': 'application/json; charset=utf-8' }, result.value);
    } finally {
      ticket.release();
    }
  }

  private async file(relative: string, response: ServerResponse): Promise<void> {
    const path = normalize(join(this.webRoot, relative));
    const inside = path.startsWith(this.webRoot + sep);
    if (!inside || !isWebAsset(path.slice(this.webRoot.length + 1).split(sep).join('/'))) return this.json(response, 404, { error: `not found: ${relative}` });
    let body: Buffer;
    try {
      body = await readFile(path);
    } catch {
      return this.json(response, 404, { error: `not found: ${relative}` });
    }
    return this.send(response, 200, { 'content-type': WEB_ASSET_TYPES[extname(path)]!, 'cache-control': 'no-cache' }, body);
  }

  /** An answer to a request whose body is left unread: the connection closes after it. */
  private refuseUnread(response: ServerResponse, status: number, error: string): Promise<void> {
    response.setHeader('connection', 'close');
    return this.json(response, status, { error });
  }

  private badEscape(response: ServerResponse): Promise<void> {
    return this.json(response, 400, { error: 'malformed % escape in the path' });
  }

  private json(response: ServerResponse, status: number, body: unknown): Promise<void> {
    return this.jsonText(response, status, JSON.stringify(body));
  }

  private jsonText(response: ServerResponse, status: number, text: string): Promise<void> {
    return this.send(response, status, { 'content-type': 'application/json; charset=utf-8' }, text);
  }

  private async send(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer | string): Promise<void> {
    await this.responses.send(response, status, headers, body);
  }
}

/**
 * UTF-8 bytes as text, a piece for each piece of bytes: a character cut between two pieces is
 * decoded whole with the next, so the pieces' texts join to the text of the whole.
 */
export async function* asText(pieces: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  for await (const piece of pieces) {
    const text = decoder.write(piece);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** The `limit` query parameter when it is a whole number. */
function limitParam(url: URL): number | undefined {
  const raw = url.searchParams.get('limit');
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** A percent-decoded path segment, or null when its escapes are malformed (`%zz`, a lone `%`, bad UTF-8). */
function decodePathPart(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function summaryJson(match: MatchSummary): Record<string, unknown> {
  return {
    id: match.id,
    game: match.game,
    name: match.name,
    args: match.args,
    players: match.players,
    bots: match.bots,
    scores: match.scores,
    reason: match.reason,
    error: match.error,
    verified: match.verified,
    started_at: match.startedAt,
    ended_at: match.endedAt,
  };
}
