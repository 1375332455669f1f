import { err, ok, type Result } from '../util/result.js';
import { utf8Length } from './utf8-length.js';
import { parseHjson } from './hjson-lite.js';
import { type CreateBody, EASINGS, type Easing, type NormalVisEvent, type TransformBody, VIS_EVENT_KINDS, type VisEventKind } from './vis-event.js';
import { DEFAULT_VIS_LIMITS, type VisError, type VisErrorCode, type VisLimits } from './vis-limits.js';
import { PreparedShape, SHAPE_KINDS, type Color, type Shape, type Vec2 } from './vis-shape.js';

/**
 * The check of one visualizer event's shape (fields, colours, numbers, the limits per event), for
 * `vis` lines of external game servers (JSON or Hjson text) and the event values of built-in games
 * alike. The rules of a sequence of events are VisValidator's (vis-validate.ts).
 */

const COLOR = /^[0-9a-fA-F]{8}$/;

export class Invalid extends Error {
  constructor(readonly detail: VisError) {
    super(detail.message);
  }
}

function show(value: unknown): string {
  if (value === undefined) return 'missing';
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 40 ? `${text.slice(0, 40)}...` : text;
  } catch {
    return String(value);
  }
}

type Fields = Record<string, unknown>;

export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own field; `null` counts as absent, as an omitted optional field does in the reference. */
export function field(record: Fields, key: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  const value = record[key];
  return value === null ? undefined : value;
}

export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Which of `kinds` are present in `record`. */
function kindsIn<K extends string>(record: Fields, kinds: readonly K[]): K[] {
  return kinds.filter((kind) => field(record, kind) !== undefined);
}


