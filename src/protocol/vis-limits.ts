/**
 * The limits and error codes of visualizer events (notes/game-server-protocol.md): one set of stable
 * codes and one set of limits for the `vis` lines of external game servers and the events of
 * built-in games alike.
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

