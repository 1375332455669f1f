import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { REPLAY_LOG_MAX_BYTES, importReplayLog } from '../games/external/replay-log.js';
import { normalizeMatchId } from '../lobby/match-id.js';
import type { HistoryStore, MatchSummary } from '../store/history-store.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};

/** The HTTP side of the server: the web page's files and the history as JSON. */
export class HttpRoutes {
  constructor(
    private readonly store: HistoryStore,
    /** Folder of the built web page (index.html and its assets). */
    private readonly webRoot: string,
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/api/replay-log') {
      if (request.method !== 'POST') return sendJson(response, 405, { error: 'POST a replay log' });
      return this.replayLog(request, response);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: 'only GET is supported' });
    if (url.pathname === '/api/history') return this.historyList(url, response);
    const artifact = /^\/api\/history\/([^/]+)\/artifacts\/([^/]+)$/.exec(url.pathname);
    if (artifact) return this.artifact(decodeURIComponent(artifact[1]!), decodeURIComponent(artifact[2]!), response);
    if (url.pathname.startsWith('/api/history/')) return this.historyMatch(decodeURIComponent(url.pathname.slice('/api/history/'.length)), response);
    if (url.pathname === '/' || url.pathname === '/index.html') return this.file('index.html', response);
    if (url.pathname.startsWith('/static/')) return this.file(url.pathname.slice('/static/'.length), response);
    return sendJson(response, 404, { error: `no such page: ${url.pathname}` });
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
    sendJson(response, 200, { matches: matches.map(summaryJson) });
  }

  private async historyMatch(id: string, response: ServerResponse): Promise<void> {
    const normal = normalizeMatchId(id);
    const record = normal.ok ? await this.store.get(normal.value) : null;
    if (!record) return sendJson(response, 404, { error: `no finished match "${id}"` });
    const fields = JSON.stringify({
      ...summaryJson(record),
      spectator_stream: record.spectatorStream.toString('utf8'),
      artifacts: Object.keys(record.artifacts),
    });
    // The events are stored as JSON text; they go out as they are, not parsed and written again.
    sendJsonText(response, 200, `${fields.slice(0, -1)},"vis":${record.visJson}}`);
  }

  private async artifact(id: string, name: string, response: ServerResponse): Promise<void> {
    const normal = normalizeMatchId(id);
    const record = normal.ok ? await this.store.get(normal.value) : null;
    const text = record?.artifacts[name];
    if (text === undefined) return sendJson(response, 404, { error: `no "${name}" for match "${id}"` });
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${id}-${name.replace(/[^\w.-]/g, '_')}"` });
    response.end(text);
  }

  /** Turns a replay log of the reference format into visualizer events, to show it on the page. */
  private async replayLog(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > REPLAY_LOG_MAX_BYTES) return sendJson(response, 413, { error: `a replay log may be at most ${REPLAY_LOG_MAX_BYTES} bytes` });
      chunks.push(chunk as Buffer);
    }
    const events = importReplayLog(Buffer.concat(chunks).toString('utf8'));
    if (!events.ok) return sendJson(response, 400, { error: events.error });
    sendJson(response, 200, { vis: events.value });
  }

  private async file(relative: string, response: ServerResponse): Promise<void> {
    const path = normalize(join(this.webRoot, relative));
    if (!path.startsWith(this.webRoot + sep) && path !== this.webRoot) return sendJson(response, 404, { error: 'not found' });
    try {
      const body = await readFile(path);
      response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      response.end(body);
    } catch {
      sendJson(response, 404, { error: `not found: ${relative}` });
    }
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

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  sendJsonText(response, status, JSON.stringify(body));
}

function sendJsonText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(text);
}