export function prepareShape(shape: Shape, limits: VisLimits = DEFAULT_VIS_LIMITS): PreparedShape {
  try {
    const normal = deepFreeze(new EventChecker(limits).shapeAlone(shape));
    return new PreparedShape(shape, normal, JSON.stringify(normal), limits);
  } catch (e) {
    if (e instanceof Invalid) return new PreparedShape(shape, null, null, limits);
    throw e;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * Checks the shape of one event, without the sequence rules (time order, ids), and returns it
 * normalized: only the known fields, absent optional fields left out. The path to the field being
 * checked is kept as a stack and turned into text only for an error message, so that a valid
 * event (the common case, thousands a second on a busy server) builds no strings.
 */
export class EventChecker {
  private readonly path: (string | number)[] = [];
  /**
   * The shapes of the last create checked that were prepared (null for the others), so that the
   * event's text is put together from theirs.
   */
  prepared: (PreparedShape | null)[] = [];

  constructor(private readonly limits: VisLimits) {}

  /** One shape on its own (prepareShape). */
  shapeAlone(value: unknown): Shape {
    this.path.length = 0;
    return this.shape(value);
  }

  event(value: unknown, requireTime: boolean): NormalVisEvent {
    this.path.length = 0;
    if (!isRecord(value)) this.fail('vis/bad-event', `an event must be an object, got ${show(value)}`);
    const kinds = kindsIn(value, VIS_EVENT_KINDS);
    if (kinds.length !== 1) {
      this.fail('vis/bad-event', `an event needs exactly one of ${VIS_EVENT_KINDS.join(', ')}; found ${kinds.length === 0 ? 'none' : kinds.join(', ')}`);
    }
    const rawT = field(value, 't');
    let t: number | undefined;
    if (rawT === undefined) {
      if (requireTime) this.failAt('t', 'vis/bad-time', 'every event needs a time t (seconds)');
    } else {
      if (typeof rawT !== 'number' || !Number.isFinite(rawT) || rawT < 0) {
        this.failAt('t', 'vis/bad-time', `${show(rawT)} is not a time in seconds (a number >= 0)`);
      }
      t = rawT;
    }
    const kind = kinds[0]!;
    const body = field(value, kind);
    this.path.push(kind);
    if (!isRecord(body)) this.fail('vis/bad-event', `must be an object, got ${show(body)}`);
    let event: NormalVisEvent;
    switch (kind) {
      case 'create':
        event = { create: this.create(body) };
        break;
      case 'destroy':
        event = { destroy: { id: this.id(body) } };
        break;
      case 'transform':
        event = { transform: this.transform(body) };
        break;
      case 'log':
        event = { log: { line: this.text(field(body, 'line'), 'line') } };
        break;
    }
    return t === undefined ? event : { t, ...event };
  }

  private create(body: Fields): CreateBody {
    const id = this.id(body);
    const p = this.optionalPoint(field(body, 'p'), 'p');
    const rawZ = field(body, 'z');
    if (rawZ !== undefined && (typeof rawZ !== 'number' || !Number.isInteger(rawZ) || rawZ < 0 || rawZ > 255)) {
      this.failAt('z', 'vis/bad-number', `${show(rawZ)} is not a layer from 0 to 255`);
    }
    const rawGeom = field(body, 'geom') ?? [];
    if (!Array.isArray(rawGeom)) this.failAt('geom', 'vis/bad-shape', `must be a list of shapes, got ${show(rawGeom)}`);
    if (rawGeom.length > this.limits.maxShapesPerObject) {
      this.failAt('geom', 'vis/too-many-shapes', `${rawGeom.length} shapes, at most ${this.limits.maxShapesPerObject}`);
    }
    this.path.push('geom', 0);
    const geom: Shape[] = [];
    const prepared: (PreparedShape | null)[] = [];
    for (let i = 0; i < rawGeom.length; i++) {
      this.path[this.path.length - 1] = i;
      const item: unknown = rawGeom[i];
      if (item instanceof PreparedShape) {
        if (item.shape !== null && item.checkedUnder(this.limits)) {
          geom.push(item.shape);
          prepared.push(item);
        } else {
          // Checked again here, for the error message with its place in the event (or other limits).
          geom.push(this.shape(item.raw));
          prepared.push(null);
        }
      } else {
        geom.push(this.shape(item));
        prepared.push(null);
      }
    }
    this.prepared = prepared;
    this.path.length -= 2;
    const create: { id: number; p?: Vec2; z?: number; geom: Shape[] } = { id, geom };
    if (p !== undefined) create.p = p;
    if (rawZ !== undefined) create.z = rawZ as number;
    return create;
  }

  private shape(value: unknown): Shape {
    if (!isRecord(value)) this.fail('vis/bad-shape', `a shape must be an object, got ${show(value)}`);
    const kinds = kindsIn(value, SHAPE_KINDS);
    if (kinds.length !== 1) {
      this.fail('vis/bad-shape', `a shape needs exactly one of ${SHAPE_KINDS.join(', ')}; found ${kinds.length === 0 ? 'none' : kinds.join(', ')}`);
    }
    const kind = kinds[0]!;
    const body = field(value, kind);
    this.path.push(kind);
    if (!isRecord(body)) this.fail('vis/bad-shape', `must be an object, got ${show(body)}`);
    const s = this.optionalColor(field(body, 's'), 's');
    const t = this.optionalSize(field(body, 't'), 't');
    let shape: Shape;
    switch (kind) {
      case 'line': {
        const line: { p1: Vec2; p2: Vec2; t?: number; s?: Color } = { p1: this.point(field(body, 'p1'), 'p1'), p2: this.point(field(body, 'p2'), 'p2') };
        if (t !== undefined) line.t = t;
        if (s !== undefined) line.s = s;
        shape = { line };
        break;
      }
      case 'circle': {
        const circle: { p?: Vec2; r?: number; f?: Color; s?: Color; t?: number } = {};
        const p = this.optionalPoint(field(body, 'p'), 'p');
        const r = this.optionalSize(field(body, 'r'), 'r');
        const f = this.optionalColor(field(body, 'f'), 'f');
        if (p !== undefined) circle.p = p;
        if (r !== undefined) circle.r = r;
        if (f !== undefined) circle.f = f;
        if (s !== undefined) circle.s = s;
        if (t !== undefined) circle.t = t;
        shape = { circle };
        break;
      }
      case 'poly': {
        const rawVs = field(body, 'vs');
        if (!Array.isArray(rawVs)) this.failAt('vs', 'vis/bad-shape', `a polygon needs a list of vertices, got ${show(rawVs)}`);
        if (rawVs.length > this.limits.maxPolygonVertices) {
          this.failAt('vs', 'vis/too-many-vertices', `${rawVs.length} vertices, at most ${this.limits.maxPolygonVertices}`);
        }
        this.path.push('vs');
        const vs: Vec2[] = [];
        for (let i = 0; i < rawVs.length; i++) vs.push(this.point(rawVs[i], i));
        this.path.pop();
        const poly: { vs: Vec2[]; f?: Color; s?: Color; t?: number } = { vs };
        const f = this.optionalColor(field(body, 'f'), 'f');
        if (f !== undefined) poly.f = f;
        if (s !== undefined) poly.s = s;
        if (t !== undefined) poly.t = t;
        shape = { poly };
        break;
      }
      case 'text': {
        const text: { v: string; p?: Vec2; t?: number; s?: Color } = { v: this.text(field(body, 'v'), 'v') };
        const p = this.optionalPoint(field(body, 'p'), 'p');
        if (p !== undefined) text.p = p;
        if (t !== undefined) text.t = t;
        if (s !== undefined) text.s = s;
        shape = { text };
        break;
      }
    }
    this.path.pop();
    return shape;
  }

  private transform(body: Fields): TransformBody {
    const transform: { id: number; d?: number; f?: Easing; mv?: Vec2; rot?: number; scale?: number } = { id: this.id(body) };
    const rawD = field(body, 'd');
    if (rawD !== undefined) transform.d = this.size(rawD, 'd');
    const rawF = field(body, 'f');
    if (rawF !== undefined) {
      if (typeof rawF !== 'string' || !(EASINGS as readonly string[]).includes(rawF)) {
        this.failAt('f', 'vis/bad-easing', `${show(rawF)} is not one of ${EASINGS.join(', ')}`);
      }
      transform.f = rawF as Easing;
    }
    const kinds = kindsIn(body, ['mv', 'rot', 'scale'] as const);
    if (kinds.length !== 1) {
      this.fail('vis/bad-transform', `needs exactly one of mv, rot, scale; found ${kinds.length === 0 ? 'none' : kinds.join(', ')}`);
    }
    switch (kinds[0]!) {
      case 'mv':
        transform.mv = this.point(field(body, 'mv'), 'mv');
        break;
      case 'rot':
        transform.rot = this.number(field(body, 'rot'), 'rot');
        break;
      case 'scale':
        transform.scale = this.number(field(body, 'scale'), 'scale');
        break;
    }
    return transform;
  }

  private id(body: Fields): number {
    const id = field(body, 'id');
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) {
      this.failAt('id', 'vis/bad-id', `${show(id)} is not an object id (an integer >= 0)`);
    }
    return id;
  }

  private number(value: unknown, key: string | number): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > this.limits.maxMagnitude) {
      this.failAt(key, 'vis/bad-number', `${show(value)} is not a number within +-${this.limits.maxMagnitude}`);
    }
    return value;
  }

  private size(value: unknown, key: string): number {
    const n = this.number(value, key);
    if (n < 0) this.failAt(key, 'vis/bad-number', `${n} is negative`);
    return n;
  }

  private optionalSize(value: unknown, key: string): number | undefined {
    return value === undefined ? undefined : this.size(value, key);
  }

  private point(value: unknown, key: string | number): Vec2 {
    if (!Array.isArray(value) || value.length !== 2) this.failAt(key, 'vis/bad-number', `${show(value)} is not a point [x, y]`);
    this.path.push(key);
    const point: Vec2 = [this.number(value[0], 0), this.number(value[1], 1)];
    this.path.pop();
    return point;
  }

  private optionalPoint(value: unknown, key: string): Vec2 | undefined {
    return value === undefined ? undefined : this.point(value, key);
  }

  private optionalColor(value: unknown, key: string): Color | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !COLOR.test(value)) {
      this.failAt(key, 'vis/bad-color', `${show(value)} is not a colour of exactly 8 hex digits RRGGBBAA`);
    }
    return value;
  }

  private text(value: unknown, key: string): string {
    if (typeof value !== 'string') this.failAt(key, 'vis/bad-text', `${show(value)} is not a string`);
    if (value.length > this.limits.maxTextLength) {
      this.failAt(key, 'vis/bad-text', `${value.length} characters, at most ${this.limits.maxTextLength}`);
    }
    return value;
  }

  private failAt(key: string | number, code: VisErrorCode, message: string): never {
    this.path.push(key);
    this.fail(code, message);
  }

  /** Throws the error, naming the field being checked (`create.geom[1].circle.f`). */
  private fail(code: VisErrorCode, message: string): never {
    const where = this.path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
    throw new Invalid({ code, message: where ? `${where}: ${message}` : message });
  }
}

