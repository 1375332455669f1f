/**
 * The texts of the dama stream and the blocks built from them, shared by the game, its server bot
 * and the tests. They are the reference server's bytes (notes/dama-stream.md), typos included
 * (`gia`, `Mossa non valida riprova!`): programs written for the real server compare them.
 */
import { BOARD_SIZE, EMPTY, SQUARES, opponent, squareAt, type Color } from './board.js';
import { COLUMN_LINE, formatBoard, squareLabel } from './notation.js';
import type { Refusal } from './refusal.js';

export const START_LINE = 'Avvio la partita di dama...';
export const YOU_ARE: Readonly<Record<Color, string>> = { white: 'Sei i Bianchi', black: 'Sei i Neri' };
export const TURN_LINE: Readonly<Record<Color, string>> = { white: 'Turno bianco!', black: 'Turno nero!' };
/** What the player not to move gets at the start of each turn. */
export const WAIT_LINE = 'Attendi il tuo turno!';
export const PROMPT_LINES = [
  'Inserisci la pedina che vuoi muovere e poi le mosse che vuoi fare',
  'Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...',
] as const;
export const WIN_LINE: Readonly<Record<Color, string>> = {
  white: 'I bianchi vincono la partita!',
  black: 'I neri vincono la partita!',
};
export const DRAW_LINE = 'Partita patta!';
/** The last line of every stream, followed by an empty line. */
export const GAME_OVER_LINE = 'Game Over ;)';

/** The colours' plural names, as the messages use them. */
const PLURAL: Readonly<Record<Color, string>> = { white: 'bianchi', black: 'neri' };

/** The board as the stream sends it: an empty line, the 10-line drawing, an empty line. */
export function boardBlock(board: readonly number[]): string {
  return `\n${formatBoard(board)}\n\n`;
}

/** The empty board's block as bytes: every block has the same length, only the squares' glyphs differ. */
const EMPTY_BLOCK = Buffer.from(boardBlock(new Array<number>(SQUARES).fill(EMPTY)), 'latin1');
/** Where the first row's first glyph is: after the empty line, the column line and `1 [`. */
const FIRST_GLYPH = 1 + COLUMN_LINE.length + 1 + 3;
/** A row line (`1 [ ][b]...[ ] 1`) and its newline. */
const ROW_BYTES = 2 + 3 * BOARD_SIZE + 2 + 1;
/** Each piece code's glyph byte (as formatBoard draws it), by code + 2. */
const GLYPH_BYTES = [-2, -1, 0, 1, 2].map((code) => formatBoard(new Array<number>(SQUARES).fill(code)).charCodeAt(FIRST_GLYPH - 1));
const UNKNOWN_GLYPH = '?'.charCodeAt(0);

/**
 * `boardBlock` as the bytes sent (it is ASCII), written straight into a copy of the empty block: a
 * move's board costs one buffer instead of some twenty strings and an encoding per recipient.
 */
export function boardBlockBytes(board: readonly number[]): Buffer {
  const bytes = Buffer.from(EMPTY_BLOCK);
  for (let row = 0; row < BOARD_SIZE; row++) {
    for (let column = 0; column < BOARD_SIZE; column++) {
      const code = board[squareAt(row, column)]!;
      bytes[FIRST_GLYPH + row * ROW_BYTES + column * 3] = GLYPH_BYTES[code + 2] ?? UNKNOWN_GLYPH;
    }
  }
  return bytes;
}

/** The spectators' line naming who plays which colour, sent once before the first turn. */
export function coloursLine(names: Readonly<Record<Color, string>>): string {
  return `Il giocatore ${names.white} è i bianchi e il giocatore ${names.black} è i neri.\n`;
}

/** The two prompt lines, sent after the turn line and again after every refused line. */
export function promptBlock(): string {
  return `${PROMPT_LINES.join('\n')}\n`;
}

/** What the player to move receives at the start of its turn. */
export function moverTurnBlock(turn: Color): string {
  return `${TURN_LINE[turn]}\n${promptBlock()}`;
}

/** The accepted move as the waiting player receives it: each square upper case and followed by a space. */
export function echoLine(path: readonly number[]): string {
  return `${path.map((square) => `${squareLabel(square)} `).join('')}\n`;
}

/** The answer to a refused line (the prompt follows it); every one starts with an empty line. */
export function refusalBlock(refusal: Refusal, mover: Color): string {
  switch (refusal.code) {
    case 'line/syntax':
    case 'move/illegal':
      return '\nMossa non valida riprova!\n';
    case 'move/not-your-piece':
      return `\nNon hai selezionato una tua pedina!\nRicorda che sei i ${PLURAL[mover]}.\n`;
  }
  const step = `${squareLabel(refusal.from)} -> ${squareLabel(refusal.to)}`;
  switch (refusal.code) {
    case 'move/same-row':
      return `\nSpostamento ${step} non valido!\nPuoi muoverti solo in diagonale.\n`;
    case 'move/not-diagonal':
      return `\nSpostamento ${step} non valido!\nNon ti stai spostando in diagonale o ti sei mosso di troppe colonne.\n`;
    case 'move/occupied':
      return `\nSpostamento ${step} non valido!\nLa posizione scelta è gia occupata.\n`;
    case 'move/man-rows':
      return `\nSpostamento ${step} non valido!\nLe righe sono troppo distanti o ti stai muovendo nel verso sbagliato.\n`;
    case 'move/king-rows':
      return `\nSpostamento ${step} non valido!\nLe righe sono troppo distanti.\n`;
    case 'capture/not-diagonal':
      return `\nCattura ${step} non valida!\nNon ti stai spostando in diagonale o ti sei mosso di troppe colonne.\n`;
    case 'capture/occupied':
      return `\nCattura ${step} non valida!\nLa posizione scelta è gia occupata.\n`;
  }
}

/** The end marker every stream gets last: the line and an empty line. */
export function gameOverBlock(): string {
  return `${GAME_OVER_LINE}\n\n`;
}

/** A side won on the board: what its loser, and what the winner and the spectators, receive. */
export function winBlocks(winner: Color, reason: 'no-pieces' | 'no-moves'): { loser: string; others: string } {
  const loser = opponent(winner);
  const result = `${WIN_LINE[winner]}\n\n${gameOverBlock()}`;
  if (reason === 'no-pieces') return { loser: `Non hai più pedine disponibili.\n${result}`, others: result };
  return {
    loser: `Non hai più mosse disponibili.\n${result}`,
    others: `I ${PLURAL[loser]} non hanno più mosse disponibili.\n${result}`,
  };
}

/** The draw by the quiet-move limit, to everyone. */
export function drawBlock(): string {
  return `${DRAW_LINE}\n\n${gameOverBlock()}`;
}

/** The opponent of a player who left (timed out, disconnected, was removed) during its turn. */
export function leftBlock(leaver: Color): string {
  return `\nI ${PLURAL[leaver]} hanno abbandonato la partita.\n${WIN_LINE[opponent(leaver)]}\n\n${gameOverBlock()}`;
}

/** The player to move whose inactivity timeout expired. */
export function timedOutBlock(): string {
  return `\nTempo scaduto, hai esaurito il tempo per fare una mossa!\n${gameOverBlock()}`;
}

/** The player to move who sent too many invalid lines in one turn (this platform's limit). */
export function tooManyInvalidLinesBlock(limit: number): string {
  return `\nHai inviato ${limit} mosse non valide in questo turno, hai perso la partita!\n${gameOverBlock()}`;
}
