import type { QuoridorBoard } from './board.js';
import { BLACK, WHITE } from './geometry.js';

const EAST = 2;
const SOUTH = 4;

/**
 * A text diagram of the position with QTP coordinates around it: letters A.. below and above,
 * row numbers 1.. (bottom) to N (top) on both sides, walls drawn as `===` and `H`, pawns as W and B.
 * Only for humans, as the spec says; nothing parses it.
 */
export function drawBoard(board: QuoridorBoard): string[] {
  const size = board.size;
  const width = String(size).length;
  const pad = ' '.repeat(width + 1);
  const letters = (pad + Array.from({ length: size }, (_, c) => `  ${String.fromCharCode(65 + c)} `).join('')).trimEnd();
  const lines = [letters];
  const junction = (x: number, y: number): string => {
    if (x < 1 || x > size - 1 || y < 1 || y > size - 1) return '+';
    const occupant = board.slots[(y - 1) * (size - 1) + x - 1];
    return occupant === 1 ? '=' : occupant === 2 ? 'H' : '+';
  };
  // The line between row y and row y - 1 (0-based rows), y = size being the top edge.
  const separator = (y: number): string => {
    let text = pad;
    for (let c = 0; c < size; c++) {
      const walled = y > 0 && y < size && (board.blocked[y * size + c]! & SOUTH) !== 0;
      text += junction(c, y) + (walled ? '===' : '---');
    }
    return text + '+';
  };
  for (let row = size - 1; row >= 0; row--) {
    lines.push(separator(row + 1));
    const label = String(row + 1).padStart(width);
    let text = `${label} |`;
    for (let c = 0; c < size; c++) {
      const square = row * size + c;
      const pawn = square === board.pawns[WHITE] ? 'W' : square === board.pawns[BLACK] ? 'B' : ' ';
      const east = c === size - 1 ? '|' : (board.blocked[square]! & EAST) !== 0 ? 'H' : '|';
      text += ` ${pawn} ${east}`;
    }
    text += ` ${String(row + 1).padEnd(width)}`;
    if (row === size - 1) text += `   Black walls: ${board.wallsLeft[BLACK]}`;
    if (row === size - 2) text += `   White walls: ${board.wallsLeft[WHITE]}`;
    lines.push(text);
  }
  lines.push(separator(0));
  lines.push(letters);
  return lines;
}
