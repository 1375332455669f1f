import type { Easing, VisEvent } from '../src/protocol/vis-event.js';
import type { Shape, Vec2 } from '../src/protocol/vis-shape.js';
import { DEFAULT_EASING, ease } from './easing.js';

/**
 * The scene of a match as a pure function of time: given the visualizer events, the state of
 * every object at any time t, so that playing, scrubbing backwards and jumping all give exactly
 * the same picture for the same t.
 *
 * Semantics (notes/game-server-protocol.md): an object exists from its create's t (inclusive) to
 * its destroy's t (exclusive). A transform starts at its event's t and lasts d seconds; its change
 * is relative, so overlapping transforms add up (moves and rotations add, scale factors multiply).
 * Position, rotation and scale are independent, so the order of transforms does not matter.
 *
 * Cost: events are indexed per object and per kind of change, with prefix sums of finished
 * changes, so one object's state is a binary search plus the few transforms still running. The
 * objects whose state may differ between two times come from an index of "change spans" sorted by
 * start, so a frame of playback looks only at what moves.
 */
export interface ObjectState {
  readonly x: number;
  readonly y: number;
  /** Radians, clockwise on screen (y points down). */
  readonly rot: number;
  readonly scale: number;
}

export interface SceneObject {
  readonly id: number;
  readonly z: number;
  /** Creation order, which orders objects on the same layer (later on top). */
  readonly order: number;
  readonly geom: readonly Shape[];
  readonly createdAt: number;
  /** Infinity while the object is not destroyed. */
  readonly destroyedAt: number;
}

export interface LogLine {
  readonly t: number;
  readonly line: string;
}

/** Spans longer than this are kept apart and checked every frame, so that one long transform does not widen every query. */
const LONG_SPAN_SECONDS = 10;

