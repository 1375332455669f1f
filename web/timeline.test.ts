import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { VisEvent } from '../src/protocol/vis-event.js';
import { ease } from './easing.js';
import { Timeline, type ObjectState } from './timeline.js';

const EPS = 1e-12;

function close(actual: number, expected: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) < EPS, `${what} ${actual} != ${expected}`);
}

function state(timeline: Timeline, id: number, t: number): ObjectState {
  const s = timeline.stateAt(id, t);
  assert.ok(s, `object ${id} should exist at t=${t}`);
  return s;
}

test('easing curves match the formulas of the note at several points', () => {
  const points = [0, 0.1, 0.25, 0.4999, 0.5, 0.75, 0.9, 1];
  for (const p of points) {
    close(ease('linear', p), p, `linear(${p})`);
    close(ease('easin', p), p === 1 ? 1 : 1 - Math.cos((p * Math.PI) / 2), `easin(${p})`);
    close(ease('easeout', p), Math.sin((p * Math.PI) / 2), `easeout(${p})`);
    close(ease('easeinout', p), (1 + Math.sin((p - 0.5) * Math.PI)) / 2, `easeinout(${p})`);
    assert.equal(ease('step', p), p < 0.5 ? 0 : 1, `step(${p})`);
  }
  close(ease('easin', 0.5), 1 - Math.SQRT1_2);
  close(ease('easeout', 0.5), Math.SQRT1_2);
  close(ease('easeinout', 0.5), 0.5);
  close(ease('easeinout', 0.25), (1 - Math.SQRT1_2) / 2);
});

test('every curve is exactly 0 before the start and exactly 1 at and after the end', () => {
  for (const curve of ['step', 'linear', 'easin', 'easeout', 'easeinout'] as const) {
    assert.equal(ease(curve, -0.5), 0);
    assert.equal(ease(curve, 0), 0);
    assert.equal(ease(curve, 1), 1);
    assert.equal(ease(curve, 3), 1);
  }
});

test('an object exists from its create (inclusive) to its destroy (exclusive), with the defaults', () => {
  const timeline = new Timeline([
    { t: 1, create: { id: 5, geom: [] } },
    { t: 3, destroy: { id: 5 } },
  ]);
  assert.equal(timeline.stateAt(5, 0.999), null);
  assert.deepEqual(timeline.stateAt(5, 1), { x: 0, y: 0, rot: 0, scale: 1 });
  assert.deepEqual(timeline.stateAt(5, 2.999), { x: 0, y: 0, rot: 0, scale: 1 });
  assert.equal(timeline.stateAt(5, 3), null);
  assert.equal(timeline.object(5)?.z, 1);
  assert.equal(timeline.stateAt(6, 2), null);
});

test('a move is relative and follows its easing during its duration', () => {
  const timeline = new Timeline([
    { t: 0, create: { id: 1, p: [0.2, 0.3], geom: [] } },
    { t: 1, transform: { id: 1, d: 2, f: 'linear', mv: [0.4, -0.2] } },
    { t: 5, transform: { id: 1, d: 1, mv: [0.1, 0.1] } },
  ]);
  close(state(timeline, 1, 1).x, 0.2);
  close(state(timeline, 1, 2).x, 0.4);
  close(state(timeline, 1, 2).y, 0.2);
  close(state(timeline, 1, 3).x, 0.6);
  close(state(timeline, 1, 4).y, 0.1);
  // Default easing is easeinout: a quarter of the way in time is (1 - 1/sqrt 2)/2 of the way.
  close(state(timeline, 1, 5.25).x, 0.6 + 0.1 * ((1 - Math.SQRT1_2) / 2));
  close(state(timeline, 1, 6).x, 0.7);
  close(state(timeline, 1, 100).y, 0.2);
});

test('step jumps at half the duration, and a transform without duration applies at once', () => {
  const timeline = new Timeline([
    { t: 0, create: { id: 1, geom: [] } },
    { t: 1, transform: { id: 1, d: 2, f: 'step', mv: [1, 0] } },
    { t: 4, transform: { id: 1, rot: 1 } },
  ]);
  assert.equal(state(timeline, 1, 1.999).x, 0);
  assert.equal(state(timeline, 1, 2).x, 1);
  assert.equal(state(timeline, 1, 3.999).rot, 0);
  assert.equal(state(timeline, 1, 4).rot, 1);
});

