import type { Color, PreparedShape, Shape, Vec2 } from './vis-shape.js';

/**
 * Visualizer events, the one drawing path of the platform (notes/game-server-protocol.md).
 * Coordinates are in the unit square, (0,0) top left, y down; colours are RRGGBBAA.
 */
export const EASINGS = ['step', 'linear', 'easin', 'easeout', 'easeinout'] as const;
export type Easing = (typeof EASINGS)[number];

export const VIS_EVENT_KINDS = ['create', 'destroy', 'transform', 'log'] as const;
export type VisEventKind = (typeof VIS_EVENT_KINDS)[number];

/** The defaults of omitted fields (notes/game-server-protocol.md). */
export const VIS_DEFAULTS = {
  position: [0, 0] as Vec2,
  z: 1,
  /** Line and outline thickness. */
  thickness: 0.005,
  radius: 0.1,
  textHeight: 0.05,
  fill: 'ffffff00',
  stroke: '000000ff',
  easing: 'easeinout' as Easing,
  /** A transform without `d` happens at once. */
  duration: 0,
} as const;

export interface CreateBody {
  readonly id: number;
  readonly p?: Vec2;
  readonly z?: number;
  readonly geom: readonly Shape[];
}

/**
 * A create as a game gives it: each shape as a value, or prepared once (`prepareShape` in
 * vis-check.ts) when the game draws it again and again.
 */
export interface CreateInput {
  readonly id: number;
  readonly p?: Vec2;
  readonly z?: number;
  readonly geom: readonly (Shape | PreparedShape)[];
}

export interface TransformBody {
  readonly id: number;
  readonly d?: number;
  readonly f?: Easing;
  readonly mv?: Vec2;
  readonly rot?: number;
  readonly scale?: number;
}

/** An event as a game emits it; `t` (seconds since the match started) may be left to the runtime. */
export type VisEventInput =
  | { readonly t?: number; readonly create: CreateInput }
  | { readonly t?: number; readonly destroy: { readonly id: number } }
  | { readonly t?: number; readonly transform: TransformBody }
  | { readonly t?: number; readonly log: { readonly line: string } };

/** An event checked and normalized (only known fields, each shape a plain value); `t` may be absent. */
export type NormalVisEvent =
  | { readonly t?: number; readonly create: CreateBody }
  | { readonly t?: number; readonly destroy: { readonly id: number } }
  | { readonly t?: number; readonly transform: TransformBody }
  | { readonly t?: number; readonly log: { readonly line: string } };

/** An event as recorded and streamed: `t` is always present and never decreases. */
export type VisEvent = NormalVisEvent & { readonly t: number };
