import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape, Vec2 } from '../../protocol/vis-shape.js';
import { shortName } from '../vis-text.js';
import { BLACK, WHITE, isWallMove, sideColor, slotColumn, slotRow, wallOrientationOf, wallSlotOf, HORIZONTAL, type Move, type Side } from './geometry.js';

/**
 * The match drawn with visualizer events: the board with its coordinates, the two pawns gliding
 * from square to square, each wall flying in from its owner's side of the board, the walls left to
 * each player, and a log line per move and per game.
 *
 * Layout in the unit square (y down), text centred on its point: black's line of text in the band
 * [0.03, 0.07] above the board (black starts at the top), the board in [0.1, 0.86] with its frame,
 * the column letters under it, white's line of text in [0.93, 0.97].
 *
 * Times are the match's logical time, not the clock's: the board at 0, then each game's start and
 * each move the match's pace after the event before (at least MOVE_STEP), so that a
 * replay drawn again from the record's moves shows what the live page showed
 * (GameDefinition.visFromInput).
 */
const BOARD_LEFT = 0.12;
const BOARD_TOP = 0.1;
const BOARD_SPAN = 0.76;
/** Centre lines of the two players' texts, by side. */
const LABEL_Y = { black: 0.05, white: 0.95 } as const;
/** Names longer than this are shortened, so that a player's line fits the width. */
const NAME_CHARS = 20;
/** Least logical time between two moves, so that a replay of a fast game can be followed. */
const MOVE_STEP = 0.5;
const ANIMATION = 0.35;

const PALETTE = {
  background: '7a4a24ff',
  square: 'e3c08dff',
  text: '000000ff',
  pawn: ['f7f7f7ff', '1e1e1eff'] as const,
  pawnStroke: ['303030ff', 'c0c0c0ff'] as const,
  wall: ['fffaf0ff', '2b1a0eff'] as const,
  wallStroke: ['303030ff', 'c0c0c0ff'] as const,
};

export class QuoridorVis {
  private nextId = 1;
  private lastT = 0;
  private pawnIds: [number, number] = [0, 0];
  private pawnAt: [number, number] = [0, 0];
  private wallIds: number[] = [];
  private labelIds: [number, number] = [0, 0];
  private readonly cell: number;
  /** Logical seconds from one move (or game) to the next. */
  private readonly moveSeconds: number;
  private readonly gap: number;

  constructor(
    private readonly emit: (event: VisEventInput) => void,
    private readonly size: number,
    pace: number,
  ) {
    this.moveSeconds = Math.max(pace, MOVE_STEP);
    this.cell = BOARD_SPAN / size;
    this.gap = this.cell * 0.18;
  }

  /** The board and coordinates, drawn once per match. */
  drawBoard(): void {
    const t = this.tick(0);
    const geom: Shape[] = [{ poly: { vs: rect(BOARD_LEFT - 0.01, BOARD_TOP - 0.01, BOARD_SPAN + 0.02, BOARD_SPAN + 0.02), f: PALETTE.background, s: PALETTE.background } }];
    const inner = this.cell - this.gap;
    for (let row = 0; row < this.size; row++) {
      for (let column = 0; column < this.size; column++) {
        const [x, y] = this.corner(column, row);
        geom.push({ poly: { vs: rect(x + this.gap / 2, y + this.gap / 2, inner, inner), f: PALETTE.square, s: PALETTE.square } });
      }
    }
    const height = Math.min(0.035, this.cell * 0.6);
    for (let i = 0; i < this.size; i++) {
      const [x] = this.center(i, 0);
      const [, y] = this.center(0, i);
      geom.push({ text: { v: String.fromCharCode(65 + i), p: [x, BOARD_TOP + BOARD_SPAN + 0.03], t: height, s: PALETTE.text } });
      geom.push({ text: { v: String(i + 1), p: [BOARD_LEFT - 0.045, y], t: height, s: PALETTE.text } });
    }
    this.emit({ t, create: { id: this.id(), z: 0, geom } });
  }

