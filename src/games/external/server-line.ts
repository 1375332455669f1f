import { err, ok, type Result } from '../../util/result.js';
import { parseScore } from './score-text.js';

/**
 * The commands a game server prints (specs/game-server-protocol.md, notes/game-server-protocol.md).
 * Parsing is pure: one line in, one typed command or a stable error out. Players are numbered
 * 1..P as on the wire.
 */
export type ServerCommand =
  | { readonly kind: 'send'; readonly player: number; readonly message: string }
  | { readonly kind: 'sendall'; readonly message: string }
  | { readonly kind: 'playererror'; readonly player: number; readonly text: string }
  /** A `playererror` naming a number outside 1..P: not fatal, answered with `dropped <number>`. */
  | { readonly kind: 'stray-playererror'; readonly number: number; readonly text: string }
  /** Scores as parsed (NaN and infinities included) and as printed. */
  | { readonly kind: 'over'; readonly scores: readonly number[]; readonly printed: readonly string[]; readonly reason: string }
  | { readonly kind: 'timer'; readonly id: number; readonly ms: number }
  /** The event text as printed: the controller validates it, and a bad one never fails the match. */
  | { readonly kind: 'vis'; readonly body: string };

export const SERVER_LINE_ERRORS = [
  'server/unknown-command',
  'server/bad-player',
  'server/bad-scores',
  'server/bad-timer',
] as const;
export type ServerLineErrorCode = (typeof SERVER_LINE_ERRORS)[number];

export interface ServerLineError {
  readonly code: ServerLineErrorCode;
  readonly message: string;
}

/** Longest timer a game server may set: one day (a longer one is surely a bug). */
export const MAX_TIMER_MS = 24 * 3600 * 1000;

const PLAYER = /^[1-9]\d{0,8}$/;
/** Any whole number, as the reference reads the player of a `playererror` (then checks its range). */
const INTEGER = /^\d{1,15}$/;
const TIMER_ID = /^[1-9]\d{0,15}$/;
const TIMER_MS = /^(\d{1,12})ms$/;

function fail(code: ServerLineErrorCode, message: string): Result<never, ServerLineError> {
  return err({ code, message });
}

/** Splits `word rest` at the first single space; `rest` is '' when there is none. */
function head(text: string): [string, string] {
  const space = text.indexOf(' ');
  return space === -1 ? [text, ''] : [text.slice(0, space), text.slice(space + 1)];
}

function player(token: string, players: number): number | null {
  if (!PLAYER.test(token)) return null;
  const p = Number(token);
  return p <= players ? p : null;
}

export function parseServerLine(line: string, players: number): Result<ServerCommand, ServerLineError> {
  const [word, rest] = head(line);
  switch (word) {
    case 'send': {
      const [target, message] = head(rest);
      const p = player(target, players);
      if (p === null) return fail('server/bad-player', `"send" names player "${target}", not one of 1..${players}`);
      return ok({ kind: 'send', player: p, message });
    }
    case 'playererror': {
      const [target, text] = head(rest);
      if (!INTEGER.test(target)) return fail('server/bad-player', `"playererror" names player "${target}", not a number`);
      // Echoed back in its plain decimal form (`007` names 7).
      const p = Number(target);
      return ok(p >= 1 && p <= players ? { kind: 'playererror', player: p, text } : { kind: 'stray-playererror', number: p, text });
    }
    case 'sendall':
      return ok({ kind: 'sendall', message: rest });
    case 'over': {
      const tokens = rest.split(' ');
      const printed = tokens.slice(0, players);
      const scores = printed.map(parseScore);
      if (printed.length < players || scores.some((score) => score === null)) {
        return fail('server/bad-scores', `"over" needs ${players} numeric scores first, got "${rest}"`);
      }
      return ok({ kind: 'over', scores: scores as number[], printed, reason: tokens.slice(players).join(' ') });
    }
    case 'timer': {
      const [idToken, msToken] = head(rest);
      const ms = TIMER_MS.exec(msToken);
      if (!TIMER_ID.test(idToken) || !ms || Number(ms[1]) > MAX_TIMER_MS) {
        return fail('server/bad-timer', `"timer" needs "timer <id> <X>ms" with a positive id and X up to ${MAX_TIMER_MS}, got "${rest}"`);
      }
      return ok({ kind: 'timer', id: Number(idToken), ms: Number(ms[1]) });
    }
    case 'vis':
      return ok({ kind: 'vis', body: rest });
    default:
      return fail('server/unknown-command', `unknown command ${JSON.stringify(line.slice(0, 80))}`);
  }
}
