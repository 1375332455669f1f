import type { Shape, VisEventInput } from '../../protocol/vis-event.js';
import type { Gesture } from './rules.js';

/** Seconds of replay per round (logical time, whatever the pace). */
const ROUND_SECONDS = 1;
const COLORS = ['2563ebff', 'dc2626ff'] as const;
const INK = '1f2937ff';
const FIRST_ROUND_ID = 100;

/** A small picture per gesture, centred on (0, 0), about 0.16 wide. */
function drawing(gesture: Gesture | null, color: string): Shape[] {
  switch (gesture) {
    case 'ROCK':
      return [{ circle: { r: 0.07, f: `${color.slice(0, 6)}55`, s: color, t: 0.006 } }];
    case 'PAPER':
      return [{ poly: { vs: [[-0.06, -0.08], [0.06, -0.08], [0.06, 0.08], [-0.06, 0.08]], f: `${color.slice(0, 6)}22`, s: color, t: 0.006 } }];
    case 'SCISSORS':
      return [
        { line: { p1: [-0.07, -0.07], p2: [0.07, 0.07], t: 0.012, s: color } },
        { line: { p1: [-0.07, 0.07], p2: [0.07, -0.07], t: 0.012, s: color } },
      ];
    case null:
      return [{ text: { v: 'retired', t: 0.04, s: color } }];
  }
}

/** Draws a roshambo match: the two players, the gestures of the round being shown, the score. */
export class RoshamboVis {
  private nextId = FIRST_ROUND_ID;
  /** The gesture drawings on show, and the score's text. */
  private shown: number[] = [];
  private scoreId = 0;

  constructor(private readonly emit: (event: VisEventInput) => void) {}

  start(names: readonly [string, string], rounds: number): void {
    names.forEach((name, seat) => {
      this.emit({ t: 0, create: { id: 1 + seat, p: [0.27 + 0.46 * seat, 0.18], geom: [{ text: { v: name, t: 0.05, s: COLORS[seat] } }] } });
    });
    this.emit({ t: 0, create: { id: 3, p: [0.5, 0.5], geom: [{ text: { v: 'vs', t: 0.04, s: INK } }] } });
    this.score(0, [0, 0]);
    this.emit({ t: 0, log: { line: `${names[0]} against ${names[1]}, ${rounds} rounds` } });
  }

  /** One round: both gestures appear (a retired player's as "retired") and the score changes. */
  round(round: number, gestures: readonly [Gesture | null, Gesture | null], points: readonly [number, number], line: string): void {
    const t = round * ROUND_SECONDS;
    for (const id of this.shown) this.emit({ t, destroy: { id } });
    this.shown = gestures.map((gesture, seat) => {
      const id = this.nextId++;
      this.emit({ t, create: { id, p: [0.27 + 0.46 * seat, 0.5], z: 2, geom: [...drawing(gesture, COLORS[seat]), { text: { v: gesture ?? '', p: [0, 0.13], t: 0.035, s: INK } }] } });
      this.emit({ t, transform: { id, d: 0.3, f: 'easeout', scale: 1.15 } });
      return id;
    });
    this.score(t, points);
    this.emit({ t, log: { line } });
  }

  private score(t: number, points: readonly [number, number]): void {
    if (t > 0) this.emit({ t, destroy: { id: this.scoreId } });
    this.scoreId = this.nextId++;
    this.emit({ t, create: { id: this.scoreId, p: [0.5, 0.82], geom: [{ text: { v: `${points[0]} : ${points[1]}`, t: 0.07, s: INK } }] } });
  }
}