  /** A new game: pawns on their starting squares, no walls, full wall counts. */
  startGame(game: number, names: readonly [string, string], pawns: readonly [number, number], walls: number): void {
    const t = this.tick(this.moveSeconds);
    for (const id of [...this.wallIds, ...this.pawnIds, ...this.labelIds]) if (id) this.emit({ t, destroy: { id } });
    this.wallIds = [];
    this.labelIds = [0, 0];
    this.emit({ t, log: { line: `Game ${game}: ${names[BLACK]} black (moves first), ${names[WHITE]} white` } });
    for (const side of [WHITE, BLACK] as const) {
      const square = pawns[side];
      const id = this.id();
      this.pawnIds[side] = id;
      this.pawnAt[side] = square;
      this.emit({
        t,
        create: {
          id,
          p: this.center(square % this.size, Math.floor(square / this.size)),
          z: 3,
          geom: [{ circle: { r: this.cell * 0.32, f: PALETTE.pawn[side], s: PALETTE.pawnStroke[side], t: 0.004 } }],
        },
      });
      this.label(t, side, `${shortName(names[side], NAME_CHARS)} (${sideColor(side)})`, walls);
    }
  }

  /** Shows a move: the pawn glides, or a wall flies in from its owner's side. */
  move(side: Side, move: Move, text: string, names: readonly [string, string], wallsLeft: number): void {
    const t = this.tick(this.moveSeconds);
    this.emit({ t, log: { line: `${names[side]} (${sideColor(side)}): ${text}` } });
    if (!isWallMove(this.size, move)) {
      const [fx, fy] = this.center(this.pawnAt[side] % this.size, Math.floor(this.pawnAt[side] / this.size));
      const [tx, ty] = this.center(move % this.size, Math.floor(move / this.size));
      this.pawnAt[side] = move;
      this.emit({ t, transform: { id: this.pawnIds[side], d: ANIMATION, f: 'easeinout', mv: [tx - fx, ty - fy] } });
      return;
    }
    const slot = wallSlotOf(this.size, move);
    const horizontal = wallOrientationOf(this.size, move) === HORIZONTAL;
    const column = slotColumn(this.size, slot);
    const row = slotRow(this.size, slot);
    // The centre of a wall is the corner shared by its four squares: south-east of its slot square.
    const [cx, cy] = this.corner(column + 1, row - 1);
    const long = 2 * this.cell - this.gap;
    const thin = this.gap * 0.8;
    const [w, h] = horizontal ? [long, thin] : [thin, long];
    const start: Vec2 = [0.5, side === BLACK ? 0.03 : 0.97];
    const id = this.id();
    this.wallIds.push(id);
    this.emit({
      t,
      create: { id, p: start, z: 2, geom: [{ poly: { vs: rect(-w / 2, -h / 2, w, h), f: PALETTE.wall[side], s: PALETTE.wallStroke[side], t: 0.002 } }] },
    });
    this.emit({ t, transform: { id, d: ANIMATION, f: 'easeout', mv: [cx - start[0], cy - start[1]] } });
    this.label(t, side, `${shortName(names[side], NAME_CHARS)} (${sideColor(side)})`, wallsLeft);
  }

  log(line: string): void {
    this.emit({ t: this.tick(0), log: { line } });
  }

  /** The line of text above (black) or below (white) the board with the walls left. */
  private label(t: number, side: Side, who: string, walls: number): void {
    if (this.labelIds[side]) this.emit({ t, destroy: { id: this.labelIds[side] } });
    const id = this.id();
    this.labelIds[side] = id;
    const y = side === BLACK ? LABEL_Y.black : LABEL_Y.white;
    this.emit({ t, create: { id, p: [0.5, y], z: 1, geom: [{ text: { v: `${who}: ${walls} wall${walls === 1 ? '' : 's'} left`, t: 0.035, s: PALETTE.text } }] } });
  }

  /** The logical time `step` after the previous event. */
  private tick(step: number): number {
    this.lastT = Math.round((this.lastT + step) * 1000) / 1000;
    return this.lastT;
  }

  private id(): number {
    return this.nextId++;
  }

  /** Top-left corner of square (column, row), row 0 at the bottom. */
  private corner(column: number, row: number): Vec2 {
    return [BOARD_LEFT + column * this.cell, BOARD_TOP + (this.size - 1 - row) * this.cell];
  }

  private center(column: number, row: number): Vec2 {
    const [x, y] = this.corner(column, row);
    return [x + this.cell / 2, y + this.cell / 2];
  }
}

function rect(x: number, y: number, w: number, h: number): Vec2[] {
  return [
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ];
}