test('overlapping transforms compose: moves and rotations add, scales multiply, each from where it started', () => {
  const timeline = new Timeline([
    { t: 0, create: { id: 1, p: [0.5, 0.5], geom: [] } },
    { t: 0, transform: { id: 1, d: 2, f: 'linear', mv: [0.2, 0] } },
    { t: 0, transform: { id: 1, d: 1, f: 'linear', rot: Math.PI } },
    { t: 0.5, transform: { id: 1, d: 2, f: 'linear', rot: Math.PI } },
    { t: 1, transform: { id: 1, d: 2, f: 'linear', mv: [0, 0.2] } },
    { t: 1, transform: { id: 1, d: 1, f: 'linear', scale: 3 } },
    { t: 1.5, transform: { id: 1, d: 1, f: 'linear', scale: 0.5 } },
  ]);
  const s = state(timeline, 1, 1.5);
  close(s.x, 0.5 + 0.15);
  close(s.y, 0.5 + 0.05);
  close(s.rot, Math.PI + Math.PI / 2);
  close(s.scale, 2); // 1 + (3 - 1) * 0.5, times 1 + (0.5 - 1) * 0
  close(state(timeline, 1, 2).scale, 3 * 0.75);
  const end = state(timeline, 1, 10);
  close(end.x, 0.7);
  close(end.y, 0.7);
  close(end.rot, 2 * Math.PI);
  close(end.scale, 1.5);
  assert.equal(timeline.endTime, 3);
});

test('transforms of a destroyed or unknown object, and a reused id, are ignored', () => {
  const timeline = new Timeline([
    { t: 0, create: { id: 1, p: [0.1, 0.1], geom: [] } },
    { t: 1, destroy: { id: 1 } },
    { t: 2, transform: { id: 1, mv: [1, 1] } },
    { t: 2, create: { id: 1, geom: [] } },
    { t: 2, transform: { id: 9, mv: [1, 1] } },
  ]);
  assert.equal(timeline.ignoredEvents, 3);
  assert.equal(timeline.stateAt(1, 2), null);
  assert.deepEqual(timeline.stateAt(1, 0.5), { x: 0.1, y: 0.1, rot: 0, scale: 1 });
});

function randomScene(seed: number, objects: number, steps: number): VisEvent[] {
  let x = seed;
  const rnd = (): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  const curves = ['step', 'linear', 'easin', 'easeout', 'easeinout'] as const;
  const events: VisEvent[] = [];
  let t = 0;
  for (let id = 0; id < objects; id++) events.push({ t, create: { id, p: [rnd(), rnd()], z: Math.floor(rnd() * 4), geom: [] } });
  const alive = new Set(Array.from({ length: objects }, (_, i) => i));
  for (let step = 0; step < steps; step++) {
    t += rnd() < 0.3 ? 0 : rnd() * 0.5;
    const ids = [...alive];
    if (ids.length === 0) break;
    const id = ids[Math.floor(rnd() * ids.length)]!;
    const r = rnd();
    const d = rnd() < 0.2 ? 0 : rnd() * (rnd() < 0.05 ? 20 : 1.5);
    const f = curves[Math.floor(rnd() * curves.length)]!;
    if (r < 0.5) events.push({ t, transform: { id, d, f, mv: [rnd() - 0.5, rnd() - 0.5] } });
    else if (r < 0.7) events.push({ t, transform: { id, d, f, rot: rnd() * 6 - 3 } });
    else if (r < 0.85) events.push({ t, transform: { id, d, f, scale: 0.5 + rnd() } });
    else if (r < 0.92) events.push({ t, log: { line: `step ${step}` } });
    else {
      events.push({ t, destroy: { id } });
      alive.delete(id);
    }
  }
  return events;
}

/** The state by the definition: every transform started by t, each with its own progress. */
function reference(events: readonly VisEvent[], id: number, t: number): ObjectState | null {
  let created: VisEvent | undefined;
  let x = 0;
  let y = 0;
  let rot = 0;
  let scale = 1;
  for (const event of events) {
    if (event.t > t) break;
    if ('create' in event && event.create.id === id) {
      created = event;
      x = event.create.p?.[0] ?? 0;
      y = event.create.p?.[1] ?? 0;
    } else if ('destroy' in event && event.destroy.id === id) return null;
    else if ('transform' in event && event.transform.id === id) {
      const { d = 0, f = 'easeinout', mv, rot: r, scale: s } = event.transform;
      const e = d > 0 ? ease(f, (t - event.t) / d) : 1;
      if (mv) {
        x += mv[0] * e;
        y += mv[1] * e;
      } else if (r !== undefined) rot += r * e;
      else if (s !== undefined) scale *= 1 + (s - 1) * e;
    }
  }
  return created ? { x, y, rot, scale } : null;
}

