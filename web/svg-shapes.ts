import type { Color, Shape } from '../src/protocol/vis-shape.js';

/** Defaults of omitted shape fields (notes/game-server-protocol.md). */
export const SHAPE_DEFAULTS = {
  thickness: 0.005,
  radius: 0.1,
  textHeight: 0.05,
  fill: 'ffffff00',
  stroke: '000000ff',
} as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Text is laid out at this many times its size and scaled back down: browsers round or clamp very
 * small font sizes (0.05 user units), which would make text in a unit viewBox blurry or huge.
 */
const TEXT_SCALE = 100;

/** `RRGGBBAA` as an SVG colour and an opacity (attributes every browser understands). */
export function splitColor(color: Color | undefined, fallback: Color): { rgb: string; alpha: number } {
  const hex = color !== undefined && /^[0-9a-fA-F]{8}$/.test(color) ? color : fallback;
  return { rgb: `#${hex.slice(0, 6).toLowerCase()}`, alpha: parseInt(hex.slice(6, 8), 16) / 255 };
}

/** Rounds for attributes: a millionth of the picture is far below a pixel. */
export function num(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

function element(name: string, attributes: Record<string, string>): SVGElement {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function paint(kind: 'fill' | 'stroke', color: Color | undefined, fallback: Color): Record<string, string> {
  const { rgb, alpha } = splitColor(color, fallback);
  if (alpha === 0) return { [kind]: 'none' };
  return alpha === 1 ? { [kind]: rgb } : { [kind]: rgb, [`${kind}-opacity`]: num(alpha) };
}

function outline(color: Color | undefined, thickness: number | undefined): Record<string, string> {
  const width = thickness ?? SHAPE_DEFAULTS.thickness;
  if (!(width > 0)) return { stroke: 'none' };
  return { ...paint('stroke', color, SHAPE_DEFAULTS.stroke), 'stroke-width': num(width) };
}

/** One shape as an SVG element, in the object's own coordinates (relative to its position). */
export function shapeElement(shape: Shape): SVGElement {
  if ('line' in shape) {
    const { p1, p2, t, s } = shape.line;
    return element('line', {
      x1: num(p1[0]),
      y1: num(p1[1]),
      x2: num(p2[0]),
      y2: num(p2[1]),
      'stroke-linecap': 'round',
      ...outline(s, t),
    });
  }
  if ('circle' in shape) {
    const { p, r, f, s, t } = shape.circle;
    return element('circle', {
      cx: num(p?.[0] ?? 0),
      cy: num(p?.[1] ?? 0),
      r: num(r ?? SHAPE_DEFAULTS.radius),
      ...paint('fill', f, SHAPE_DEFAULTS.fill),
      ...outline(s, t),
    });
  }
  if ('poly' in shape) {
    const { vs, f, s, t } = shape.poly;
    return element('polygon', {
      points: vs.map(([x, y]) => `${num(x)},${num(y)}`).join(' '),
      'stroke-linejoin': 'round',
      ...paint('fill', f, SHAPE_DEFAULTS.fill),
      ...outline(s, t),
    });
  }
  const { v, p, t, s } = shape.text;
  const height = t ?? SHAPE_DEFAULTS.textHeight;
  const node = element('text', {
    transform: `translate(${num(p?.[0] ?? 0)} ${num(p?.[1] ?? 0)}) scale(${1 / TEXT_SCALE})`,
    'font-size': num(height * TEXT_SCALE),
    'text-anchor': 'middle',
    'dominant-baseline': 'central',
    ...paint('fill', s, SHAPE_DEFAULTS.stroke),
  });
  node.textContent = v;
  return node;
}
