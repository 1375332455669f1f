/**
 * `coco tournament GAME --on-server`: asks the server to run a tournament between its own bots
 * (POST /api/tournaments), follows it with long polls, prints a line per finished match as the
 * local tournament does, and the same standings table at the end. `coco stop-tournament ID`
 * stops one (POST /api/tournaments/ID/stop).
 */
import type { Format } from '../tournament/pairings.js';
import { parseLine, type ResultLine } from '../tournament/results-file.js';
import { formatFinished, formatScore } from '../tournament/progress-lines.js';
import { formatPoints, formatStandings, standings } from '../tournament/standings.js';
import { signalNumber } from './coco-connect.js';
import { CliError, EXIT } from './exit-status.js';
import { apiUrl } from './match-record.js';

export interface ServerTournamentSettings {
  readonly game: string;
  readonly format: Format;
  readonly rounds: number;
  /** Players in each match, or null for the game's default. */
  readonly players: number | null;
  readonly concurrency: number;
  readonly args: Readonly<Record<string, string>>;
  readonly timeout: number | null;
  readonly seed: string;
  /** The server bots: the tournament's name for each, and which of the game's bots (null: its usual one). */
  readonly entrants: readonly { readonly name: string; readonly bot: string | null }[];
  /** The server's verification password, which creating a tournament needs. */
  readonly verification: string;
}

export interface ServerTournamentIo {
  readonly write: (text: string) => void;
  readonly tty: boolean;
  /** Aborted when coco is told to leave: it stops following (the tournament goes on on the server). */
  readonly signal: AbortSignal;
}

/** The part of GET /api/tournaments/ID that coco reads. */
interface Followed {
  readonly id: string;
  readonly version: number;
  readonly state: string;
  readonly error: string | null;
  readonly total: number;
  readonly running: readonly unknown[];
  readonly results: readonly ResultLine[];
}

function followed(body: unknown): Followed {
  const b = body as Partial<Record<keyof Followed, unknown>>;
  const results = Array.isArray(b.results) ? b.results.map((r) => parseLine(JSON.stringify(r))) : null;
  if (typeof b.id !== 'string' || typeof b.version !== 'number' || typeof b.state !== 'string' || typeof b.total !== 'number' || !Array.isArray(b.running) || results === null || results.includes(null)) {
    throw new CliError('the server answered with something that is not a tournament', EXIT.error);
  }
  return { id: b.id, version: b.version, state: b.state, error: typeof b.error === 'string' ? b.error : null, total: b.total, running: b.running, results: results as ResultLine[] };
}

/**
 * How long one request may go unanswered: longer than the server holds a long poll
 * (TOURNAMENT_POLL_SECONDS, 25 s), so only a server that stopped answering reaches it.
 */
const REPLY_WAIT_MS = 40_000;

async function request(url: URL, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let response: Response;
  const late = AbortSignal.timeout(REPLY_WAIT_MS);
  try {
    response = await fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, late]) : late });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    if (late.aborted) throw new CliError(`${url.origin} did not answer within ${REPLY_WAIT_MS / 1000} s (is cocod running there?)`, EXIT.connection);
    throw new CliError(`cannot reach ${url.origin}: ${error instanceof Error ? error.message : String(error)} (is cocod running there? -s URL picks the server)`, EXIT.connection);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    throw new CliError(`${url.origin} answered ${response.status} without JSON: is it a cocod with tournaments?`, EXIT.error);
  }
  return { status: response.status, body };
}

/** Creates the tournament and follows it to its end; returns the exit status. */
export async function serverTournament(wsUrl: string, settings: ServerTournamentSettings, io: ServerTournamentIo): Promise<number> {
  const { verification, ...spec } = settings;
  const created = await request(apiUrl(wsUrl, '/api/tournaments'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...spec, password: verification }),
    signal: io.signal,
  });
  if (created.status !== 201) {
    const error = (created.body as { error?: unknown } | null)?.error;
    const status = created.status === 404 && typeof error === 'string' && error.startsWith('no such page') ? EXIT.error : EXIT.refused;
    throw new CliError(`the server refused the tournament: ${typeof error === 'string' ? error : `HTTP ${created.status}`}`, status);
  }
  let view = followed(created.body);
  const page = apiUrl(wsUrl, `/#/tournaments/${view.id}`);
  io.write(`tournament ${view.id} on the server (${page.href}): ${view.total} matches\n`);
  const names = settings.entrants.map((e) => e.name);
  let shown = 0;
  const show = (): void => {
    // On a terminal each finished game's line goes above the live line, which is drawn again under it.
    for (; shown < view.results.length; shown++) {
      const finished = formatFinished(view.results[shown]!) + (names.length === 2 ? formatScore(names[0]!, names[1]!, view.results.slice(0, shown + 1)) : '');
      io.write(io.tty ? `\r\x1b[K${finished}` : finished);
    }
    if (io.tty) io.write(`\r\x1b[K[${view.results.length}/${view.total}] ${view.running.length} running | ${formatPoints(names, view.results)}`);
  };
  show();
  try {
    // A stopped tournament's matches take a moment to end: followed until none runs.
    while (view.state === 'running' || view.running.length > 0) {
      // A long poll: the server answers at the next change (or after its poll time, unchanged).
      const next = await request(apiUrl(wsUrl, `/api/tournaments/${view.id}?after=${view.version}`), { signal: io.signal });
      if (next.status !== 200) throw new CliError(`the server lost the tournament ${view.id} (HTTP ${next.status})`, EXIT.error);
      view = followed(next.body);
      show();
    }
  } catch (error) {
    if (!io.signal.aborted) throw error;
    if (io.tty) io.write('\n');
    io.write(`stopped following; tournament ${view.id} goes on on the server: ${page.href}\n`);
    return 128 + signalNumber(io.signal.reason);
  }
  if (io.tty) io.write('\n');
  io.write(formatStandings(standings(names, view.results)));
  if (view.state !== 'finished') {
    io.write(`the tournament ${view.state}${view.error ? `: ${view.error}` : ''}\n`);
    return EXIT.error;
  }
  return EXIT.ok;
}

/** `coco stop-tournament ID -v PASSWORD`: stops a running server tournament; prints its standings as they stand. */
export async function stopServerTournament(wsUrl: string, id: string, verification: string, write: (text: string) => void): Promise<void> {
  const answer = await request(apiUrl(wsUrl, `/api/tournaments/${encodeURIComponent(id)}/stop`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: verification }),
  });
  if (answer.status !== 200) {
    const error = (answer.body as { error?: unknown } | null)?.error;
    // A server without tournaments (an older one) answers its generic 404 or 405.
    const known = typeof error === 'string' && (answer.status === 403 || answer.status === 409 || answer.status === 429 || (answer.status === 404 && !error.startsWith('no such page')));
    throw new CliError(`the server did not stop the tournament: ${typeof error === 'string' ? error : `HTTP ${answer.status}`}`, known ? EXIT.refused : EXIT.error);
  }
  const view = followed(answer.body);
  write(`tournament ${view.id} stopped after ${view.results.length} of ${view.total} matches (${view.running.length} running matches end unfinished)\n`);
}