test('the state at any time matches the definition, whether times are visited forwards, backwards or at random', () => {
  const events = randomScene(7, 40, 3000);
  const timeline = new Timeline(events);
  const end = timeline.endTime;
  const times: number[] = [];
  for (let i = 0; i <= 200; i++) times.push((end * i) / 200);
  const orders = [times, [...times].reverse(), times.map((_, i) => times[(i * 37) % times.length]!)];
  const first = new Map<string, ObjectState | null>();
  for (const order of orders) {
    for (const t of order) {
      for (let id = 0; id < 40; id += 3) {
        const got = timeline.stateAt(id, t);
        const want = reference(events, id, t);
        if (want === null || got === null) assert.equal(got, want, `object ${id} at ${t}`);
        else {
          for (const key of ['x', 'y', 'rot', 'scale'] as const) assert.ok(Math.abs(got[key] - want[key]) < 1e-9, `${key} of ${id} at ${t}`);
        }
        const key = `${id}@${t}`;
        if (first.has(key)) assert.deepEqual(got, first.get(key), `same answer for ${key} in every order`);
        else first.set(key, got);
      }
    }
  }
});

test('changedBetween names every object whose state differs between two times', () => {
  const events = randomScene(11, 60, 2000);
  const timeline = new Timeline(events);
  const end = timeline.endTime;
  let checked = 0;
  for (let i = 0; i < 300; i++) {
    const a = (end * ((i * 7919) % 301)) / 300;
    const b = (end * ((i * 104729 + 13) % 301)) / 300;
    const changed = timeline.changedBetween(a, b);
    for (let id = 0; id < 60; id++) {
      if (changed.has(id)) continue;
      assert.deepEqual(timeline.stateAt(id, a), timeline.stateAt(id, b), `object ${id} between ${a} and ${b}`);
      checked++;
    }
  }
  assert.ok(checked > 1000);
});

test('changedBetween over one frame looks only at the objects that move in it', () => {
  const events: VisEvent[] = [];
  for (let id = 0; id < 3000; id++) events.push({ t: 0, create: { id, p: [(id % 50) / 50, Math.floor(id / 50) / 60], geom: [] } });
  for (let k = 0; k < 100; k++) events.push({ t: 1 + k, transform: { id: k * 7, d: 0.5, mv: [0.01, 0] } });
  const timeline = new Timeline(events);
  assert.deepEqual([...timeline.changedBetween(10.1, 10.12)], [63]);
  assert.equal(timeline.changedBetween(0, 0.016).size, 3000);
  assert.equal(timeline.changedBetween(50.6, 50.9).size, 0);
});

test('log lines become visible at their time', () => {
  const timeline = new Timeline([
    { t: 0, log: { line: 'a' } },
    { t: 1, log: { line: 'b' } },
    { t: 1, log: { line: 'c' } },
    { t: 2.5, log: { line: 'd' } },
  ]);
  assert.equal(timeline.logCountAt(-1), 0);
  assert.equal(timeline.logCountAt(0), 1);
  assert.equal(timeline.logCountAt(0.99), 1);
  assert.equal(timeline.logCountAt(1), 3);
  assert.equal(timeline.logCountAt(10), 4);
  assert.deepEqual(timeline.logs.slice(0, 2).map((l) => l.line), ['a', 'b']);
});

test('appending live events gives the same scene as having them all at once, and names what changed', () => {
  const events = randomScene(3, 20, 500);
  const whole = new Timeline(events);
  const live = new Timeline();
  for (let i = 0; i < events.length; i += 17) live.append(events.slice(i, i + 17));
  for (let t = 0; t <= whole.endTime; t += whole.endTime / 50) assert.deepEqual(live.sceneAt(t), whole.sceneAt(t));
  const appended = live.append([{ t: live.lastEventTime, create: { id: 1000, geom: [] } }, { t: live.lastEventTime, log: { line: 'x' } }]);
  assert.deepEqual([...appended.objects], [1000]);
  assert.equal(appended.logsAdded, 1);
});

test('the scene is drawn by layer, then by creation order', () => {
  const timeline = new Timeline([
    { t: 0, create: { id: 1, z: 3, geom: [] } },
    { t: 0, create: { id: 2, geom: [] } },
    { t: 0, create: { id: 3, z: 0, geom: [] } },
    { t: 0, create: { id: 4, z: 1, geom: [] } },
  ]);
  assert.deepEqual(timeline.sceneAt(0).map((s) => s.object.id), [3, 2, 4, 1]);
});

test('the shared fixture scene plays to its end with every object accounted for', () => {
  const events = JSON.parse(readFileSync(new URL('../../../web/fixtures/scene.json', import.meta.url), 'utf8')) as VisEvent[];
  const timeline = new Timeline(events);
  assert.equal(timeline.ignoredEvents, 0);
  assert.ok(timeline.sceneAt(0).length > 0);
  assert.ok(timeline.logCountAt(timeline.endTime) > 0);
});
