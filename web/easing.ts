import type { Easing } from '../src/protocol/vis-event.js';

/**
 * The easing curves of transforms (notes/game-server-protocol.md), progress p in [0, 1] to the
 * fraction of the change applied. Both ends are exact (0 and 1), so that a finished transform
 * lands exactly where it should whatever the curve.
 */
const CURVES: Readonly<Record<Easing, (p: number) => number>> = {
  step: (p) => (p < 0.5 ? 0 : 1),
  linear: (p) => p,
  easin: (p) => 1 - Math.cos((p * Math.PI) / 2),
  easeout: (p) => Math.sin((p * Math.PI) / 2),
  easeinout: (p) => (1 + Math.sin((p - 0.5) * Math.PI)) / 2,
};

export function ease(curve: Easing, p: number): number {
  if (!(p > 0)) return 0;
  if (p >= 1) return 1;
  return CURVES[curve](p);
}

export const DEFAULT_EASING: Easing = 'easeinout';
