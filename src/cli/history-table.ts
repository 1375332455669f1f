import { formatScore } from './match-result.js';
import type { MatchSummary } from './match-record.js';

/** `2026-11-24 13:55`, local time: when a match ended, to the minute. */
export function formatDate(unixMs: number): string {
  const d = new Date(unixMs);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The scores and why, or why there are none. */
export function resultOf(match: MatchSummary): string {
  const why = [match.reason, match.error].filter((text): text is string => !!text).join(': ');
  if (match.scores === null) return `no result (${why || 'stopped'})`;
  return `${match.scores.map(formatScore).join('-')}${why ? ` (${why})` : ''}`;
}

const HEADERS = ['ID', 'Game', 'Date', 'Players', 'Result'] as const;

/** The finished matches as `coco history` prints them, in the order given (newest first). */
export function formatHistoryTable(matches: readonly MatchSummary[]): string {
  const rows = matches.map((match) => [match.id, match.game, formatDate(match.ended_at), match.players.join(', '), resultOf(match)]);
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
