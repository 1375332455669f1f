/**
 * The fixed texts of the dama stream (Italian, as in the Code Colosseum spec) and the blocks built
 * from them, shared by the game, its server bot and the tests.
 */
import type { Color } from './board.js';
import { formatBoard } from './notation.js';

export const START_LINE = 'Avvio la partita di dama...';
export const YOU_ARE: Readonly<Record<Color, string>> = { white: 'Sei i Bianchi', black: 'Sei i Neri' };
export const TURN_LINE: Readonly<Record<Color, string>> = { white: 'Turno bianco!', black: 'Turno nero!' };
export const YOUR_TURN_LINE = "E' il tuo turno.";
export const PROMPT_LINES = [
  'Inserisci la pedina che vuoi muovere e poi le mosse che vuoi fare',
  'Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...',
] as const;
export const INVALID_MOVE_LINE = 'Mossa non valida, riprova.';
export const WIN_LINE: Readonly<Record<Color, string>> = {
  white: 'I bianchi vincono la partita!',
  black: 'I neri vincono la partita!',
};
export const DRAW_LINE = 'Partita patta!';

/** The board as the stream sends it: an empty line, the 10-line drawing, an empty line. */
export function boardBlock(board: readonly number[]): string {
  return `\n${formatBoard(board)}\n\n`;
}

/** What the player to move receives at the start of its turn. */
export function moverTurnBlock(turn: Color): string {
  return `${TURN_LINE[turn]}\n${YOUR_TURN_LINE}\n\n${PROMPT_LINES.join('\n')}\n`;
}

/** What the player to move receives after an invalid move: the message, then the prompt again. */
export function invalidMoveBlock(): string {
  return `${INVALID_MOVE_LINE}\n\n${PROMPT_LINES.join('\n')}\n`;
}
