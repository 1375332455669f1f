/**
 * Visualizer events of a dama match: the 8x8 board with its row and column labels, each piece a
 * circle (a king has a gold ring inside), each move animated step by step, captured pieces
 * destroyed as they are jumped, promotion shown by swapping the man for a king, a log line per move.
 * Above and below the board, each player's name beside a piece of its colour, on the side its
 * pieces start from; a gold ring marks the player to move.
 *
 * Layout (text centred on its point): name bands centred at y = 0.05 and 0.95, the board in
 * [0.14, 0.86]² with its letters and digits in the 0.04 wide bands around it.
 *
 * Times are the match's logical time: each move starts where the previous one's animation ended.
 */
import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape } from '../../protocol/vis-shape.js';
import { BOARD_SIZE, PLAYABLE_SQUARES, columnOf, isPlayable, rowOf, type Color } from './board.js';
import { formatMove } from './notation.js';
import { shortName } from '../vis-text.js';
import type { Move, Position } from './rules.js';

const MARGIN = 0.14;
/** Centre lines of the players' bands, top and bottom, and the name length their width holds. */
const BAND_Y = { top: 0.05, bottom: 0.95 } as const;
const NAME_CHARS = 24;
const SWATCH_X = 0.2;
const CELL = (1 - 2 * MARGIN) / BOARD_SIZE;
const PIECE_RADIUS = round(CELL * 0.38);
const KING_RING_RADIUS = round(CELL * 0.2);
/** Seconds per step of a move's animation, and at least this long per move. */
const STEP_SECONDS = 0.3;
const MOVE_SECONDS = 1;

const COLOURS = {
  light: 'f0d9b5ff',
  dark: 'b58863ff',
  frame: '5c4033ff',
  label: '333333ff',
  white: 'f8f8f0ff',
  black: '222222ff',
  whiteEdge: '555555ff',
  blackEdge: '000000ff',
  crown: 'd4af37ff',
} as const;

const COLOUR_NAME: Readonly<Record<Color, string>> = { white: 'bianco', black: 'nero' };

/** Coordinates rounded to 1e-4, so records hold 0.15 rather than 0.15000000000000002. */
function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

function centre(square: number): [number, number] {
  return [round(MARGIN + (columnOf(square) + 0.5) * CELL), round(MARGIN + (rowOf(square) + 0.5) * CELL)];
}

export class DamaVis {
  private nextId = 1;
  private time = 0;
  private ply = 0;
  /** Object id of the piece on each square. */
  private readonly pieces = new Map<number, number>();
  /** Centre line of each colour's band, and the ring that marks the player to move. */
  private bandY: Record<Color, number> = { white: BAND_Y.bottom, black: BAND_Y.top };
  private turnId = 0;
  private turn: Color = 'white';

  constructor(private readonly emit: (event: VisEventInput) => void) {}

  /** The board, the labels and the pieces of `position`, at time 0. */
  start(position: Position, names: Readonly<Record<Color, string>>): void {
    const squares = [];
    for (let square = 0; square < BOARD_SIZE * BOARD_SIZE; square++) {
      if (!isPlayable(square)) continue;
      const x = round(MARGIN + columnOf(square) * CELL);
      const y = round(MARGIN + rowOf(square) * CELL);
      const x1 = round(x + CELL);
      const y1 = round(y + CELL);
      squares.push({ poly: { vs: [[x, y], [x1, y], [x1, y1], [x, y1]] as [number, number][], f: COLOURS.dark, s: '00000000' } });
    }
    const edge = 1 - MARGIN;
    this.emit({
      t: 0,
      create: {
        id: this.id(),
        z: 0,
        geom: [
          { poly: { vs: [[MARGIN, MARGIN], [edge, MARGIN], [edge, edge], [MARGIN, edge]], f: COLOURS.light, s: COLOURS.frame, t: 0.006 } },
          ...squares,
        ],
      },
    });
    const labels = [];
    for (let i = 0; i < BOARD_SIZE; i++) {
      const along = MARGIN + (i + 0.5) * CELL;
      const at = (x: number, y: number): [number, number] => [round(x), round(y)];
      const letter = String.fromCharCode(65 + i);
      const digit = String(i + 1);
      labels.push(
        { text: { v: letter, p: at(along, MARGIN - 0.022), t: 0.03, s: COLOURS.label } },
        { text: { v: letter, p: at(along, 1 - MARGIN + 0.022), t: 0.03, s: COLOURS.label } },
        { text: { v: digit, p: at(MARGIN - 0.022, along), t: 0.03, s: COLOURS.label } },
        { text: { v: digit, p: at(1 - MARGIN + 0.022, along), t: 0.03, s: COLOURS.label } },
      );
    }
    this.emit({ t: 0, create: { id: this.id(), z: 1, geom: labels } });
    for (const square of PLAYABLE_SQUARES) {
      const piece = position.board[square]!;
      if (piece !== 0) this.createPiece(square, piece, 0);
    }
    this.drawPlayers(position, names);
    this.emit({ t: 0, log: { line: `Bianco: ${names.white}, nero: ${names.black}` } });
  }

