import { err, ok, type Result } from '../util/result.js';
import { type NormalVisEvent, VIS_EVENT_KINDS, type VisEvent, type VisEventInput, type VisEventKind } from './vis-event.js';
import { PreparedShape, type Vec2 } from './vis-shape.js';
import type { VisError, VisLimits } from './vis-limits.js';
import { DEFAULT_VIS_LIMITS } from './vis-limits.js';
import { EventChecker, Invalid, field, isId, isRecord, parseVisBody } from './vis-check.js';
import { createTail, eventClose, eventJson, eventOpen, JsonText, type VisJsonOut } from './vis-json.js';

export class VisValidator {
  readonly limits: VisLimits;
  private readonly checker: EventChecker;
  private lastT = 0;
  private count = 0;
  private readonly alive = new Set<number>();
  /** Destroyed ids with the time they went, for a helpful message when they come back. */
  private readonly destroyed = new Map<number, number>();

  constructor(limits: Partial<VisLimits> = {}) {
    this.limits = { ...DEFAULT_VIS_LIMITS, ...limits };
    this.checker = new EventChecker(this.limits);
  }

  /** The time of the last accepted event. */
  get time(): number {
    return this.lastT;
  }

  get liveObjects(): number {
    return this.alive.size;
  }

  get acceptedEvents(): number {
    return this.count;
  }

  /** One `vis` line body from an external game server (JSON or Hjson; `t` is required). */
  line(body: string): Result<VisEvent, VisError> {
    return eventOf(this.acceptLine(body));
  }

  /**
   * One event value from a built-in game. Without `t` it is stamped `now` (the match's elapsed
   * seconds), raised to the previous event's time so that the order holds.
   */
  event(input: VisEventInput | unknown, now?: number): Result<VisEvent, VisError> {
    return eventOf(this.acceptEvent(input, now));
  }

  /** As `line`, with the event's JSON text. */
  acceptLine(body: string): Result<AcceptedVisEvent, VisError> {
    const parsed = parseVisBody(body, this.limits);
    if (!parsed.ok) return parsed;
    return this.commit(parsed.value, undefined);
  }

  /** As `event`, with the event's JSON text. */
  acceptEvent(input: VisEventInput | unknown, now?: number): Result<AcceptedVisEvent, VisError> {
    return this.commit(input, now);
  }

  /**
   * As `acceptEvent`, for a caller that needs the JSON text only (no live viewer waits for the
   * event as an object). Same verdict, same error and same text as the general way.
   */
  acceptEventJson(input: VisEventInput | unknown, now?: number): Result<string, VisError> {
    const text = new JsonText();
    const error = this.acceptEventTo(input, now, text);
    return error === null ? ok(text.json) : err(error);
  }

  /**
   * As `acceptEventJson`, with the text written to `out` (nothing is written for a refused
   * event). The events of every round (a create whose shapes are all prepared, a destroy, a log
   * line) are checked without a normalized copy or any string built, and written with their
   * prepared shapes as they are; any other event, and any that fails a check, goes the general
   * way, which says why.
   */
  acceptEventTo(input: VisEventInput | unknown, now: number | undefined, out: VisJsonOut): VisError | null {
    if (!this.quickCheck(input, now)) {
      const accepted = this.commit(input, now);
      if (!accepted.ok) return accepted.error;
      out.text(accepted.value.json);
      out.end();
      return null;
    }
    const quick = this.quick;
    const t = this.sequence(quick.kind, quick.id, quick.t, now);
    if (typeof t !== 'number') return t;
    const timeFirst = quick.t !== undefined;
    switch (quick.kind) {
      case 'destroy':
        out.text(`${eventOpen('destroy', t, timeFirst)}{"id":${quick.id}}${eventClose(t, timeFirst)}`);
        break;
      case 'log':
        out.text(`${eventOpen('log', t, timeFirst)}{"line":${JSON.stringify(quick.line)}}${eventClose(t, timeFirst)}`);
        break;
      default:
        out.text(`${eventOpen('create', t, timeFirst)}{"id":${quick.id},"geom":[`);
        for (let i = 0; i < quick.geom.length; i++) out.shape(quick.geom[i] as PreparedShape, i > 0);
        out.text(`${createTail(quick.p as Vec2 | undefined, quick.z as number | undefined)}${eventClose(t, timeFirst)}`);
    }
    out.end();
    return null;
  }

  /** What `quickCheck` found (kept between events, so that a round's events allocate nothing). */
  private readonly quick: {
    kind: VisEventKind;
    id: number | undefined;
    t: number | undefined;
    line: string;
    geom: readonly unknown[];
    p: unknown;
    z: unknown;
  } = { kind: 'log', id: undefined, t: undefined, line: '', geom: [], p: undefined, z: undefined };

