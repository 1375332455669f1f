import { err, ok, type Result } from '../util/result.js';
import { utf8Length } from './utf8-length.js';
import { parseHjson } from './hjson-lite.js';
import {
  EASINGS,
  SHAPE_KINDS,
  VIS_EVENT_KINDS,
  type Color,
  type VisEventKind,
  type CreateBody,
  type Easing,
  type NormalVisEvent,
  type Shape,
  type TransformBody,
  type Vec2,
  type VisEvent,
  type VisEventInput,
} from './vis-event.js';

/**
 * Validation of visualizer events (notes/game-server-protocol.md), for `vis` lines of external
 * game servers (JSON or Hjson text) and for the event values of built-in games alike: one typed
 * result, one set of stable error codes, one set of limits.
 */
export const VIS_ERROR_CODES = [
  /** Neither JSON nor the Hjson subset we read. */
  'vis/bad-syntax',
  /** The line is longer than `maxLineBytes`, or nested too deep. */
  'vis/too-large',
  /** Not an object with exactly one of create, destroy, transform, log. */
  'vis/bad-event',
  /** `t` missing, negative or not a number. */
  'vis/bad-time',
  /** `t` earlier than the previous event's. */
  'vis/t-decreasing',
  /** An id that is not a non-negative integer. */
  'vis/bad-id',
  /** create with an id that exists or existed. */
  'vis/id-reused',
  /** transform or destroy of an id that does not exist (never created, or destroyed). */
  'vis/unknown-id',
  /** A shape that is not exactly one of line, circle, poly, text, or lacks a required field. */
  'vis/bad-shape',
  /** A colour that is not exactly 8 hex digits RRGGBBAA. */
  'vis/bad-color',
  /** A number that is not finite, out of its range, or a point that is not [x, y]. */
  'vis/bad-number',
  /** A text (log line, text shape) that is not a string or is too long. */
  'vis/bad-text',
  /** A transform without exactly one of mv, rot, scale. */
  'vis/bad-transform',
  /** An easing other than step, linear, easin, easeout, easeinout. */
  'vis/bad-easing',
  'vis/too-many-objects',
  'vis/too-many-shapes',
  'vis/too-many-vertices',
  'vis/too-many-events',
] as const;
export type VisErrorCode = (typeof VIS_ERROR_CODES)[number];

export interface VisError {
  readonly code: VisErrorCode;
  /** For the game's author: where and what (`create.geom[1].circle.f: "red" is not RRGGBBAA`). */
  readonly message: string;
}

export interface VisLimits {
  /** UTF-8 bytes of one line body (after `vis `); the controller's line limit is 1024. */
  readonly maxLineBytes: number;
  /** Nesting depth of objects and arrays in a line. */
  readonly maxDepth: number;
  /** Objects alive at the same time. */
  readonly maxObjects: number;
  /** Shapes in one create. */
  readonly maxShapesPerObject: number;
  /** Vertices of one polygon. */
  readonly maxPolygonVertices: number;
  /** Characters of a log line or a text shape. */
  readonly maxTextLength: number;
  /** Events in one match (the record and every replay keep them all). */
  readonly maxEvents: number;
  /** Largest magnitude of a coordinate, size, angle or factor. */
  readonly maxMagnitude: number;
}

export const DEFAULT_VIS_LIMITS: VisLimits = {
  maxLineBytes: 1024,
  maxDepth: 16,
  maxObjects: 10_000,
  maxShapesPerObject: 1024,
  maxPolygonVertices: 1024,
  maxTextLength: 1024,
  maxEvents: 250_000,
  maxMagnitude: 1e6,
};

const COLOR = /^[0-9a-fA-F]{8}$/;

