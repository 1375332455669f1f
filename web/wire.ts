import type { MatchInfo } from '../src/protocol/coco/messages.js';
import type { VisEvent } from '../src/protocol/vis-event.js';
import { looseRecord as record } from '../src/protocol/loose-json.js';

/**
 * The shapes the page reads from the server, checked field by field: a missing or mistyped field
 * becomes a harmless default instead of an exception deep inside a view.
 */
/** A match as the lobby shows it: the protocol's own type. */
export type { MatchInfo } from '../src/protocol/coco/messages.js';

export interface GameArg {
  readonly name: string;
  readonly description: string;
  readonly regex: string;
}

export interface GameInfo {
  readonly name: string;
  readonly args: readonly GameArg[];
}

export interface HistorySummary {
  readonly id: string;
  readonly game: string;
  readonly name: string;
  readonly args: Readonly<Record<string, string>>;
  readonly players: readonly string[];
  readonly bots: number;
  readonly scores: readonly number[] | null;
  readonly reason: string;
  readonly error: string | null;
  /** Created with the server's verification password: only such matches change ratings. */
  readonly verified: boolean;
  readonly startedAt: unknown;
  readonly endedAt: unknown;
}

export interface HistoryMatch extends HistorySummary {
  readonly spectatorStream: string;
  readonly vis: readonly VisEvent[];
  /** Names of the files kept with the match (a replay log, one transcript per seat). */
  readonly artifacts: readonly string[];
}


const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const numOr = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record(v))) if (typeof value === 'string') out[key] = value;
  return out;
}

export function readMatchInfo(value: unknown): MatchInfo {
  const r = record(value);
  return {
    id: str(r['id']),
    name: str(r['name']),
    game: str(r['game']),
    players: numOr(r['players']),
    bots: numOr(r['bots']),
    timeout: numOr(r['timeout']),
    args: stringMap(r['args']),
    running: r['running'] === true,
    time: numOr(r['time']),
    connected: strings(r['connected']),
    spectators: numOr(r['spectators']),
    password: r['password'] === true,
    verified: r['verified'] === true,
  };
}

/** GameList v2: `games: [{name, args: {argname: {description, regex}}}]` (v1's bare names accepted too). */
export function readGameList(payload: unknown): GameInfo[] {
  const games = record(payload)['games'];
  if (!Array.isArray(games)) return [];
  return games
    .map((game): GameInfo => {
      if (typeof game === 'string') return { name: game, args: [] };
      const g = record(game);
      const args = Object.entries(record(g['args'])).map(([name, spec]) => ({
        name,
        description: str(record(spec)['description']),
        regex: str(record(spec)['regex']),
      }));
      return { name: str(g['name']), args };
    })
    .filter((game) => game.name !== '');
}

/**
 * What an external game's controller kept about a match (artifact `report.json`, written by
 * reportArtifactText in src/games/external/match-report.ts).
 */
export interface GameReport {
  /** The scores as the game server printed them (`inf`, `NaN`), or null. */
  readonly printedScores: readonly string[] | null;
  /** Up to 10 error texts per player (1-based), in order. */
  readonly playerErrors: readonly { readonly player: number; readonly text: string }[];
  /** All `playererror` lines per player (index p-1), kept or not. */
  readonly playerErrorCounts: readonly number[];
  readonly dropped: readonly number[];
  readonly visRefused: readonly { readonly line: string; readonly why: string }[];
  readonly visRefusedCount: number;
}

/** The artifact name of the GameReport (REPORT_ARTIFACT on the server). */
export const GAME_REPORT_ARTIFACT = 'report.json';

export function readGameReport(value: unknown): GameReport {
  const r = record(value);
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const numbers = (v: unknown): number[] => list(v).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return {
    printedScores: Array.isArray(r['printed_scores']) ? strings(r['printed_scores']) : null,
    playerErrors: list(r['player_errors']).map((e) => ({ player: numOr(record(e)['player']), text: str(record(e)['text']) })),
    playerErrorCounts: numbers(r['player_error_counts']),
    dropped: numbers(r['dropped']),
    visRefused: list(r['vis_refused']).map((e) => ({ line: str(record(e)['line']), why: str(record(e)['why']) })),
    visRefusedCount: numOr(r['vis_refused_count']),
  };
}

export function readHistorySummary(value: unknown): HistorySummary {
  const r = record(value);
  const scores = Array.isArray(r['scores']) ? r['scores'].map((s) => numOr(s, NaN)) : null;
  return {
    id: str(r['id']),
    game: str(r['game']),
    name: str(r['name']),
    args: stringMap(r['args']),
    players: strings(r['players']),
    bots: numOr(r['bots']),
    scores,
    reason: str(r['reason']),
    error: typeof r['error'] === 'string' && r['error'] !== '' ? r['error'] : null,
    verified: r['verified'] === true,
    startedAt: r['started_at'],
    endedAt: r['ended_at'],
  };
}

export function readHistoryMatch(value: unknown): HistoryMatch {
  const r = record(value);
  return {
    ...readHistorySummary(value),
    spectatorStream: str(r['spectator_stream']),
    vis: readVisEvents(r['vis']),
    artifacts: strings(r['artifacts']),
  };
}

/**
 * Visualizer events as the server sends them (already validated there). Only the outer shape is
 * checked here; the timeline ignores events that do not apply.
 */
export function readVisEvents(value: unknown): VisEvent[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (e): e is VisEvent => typeof e === 'object' && e !== null && typeof (e as { t?: unknown }).t === 'number',
  );
}
