/**
 * Visualizer events of a chess match (the stream has no board, so the page is where people see
 * the game): the board with its file and rank labels, the pieces as chess glyphs, each move
 * animated, the last move's squares highlighted, a king in check ringed in red, captured pieces
 * beside the board on their captor's side, the players' names, and the moves in SAN in the log.
 *
 * Times are the match's logical time, not the clock's: the board at 0, then each move the match's
 * pace after the last (at least PLY_SECONDS), so that a replay drawn again from the
 * record's moves shows what the live page showed (GameDefinition.visFromInput).
 */
import type { Chess } from 'chessops/chess';
import type { Color, NormalMove, Piece, Role } from 'chessops/types';
import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape } from '../../protocol/vis-shape.js';

const LEFT = 0.06;
const TOP = 0.12;
const CELL = 0.09;
const SIDE = CELL * 8;
const MOVE_SECONDS = 0.25;
/** Least logical time from one move to the next (a match's pace is longer). */
const PLY_SECONDS = 1;

const COLOURS = {
  light: 'f0d9b5ff',
  dark: 'b58863ff',
  frame: '5c4033ff',
  label: '555555ff',
  piece: '111111ff',
  whiteFill: 'ffffffff',
  lastMove: 'cdd26a99',
  check: 'e03030dd',
  name: '222222ff',
} as const;