  /**
   * Whether `value` is an everyday event that passes every check of EventChecker: a destroy, a
   * log line, or a create whose shapes are all prepared. False for any other event and when a
   * check fails (the general way then says which).
   */
  private quickCheck(value: unknown, now: number | undefined): boolean {
    if (!isRecord(value)) return false;
    let kind: VisEventKind | null = null;
    for (const candidate of VIS_EVENT_KINDS) {
      if (field(value, candidate) === undefined) continue;
      if (kind !== null) return false;
      kind = candidate;
    }
    const t = field(value, 't');
    if (t === undefined ? now === undefined : typeof t !== 'number' || !Number.isFinite(t) || t < 0) return false;
    const body = kind === null ? undefined : field(value, kind);
    if (!isRecord(body)) return false;
    const quick = this.quick;
    quick.t = t as number | undefined;
    quick.id = undefined;
    switch (kind) {
      case 'destroy': {
        const id = field(body, 'id');
        if (!isId(id)) return false;
        quick.kind = kind;
        quick.id = id;
        return true;
      }
      case 'log': {
        const line = field(body, 'line');
        if (typeof line !== 'string' || line.length > this.limits.maxTextLength) return false;
        quick.kind = kind;
        quick.line = line;
        return true;
      }
      case 'create': {
        const id = field(body, 'id');
        if (!isId(id)) return false;
        const p = field(body, 'p');
        if (p !== undefined && !(Array.isArray(p) && p.length === 2 && this.isNumber(p[0]) && this.isNumber(p[1]))) return false;
        const z = field(body, 'z');
        if (z !== undefined && (typeof z !== 'number' || !Number.isInteger(z) || z < 0 || z > 255)) return false;
        const geom = field(body, 'geom') ?? [];
        if (!Array.isArray(geom) || geom.length > this.limits.maxShapesPerObject) return false;
        for (let i = 0; i < geom.length; i++) {
          const shape: unknown = geom[i];
          if (!(shape instanceof PreparedShape) || !shape.valid || !shape.checkedUnder(this.limits)) return false;
        }
        quick.kind = kind;
        quick.id = id;
        quick.geom = geom;
        quick.p = p;
        quick.z = z;
        return true;
      }
      default:
        return false;
    }
  }

  private isNumber(value: unknown): boolean {
    return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= this.limits.maxMagnitude;
  }

  private commit(value: unknown, now: number | undefined): Result<AcceptedVisEvent, VisError> {
    let input: NormalVisEvent;
    try {
      input = this.checker.event(value, now === undefined);
    } catch (e) {
      if (e instanceof Invalid) return err(e.detail);
      throw e;
    }
    const kind = 'create' in input ? 'create' : 'destroy' in input ? 'destroy' : 'transform' in input ? 'transform' : 'log';
    const id = 'create' in input ? input.create.id : 'destroy' in input ? input.destroy.id : 'transform' in input ? input.transform.id : undefined;
    const t = this.sequence(kind, id, input.t, now);
    if (typeof t !== 'number') return err(t);
    // `t` comes first if the game gave it, last if the runtime stamped it, as in `{ ...input, t }`.
    const timeFirst = input.t !== undefined;
    const event = { ...input, t } as VisEvent;
    return ok({ event, json: eventJson(event, 'create' in event ? this.checker.prepared : [], timeFirst) });
  }

  /**
   * The sequence rules for an event whose fields passed: its time (`given`, or `now` raised to the
   * last event's), or why it is refused. An accepted event is committed.
   */
  private sequence(kind: VisEventKind, id: number | undefined, given: number | undefined, now: number | undefined): number | VisError {
    if (this.count >= this.limits.maxEvents) {
      return { code: 'vis/too-many-events', message: `more than ${this.limits.maxEvents} events in one match` };
    }
    let t: number;
    if (given === undefined) {
      t = Math.max(this.lastT, Number.isFinite(now) && now! > 0 ? now! : 0);
    } else {
      if (given < this.lastT) {
        return { code: 'vis/t-decreasing', message: `t: ${given} is earlier than the previous event's ${this.lastT}` };
      }
      t = given;
    }
    const sequenceError = this.checkSequence(kind, id);
    if (sequenceError) return sequenceError;
    if (kind === 'create') this.alive.add(id!);
    else if (kind === 'destroy') {
      this.alive.delete(id!);
      this.destroyed.set(id!, t);
    }
    this.lastT = t;
    this.count++;
    return t;
  }

  private checkSequence(kind: VisEventKind, id: number | undefined): VisError | null {
    if (kind === 'create') {
      if (this.alive.has(id!)) return { code: 'vis/id-reused', message: `create.id: object ${id} already exists` };
      const gone = this.destroyed.get(id!);
      if (gone !== undefined) {
        return { code: 'vis/id-reused', message: `create.id: object ${id} was destroyed at t=${gone}; ids are never reused` };
      }
      if (this.alive.size >= this.limits.maxObjects) {
        return { code: 'vis/too-many-objects', message: `more than ${this.limits.maxObjects} objects at once` };
      }
      return null;
    }
    if (kind === 'log' || this.alive.has(id!)) return null;
    const target = id!;
    const gone = this.destroyed.get(target);
    return {
      code: 'vis/unknown-id',
      message: `${kind}.id: object ${target} ${gone === undefined ? 'does not exist' : `was destroyed at t=${gone}`}`,
    };
  }
}

/** An event the validator accepted, with its JSON text (as `JSON.stringify(event)` writes it). */
export interface AcceptedVisEvent {
  readonly event: VisEvent;
  readonly json: string;
}

function eventOf(result: Result<AcceptedVisEvent, VisError>): Result<VisEvent, VisError> {
  return result.ok ? ok(result.value.event) : result;
}
