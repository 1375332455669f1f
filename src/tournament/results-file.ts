/**
 * The results file: one JSON line per finished match, appended as each one finishes, so a
 * tournament stopped at any point (a kill, a crash, ^C) can be run again with the same file and
 * plays only what is missing. A line cut short by a kill is ignored (that match is played again).
 */
import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { placesFromScores, type Outcome, type PlacesOutcome } from './places.js';

/** Why a player's seat did not play to the end, as far as coco could tell. */
export interface Incidents {
  /** Players whose program crashed, exited early or could not be started. */
  readonly crashed: readonly string[];
  /** Players the server closed for not answering in time. */
  readonly timedOut: readonly string[];
  /** Players the game removed (an illegal move). */
  readonly illegal: readonly string[];
}

export interface ResultLine extends Incidents {
  /** The pairing's index in the schedule (pairings.ts). */
  readonly pairing: number;
  /** The tournament's names of the players, in the seats the server gave, seat 0 first. */
  readonly players: readonly string[];
  /** One per seat, or null when the match ended without a result. */
  readonly scores: readonly number[] | null;
  /**
   * 2 seats: `1-0` (seat 0 won), `0-1`, `1/2-1/2`; more seats: each seat's finishing place, seat 0
   * first, joined by `-` (`2-1-2-4`: seat 1 won, seats 0 and 2 tied for second; places.ts);
   * `*` for no result.
   */
  readonly outcome: Outcome;
  /** The server's match id. */
  readonly match: string;
  /** The game's reason (or why there is no result). */
  readonly reason: string;
}

/** The finishing places of 3 or more seats, each from 1 to the number of seats. */
const PLACES = /^[1-9]\d*(-[1-9]\d*){2,}$/;

/** The outcome of the seats' scores: the 2-player notation for 2 seats, the places for more. */
export function outcomeOf(scores: readonly number[] | null): Outcome {
  if (scores === null || scores.length < 2) return '*';
  if (scores.length > 2) return placesFromScores(scores).join('-') as PlacesOutcome;
  return scores[0]! > scores[1]! ? '1-0' : scores[0]! < scores[1]! ? '0-1' : '1/2-1/2';
}

function isOutcome(value: unknown, seats: number): boolean {
  if (typeof value !== 'string') return false;
  if (['1-0', '0-1', '1/2-1/2'].includes(value)) return seats === 2;
  return value === '*' || (PLACES.test(value) && value.split('-').length === seats && value.split('-').every((place) => Number(place) <= seats));
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** One line, checked; null when it is not a whole result line. */
export function parseLine(text: string): ResultLine | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const ok =
    Number.isInteger(v['pairing']) &&
    isStrings(v['players']) &&
    (v['scores'] === null || (Array.isArray(v['scores']) && v['scores'].every((s) => typeof s === 'number'))) &&
    isOutcome(v['outcome'], (v['players'] as string[]).length) &&
    typeof v['match'] === 'string' &&
    typeof v['reason'] === 'string' &&
    isStrings(v['crashed']) &&
    isStrings(v['timedOut']) &&
    isStrings(v['illegal']);
  return ok ? (value as ResultLine) : null;
}

/**
 * The results in `text`, in file order, and how many characters of it to keep: all but a broken
 * last line (cut short by a kill). A broken line elsewhere means the file is not ours, and is an
 * error rather than a silent skip.
 */
export function parseResults(text: string): { readonly ok: true; readonly value: ResultLine[]; readonly keep: number } | { readonly ok: false; readonly error: string } {
  const lines = text.split('\n');
  const results: ResultLine[] = [];
  let offset = 0;
  let keep = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const end = offset + line.length + (i < lines.length - 1 ? 1 : 0);
    if (line.trim() !== '') {
      const parsed = parseLine(line);
      if (parsed) results.push(parsed);
      else if (lines.slice(i + 1).some((rest) => rest.trim() !== '')) return { ok: false, error: `line ${i + 1} is not a result line` };
      else break;
    }
    keep = end;
    offset = end;
  }
  return { ok: true, value: results, keep };
}

/** A results file: what it held when opened, and appending. */
export class ResultsFile {
  private constructor(
    private readonly path: string,
    /** Whether the kept text ends without a line break: the next line starts on a fresh one. */
    private unterminated: boolean,
    readonly previous: readonly ResultLine[],
  ) {}

  /**
   * Opens (or will create) `path`; an unreadable or foreign file is an error. A broken last line
   * is cut off the file, so that what is appended next follows the last whole line.
   */
  static open(path: string): ResultsFile {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    const parsed = parseResults(text);
    if (!parsed.ok) throw new Error(`${path}: ${parsed.error}`);
    const kept = text.slice(0, parsed.keep);
    if (kept.length < text.length) truncateSync(path, Buffer.byteLength(kept));
    return new ResultsFile(path, kept !== '' && !kept.endsWith('\n'), parsed.value);
  }

  /** Appends one line, synchronously, so it is on disk before the next match is counted. */
  append(result: ResultLine): void {
    appendFileSync(this.path, `${this.unterminated ? '\n' : ''}${JSON.stringify(result)}\n`);
    this.unterminated = false;
  }
}