/** Parses the text after `vis ` into a plain value, without checking it is an event. */
export function parseVisBody(body: string, limits: VisLimits = DEFAULT_VIS_LIMITS): Result<unknown, VisError> {
  const bytes = utf8Length(body);
  if (bytes > limits.maxLineBytes) {
    return err({ code: 'vis/too-large', message: `the event is ${bytes} bytes, at most ${limits.maxLineBytes}` });
  }
  const parsed = parseHjson(body, { maxChars: limits.maxLineBytes, maxDepth: limits.maxDepth });
  if (parsed.ok) return parsed;
  const code: VisErrorCode = parsed.error.code === 'hjson/too-deep' ? 'vis/too-large' : 'vis/bad-syntax';
  return err({ code, message: `not JSON or Hjson: ${parsed.error.message}` });
}

/** Checks one event's shape (fields, colours, numbers, limits per event), not its place in a sequence. */
export function checkVisEvent(
  value: unknown,
  options: { requireTime: boolean; limits?: VisLimits } = { requireTime: true },
): Result<NormalVisEvent, VisError> {
  try {
    return ok(new EventChecker(options.limits ?? DEFAULT_VIS_LIMITS).event(value, options.requireTime));
  } catch (e) {
    if (e instanceof Invalid) return err(e.detail);
    throw e;
  }
}

/**
 * The sequence rules of one match's events: `t` never decreases, ids are unique and never reused
 * after a destroy, transform and destroy name a live object, and the limits on live objects and
 * events hold. An event is committed only when it is valid, so a rejected event changes nothing.
 */