const GLYPHS: Readonly<Record<Color, Readonly<Record<Role, string>>>> = {
  white: { king: '♔', queen: '♕', rook: '♖', bishop: '♗', knight: '♘', pawn: '♙' },
  black: { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' },
};

/**
 * A piece's shapes. A white piece is its outline glyph over the solid glyph of the same piece in
 * white: the outline glyph alone is hollow, so on a dark square it reads as a faint outline of the
 * square's own colour (issue 29); filled white, it is legible on both colours, as lichess's are.
 */
function pieceShapes(piece: Piece, height: number): Shape[] {
  const outline: Shape = { text: { v: GLYPHS[piece.color][piece.role], t: height, s: COLOURS.piece } };
  if (piece.color === 'black') return [outline];
  return [{ text: { v: GLYPHS.black[piece.role], t: height, s: COLOURS.whiteFill } }, outline];
}

function round(value: number): number {
  return Math.round(value * 10000) / 10000;
}

/** The centre of a square, White at the bottom (a1 = 0 bottom left, h8 = 63 top right). */
function centre(square: number): [number, number] {
  return [round(LEFT + ((square & 7) + 0.5) * CELL), round(TOP + (7 - (square >> 3) + 0.5) * CELL)];
}

function squareShape(square: number, fill: string): Shape {
  const [cx, cy] = centre(square);
  const h = CELL / 2;
  return { poly: { vs: [[round(cx - h), round(cy - h)], [round(cx + h), round(cy - h)], [round(cx + h), round(cy + h)], [round(cx - h), round(cy + h)]], f: fill, s: '00000000' } };
}

export class ChessVis {
  private nextId = 1;
  /** Object id of the piece on each square. */
  private readonly pieces = new Map<number, number>();
  private highlight: number | null = null;
  private check: number | null = null;
  private readonly captured: Record<Color, number> = { white: 0, black: 0 };
  /** The logical time of the next move's events. */
  private time = 0;
  private readonly plySeconds: number;
  private readonly emit: (event: VisEventInput) => void;

  constructor(
    emit: (event: VisEventInput) => void,
    names: Readonly<Record<Color, string>>,
    pace: number,
  ) {
    this.plySeconds = Math.max(pace, PLY_SECONDS);
    this.emit = (event) => emit({ t: this.time, ...event });
    const squares: Shape[] = [{ poly: { vs: [[LEFT, TOP], [LEFT + SIDE, TOP], [LEFT + SIDE, TOP + SIDE], [LEFT, TOP + SIDE]].map(([x, y]) => [round(x!), round(y!)] as [number, number]), f: COLOURS.light, s: COLOURS.frame, t: 0.006 } }];
    for (let square = 0; square < 64; square++) if (((square >> 3) + (square & 7)) % 2 === 0) squares.push(squareShape(square, COLOURS.dark));
    this.emit({ create: { id: this.id(), z: 0, geom: squares } });
    const labels: Shape[] = [];
    for (let i = 0; i < 8; i++) {
      const along = LEFT + (i + 0.5) * CELL;
      labels.push({ text: { v: String.fromCharCode(97 + i), p: [round(along), round(TOP + SIDE + 0.022)], t: 0.028, s: COLOURS.label } });
      labels.push({ text: { v: String(8 - i), p: [round(LEFT - 0.025), round(TOP + (i + 0.5) * CELL)], t: 0.028, s: COLOURS.label } });
    }
    labels.push({ text: { v: `♚ ${names.black}`, p: [round(LEFT + SIDE / 2), round(TOP - 0.065)], t: 0.04, s: COLOURS.name } });
    labels.push({ text: { v: `♔ ${names.white}`, p: [round(LEFT + SIDE / 2), round(TOP + SIDE + 0.07)], t: 0.04, s: COLOURS.name } });
    this.emit({ create: { id: this.id(), z: 1, geom: labels } });
    const start: [Role, number[]][] = [
      ['rook', [0, 7]], ['knight', [1, 6]], ['bishop', [2, 5]], ['queen', [3]], ['king', [4]], ['pawn', [8, 9, 10, 11, 12, 13, 14, 15]],
    ];
    for (const [role, squaresOfRole] of start) {
      for (const square of squaresOfRole) {
        this.createPiece(square, { role, color: 'white' });
        this.createPiece(square ^ 56, { role, color: 'black' });
      }
    }
    this.emit({ log: { line: `White: ${names.white}, Black: ${names.black}` } });
    this.time = this.plySeconds;
  }

  /** Animates `move` (legal in `before`, written `san`), leading to `after`. */
  move(before: Chess, move: NormalMove, san: string, after: Chess): void {
    const mover = before.board.get(move.from)!;
    const number = before.fullmoves;
    this.emit({ log: { line: mover.color === 'white' ? `${number}. ${san}` : `${number}... ${san}` } });
    const castle = mover.role === 'king' && before.board.get(move.to)?.color === mover.color;
    if (castle) {
      // chessops writes a castling as the king onto its rook; the king lands two files over.
      const kingside = move.to > move.from;
      const rank = move.from & 56;
      this.slide(move.from, rank + (kingside ? 6 : 2));
      this.slide(move.to, rank + (kingside ? 5 : 3));
    } else {
      const enPassant = mover.role === 'pawn' && (move.from & 7) !== (move.to & 7) && !before.board.has(move.to);
      const victimSquare = enPassant ? (move.to & 7) + (move.from & 56) : move.to;
      const victim = before.board.get(victimSquare);
      if (victim) this.take(victimSquare, victim, mover.color);
      this.slide(move.from, move.to);
      if (move.promotion) {
        const pawn = this.pieces.get(move.to);
        if (pawn !== undefined) this.emit({ destroy: { id: pawn } });
        this.createPiece(move.to, { role: move.promotion, color: mover.color });
      }
    }
    if (this.highlight !== null) this.emit({ destroy: { id: this.highlight } });
    this.highlight = this.id();
    const landing = castle ? (move.from & 56) + (move.to > move.from ? 6 : 2) : move.to;
    this.emit({ create: { id: this.highlight, z: 1, geom: [squareShape(move.from, COLOURS.lastMove), squareShape(landing, COLOURS.lastMove)] } });
    if (this.check !== null) this.emit({ destroy: { id: this.check } });
    this.check = null;
    const king = after.board.kingOf(after.turn);
    if (after.isCheck() && king !== undefined) {
      this.check = this.id();
      this.emit({ create: { id: this.check, z: 3, p: centre(king), geom: [{ circle: { r: round(CELL * 0.47), s: COLOURS.check, t: 0.008 } }] } });
    }
    this.time = round(this.time + this.plySeconds);
  }

  /** A line in the log without a move (a refused draw offer...). */
  note(line: string): void {
    this.emit({ log: { line } });
  }

  /** The closing log line. */
  end(line: string): void {
    this.emit({ log: { line } });
  }

  private slide(from: number, to: number): void {
    const id = this.pieces.get(from);
    if (id === undefined) return;
    this.pieces.delete(from);
    this.pieces.set(to, id);
    const [x0, y0] = centre(from);
    const [x1, y1] = centre(to);
    this.emit({ transform: { id, d: MOVE_SECONDS, f: 'easeinout', mv: [round(x1 - x0), round(y1 - y0)] } });
  }

  /** A captured piece leaves the board for its captor's row beside it (White's at the bottom). */
  private take(square: number, victim: Piece, captor: Color): void {
    const id = this.pieces.get(square);
    this.pieces.delete(square);
    if (id !== undefined) this.emit({ destroy: { id } });
    const index = this.captured[captor]++;
    const column = index % 4;
    const row = Math.floor(index / 4);
    const x = round(LEFT + SIDE + 0.04 + column * 0.04);
    const y = captor === 'white' ? round(TOP + SIDE - 0.03 - row * 0.05) : round(TOP + 0.03 + row * 0.05);
    this.emit({ create: { id: this.id(), z: 2, p: [x, y], geom: pieceShapes(victim, 0.045) } });
  }

  private createPiece(square: number, piece: Piece): void {
    const id = this.id();
    this.pieces.set(square, id);
    this.emit({ create: { id, z: 2, p: centre(square), geom: pieceShapes(piece, round(CELL * 0.8)) } });
  }

  private id(): number {
    return this.nextId++;
  }
}