class Invalid extends Error {
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

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own field; `null` counts as absent, as an omitted optional field does in the reference. */
function field(record: Fields, key: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  const value = record[key];
  return value === null ? undefined : value;
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Which of `kinds` are present in `record`. */
function kindsIn<K extends string>(record: Fields, kinds: readonly K[]): K[] {
  return kinds.filter((kind) => field(record, kind) !== undefined);
}

type TextShape = Extract<Shape, { text: unknown }>;

/**
 * A shape checked once and kept with its JSON text. A game that draws the same shape in many
 * events (a gesture, a piece, a label) prepares it once: an event holding it then costs neither a
 * check nor a serialization of that shape, which is most of what an event costs (printing decimal
 * coordinates). Its JSON is also kept as UTF-8 bytes (made when first asked for), which a log of
 * events can share instead of encoding them again (VisJsonOut). Made by `prepareShape`. An invalid
 * shape is kept as given: the event holding it is refused with the error it would have had
 * unprepared.
 */
export class PreparedShape {
  private given: Shape | null;
  private normal: Shape | null | undefined;
  /** The JSON text; undefined until asked for, for a shape made by `withText` (most are written as bytes only). */
  private jsonText: string | null | undefined;
  private utf8: Uint8Array | undefined;
  /** For a text shape: its JSON after the text `v` (`,"p":[...],...}}`), as text and as bytes. */
  private tail: string | undefined;
  private tailUtf8: Uint8Array | undefined;

  /** Use `prepareShape` (or `withText`). */
  constructor(
    given: Shape | null,
    normal: Shape | null | undefined,
    /** `JSON.stringify(shape)`, null if the shape is invalid, undefined to be made from `base`. */
    json: string | null | undefined,
    /** The limits it was checked against. */
    readonly limits: VisLimits,
    /** For `withText`: the prepared text shape this one changes, and its new text. */
    readonly base: PreparedShape | null = null,
    readonly newText = '',
  ) {
    this.given = given;
    this.normal = normal;
    this.jsonText = json;
  }

  /** Whether the shape passed its check (an event holding it can be accepted). */
  get valid(): boolean {
    return this.jsonText !== null;
  }

  /** `JSON.stringify(shape)`, or null if the shape is invalid. */
  get json(): string | null {
    if (this.jsonText === undefined) this.jsonText = `${this.jsonHead}${this.base!.textTail}`;
    return this.jsonText;
  }

  /**
   * The part of the JSON this shape has of its own: empty for a prepared shape, the text for one
   * made by `withText` (`{"text":{"v":"2 : 1"`). The rest is `sharedJson`.
   */
  get jsonHead(): string {
    return this.base === null ? '' : `${TEXT_JSON_HEAD}${JSON.stringify(this.newText)}`;
  }

  /**
   * The UTF-8 bytes of the JSON after `jsonHead`, one buffer shared by every event that holds
   * this shape (or, after `withText`, a shape made from the same prepared one). Only for a valid
   * shape.
   */
  get sharedJson(): Uint8Array {
    if (this.base !== null) return this.base.textTailBytes;
    return (this.utf8 ??= UTF8.encode(this.json!));
  }

  /** The shape as the game gave it. */
  get raw(): Shape {
    return (this.given ??= { text: { ...(this.base!.raw as TextShape).text, v: this.newText } });
  }

  /** The normalized shape (frozen), or null if it is invalid. */
  get shape(): Shape | null {
    if (this.normal === undefined) {
      const text = this.valid ? (this.base!.shape as TextShape).text : null;
      this.normal = text && Object.freeze({ text: Object.freeze({ ...text, v: this.newText }) });
    }
    return this.normal;
  }

  /**
   * This text shape with another text `v`: a label whose words change (a score) costs a check of
   * the text only, and its JSON is the prepared one with the text put in.
   */
  withText(v: string): PreparedShape {
    if (!('text' in this.raw)) throw new Error('withText needs a prepared text shape');
    if (!this.valid || typeof v !== 'string' || v.length > this.limits.maxTextLength) {
      return new PreparedShape(null, null, null, this.limits, this, v);
    }
    // Made from the first prepared shape, so that a label changed many times shares its bytes.
    return new PreparedShape(null, undefined, undefined, this.limits, this.base ?? this, v);
  }

  /** Whether the check under `limits` holds for `other` too (the limits that apply to one shape agree). */
  checkedUnder(other: VisLimits): boolean {
    return (
      this.limits === other ||
      (this.limits.maxPolygonVertices === other.maxPolygonVertices &&
        this.limits.maxTextLength === other.maxTextLength &&
        this.limits.maxMagnitude === other.maxMagnitude)
    );
  }

  /** A valid text shape's JSON after its text `v`. */
  private get textTail(): string {
    // A normalized text shape's JSON starts with its text: `{"text":{"v":"...",...`.
    return (this.tail ??= this.json!.slice(TEXT_JSON_HEAD.length + JSON.stringify((this.raw as TextShape).text.v).length));
  }

  private get textTailBytes(): Uint8Array {
    return (this.tailUtf8 ??= UTF8.encode(this.textTail));
  }
}

const TEXT_JSON_HEAD = '{"text":{"v":';
/** Stateless: shared by every prepared shape (this module runs in the web page too, without Buffer). */
const UTF8 = new TextEncoder();

/** Checks a shape once for use in many events (see PreparedShape). */
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
class EventChecker {
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

/**
 * Where an accepted event's JSON text goes, in pieces: text, and prepared shapes as they are (a
 * log of events can keep a reference to a shape's bytes instead of a copy). `end` closes the event.
 */
export interface VisJsonOut {
  text(json: string): void;
  /** A shape of a create's `geom`, after a comma unless it is the first. */
  shape(shape: PreparedShape, comma: boolean): void;
  end(): void;
}

/** The pieces of one event's JSON put together as a string. */
class JsonText implements VisJsonOut {
  json = '';

  text(json: string): void {
    this.json += json;
  }

  shape(shape: PreparedShape, comma: boolean): void {
    this.json += comma ? `,${shape.json!}` : shape.json!;
  }

  end(): void {}
}

/**
 * `JSON.stringify(event)`, put together by hand for the events of every round (a create from the
 * JSON of its prepared shapes). The fields are written in the order the normalized event has them
 * (a create: id, geom, p, z); every number in a checked event is finite, for which JSON writes what
 * `String` writes.
 */
function eventJson(event: VisEvent, prepared: readonly (PreparedShape | null)[], timeFirst: boolean): string {
  const text = new JsonText();
  writeEvent(event, prepared, timeFirst, text);
  return text.json;
}

function writeEvent(event: VisEvent, prepared: readonly (PreparedShape | null)[], timeFirst: boolean, out: VisJsonOut): void {
  if ('create' in event) {
    const { create } = event;
    out.text(`${eventOpen('create', event.t, timeFirst)}{"id":${create.id},"geom":[`);
    for (let i = 0; i < create.geom.length; i++) {
      const shape = prepared[i];
      if (shape) out.shape(shape, i > 0);
      else out.text(i > 0 ? `,${JSON.stringify(create.geom[i])}` : JSON.stringify(create.geom[i]));
    }
    out.text(`${createTail(create.p, create.z)}${eventClose(event.t, timeFirst)}`);
  } else if ('destroy' in event) {
    out.text(`${eventOpen('destroy', event.t, timeFirst)}{"id":${event.destroy.id}}${eventClose(event.t, timeFirst)}`);
  } else if ('log' in event) {
    out.text(`${eventOpen('log', event.t, timeFirst)}{"line":${JSON.stringify(event.log.line)}}${eventClose(event.t, timeFirst)}`);
  } else {
    out.text(JSON.stringify(event));
  }
  out.end();
}

/** An event's JSON up to its body: `t` comes first if the game gave it, last if it was stamped. */
function eventOpen(kind: VisEventKind, t: number, timeFirst: boolean): string {
  return timeFirst ? `{"t":${t},"${kind}":` : `{"${kind}":`;
}

function eventClose(t: number, timeFirst: boolean): string {
  return timeFirst ? '}' : `,"t":${t}}`;
}

/** A create body's JSON after its shapes. */
function createTail(p: Vec2 | undefined, z: number | undefined): string {
  return `]${p === undefined ? '' : `,"p":[${p[0]},${p[1]}]`}${z === undefined ? '' : `,"z":${z}`}}`;
}
