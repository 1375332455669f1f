import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape, Vec2 } from '../../protocol/vis-shape.js';
import { shortName } from '../vis-text.js';
import { formatCoins, rollValue, type Coins } from './dice.js';
import { END, ROSETTES, START, TOKENS, TRACK_CELLS, tokensExited, type MoveOutcome, type PlayerIndex } from './rules.js';

/**
 * Visualizer events of one match: the 3 x 8 board with its two missing cells on each side row,
 * every token (start area above the board for the first player, below for the second; home area
 * beside it), moves animated cell by cell, captures, the dice of each roll and a log line per event.
 * Time is logical: one second per roll, so a replay plays at an even pace whatever the real one.
 */
export const TURN_SECONDS = 1;
const STEP_SECONDS = 0.12;
const MOVE_DELAY = 0.2;
const CAPTURE_SECONDS = 0.3;

const CELL = 0.1;
const BOARD_X = 0.1;
const BOARD_Y = 0.35;
const TOKEN_RADIUS = 0.028;
const SLOT_SPACING = 0.057;
/** Each player's row: its colour's token, its name centred at NAME_X, and its dice from DICE_X on. */
const NAME_X = 0.37;
const DICE_X = 0.67;
/** A name of this many characters fits between the token and the dice. */
const NAME_CHARS = 18;
/** Columns of the side rows with no cell (the board's narrow bridge). */
const MISSING_COLUMNS = [4, 5];

const COLORS = {
  cell: 'e2c290ff',
  cellEdge: '5b3a1aff',
  rosette: 'b23a2aff',
  rosetteInner: 'f3e3c3ff',
  text: '202020ff',
  head: 'fafafaff',
  tail: '4a4a4aff',
  area: '00000018',
} as const;
const TOKEN_FILL: readonly [string, string] = ['f4efe2ff', '262626ff'];
const TOKEN_EDGE: readonly [string, string] = ['262626ff', 'f4efe2ff'];

type Emit = (event: VisEventInput) => void;

/** Board row and column of a track cell (1..14) of `player`: the first player's own cells are on top. */
export function cellOf(player: PlayerIndex, position: number): [number, number] {
  const ownRow = player === 0 ? 0 : 2;
  if (position >= 1 && position <= 4) return [ownRow, 4 - position];
  if (position >= 5 && position <= 12) return [1, position - 5];
  if (position === 13) return [ownRow, 7];
  if (position === TRACK_CELLS) return [ownRow, 6];
  throw new RangeError(`no board cell for position ${position}`);
}

function cellCenter(row: number, col: number): Vec2 {
  return [BOARD_X + (col + 0.5) * CELL, BOARD_Y + (row + 0.5) * CELL];
}

