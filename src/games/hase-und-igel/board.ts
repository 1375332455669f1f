import type { Random } from '../../match/random.js';
import { err, ok, type Result } from '../../util/result.js';

/** The field types as the 2018 server names them on the wire. */
export const FIELD_TYPES = ['START', 'CARROT', 'HARE', 'SALAD', 'HEDGEHOG', 'POSITION_1', 'POSITION_2', 'GOAL'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_COUNT = 65;
export const START_INDEX = 0;
export const GOAL_INDEX = 64;

/** A board: FIELD_COUNT field types, index 0 is START, 64 is GOAL. */
export type Board = readonly FieldType[];

interface FixedField {
  readonly index: number;
  readonly type: FieldType;
}

interface ShuffledGroup {
  /** The indices the group fills, in order. */
  readonly indices: readonly number[];
  /** The types that are shuffled onto those indices. */
  readonly types: readonly FieldType[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Fields that are the same on every board (real server, release 18.2.6). */
export const FIXED_FIELDS: readonly FixedField[] = [
  { index: 0, type: 'START' },
  { index: 10, type: 'SALAD' },
  { index: 11, type: 'HEDGEHOG' },
  { index: 15, type: 'HEDGEHOG' },
  { index: 19, type: 'HEDGEHOG' },
  { index: 22, type: 'SALAD' },
  { index: 24, type: 'HEDGEHOG' },
  { index: 30, type: 'HEDGEHOG' },
  { index: 37, type: 'HEDGEHOG' },
  { index: 42, type: 'SALAD' },
  { index: 43, type: 'HEDGEHOG' },
  { index: 50, type: 'HEDGEHOG' },
  { index: 56, type: 'HEDGEHOG' },
  { index: 57, type: 'SALAD' },
  { index: 64, type: 'GOAL' },
];

/** Groups of fields shuffled independently per game, in the order the generator shuffles them. */
export const SHUFFLED_GROUPS: readonly ShuffledGroup[] = [
  { indices: range(1, 9), types: ['HARE', 'CARROT', 'HARE', 'CARROT', 'CARROT', 'HARE', 'POSITION_1', 'POSITION_2', 'CARROT'] },
  { indices: range(12, 14), types: ['CARROT', 'CARROT', 'HARE'] },
  { indices: range(16, 18), types: ['POSITION_1', 'POSITION_2', 'CARROT'] },
  // 22 is a fixed salad field in the middle of this group.
  { indices: [20, 21, 23], types: ['CARROT', 'CARROT', 'POSITION_2'] },
  { indices: range(25, 29), types: ['HARE', 'CARROT', 'CARROT', 'CARROT', 'POSITION_2'] },
  { indices: range(31, 36), types: ['HARE', 'POSITION_1', 'CARROT', 'HARE', 'POSITION_2', 'CARROT'] },
  { indices: range(38, 41), types: ['CARROT', 'HARE', 'CARROT', 'POSITION_2'] },
  { indices: range(44, 49), types: ['CARROT', 'CARROT', 'HARE', 'POSITION_2', 'POSITION_1', 'CARROT'] },
  { indices: range(51, 55), types: ['HARE', 'CARROT', 'POSITION_2', 'CARROT', 'CARROT'] },
  { indices: range(58, 63), types: ['HARE', 'CARROT', 'POSITION_1', 'CARROT', 'HARE', 'CARROT'] },
];

/** A new board: the fixed fields, and each group shuffled with `random`. */
export function generateBoard(random: Random): FieldType[] {
  const board = new Array<FieldType>(FIELD_COUNT);
  for (const field of FIXED_FIELDS) board[field.index] = field.type;
  for (const group of SHUFFLED_GROUPS) {
    const types = random.shuffle([...group.types]);
    group.indices.forEach((index, i) => (board[index] = types[i]!));
  }
  return board;
}

/** One letter per field type, for compact boards in tests and game arguments. */
const LETTERS: Readonly<Record<FieldType, string>> = {
  START: 'S',
  CARROT: 'C',
  HARE: 'H',
  SALAD: 'L',
  HEDGEHOG: 'I',
  POSITION_1: '1',
  POSITION_2: '2',
  GOAL: 'G',
};

export function boardCode(board: Board): string {
  return board.map((type) => LETTERS[type]).join('');
}

/** Parses a board code (65 letters of S C H L I 1 2 G) and checks it is a board the server could deal. */
export function parseBoardCode(code: string): Result<FieldType[], 'board/bad-length' | 'board/bad-letter' | 'board/not-a-deal'> {
  if (code.length !== FIELD_COUNT) return err('board/bad-length');
  const byLetter = new Map(Object.entries(LETTERS).map(([type, letter]) => [letter, type as FieldType]));
  const board: FieldType[] = [];
  for (const letter of code) {
    const type = byLetter.get(letter);
    if (!type) return err('board/bad-letter');
    board.push(type);
  }
  return isDealableBoard(board) ? ok(board) : err('board/not-a-deal');
}

/** Whether every fixed field is in place and every group holds exactly its shuffled types. */
export function isDealableBoard(board: Board): boolean {
  if (board.length !== FIELD_COUNT) return false;
  if (!FIXED_FIELDS.every((field) => board[field.index] === field.type)) return false;
  return SHUFFLED_GROUPS.every((group) => {
    const actual = group.indices.map((index) => board[index]!).sort();
    const expected = [...group.types].sort();
    return actual.every((type, i) => type === expected[i]);
  });
}
