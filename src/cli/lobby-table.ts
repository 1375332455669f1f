import { matchSeatCount } from '../lobby/seat-count.js';
import type { MatchInfo } from '../protocol/coco/messages.js';

/** `9m59s`, `1h2m3s`, `42s`. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h${m}m${rest}s`;
  if (m > 0) return `${m}m${rest}s`;
  return `${rest}s`;
}

export function timingOf(info: MatchInfo, nowSeconds: number): string {
  return info.running ? `Running for ${formatDuration(nowSeconds - info.time)}` : `Expires in ${formatDuration(info.time - nowSeconds)}`;
}

const HEADERS = ['ID', 'Verified', 'Name', 'Game', 'Players', 'Spectators', 'Timeout', 'Password', 'Timing'] as const;

/** The lobby as the table `coco lobby` prints: waiting matches first, then running, newest last. */
export function formatLobbyTable(infos: readonly MatchInfo[], nowSeconds: number): string {
  const sorted = [...infos].sort((a, b) => Number(a.running) - Number(b.running) || a.time - b.time);
  const rows = sorted.map((info) => [
    info.id,
    info.verified ? 'yes' : 'no',
    info.name,
    info.game,
    matchSeatCount(info),
    String(info.spectators),
    String(info.timeout),
    info.password ? 'yes' : 'no',
    timingOf(info, nowSeconds),
  ]);
  const widths = HEADERS.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
