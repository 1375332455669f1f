import { upperBound } from './timeline.js';

/**
 * Steps through a match: step k (1-based) is the moment of the k-th log line, which games write
 * once per move or event. Several lines may share a time (a roll and the move it allows); a step
 * then names one line among them even though the picture is the same, so the counter and the
 * highlighted line still advance one by one. Pure, so that it is tested under Node.
 *
 * A step is shown as it stands once done: just before the next line's moment (a move's animation
 * starts at its own line's time, so at that time the piece has not moved yet), or at the end of
 * the match for the last step.
 */

/** Before the next line by this much: far below anything a picture or a clock shows. */
const SETTLE_EPSILON = 1e-6;

export class Steps {
  /** The step last chosen by step navigation, while the time is still that step's time. */
  private pinned = 0;

  /** `times`: the log lines' times, ascending (the timeline's own array, which grows live). */
  constructor(private readonly times: readonly number[]) {}

  get total(): number {
    return this.times.length;
  }

  /**
   * The step shown at time t: the pinned one if t is still its time, else the last line at or
   * before t. Up to the start position (startTime), before any step was
   * chosen or after "First move", it is step 0, the start position, in every game: games write 0,
   * 1 or 2 setup lines with their board ("Connect four on 7 x 6", "White: ann, Black: bob"), and
   * counting them would land "First move" on a different move number in each game.
   */
  at(t: number, end: number, firstEvent = 0): number {
    if (this.pinned === 0 && t <= this.startTime(firstEvent)) return 0;
    if (this.pinned > 0 && this.pinned <= this.times.length && this.timeOf(this.pinned, end) === t) return this.pinned;
    return upperBound(this.times, t);
  }

  /** When step k (1..total) is shown: settled just before the next line, or at `end` for the last. */
  timeOf(k: number, end: number): number {
    const own = this.times[k - 1]!;
    if (k >= this.times.length) return Math.max(own, end);
    const next = this.times[k]!;
    return next - own > 2 * SETTLE_EPSILON ? next - SETTLE_EPSILON : own;
  }

  /**
   * Chooses step k (clamped to 0..total) and returns its time; step 0 is the start position
   * (startTime: a game may draw its board a little after time 0, where its picture is empty).
   */
  go(k: number, end: number, firstEvent = 0): number {
    const step = Math.min(Math.max(0, Math.round(k)), this.times.length);
    this.pinned = step;
    return step === 0 ? this.startTime(firstEvent) : this.timeOf(step, end);
  }

  /**
   * The start position's time: the board as it stands just before the first line, and never before
   * the first event. A game whose events take their times from the clock draws its board a little
   * before its first line (chess: squares at 0.0998 s, pieces at 0.1001 s, "White: ann, Black: bob"
   * at 0.1003 s); at the first event's time alone it would show the squares without pieces.
   */
  startTime(firstEvent: number): number {
    const first = this.times[0];
    return first === undefined ? firstEvent : Math.max(firstEvent, first - SETTLE_EPSILON);
  }

  /**
   * Per-move playback: the time after `dt` seconds of playing from t at `stepsPerSecond`. The
   * span from one line's moment to the next one's takes 1 / stepsPerSecond however long it lasted
   * in the match; after the last line, the rest of the match (its last animations) takes one step.
   */
  advancePerMove(t: number, dt: number, stepsPerSecond: number, end: number): number {
    let now = t;
    let budget = dt * stepsPerSecond;
    while (budget > 0 && now < end) {
      const next = upperBound(this.times, now);
      const from = next === 0 ? 0 : this.times[next - 1]!;
      const to = next < this.times.length ? this.times[next]! : end;
      const span = to - from;
      if (span <= 0) break;
      // The part of this span still ahead, in steps: spend as much of the budget as it takes.
      const left = (to - now) / span;
      if (budget < left) return now + budget * span;
      budget -= left;
      now = to;
    }
    return Math.min(now, end);
  }
}
