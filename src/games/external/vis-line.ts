import { EASINGS, type Easing, type Shape, type Vec2, type VisEventInput } from '../../protocol/vis-event.js';
import { err, ok, type Result } from '../../util/result.js';
import { parseHjsonMini, type JsonValue } from './hjson-mini.js';

/**
 * Turns the text after `vis ` into a typed visualizer event (notes/game-server-protocol.md), or
 * says what is wrong with it. This is the only place external games parse vis lines: when the
 * shared validator in src/protocol/ lands, replace the body of this function with it.
 *
 * `t` may be absent (the runtime then stamps the elapsed time); everything else is checked, and
 * unknown fields are dropped so that only the typed event travels on.
 */
export function parseVisPayload(text: string): Result<VisEventInput> {
  const parsed = parseHjsonMini(text);
  if (!parsed.ok) return err(`not JSON/Hjson: ${parsed.error}`);
  try {
    return ok(toEvent(parsed.value));
  } catch (error) {
    if (error instanceof VisError) return err(error.message);
    throw error;
  }
}

class VisError extends Error {}

type Obj = { readonly [key: string]: JsonValue };

const COLOR = /^[0-9a-fA-F]{8}$/;
const KINDS = ['create', 'destroy', 'transform', 'log'] as const;
const SHAPES = ['line', 'circle', 'poly', 'text'] as const;

function fail(what: string): never {
  throw new VisError(what);
}

function object(value: JsonValue | undefined, where: string): Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(`${where} must be an object`);
  return value;
}

function num(value: JsonValue | undefined, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${where} must be a number`);
  return value;
}

function optNum(value: JsonValue | undefined, where: string): number | undefined {
  return value === undefined ? undefined : num(value, where);
}

function vec(value: JsonValue | undefined, where: string): Vec2 {
  if (!Array.isArray(value) || value.length !== 2) fail(`${where} must be [x, y]`);
  return [num(value[0], `${where}[0]`), num(value[1], `${where}[1]`)];
}

function optVec(value: JsonValue | undefined, where: string): Vec2 | undefined {
  return value === undefined ? undefined : vec(value, where);
}

function optColor(value: JsonValue | undefined, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !COLOR.test(value)) fail(`${where} must be a colour of exactly 8 hex digits RRGGBBAA`);
  return value;
}

function id(value: JsonValue | undefined, where: string): number {
  const n = num(value, where);
  if (!Number.isSafeInteger(n)) fail(`${where} must be an integer`);
  return n;
}

/** Copies the defined entries only, so absent fields stay absent (not `undefined`). */
function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as T;
}

function onlyKey<K extends string>(o: Obj, keys: readonly K[], where: string): K {
  const present = keys.filter((k) => Object.hasOwn(o, k));
  if (present.length !== 1) fail(`${where} must have exactly one of ${keys.join(', ')}`);
  return present[0]!;
}

function shape(value: JsonValue | undefined, where: string): Shape {
  const o = object(value, where);
  const kind = onlyKey(o, SHAPES, where);
  const b = object(o[kind], `${where}.${kind}`);
  const at = `${where}.${kind}`;
  switch (kind) {
    case 'line':
      return { line: defined({ p1: vec(b.p1, `${at}.p1`), p2: vec(b.p2, `${at}.p2`), t: optNum(b.t, `${at}.t`), s: optColor(b.s, `${at}.s`) }) };
    case 'circle':
      return {
        circle: defined({
          p: optVec(b.p, `${at}.p`),
          r: optNum(b.r, `${at}.r`),
          f: optColor(b.f, `${at}.f`),
          s: optColor(b.s, `${at}.s`),
          t: optNum(b.t, `${at}.t`),
        }),
      };
    case 'poly': {
      if (!Array.isArray(b.vs)) fail(`${at}.vs must be a list of points`);
      const vs = b.vs.map((v, i) => vec(v, `${at}.vs[${i}]`));
      return { poly: defined({ vs, f: optColor(b.f, `${at}.f`), s: optColor(b.s, `${at}.s`), t: optNum(b.t, `${at}.t`) }) };
    }
    case 'text': {
      if (typeof b.v !== 'string') fail(`${at}.v must be a string`);
      return { text: defined({ v: b.v, p: optVec(b.p, `${at}.p`), t: optNum(b.t, `${at}.t`), s: optColor(b.s, `${at}.s`) }) };
    }
  }
}

function toEvent(value: JsonValue): VisEventInput {
  const o = object(value, 'the event');
  const t = optNum(o.t, 't');
  if (t !== undefined && t < 0) fail('t must not be negative');
  const kind = onlyKey(o, KINDS, 'the event');
  const b = object(o[kind], kind);
  const stamp = t === undefined ? {} : { t };
  switch (kind) {
    case 'create': {
      const z = optNum(b.z, 'create.z');
      if (z !== undefined && !(Number.isInteger(z) && z >= 0 && z <= 255)) fail('create.z must be an integer from 0 to 255');
      if (!Array.isArray(b.geom)) fail('create.geom must be a list of shapes');
      const geom = b.geom.map((s, i) => shape(s, `create.geom[${i}]`));
      return { ...stamp, create: defined({ id: id(b.id, 'create.id'), p: optVec(b.p, 'create.p'), z, geom }) };
    }
    case 'destroy':
      return { ...stamp, destroy: { id: id(b.id, 'destroy.id') } };
    case 'transform': {
      onlyKey(b, ['mv', 'rot', 'scale'], 'transform');
      const f = b.f;
      if (f !== undefined && !(typeof f === 'string' && (EASINGS as readonly string[]).includes(f))) {
        fail(`transform.f must be one of ${EASINGS.join(', ')}`);
      }
      const d = optNum(b.d, 'transform.d');
      if (d !== undefined && d < 0) fail('transform.d must not be negative');
      return {
        ...stamp,
        transform: defined({
          id: id(b.id, 'transform.id'),
          d,
          f: f as Easing | undefined,
          mv: optVec(b.mv, 'transform.mv'),
          rot: optNum(b.rot, 'transform.rot'),
          scale: optNum(b.scale, 'transform.scale'),
        }),
      };
    }
    case 'log':
      if (typeof b.line !== 'string') fail('log.line must be a string');
      return { ...stamp, log: { line: b.line } };
  }
}
