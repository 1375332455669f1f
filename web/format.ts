/** Formatting shared by the views, pure so that it is tested under Node. */

/** A playback time: `0:07.5`, `12:03.0`, `1:02:03.0`. */
export function formatClock(seconds: number): string {
  const tenths = Math.max(0, Math.round(seconds * 10));
  const s = Math.floor(tenths / 10) % 60;
  const m = Math.floor(tenths / 600) % 60;
  const hours = Math.floor(tenths / 36000);
  const rest = `${String(s).padStart(2, '0')}.${tenths % 10}`;
  return hours > 0 ? `${hours}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/**
 * A score as the page shows it: at most 12 significant digits, so that the noise of binary
 * fractions goes (57.00000000000001 reads 57, 0.1 + 0.2 reads 0.3) and whole numbers stay whole.
 * An external game's infinite scores are stored as the largest finite doubles
 * (src/games/external/score-text.ts): they read ∞ and −∞. No score at all reads —.
 */
export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return '—';
  if (score === Number.MAX_VALUE) return '∞';
  if (score === -Number.MAX_VALUE) return '−∞';
  if (Number.isInteger(score)) return String(score);
  return String(Number(score.toPrecision(12)));
}

/** A span the way `coco lobby` prints it: `59s`, `9m59s`, `1h2m3s`. */
export function formatSpan(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** A match timeout in seconds: `30s`, `0.5s`. */
export function formatTimeout(seconds: number): string {
  return `${Math.round(seconds * 1000) / 1000}s`;
}

export interface LobbyTimes {
  readonly running: boolean;
  /** Unix seconds: the expiry time while waiting, the start time while running. */
  readonly time: number;
}

/** The Timing column of the lobby: `Expires in 9m59s` or `Running for 1h2m3s`. */
export function lobbyTiming(match: LobbyTimes, nowSeconds: number): string {
  return match.running
    ? `Running for ${formatSpan(nowSeconds - match.time)}`
    : `Expires in ${formatSpan(match.time - nowSeconds)}`;
}

/**
 * A timestamp of the history API as milliseconds: numbers are unix seconds (or milliseconds when
 * clearly too large for seconds), strings are ISO dates. NaN when unreadable.
 */
export function timestampMs(value: unknown): number {
  if (typeof value === 'number') return value > 1e11 ? value : value * 1000;
  if (typeof value === 'string') return /^\d+(\.\d+)?$/.test(value) ? timestampMs(Number(value)) : Date.parse(value);
  return NaN;
}

/** `2024-05-01 14:03` in local time, or `?`. */
export function formatDate(value: unknown): string {
  const ms = timestampMs(value);
  if (!Number.isFinite(ms)) return '?';
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The command a player runs to take a seat in a waiting match. */
export function connectCommand(id: string, serverUrl: string | null, password: boolean): string {
  const server = serverUrl ? ` -s ${serverUrl}` : '';
  const pw = password ? ' -p PASSWORD' : '';
  return `coco${server} connect ${id}${pw} -- ./your-program`;
}

/** The reference client's default server; when the page comes from elsewhere, the command names it. */
export const DEFAULT_SERVER_URL = 'ws://127.0.0.1:8088/';

/** The WebSocket URL of the page's own origin (`ws://host/` or `wss://host/`). */
export function socketUrlFor(location: { readonly protocol: string; readonly host: string }): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`;
}

/** `-s URL` for the connect command, omitted when the page is the default server. */
export function serverFlagFor(socketUrl: string): string | null {
  const local = /^ws:\/\/(127\.0\.0\.1|localhost):8088\/$/;
  return local.test(socketUrl) ? null : socketUrl;
}
