import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape } from '../../protocol/vis-shape.js';
import { prepareShape } from '../../protocol/vis-check.js';
import type { PreparedShape } from '../../protocol/vis-shape.js';
import { GESTURES, type Gesture } from './rules.js';

/** Seconds of replay per round (logical time, whatever the pace). */
const ROUND_SECONDS = 1;
const COLORS = ['2563ebff', 'dc2626ff'] as const;
const INK = '1f2937ff';
const FIRST_ROUND_ID = 100;

/** A small picture per gesture, about 0.16 wide, centred on `at`. */
function drawing(gesture: Gesture | null, color: string, at: readonly [number, number]): Shape[] {
  const [x, y] = at;
  switch (gesture) {
    case 'ROCK':
      return [{ circle: { p: [x, y], r: 0.07, f: `${color.slice(0, 6)}55`, s: color, t: 0.006 } }];
    case 'PAPER':
      return [{ poly: { vs: [[x - 0.06, y - 0.08], [x + 0.06, y - 0.08], [x + 0.06, y + 0.08], [x - 0.06, y + 0.08]], f: `${color.slice(0, 6)}22`, s: color, t: 0.006 } }];
    case 'SCISSORS':
      return [
        { line: { p1: [x - 0.07, y - 0.07], p2: [x + 0.07, y + 0.07], t: 0.012, s: color } },
        { line: { p1: [x - 0.07, y + 0.07], p2: [x + 0.07, y - 0.07], t: 0.012, s: color } },
      ];
    case null:
      return [{ text: { v: 'retired', p: [x, y], t: 0.04, s: color } }];
  }
}

const SEAT_X = [0.27, 0.73] as const;

const SCORE = prepareShape({ text: { v: '0 : 0', p: [0.5, 0.82], t: 0.07, s: INK } });

/**
 * What a seat's gesture (or its retirement) looks like: the same few pictures every round, so they
 * are checked and turned into JSON once.
 */
const PICTURES: readonly ReadonlyMap<Gesture | null, readonly PreparedShape[]>[] = SEAT_X.map(
  (x, seat) =>
    new Map(
      [...GESTURES, null].map((gesture) => {
        const shapes = drawing(gesture, COLORS[seat]!, [x, 0.5]);
        if (gesture) shapes.push({ text: { v: gesture, p: [x, 0.63], t: 0.035, s: INK } });
        return [gesture, shapes.map((shape) => prepareShape(shape))];
      }),
    ),
);

/**
 * Draws a roshambo match: the two players, and per round one object holding both gestures and the
 * score (three events a round, so a long match stays cheap to record and to replay).
 */
export class RoshamboVis {
  private nextId = FIRST_ROUND_ID;
  /** The object showing the current round, if any. */
  private shown = 0;

  constructor(private readonly emit: (event: VisEventInput) => void) {}

  start(names: readonly [string, string], rounds: number): void {
    names.forEach((name, seat) => {
      this.emit({ t: 0, create: { id: 1 + seat, p: [SEAT_X[seat], 0.18], geom: [{ text: { v: name, t: 0.05, s: COLORS[seat] } }] } });
    });
    this.emit({ t: 0, create: { id: 3, p: [0.5, 0.5], geom: [{ text: { v: 'vs', t: 0.04, s: INK } }] } });
    this.show(0, [null, null], [0, 0]);
    this.emit({ t: 0, log: { line: `${names[0]} against ${names[1]}, ${rounds} rounds` } });
  }

  /** One round: both gestures appear (a retired player's as "retired") with the new score. */
  round(round: number, gestures: readonly [Gesture | null, Gesture | null], points: readonly [number, number], line: string): void {
    const t = round * ROUND_SECONDS;
    this.show(t, gestures, points);
    this.emit({ t, log: { line } });
  }

  private show(t: number, gestures: readonly (Gesture | null)[], points: readonly [number, number]): void {
    if (this.shown) this.emit({ t, destroy: { id: this.shown } });
    this.shown = this.nextId++;
    const geom: PreparedShape[] = [SCORE.withText(`${points[0]} : ${points[1]}`)];
    if (t > 0) {
      for (let seat = 0; seat < gestures.length; seat++) {
        for (const shape of PICTURES[seat]!.get(gestures[seat]!)!) geom.push(shape);
      }
    }
    this.emit({ t, create: { id: this.shown, z: 2, geom } });
  }
}