  /** Each player's band on the side its pieces start from, and the ring of the player to move. */
  private drawPlayers(position: Position, names: Readonly<Record<Color, string>>): void {
    const whiteOnTop = PLAYABLE_SQUARES.some((square) => position.board[square]! > 0 && rowOf(square) < BOARD_SIZE / 2);
    this.bandY = { white: whiteOnTop ? BAND_Y.top : BAND_Y.bottom, black: whiteOnTop ? BAND_Y.bottom : BAND_Y.top };
    const geom: Shape[] = [];
    for (const color of ['white', 'black'] as const) {
      const y = this.bandY[color];
      geom.push(
        { circle: { p: [SWATCH_X, y], r: 0.018, f: COLOURS[color], s: color === 'white' ? COLOURS.whiteEdge : COLOURS.blackEdge, t: 0.003 } },
        { text: { v: `${shortName(names[color], NAME_CHARS)} (${COLOUR_NAME[color]})`, p: [0.5, y], t: 0.035, s: COLOURS.label } },
      );
    }
    this.emit({ t: 0, create: { id: this.id(), z: 1, geom } });
    this.turn = position.turn;
    this.turnId = this.id();
    this.emit({ t: 0, create: { id: this.turnId, p: [SWATCH_X, this.bandY[this.turn]], z: 2, geom: [{ circle: { r: 0.03, f: '00000000', s: COLOURS.crown, t: 0.007 } }] } });
  }

  /** Animates `move` by `color` (played by `name`). */
  move(move: Move, color: Color, name: string): void {
    const from = move.path[0]!;
    const id = this.pieces.get(from);
    const t0 = this.time;
    this.ply++;
    const detail = `${move.captured.length > 0 ? ` (prese: ${move.captured.length})` : ''}${move.promotes ? ' - dama!' : ''}`;
    this.emit({ t: t0, log: { line: `${this.ply}. ${name} (${COLOUR_NAME[color]}): ${formatMove(move)}${detail}` } });
    if (id === undefined) return;
    this.pieces.delete(from);
    for (let step = 1; step < move.path.length; step++) {
      const [x0, y0] = centre(move.path[step - 1]!);
      const [x1, y1] = centre(move.path[step]!);
      const t = round(t0 + (step - 1) * STEP_SECONDS);
      this.emit({ t, transform: { id, d: STEP_SECONDS, f: 'easeinout', mv: [round(x1 - x0), round(y1 - y0)] } });
      const jumped = move.captured[step - 1];
      if (jumped !== undefined) {
        const victim = this.pieces.get(jumped);
        this.pieces.delete(jumped);
        if (victim !== undefined) this.emit({ t: round(t + STEP_SECONDS), destroy: { id: victim } });
      }
    }
    const to = move.path[move.path.length - 1]!;
    const end = round(t0 + (move.path.length - 1) * STEP_SECONDS);
    if (move.promotes) {
      this.emit({ t: end, destroy: { id } });
      this.createPiece(to, move.piece * 2, end);
    } else {
      this.pieces.set(to, id);
    }
    this.time = round(Math.max(t0 + MOVE_SECONDS, end + STEP_SECONDS));
    // The ring goes to the other player once the move has been shown.
    const next: Color = color === 'white' ? 'black' : 'white';
    if (this.turnId !== 0 && next !== this.turn) {
      this.emit({ t: end, transform: { id: this.turnId, d: STEP_SECONDS, f: 'easeinout', mv: [0, round(this.bandY[next] - this.bandY[this.turn])] } });
      this.turn = next;
    }
  }

  /** A closing log line. */
  end(line: string): void {
    this.emit({ t: this.time, log: { line } });
  }

  private id(): number {
    return this.nextId++;
  }

  private createPiece(square: number, piece: number, t: number): void {
    const white = piece > 0;
    const geom: Shape[] = [
      {
        circle: {
          r: PIECE_RADIUS,
          f: white ? COLOURS.white : COLOURS.black,
          s: white ? COLOURS.whiteEdge : COLOURS.blackEdge,
          t: 0.004,
        },
      },
    ];
    if (piece === 2 || piece === -2) geom.push({ circle: { r: KING_RING_RADIUS, f: '00000000', s: COLOURS.crown, t: 0.008 } });
    const id = this.id();
    this.pieces.set(square, id);
    this.emit({ t, create: { id, p: centre(square), z: 2, geom } });
  }
}
