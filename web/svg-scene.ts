import { num, shapeElement } from './svg-shapes.js';
import { lowerBound, type ObjectState, type SceneObject, type Timeline } from './timeline.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A drawn object: its group (shapes built once), and what the DOM shows now. */
interface Drawn {
  readonly object: SceneObject;
  readonly group: SVGGElement;
  attached: boolean;
  transform: string;
}

/** The objects of one z layer that are in the DOM, in creation order. */
interface Layer {
  readonly z: number;
  readonly group: SVGGElement;
  readonly orders: number[];
  readonly nodes: SVGGElement[];
}

function transformOf(state: ObjectState): string {
  let text = `translate(${num(state.x)} ${num(state.y)})`;
  if (state.rot !== 0) text += ` rotate(${num((state.rot * 180) / Math.PI)})`;
  if (state.scale !== 1) text += ` scale(${num(state.scale)})`;
  return text;
}

/**
 * Draws a timeline into an `<svg viewBox="0 0 1 1">`, one `<g>` per z layer and one per object.
 * Each frame touches only the objects the timeline says may have changed since the last frame
 * (plus those named by `invalidate` after live events arrive), and writes an attribute only when
 * its value changes, so a still scene of thousands of objects costs nearly nothing.
 */
export class SvgScene {
  readonly svg: SVGSVGElement;
  private readonly drawn = new Map<number, Drawn>();
  private readonly layers: Layer[] = [];
  private readonly layerZs: number[] = [];
  private readonly dirty = new Set<number>();
  private renderedAt: number | null = null;

  constructor(
    parent: HTMLElement,
    private readonly timeline: Timeline,
  ) {
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('viewBox', '0 0 1 1');
    this.svg.setAttribute('class', 'vis-svg');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', 'match visualization');
    parent.append(this.svg);
  }

  /** Objects changed by events appended after they may have been drawn. */
  invalidate(ids: Iterable<number>): void {
    for (const id of ids) this.dirty.add(id);
  }

  /** Brings the picture to time t. */
  render(t: number): void {
    const ids =
      this.renderedAt === null
        ? this.timeline.changedBetween(-Infinity, t)
        : this.timeline.changedBetween(this.renderedAt, t);
    for (const id of this.dirty) ids.add(id);
    this.dirty.clear();
    for (const id of ids) this.update(id, t);
    this.renderedAt = t;
  }

  /** How many objects are in the DOM now. */
  get visibleObjects(): number {
    let count = 0;
    for (const layer of this.layers) count += layer.nodes.length;
    return count;
  }

  private update(id: number, t: number): void {
    const state = this.timeline.stateAt(id, t);
    let drawn = this.drawn.get(id);
    if (state === null) {
      if (drawn?.attached) this.detach(drawn);
      return;
    }
    if (!drawn) {
      const object = this.timeline.object(id);
      if (!object) return;
      const group = document.createElementNS(SVG_NS, 'g');
      for (const shape of object.geom) {
        try {
          group.append(shapeElement(shape));
        } catch {
          // A malformed shape (the server validates, so only from a foreign record) is skipped.
        }
      }
      drawn = { object, group, attached: false, transform: '' };
      this.drawn.set(id, drawn);
    }
    const transform = transformOf(state);
    if (transform !== drawn.transform) {
      drawn.group.setAttribute('transform', transform);
      drawn.transform = transform;
    }
    if (!drawn.attached) this.attach(drawn);
  }

  private layer(z: number): Layer {
    const lo = lowerBound(this.layerZs, z);
    const found = this.layers[lo];
    if (found && found.z === z) return found;
    const group = document.createElementNS(SVG_NS, 'g');
    group.setAttribute('data-z', String(z));
    this.svg.insertBefore(group, found ? found.group : null);
    const layer: Layer = { z, group, orders: [], nodes: [] };
    this.layers.splice(lo, 0, layer);
    this.layerZs.splice(lo, 0, z);
    return layer;
  }

  private attach(drawn: Drawn): void {
    const layer = this.layer(drawn.object.z);
    const index = lowerBound(layer.orders, drawn.object.order);
    layer.group.insertBefore(drawn.group, layer.nodes[index] ?? null);
    layer.orders.splice(index, 0, drawn.object.order);
    layer.nodes.splice(index, 0, drawn.group);
    drawn.attached = true;
  }

  private detach(drawn: Drawn): void {
    const layer = this.layer(drawn.object.z);
    const index = lowerBound(layer.orders, drawn.object.order);
    if (layer.nodes[index] === drawn.group) {
      layer.orders.splice(index, 1);
      layer.nodes.splice(index, 1);
    }
    drawn.group.remove();
    drawn.attached = false;
  }
}
