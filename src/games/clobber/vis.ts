import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape, Vec2 } from '../../protocol/vis-shape.js';
import { shortName } from '../vis-text.js';
import { columnLetter, formatMove } from './notation.js';
import { describeLoss, type LossCause } from './outcome.js';
import { columnOf, rowOf, type Color, type Move, type Position, type Square } from './rules.js';

/**
 * The visualizer events of a clobber match: the board, one circle per stone, each move animated
 * (the capturing stone slides onto the captured one, which shrinks under it and is destroyed),
 * the game number and score as text, and a log line per event of the match.
 *
 * Time is logical: each move takes `step` seconds of replay time (the pace, but at least
 * MIN_STEP so that a match played at pace 0 still replays at a watchable speed).
 */
export const MIN_STEP = 0.5;
/** How long a stone takes to slide onto the stone it captures, at most. */
export const SLIDE_SECONDS = 0.3;

const TEXT_BAND = 0.16;
const MARGIN = 0.04;
const LABEL_BAND = 0.04;
const TEXT_HEIGHT = 0.04;

const COLOURS = {
  lightSquare: 'e6cb9cff',
  darkSquare: 'c49a63ff',
  boardEdge: '5a3d1eff',
  label: '3a2a14ff',
  text: '101010ff',
  black: { fill: '1c1c1cff', stroke: '000000ff' },
  white: { fill: 'f4f4f4ff', stroke: '303030ff' },
} as const;

export class ClobberVis {
  private nextId = 1;
  private t = 0;
  private readonly step: number;
  private readonly slide: number;
  private readonly cell: number;
  private readonly origin: Vec2;
  /** The object id of the stone on each occupied square. */
  private readonly stones = new Map<Square, number>();
  private textIds: number[] = [];
  /** The names as the text above the board shows them: short enough for its width. */
  private readonly shown: readonly string[];

  constructor(
    private readonly emit: (event: VisEventInput) => void,
    private readonly columns: number,
    private readonly rows: number,
    private readonly names: readonly [string, string],
    private readonly games: number,
    pace: number,
  ) {
    this.shown = names.map((name) => shortName(name, 18));
    this.step = Math.max(pace, MIN_STEP);
    this.slide = Math.min(SLIDE_SECONDS, this.step * 0.6);
    const width = 1 - 2 * MARGIN - LABEL_BAND;
    const height = 1 - TEXT_BAND - MARGIN - LABEL_BAND;
    this.cell = Math.min(width / columns, height / rows);
    this.origin = [
      MARGIN + LABEL_BAND + (width - columns * this.cell) / 2,
      TEXT_BAND + (height - rows * this.cell) / 2,
    ];
  }

  /** The board with its coordinates, drawn once for the whole match. */
  start(): void {
    const [x0, y0] = this.origin;
    const { cell, columns, rows } = this;
    const geom: Shape[] = [];
    for (let row = 1; row <= rows; row++) {
      for (let column = 1; column <= columns; column++) {
        const [x, y] = this.corner(column, row);
        geom.push({
          poly: {
            vs: [[x, y], [x + cell, y], [x + cell, y + cell], [x, y + cell]],
            f: (column + row) % 2 === 0 ? COLOURS.darkSquare : COLOURS.lightSquare,
            s: COLOURS.darkSquare,
            t: 0.001,
          },
        });
      }
    }
    geom.push({
      poly: { vs: [[x0, y0], [x0 + columns * cell, y0], [x0 + columns * cell, y0 + rows * cell], [x0, y0 + rows * cell]], s: COLOURS.boardEdge, t: 0.004 },
    });
    const label = Math.min(cell * 0.45, LABEL_BAND * 0.7);
    for (let column = 1; column <= columns; column++) {
      const [x] = this.centre(column, 1);
      // Text is centred on its point: letters in the middle of the band under the board.
      geom.push({ text: { v: columnLetter(column), p: [x, y0 + rows * cell + LABEL_BAND * 0.5], t: label, s: COLOURS.label } });
    }
    for (let row = 1; row <= rows; row++) {
      const [, y] = this.centre(1, row);
      const digits = String(row).length;
      geom.push({ text: { v: String(row), p: [x0 - 0.008 - digits * label * 0.3, y], t: label, s: COLOURS.label } });
    }
    this.emit({ t: this.t, create: { id: this.id(), z: 0, geom } });
    this.log(`clobber: ${this.names[0]} against ${this.names[1]}, ${columns} x ${rows}, ${this.games} game${this.games === 1 ? '' : 's'}`);
  }

