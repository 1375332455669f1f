import type { VisLimits } from './vis-limits.js';

/** Coordinates are in the unit square, (0,0) top left, y down; colours are RRGGBBAA. */
export type Vec2 = readonly [number, number];
export type Color = string;

export const SHAPE_KINDS = ['line', 'circle', 'poly', 'text'] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

export type Shape =
  | { readonly line: { readonly p1: Vec2; readonly p2: Vec2; readonly t?: number; readonly s?: Color } }
  | {
      readonly circle: {
        readonly p?: Vec2;
        readonly r?: number;
        readonly f?: Color;
        readonly s?: Color;
        readonly t?: number;
      };
    }
  | { readonly poly: { readonly vs: readonly Vec2[]; readonly f?: Color; readonly s?: Color; readonly t?: number } }
  | { readonly text: { readonly v: string; readonly p?: Vec2; readonly t?: number; readonly s?: Color } };

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
