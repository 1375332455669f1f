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
 * Keeps an object's texts upright in a flipped picture: each turned back half a turn about its own
 * anchor (its transform is `translate(x y) scale(s)`, from svg-shapes.ts).
 */
function uprightTexts(group: SVGGElement, flipped: boolean): void {
  for (const text of group.querySelectorAll('text')) {
    const base = text.getAttribute('data-base') ?? text.getAttribute('transform') ?? '';
    text.setAttribute('data-base', base);
    text.setAttribute('transform', flipped ? base.replace(' scale(', ' rotate(180) scale(') : base);
  }
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
  /** The layers' parent: turned half a turn when the picture is flipped. */
  private readonly root: SVGGElement;
  private flippedNow = false;

  constructor(
    parent: HTMLElement,
    private readonly timeline: Timeline,
  ) {
    this.svg = document.createElementNS(SVG_NS, 'svg');
    this.svg.setAttribute('viewBox', '0 0 1 1');
    this.svg.setAttribute('class', 'vis-svg');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', 'match visualization');
    this.root = document.createElementNS(SVG_NS, 'g');
    this.svg.append(this.root);
    parent.append(this.svg);
  }

  get flipped(): boolean {
    return this.flippedNow;
  }

  /**
   * Turns the picture half a turn about its centre, as lichess flips its board: every position is
   * mirrored (a1 goes to the top right), and each text is turned back so that it still reads
   * upright. Only the drawing changes; the timeline is the same.
   */
  setFlipped(flipped: boolean): void {
    if (flipped === this.flippedNow) return;
    this.flippedNow = flipped;
    if (flipped) this.root.setAttribute('transform', 'rotate(180 0.5 0.5)');
    else this.root.removeAttribute('transform');
    this.svg.classList.toggle('flipped', flipped);
    for (const drawn of this.drawn.values()) uprightTexts(drawn.group, flipped);
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
      if (this.flippedNow) uprightTexts(group, true);
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
    this.root.insertBefore(group, found ? found.group : null);
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
