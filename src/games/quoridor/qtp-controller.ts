import type { PlayerSeat } from '../../match/seat.js';
import type { QuoridorBoard } from './board.js';
import type { Move, Side } from './geometry.js';
import { parseMove } from './notation.js';
import { preprocessResponse } from './qtp-lines.js';

/**
 * The controller's side of QTP, written to work with real engines rather than only with the spec
 * (notes/quoridor-and-clobber.md): the answer is the first line starting with `=` or `?`; blank
 * lines, `#` comments and other chatter before it are skipped; the closing blank line may be
 * missing; trailing spaces, CR and tabs are fine.
 */
export type QtpAnswer =
  | { readonly kind: 'success'; readonly text: string }
  | { readonly kind: 'failure'; readonly text: string }
  /** The seat closed (disconnected, timed out, sent a line too long or invalid UTF-8). */
  | { readonly kind: 'gone' }
  /** Too many lines that were not an answer. */
  | { readonly kind: 'chatter' };

/** Non-answer lines tolerated before one answer; past this the engine is flooding us. */
export const MAX_CHATTER_LINES = 1000;

/**
 * Reads one answer within `timeoutSeconds` (for the whole answer, chatter included). A timeout
 * closes the seat, as every read of the runtime does: the seat's own read limit closes it, and the
 * game reads the end (so a record's replay sees the timeout too: match/vis-replay.ts).
 */
export async function readAnswer(seat: PlayerSeat, timeoutSeconds: number, now: () => number): Promise<QtpAnswer> {
  const deadline = now() + timeoutSeconds;
  let chatter = 0;
  for (;;) {
    // Past the deadline, a line already waiting is still read; with none, the seat times out now.
    const line = await seat.readLine({ timeoutSeconds: Math.max(0, deadline - now()) });
    if (line === null) return { kind: 'gone' };
    const text = preprocessResponse(line).trim();
    if (text.startsWith('=')) return { kind: 'success', text: stripId(text.slice(1)) };
    if (text.startsWith('?')) return { kind: 'failure', text: stripId(text.slice(1)) };
    if (text === '' || text.startsWith('#')) continue;
    if (++chatter > MAX_CHATTER_LINES) return { kind: 'chatter' };
  }
}

/** A GTP-minded engine may put a numeric id right after `=`; we send none, so drop one. */
function stripId(rest: string): string {
  return rest.replace(/^\d+(?=\s|$)/, '').trim();
}

export type GenmoveVerdict =
  | { readonly ok: true; readonly move: Move }
  | { readonly ok: false; readonly why: string };

/** Judges an answer to `genmove`: a legal move for `side`, or why the engine loses the game. */
export function judgeGenmove(board: QuoridorBoard, side: Side, answer: QtpAnswer, goneWhy = 'left the game'): GenmoveVerdict {
  switch (answer.kind) {
    case 'gone':
      return { ok: false, why: goneWhy };
    case 'chatter':
      return { ok: false, why: `sent more than ${MAX_CHATTER_LINES} lines without an answer` };
    case 'failure':
      return { ok: false, why: `answered "?${answer.text ? ` ${answer.text}` : ''}"` };
    case 'success': {
      const words = answer.text.split(/\s+/).filter((word) => word !== '');
      if (words.length === 1 && words[0]!.toLowerCase() === 'resign') return { ok: false, why: 'resigned' };
      const parsed = parseMove(board.size, words);
      if (!parsed.ok) return { ok: false, why: `answered garbage: "= ${answer.text}"` };
      if (!board.isLegal(side, parsed.value)) return { ok: false, why: `played an illegal move: ${words.join(' ')}` };
      return { ok: true, move: parsed.value };
    }
  }
}

/** Reads an answer to `winner`: the colour the engine names, 'none' for `false`, null if unreadable. */
export function parseWinnerAnswer(answer: QtpAnswer): 'white' | 'black' | 'none' | null {
  if (answer.kind !== 'success') return null;
  const words = answer.text.toLowerCase().split(/\s+/);
  if (words[0] === 'false' || words[0] === 'f') return 'none';
  if (words[0] !== 'true' && words[0] !== 't') return null;
  if (words[1] === 'white' || words[1] === 'w') return 'white';
  if (words[1] === 'black' || words[1] === 'b') return 'black';
  return null;
}