  /** Clears the previous game's stones and sets up the new game's. */
  startGame(game: number, blackSeat: number, position: Position, scores: readonly number[]): void {
    for (const id of this.stones.values()) this.emit({ t: this.t, destroy: { id } });
    this.stones.clear();
    for (let square = 0; square < position.cells.length; square++) {
      const cell = position.cells[square];
      if (cell === 1 || cell === 2) this.createStone(square, cell === 1 ? 'black' : 'white');
    }
    const white = 1 - blackSeat;
    this.setText([
      `game ${game} of ${this.games}`,
      `${this.shown[0]} ${scores[0]} - ${scores[1]} ${this.shown[1]}`,
      `black: ${this.shown[blackSeat]}   white: ${this.shown[white]}`,
    ]);
    this.log(`game ${game}: ${this.names[blackSeat]} black, ${this.names[white]} white`);
    this.t += this.step;
  }

  /** Animates a legal move made in `before`. */
  move(before: Position, move: Move, seat: number): void {
    const mover = this.stones.get(move.from);
    const captured = this.stones.get(move.to);
    if (mover === undefined || captured === undefined) throw new Error('vis: move between squares without stones');
    const [fx, fy] = this.centre(columnOf(before, move.from), rowOf(before, move.from));
    const [tx, ty] = this.centre(columnOf(before, move.to), rowOf(before, move.to));
    this.log(`${this.names[seat]} (${before.toMove}): ${formatMove(before, move)}`);
    this.emit({ t: this.t, transform: { id: mover, d: this.slide, f: 'easeinout', mv: [tx - fx, ty - fy] } });
    this.emit({ t: this.t, transform: { id: captured, d: this.slide, f: 'easin', scale: 0.2 } });
    this.emit({ t: this.t + this.slide, destroy: { id: captured } });
    this.stones.delete(move.from);
    this.stones.set(move.to, mover);
    this.t += this.step;
  }

  endGame(game: number, winnerSeat: number, cause: LossCause, scores: readonly number[]): void {
    this.log(`game ${game}: ${this.names[winnerSeat]} wins, ${describeLoss(this.names[1 - winnerSeat]!, cause)}`);
    this.setText([
      `game ${game} of ${this.games}: ${this.shown[winnerSeat]} wins`,
      `${this.shown[0]} ${scores[0]} - ${scores[1]} ${this.shown[1]}`,
    ]);
    this.t += this.step;
  }

  endMatch(scores: readonly number[], reason: string): void {
    this.setText([`final score`, `${this.shown[0]} ${scores[0]} - ${scores[1]} ${this.shown[1]}`, reason]);
    this.log(`final score: ${this.names[0]} ${scores[0]}, ${this.names[1]} ${scores[1]} (${reason})`);
  }

  private createStone(square: Square, color: Color): void {
    const id = this.id();
    const at = { columns: this.columns };
    const p = this.centre(columnOf(at, square), rowOf(at, square));
    const { fill, stroke } = COLOURS[color];
    this.emit({ t: this.t, create: { id, p, z: 2, geom: [{ circle: { r: this.cell * 0.38, f: fill, s: stroke, t: Math.max(0.001, this.cell * 0.03) } }] } });
    this.stones.set(square, id);
  }

  private setText(lines: string[]): void {
    for (const id of this.textIds) this.emit({ t: this.t, destroy: { id } });
    this.textIds = lines.map((line, i) => {
      const id = this.id();
      // Text is centred on its point: three lines centred across the band above the board, each
      // short enough for the width (names are shortened where the lines are made).
      const p: Vec2 = [0.5, TEXT_HEIGHT * (i + 1)];
      this.emit({ t: this.t, create: { id, p, z: 3, geom: [{ text: { v: line, t: TEXT_HEIGHT * (i === 0 ? 0.9 : 0.75), s: COLOURS.text } }] } });
      return id;
    });
  }

  private log(line: string): void {
    this.emit({ t: this.t, log: { line } });
  }

  private id(): number {
    return this.nextId++;
  }

  private corner(column: number, row: number): Vec2 {
    return [this.origin[0] + (column - 1) * this.cell, this.origin[1] + (this.rows - row) * this.cell];
  }

  private centre(column: number, row: number): Vec2 {
    const [x, y] = this.corner(column, row);
    return [x + this.cell / 2, y + this.cell / 2];
  }
}