/** First index in the ascending `values` whose value is greater than `x`. */
export function upperBound(values: readonly number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in the ascending `values` whose value is at least `x`. */
export function lowerBound(values: readonly number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One kind of change of one object (moves, rotations or scalings), in start order. `combine` is
 * addition for moves and rotations, multiplication for scale factors; the identity is 0 or 1.
 */
class Channel {
  private readonly starts: number[] = [];
  private readonly durations: number[] = [];
  private readonly easings: Easing[] = [];
  private readonly dx: number[] = [];
  private readonly dy: number[] = [];
  /** prefixX[k]: the first k changes combined, all finished. */
  private readonly prefixX: number[];
  private readonly prefixY: number[];
  private maxDuration = 0;

  constructor(private readonly multiply: boolean) {
    const identity = multiply ? 1 : 0;
    this.prefixX = [identity];
    this.prefixY = [identity];
  }

  get size(): number {
    return this.starts.length;
  }

  add(start: number, duration: number, easing: Easing, dx: number, dy: number): void {
    const k = this.starts.length;
    this.starts.push(start);
    this.durations.push(duration);
    this.easings.push(easing);
    this.dx.push(dx);
    this.dy.push(dy);
    this.prefixX.push(this.combine(this.prefixX[k]!, dx));
    this.prefixY.push(this.combine(this.prefixY[k]!, dy));
    if (duration > this.maxDuration) this.maxDuration = duration;
  }

  private combine(acc: number, part: number): number {
    return this.multiply ? acc * part : acc + part;
  }

  /** The combined change at time t, as [x, y]. */
  at(t: number): [number, number] {
    const started = upperBound(this.starts, t);
    // Changes that started before t - maxDuration are finished: take them from the prefix.
    let first = started;
    while (first > 0 && this.starts[first - 1]! >= t - this.maxDuration) first--;
    let x = this.prefixX[first]!;
    let y = this.prefixY[first]!;
    for (let i = first; i < started; i++) {
      const d = this.durations[i]!;
      const progress = d > 0 ? (t - this.starts[i]!) / d : 1;
      if (progress >= 1) {
        x = this.combine(x, this.dx[i]!);
        y = this.combine(y, this.dy[i]!);
      } else {
        const e = ease(this.easings[i]!, progress);
        // A scale factor k is applied as 1 + (k - 1) e, which also works for 0 and negative factors.
        x = this.combine(x, this.multiply ? 1 + (this.dx[i]! - 1) * e : this.dx[i]! * e);
        y = this.combine(y, this.multiply ? 1 + (this.dy[i]! - 1) * e : this.dy[i]! * e);
      }
    }
    return [x, y];
  }
}

class Track implements SceneObject {
  destroyedAt = Infinity;
  readonly moves = new Channel(false);
  readonly rotations = new Channel(false);
  readonly scales = new Channel(true);

  constructor(
    readonly id: number,
    readonly z: number,
    readonly order: number,
    readonly origin: Vec2,
    readonly geom: readonly Shape[],
    readonly createdAt: number,
  ) {}

  stateAt(t: number): ObjectState | null {
    if (t < this.createdAt || t >= this.destroyedAt) return null;
    const [mx, my] = this.moves.size > 0 ? this.moves.at(t) : [0, 0];
    const rot = this.rotations.size > 0 ? this.rotations.at(t)[0] : 0;
    const scale = this.scales.size > 0 ? this.scales.at(t)[0] : 1;
    return { x: this.origin[0] + mx, y: this.origin[1] + my, rot, scale };
  }
}

/** What an append changed, for a renderer that only redraws what it must. */
export interface AppendResult {
  /** Objects created, destroyed or transformed by the new events. */
  readonly objects: ReadonlySet<number>;
  readonly logsAdded: number;
}

export class Timeline {
  private readonly tracks = new Map<number, Track>();
  private readonly logLines: LogLine[] = [];
  private readonly logTimes: number[] = [];
  // Change spans [start, end] of short changes, in start order (events come in time order).
  private readonly spanStarts: number[] = [];
  private readonly spanEnds: number[] = [];
  private readonly spanIds: number[] = [];
  private maxShortSpan = 0;
  private readonly longSpans: { start: number; end: number; id: number }[] = [];
  private lastT = 0;
  private firstT = 0;
  private end = 0;
  private eventCount = 0;
  private ignored = 0;

  constructor(events: readonly VisEvent[] = []) {
    this.append(events);
  }

  /** The time of the first event: when the picture is first drawn (0 while there is none). */
  get firstEventTime(): number {
    return this.firstT;
  }

  /** The time of the latest event. */
  get lastEventTime(): number {
    return this.lastT;
  }

  /** When the last change ends: the latest event or the end of the latest transform. */
  get endTime(): number {
    return this.end;
  }

  get size(): number {
    return this.eventCount;
  }

  /** Events that could not apply (unknown or reused id); the server validates, so normally 0. */
  get ignoredEvents(): number {
    return this.ignored;
  }

  get logs(): readonly LogLine[] {
    return this.logLines;
  }

  /** The log lines' times, ascending (the array grows as events arrive). */
  get logMoments(): readonly number[] {
    return this.logTimes;
  }

  object(id: number): SceneObject | undefined {
    return this.tracks.get(id);
  }

  /** Adds events at the end. A time earlier than the previous event's is taken as equal to it. */
  append(events: readonly VisEvent[]): AppendResult {
    const objects = new Set<number>();
    let logsAdded = 0;
    for (const event of events) {
      const t = Math.max(this.lastT, Number.isFinite(event.t) ? event.t : this.lastT);
      this.lastT = t;
      if (t > this.end) this.end = t;
      if (this.eventCount === 0) this.firstT = t;
      this.eventCount++;
      if ('create' in event) {
        const { id, p, z, geom } = event.create;
        if (this.tracks.has(id)) {
          this.ignored++;
          continue;
        }
        this.tracks.set(id, new Track(id, z ?? 1, this.tracks.size, p ?? [0, 0], geom ?? [], t));
        this.addSpan(t, t, id);
        objects.add(id);
      } else if ('destroy' in event) {
        const track = this.live(event.destroy.id);
        if (!track) continue;
        track.destroyedAt = t;
        this.addSpan(t, t, track.id);
        objects.add(track.id);
      } else if ('transform' in event) {
        const { id, d, f, mv, rot, scale } = event.transform;
        const track = this.live(id);
        if (!track) continue;
        const duration = d !== undefined && d > 0 && Number.isFinite(d) ? d : 0;
        const easing = f ?? DEFAULT_EASING;
        if (mv !== undefined) track.moves.add(t, duration, easing, mv[0], mv[1]);
        else if (rot !== undefined) track.rotations.add(t, duration, easing, rot, 0);
        else if (scale !== undefined) track.scales.add(t, duration, easing, scale, 1);
        this.addSpan(t, t + duration, id);
        if (t + duration > this.end) this.end = t + duration;
        objects.add(id);
      } else if ('log' in event) {
        this.logLines.push({ t, line: event.log.line });
        this.logTimes.push(t);
        logsAdded++;
      }
    }
    return { objects, logsAdded };
  }

  private live(id: number): Track | undefined {
    const track = this.tracks.get(id);
    if (!track || track.destroyedAt !== Infinity) {
      this.ignored++;
      return undefined;
    }
    return track;
  }

  private addSpan(start: number, end: number, id: number): void {
    if (end - start > LONG_SPAN_SECONDS) {
      this.longSpans.push({ start, end, id });
      return;
    }
    this.spanStarts.push(start);
    this.spanEnds.push(end);
    this.spanIds.push(id);
    if (end - start > this.maxShortSpan) this.maxShortSpan = end - start;
  }

  /** The state of one object at time t, or null when it does not exist at t. */
  stateAt(id: number, t: number): ObjectState | null {
    const track = this.tracks.get(id);
    return track ? track.stateAt(t) : null;
  }

  /**
   * The ids of the objects whose state may differ between times a and b (in either order): every
   * object that is created, destroyed or transformed somewhere in [a, b]. Any other object is in
   * the same state at a and at b.
   */
  changedBetween(a: number, b: number): Set<number> {
    const from = Math.min(a, b);
    const to = Math.max(a, b);
    const ids = new Set<number>();
    const first = lowerBound(this.spanStarts, from - this.maxShortSpan);
    const last = upperBound(this.spanStarts, to);
    for (let i = first; i < last; i++) if (this.spanEnds[i]! >= from) ids.add(this.spanIds[i]!);
    for (const span of this.longSpans) if (span.start <= to && span.end >= from) ids.add(span.id);
    return ids;
  }

  /** Every object existing at time t with its state, in drawing order (z, then creation). */
  sceneAt(t: number): { object: SceneObject; state: ObjectState }[] {
    const scene: { object: SceneObject; state: ObjectState }[] = [];
    for (const track of this.tracks.values()) {
      const state = track.stateAt(t);
      if (state) scene.push({ object: track, state });
    }
    return scene.sort((p, q) => p.object.z - q.object.z || p.object.order - q.object.order);
  }

  /** How many log lines are visible at time t (those with a time up to t). */
  logCountAt(t: number): number {
    return upperBound(this.logTimes, t);
  }
}
