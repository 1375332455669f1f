/**
 * This server's history over HTTP, on the WebSocket's own host and port (README.md, "Protocol":
 * `GET /api/history` and `GET /api/history/ID`). The coco protocol has no result message and must
 * stay as the reference's, so coco reads results here; the reference server has no such API,
 * and every caller falls back to what the protocol alone gives.
 */

/** A finished match as `/api/history` gives it (the fields coco reads). */
export interface MatchSummary {
  readonly id: string;
  readonly game: string;
  readonly name: string;
  /** Every seat's name, server bots included, in seat order. */
  readonly players: readonly string[];
  /** One per seat, or null when the match ended without a result (server shutdown, failure). */
  readonly scores: readonly number[] | null;
  readonly reason: string;
  readonly error: string | null;
  readonly ended_at: number;
}

/**
 * What a GET of this server's API found: 'unavailable' is this server saying it cannot answer for
 * now (a 503 with a JSON `error`, given as `why`: its database is away, docs/postgres.md, or the
 * arena's pairing node does not answer), worth asking again later.
 */
export type Lookup<T> = { readonly kind: 'found'; readonly value: T } | { readonly kind: 'missing' } | { readonly kind: 'unavailable'; readonly why: string } | { readonly kind: 'no-api' };

/** How long one HTTP request may take: the server is local to the WebSocket that just answered. */
const REQUEST_TIMEOUT_MS = 5_000;

/** The HTTP address of `path` on the server of the WebSocket address `wsUrl`. */
export function apiUrl(wsUrl: string, path: string): URL {
  const url = new URL(path, wsUrl);
  url.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  return url;
}

/**
 * GETs `path`: the JSON body of a 200, 'missing' for this server's 404 (a JSON `error`),
 * 'unavailable' for its 503 (a JSON `error`), and 'no-api' for anything else (another server, a
 * proxy, a network error).
 */
export async function getJson(wsUrl: string, path: string): Promise<Lookup<unknown>> {
  try {
    const response = await fetch(apiUrl(wsUrl, path), { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    if (!isJson) return { kind: 'no-api' };
    const body: unknown = await response.json();
    if (response.status === 200) return { kind: 'found', value: body };
    const said = typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : null;
    if (response.status === 404 && said !== null) return { kind: 'missing' };
    if (response.status === 503 && said !== null) return { kind: 'unavailable', why: said };
    return { kind: 'no-api' };
  } catch {
    return { kind: 'no-api' };
  }
}

function isSummary(value: unknown): value is MatchSummary {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['id'] === 'string' && Array.isArray(v['players']) && (v['scores'] === null || Array.isArray(v['scores'])) && typeof v['reason'] === 'string';
}

/** One finished match. */
export async function fetchMatch(wsUrl: string, id: string): Promise<Lookup<MatchSummary>> {
  const found = await getJson(wsUrl, `/api/history/${encodeURIComponent(id)}`);
  if (found.kind !== 'found') return found;
  return isSummary(found.value) ? { kind: 'found', value: found.value } : { kind: 'no-api' };
}

/** The finished matches, newest first: the newest `limit` (the server's default: 100). */
export async function fetchHistory(wsUrl: string, limit?: number): Promise<Lookup<readonly MatchSummary[]>> {
  const found = await getJson(wsUrl, limit === undefined ? '/api/history' : `/api/history?limit=${limit}`);
  if (found.kind !== 'found') return found;
  const matches = (found.value as { matches?: unknown }).matches;
  return Array.isArray(matches) && matches.every(isSummary) ? { kind: 'found', value: matches } : { kind: 'no-api' };
}

export interface WaitOptions {
  /** How long to keep asking while the server says the record is not there yet, or its history is unavailable. */
  readonly waitMs: number;
  readonly intervalMs: number;
}

/**
 * How often a history that is unavailable is asked again: each ask makes the server try its
 * database (docs/postgres.md), so an outage is not asked ten times a second by every player.
 */
const UNAVAILABLE_RETRY_MS = 1_000;

/**
 * The record of a match that just ended for this player. Its players hear MatchEnded after the
 * record is written, so the first answer usually has it; but a player whose seat was closed
 * mid-match (a timeout, a line too long) hears it at once while the others play on, so a
 * missing record is asked for again, for a while; so is a history that is unavailable (its database
 * restarting), less often.
 */
export async function awaitMatch(wsUrl: string, id: string, options: WaitOptions): Promise<Lookup<MatchSummary>> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const found = await fetchMatch(wsUrl, id);
    const wait = found.kind === 'missing' ? options.intervalMs : found.kind === 'unavailable' ? Math.max(options.intervalMs, UNAVAILABLE_RETRY_MS) : null;
    if (wait === null || Date.now() + wait > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** An artifact's text (a seat's transcript), or null when there is none or no API. */
export async function fetchArtifact(wsUrl: string, id: string, name: string): Promise<string | null> {
  try {
    const response = await fetch(apiUrl(wsUrl, `/api/history/${encodeURIComponent(id)}/artifacts/${encodeURIComponent(name)}`), { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    return response.status === 200 ? await response.text() : null;
  } catch {
    return null;
  }
}
