import type { PlayerScore, ScoreCause } from './messages.js';
import { END_MESSAGES, type WinCondition } from './game-end.js';
import { COLORS, type GameState, type Move } from './rules.js';

/** What ended a game early, and whose fault it was. */
export type Offence =
  | { readonly kind: 'left'; readonly why: LeaveWhy }
  | { readonly kind: 'violation'; readonly message: string; readonly move: Move }
  /** A well-formed move sent while the other player is to move (the real server's cause is LEFT). */
  | { readonly kind: 'out-of-turn'; readonly move: Move }
  | { readonly kind: 'soft-timeout' }
  | { readonly kind: 'hard-timeout' };

/** The English reason texts of the match result (the wire carries the server's German ones). */
const LEAVE_REASONS = {
  eof: 'disconnected',
  'root-close': 'closed its stream',
  close: 'sent close',
  unparseable: 'sent XML that could not be read',
  unexpected: 'sent an unexpected message',
  flood: 'sent too many join or administrator messages',
  'unknown-room': 'sent a message for a room it is not in',
} as const;
export type LeaveWhy = keyof typeof LEAVE_REASONS | `xml/${string}`;

export function offenceText(offence: Offence): string {
  switch (offence.kind) {
    case 'soft-timeout':
      return 'sent its move after the soft time limit';
    case 'hard-timeout':
      return 'sent no move within the hard time limit';
    case 'violation':
      return `broke a rule: ${offence.message}`;
    case 'out-of-turn':
      return 'sent a move out of turn';
    case 'left':
      return offence.why.startsWith('xml/') ? `sent XML that was refused (${offence.why})` : LEAVE_REASONS[offence.why as keyof typeof LEAVE_REASONS];
  }
}

export interface TimeLimits {
  readonly softTimeout: number;
  readonly hardTimeout: number;
}

/**
 * Both players' scores as the server computes them: 2/1/0 match points from the win condition,
 * 2 for a player whose opponent is at fault and 0 for the one at fault, with the cause and the
 * server's German reason; then the field index and the carrots.
 */
export function scoresFor(
  state: GameState,
  limits: TimeLimits,
  offender: number | null,
  offence: Offence | null,
  over: WinCondition | null,
): [PlayerScore, PlayerScore] {
  return [0, 1].map((seat) => {
    const player = state.players[seat]!;
    let points = 1;
    let reason: string | null = null;
    if (over) {
      reason = END_MESSAGES[over.reason];
      points = over.winner === COLORS[seat] ? 2 : 0;
    }
    let cause: ScoreCause = 'REGULAR';
    if (offender === seat && offence) {
      points = 0;
      switch (offence.kind) {
        case 'soft-timeout':
          cause = 'SOFT_TIMEOUT';
          // Release 18.2.6's text (18.1.0 lacked the space before "Sekunden").
          reason = `Der Spieler hat innerhalb von ${Math.floor(limits.softTimeout)} Sekunden nach Aufforderung keinen Zug gesendet`;
          break;
        case 'hard-timeout':
          cause = 'HARD_TIMEOUT';
          reason = `Der Spieler hat innerhalb von ${Math.floor(limits.hardTimeout)} Sekunden nach Aufforderung keinen Zug gesendet`;
          break;
        case 'violation':
          cause = 'RULE_VIOLATION';
          reason = offence.message;
          break;
        case 'left':
        case 'out-of-turn':
          cause = 'LEFT';
          reason = 'Der Spieler hat das Spiel verlassen';
          break;
      }
    } else if (offender !== null) {
      points = 2;
    }
    return { cause, reason, points, index: player.index, carrots: player.carrots };
  }) as [PlayerScore, PlayerScore];
}