/** Where `token` of `player` stands at `position`: its own slot in the start or home area, or a cell. */
export function tokenPoint(player: PlayerIndex, token: number, position: number): Vec2 {
  const areaY = player === 0 ? BOARD_Y - 0.08 : BOARD_Y + 3 * CELL + 0.08;
  if (position === START) return [BOARD_X + 0.03 + token * SLOT_SPACING, areaY];
  if (position === END) return [BOARD_X + 4 * CELL + 0.03 + token * SLOT_SPACING, areaY];
  const [row, col] = cellOf(player, position);
  return cellCenter(row, col);
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

export class RoyalUrVis {
  private nextId = 1;
  private rolls = 0;
  private diceIds: number[] = [];
  /** Object id and current point of every token, by player then token number. */
  private readonly tokens: { id: number; at: Vec2 }[][] = [[], []];

  constructor(
    private readonly emit: Emit,
    private readonly names: readonly [string, string],
  ) {
    this.drawBoard();
    for (const player of [0, 1] as const) this.drawSide(player);
    this.emit({ t: 0, log: { line: `${names[0]} plays first (light tokens), ${names[1]} second (dark tokens)` } });
  }

  /** A roll for `player`; the dice are drawn beside that player's name. */
  roll(player: PlayerIndex, coins: Coins): void {
    this.rolls++;
    const t = this.now();
    for (const id of this.diceIds) this.emit({ t, destroy: { id } });
    // The dice sit on the right of the player's row, clear of the name (NAME_X, shortened to fit).
    const y = player === 0 ? 0.115 : 0.915;
    const geom: Shape[] = coins.map((coin, i) => ({
      poly: {
        vs: triangle([i * 0.05, 0], 0.02),
        f: coin === 1 ? COLORS.head : COLORS.tail,
        s: COLORS.cellEdge,
        t: 0.004,
      },
    }));
    geom.push({ text: { v: `= ${rollValue(coins)}`, p: [0.24, 0], t: 0.035, s: COLORS.text } });
    const id = this.id();
    this.diceIds = [id];
    this.emit({ t, create: { id, p: [DICE_X, y], z: 3, geom } });
    this.emit({ t, log: { line: `${this.names[player]} rolls ${formatCoins(coins)} (${rollValue(coins)})` } });
  }

  pass(player: PlayerIndex): void {
    this.emit({ t: this.now(), log: { line: `${this.names[player]} cannot move` } });
  }

  move(outcome: MoveOutcome): void {
    const { player, token, from, to, captured } = outcome;
    const other: PlayerIndex = player === 0 ? 1 : 0;
    const fromText = from === START ? 'start' : `cell ${from}`;
    const toText = to === END ? 'home' : `cell ${to}`;
    let line = `${this.names[player]} moves token ${token} from ${fromText} to ${toText}`;
    if (captured !== null) line += `, sending ${this.names[other]}'s token ${captured} back to start`;
    if (to === END) line += ` (${tokensExited(outcome.state, player)} of ${TOKENS} home)`;
    if (outcome.extraTurn) line += '; rosette: rolls again';
    this.emit({ t: this.now(), log: { line } });

    let t = this.now() + MOVE_DELAY;
    const piece = this.tokens[player]![token]!;
    for (let position = from + 1; position <= to; position++) {
      t = this.slide(piece, tokenPoint(player, token, position), t, STEP_SECONDS);
    }
    if (captured !== null) this.slide(this.tokens[other]![captured]!, tokenPoint(other, captured, START), t, CAPTURE_SECONDS);
  }

  /** Moves a token to `target` starting at `t`; returns when it arrives. */
  private slide(piece: { id: number; at: Vec2 }, target: Vec2, t: number, d: number): number {
    const mv: Vec2 = [round(target[0] - piece.at[0]), round(target[1] - piece.at[1])];
    this.emit({ t: round(t), transform: { id: piece.id, d, f: 'easeinout', mv } });
    piece.at = target;
    return t + d;
  }

  retire(player: PlayerIndex, why: string): void {
    this.emit({ t: this.now() + TURN_SECONDS / 2, log: { line: `${this.names[player]} retires: ${why}` } });
  }

  win(player: PlayerIndex, why: string): void {
    this.emit({ t: this.now() + TURN_SECONDS, log: { line: `${this.names[player]} wins: ${why}` } });
  }

  private now(): number {
    return this.rolls * TURN_SECONDS;
  }

  private id(): number {
    return this.nextId++;
  }

  private drawBoard(): void {
    const geom: Shape[] = [];
    for (let row = 0; row < 3; row++) {
      for (let col = 0; col < 8; col++) {
        if (row !== 1 && MISSING_COLUMNS.includes(col)) continue;
        const x = BOARD_X + col * CELL;
        const y = BOARD_Y + row * CELL;
        geom.push({ poly: { vs: [[x, y], [x + CELL, y], [x + CELL, y + CELL], [x, y + CELL]], f: COLORS.cell, s: COLORS.cellEdge, t: 0.004 } });
      }
    }
    const rosetteCells = new Set<string>();
    for (const player of [0, 1] as const) for (const cell of ROSETTES) rosetteCells.add(cellOf(player, cell).join(','));
    for (const key of rosetteCells) {
      const [row, col] = key.split(',').map(Number) as [number, number];
      const center = cellCenter(row, col);
      geom.push({ poly: { vs: star(center, 0.04, 0.018), f: COLORS.rosette, s: COLORS.cellEdge, t: 0.003 } });
      geom.push({ circle: { p: center, r: 0.012, f: COLORS.rosetteInner, s: COLORS.cellEdge, t: 0.002 } });
    }
    this.emit({ t: 0, create: { id: this.id(), p: [0, 0], z: 1, geom } });
  }

  private drawSide(player: PlayerIndex): void {
    const areaY = tokenPoint(player, 0, START)[1];
    const half = TOKEN_RADIUS + 0.01;
    const area = (x0: number): Shape => ({
      poly: { vs: [[x0, areaY - half], [x0 + 4 * CELL, areaY - half], [x0 + 4 * CELL, areaY + half], [x0, areaY + half]], f: COLORS.area, s: '00000000' },
    });
    const labelY = player === 0 ? areaY - half - 0.012 : areaY + half + 0.03;
    const nameY = player === 0 ? 0.115 : 0.915;
    this.emit({
      t: 0,
      create: {
        id: this.id(),
        p: [0, 0],
        z: 2,
        geom: [
          area(BOARD_X),
          area(BOARD_X + 4 * CELL),
          { text: { v: 'start', p: [BOARD_X + 0.03, labelY], t: 0.025, s: COLORS.text } },
          { text: { v: 'home', p: [BOARD_X + 4 * CELL + 0.03, labelY], t: 0.025, s: COLORS.text } },
          // Text is drawn centred on its point: the name in the middle, its colour's token to the left.
          { circle: { p: [BOARD_X + 0.015, nameY], r: 0.015, f: TOKEN_FILL[player], s: TOKEN_EDGE[player], t: 0.003 } },
          { text: { v: shortName(this.names[player], NAME_CHARS), p: [NAME_X, nameY], t: 0.04, s: COLORS.text } },
        ],
      },
    });
    for (let token = 0; token < TOKENS; token++) {
      const at = tokenPoint(player, token, START);
      const id = this.id();
      this.tokens[player]!.push({ id, at });
      this.emit({
        t: 0,
        create: {
          id,
          p: at,
          z: 5,
          geom: [
            { circle: { p: [0, 0], r: TOKEN_RADIUS, f: TOKEN_FILL[player], s: TOKEN_EDGE[player], t: 0.004 } },
            { text: { v: String(token), p: [0, 0], t: 0.028, s: TOKEN_EDGE[player] } },
          ],
        },
      });
    }
  }
}

/** A tetrahedral die seen from above, its top-left corner at `corner`. */
function triangle(corner: Vec2, size: number): Vec2[] {
  const [x, y] = corner;
  return [[x + size, y - size], [x + 2 * size, y + size], [x, y + size]];
}

/** The eight-pointed star of a rosette. */
function star(center: Vec2, outer: number, inner: number): Vec2[] {
  const points: Vec2[] = [];
  for (let i = 0; i < 16; i++) {
    const angle = (Math.PI * i) / 8;
    const radius = i % 2 === 0 ? outer : inner;
    points.push([round(center[0] + radius * Math.cos(angle)), round(center[1] + radius * Math.sin(angle))]);
  }
  return points;
}
