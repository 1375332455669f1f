import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { checkVisEvent, prepareShape } from './vis-check.js';
import type { VisErrorCode } from './vis-limits.js';
import type { PreparedShape } from './vis-shape.js';
import { VisValidator } from './vis-validate.js';
import type { VisEventInput } from './vis-event.js';
import type { Shape } from './vis-shape.js';

function accepts(validator: VisValidator, body: string): unknown {
  const result = validator.line(body);
  assert.ok(result.ok, result.ok ? '' : `${body}: ${result.error.message}`);
  return result.value;
}

function refuses(validator: VisValidator, body: string, code: VisErrorCode): string {
  const result = validator.line(body);
  assert.ok(!result.ok, `expected ${body} to be refused`);
  assert.equal(result.error.code, code, result.error.message);
  return result.error.message;
}

function lineCode(body: string): VisErrorCode | 'ok' {
  const result = new VisValidator().line(body);
  return result.ok ? 'ok' : result.error.code;
}

test('the examples of the spec are accepted in JSON and in Hjson, with the same result', () => {
  const json = [
    '{"t":0,"create":{"id":123321,"z":3,"geom":[{"poly":{"f":"77000077","t":0.006,"vs":[[0.1, 0.1],[0.1,0.9],[0.9,0.9],[0.9,0.1]]}}]}}',
    '{"t":1.5,"create":{"id":33,"z":2,"p":[0.77,0.83],"geom":[{"circle":{"r":0.024,"f":"33cc33ff","t":0.003}}]}}',
    '{"t":2.3,"transform":{"id":33,"d":0.3,"mv":[0,0.060000002]}}',
  ];
  const hjson = [
    '{t:0,create:{id:123321,z:3,geom:[{poly:{f:"77000077",t:0.006,vs:[[0.1, 0.1],[0.1,0.9],[0.9,0.9],[0.9,0.1]]}}]}}',
    '{t:1.5,create:{id:33,z:2,p:[0.77,0.83],geom:[{circle:{r:0.024,f:"33cc33ff",t:0.003}}]}}',
    '{t:2.3,transform:{id:33,d:0.3,mv:[0,0.060000002]}}',
  ];
  const a = new VisValidator();
  const b = new VisValidator();
  for (let i = 0; i < json.length; i++) {
    const fromJson = accepts(a, json[i]!);
    assert.deepEqual(fromJson, JSON.parse(json[i]!));
    assert.deepEqual(accepts(b, hjson[i]!), fromJson);
  }
});

test('unknown fields are dropped and absent optional fields stay absent', () => {
  const v = new VisValidator();
  assert.deepEqual(accepts(v, '{t:0,extra:1,create:{id:1,why:"x",geom:[{circle:{r:0.1,glow:true}}]}}'), {
    t: 0,
    create: { id: 1, geom: [{ circle: { r: 0.1 } }] },
  });
  assert.deepEqual(accepts(v, '{t:0,create:{id:2,p:null}}'), { t: 0, create: { id: 2, geom: [] } });
});

test('every shape kind is accepted with its fields', () => {
  const v = new VisValidator();
  accepts(
    v,
    '{t:0,create:{id:1,geom:[{line:{p1:[0,0],p2:[1,1],t:0.01,s:"FF0000ff"}},{circle:{p:[0.1,0.2],r:0.3,f:"00000000",s:"000000ff",t:0}},' +
      '{poly:{vs:[[0,0],[1,0],[0,1]],f:"123456ff"}},{text:{v:"héllo",p:[0.5,0.5],t:0.05,s:"000000ff"}}]}}',
  );
  accepts(v, '{t:0,log:{line:"turn 1"}}');
});

test('colours must be exactly 8 hex digits', () => {
  for (const f of ['"red"', '"ff0000"', '"ff0000ff0"', '"gg0000ff"', '12345678', '"#ff0000f"']) {
    assert.equal(lineCode(`{t:0,create:{id:1,geom:[{circle:{f:${f}}}]}}`), 'vis/bad-color', f);
  }
  assert.equal(lineCode('{t:0,create:{id:1,geom:[{circle:{f:"AbCdEf09"}}]}}'), 'ok');
});

test('malformed events get stable codes', () => {
  const cases: [string, VisErrorCode][] = [
    ['{t:0,create:{id:1}', 'vis/bad-syntax'],
    ['{t:0,log:{line:hello}}', 'vis/bad-syntax'],
    ['[1,2]', 'vis/bad-event'],
    ['{t:0}', 'vis/bad-event'],
    ['{t:0,log:{line:"a"},destroy:{id:1}}', 'vis/bad-event'],
    ['{t:0,create:5}', 'vis/bad-event'],
    ['{log:{line:"a"}}', 'vis/bad-time'],
    ['{t:-1,log:{line:"a"}}', 'vis/bad-time'],
    ['{t:"0",log:{line:"a"}}', 'vis/bad-time'],
    ['{t:0,create:{id:1.5}}', 'vis/bad-id'],
    ['{t:0,create:{id:-1}}', 'vis/bad-id'],
    ['{t:0,create:{id:"1"}}', 'vis/bad-id'],
    ['{t:0,create:{id:1,z:256}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,z:1.5}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,p:[1]}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,p:[1,"2"]}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,p:[1,2e7]}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,geom:[{circle:{r:-0.1}}]}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,geom:{}}}', 'vis/bad-shape'],
    ['{t:0,create:{id:1,geom:[{square:{}}]}}', 'vis/bad-shape'],
    ['{t:0,create:{id:1,geom:[{circle:{},line:{}}]}}', 'vis/bad-shape'],
    ['{t:0,create:{id:1,geom:[{line:{p1:[0,0]}}]}}', 'vis/bad-number'],
    ['{t:0,create:{id:1,geom:[{poly:{}}]}}', 'vis/bad-shape'],
    ['{t:0,create:{id:1,geom:[{text:{p:[0,0]}}]}}', 'vis/bad-text'],
    ['{t:0,log:{line:3}}', 'vis/bad-text'],
    ['{t:0,transform:{id:1,d:-1,mv:[0,0]}}', 'vis/bad-number'],
    ['{t:0,transform:{id:1,f:"bounce",rot:1}}', 'vis/bad-easing'],
  ];
  for (const [body, code] of cases) assert.equal(lineCode(body), code, body);
});

test('a transform needs exactly one of mv, rot, scale', () => {
  const v = new VisValidator();
  accepts(v, '{t:0,create:{id:1}}');
  refuses(v, '{t:0,transform:{id:1,d:1}}', 'vis/bad-transform');
  refuses(v, '{t:0,transform:{id:1,mv:[0,0],rot:1}}', 'vis/bad-transform');
  refuses(v, '{t:0,transform:{id:1,rot:1,scale:2}}', 'vis/bad-transform');
  accepts(v, '{t:0,transform:{id:1,rot:1}}');
  accepts(v, '{t:0,transform:{id:1,scale:2,f:"step",d:0.5}}');
  accepts(v, '{t:0,transform:{id:1,mv:[0.1,-0.1],f:"linear"}}');
});

test('t never decreases from one event to the next, equal times are fine', () => {
  const v = new VisValidator();
  accepts(v, '{t:1,log:{line:"a"}}');
  accepts(v, '{t:1,log:{line:"b"}}');
  refuses(v, '{t:0.5,log:{line:"c"}}', 'vis/t-decreasing');
  accepts(v, '{t:2,log:{line:"d"}}');
  assert.equal(v.time, 2);
});

test('ids are unique and never reused after a destroy', () => {
  const v = new VisValidator();
  accepts(v, '{t:0,create:{id:7}}');
  refuses(v, '{t:0,create:{id:7}}', 'vis/id-reused');
  accepts(v, '{t:1,destroy:{id:7}}');
  assert.match(refuses(v, '{t:2,create:{id:7}}', 'vis/id-reused'), /destroyed at t=1/);
});

test('transform and destroy must name a live object', () => {
  const v = new VisValidator();
  refuses(v, '{t:0,transform:{id:3,mv:[0,0]}}', 'vis/unknown-id');
  refuses(v, '{t:0,destroy:{id:3}}', 'vis/unknown-id');
  accepts(v, '{t:0,create:{id:3}}');
  accepts(v, '{t:0,transform:{id:3,mv:[0,0]}}');
  accepts(v, '{t:0,destroy:{id:3}}');
  assert.match(refuses(v, '{t:0,transform:{id:3,mv:[0,0]}}', 'vis/unknown-id'), /destroyed/);
  refuses(v, '{t:0,destroy:{id:3}}', 'vis/unknown-id');
});

test('a refused event changes nothing', () => {
  const v = new VisValidator();
  refuses(v, '{t:5,create:{id:1,geom:[{circle:{f:"red"}}]}}', 'vis/bad-color');
  assert.equal(v.time, 0);
  assert.equal(v.liveObjects, 0);
  accepts(v, '{t:1,create:{id:1}}');
});

test('each named limit is enforced', () => {
  const bytes = new VisValidator({ maxLineBytes: 40 });
  accepts(bytes, '{t:0,log:{line:"' + 'x'.repeat(20) + '"}}');
  refuses(bytes, '{t:0,log:{line:"' + 'é'.repeat(12) + '"}}', 'vis/too-large');

  refuses(new VisValidator({ maxDepth: 4 }), '{t:0,create:{id:1,geom:[{poly:{vs:[[0,0]]}}]}}', 'vis/too-large');

  const objects = new VisValidator({ maxObjects: 2 });
  accepts(objects, '{t:0,create:{id:1}}');
  accepts(objects, '{t:0,create:{id:2}}');
  refuses(objects, '{t:0,create:{id:3}}', 'vis/too-many-objects');
  accepts(objects, '{t:0,destroy:{id:1}}');
  accepts(objects, '{t:0,create:{id:3}}');

  const shapes = new VisValidator({ maxShapesPerObject: 2 });
  accepts(shapes, '{t:0,create:{id:1,geom:[{circle:{}},{circle:{}}]}}');
  refuses(shapes, '{t:0,create:{id:2,geom:[{circle:{}},{circle:{}},{circle:{}}]}}', 'vis/too-many-shapes');

  const vertices = new VisValidator({ maxPolygonVertices: 3 });
  accepts(vertices, '{t:0,create:{id:1,geom:[{poly:{vs:[[0,0],[1,0],[1,1]]}}]}}');
  refuses(vertices, '{t:0,create:{id:2,geom:[{poly:{vs:[[0,0],[1,0],[1,1],[0,1]]}}]}}', 'vis/too-many-vertices');

  const text = new VisValidator({ maxTextLength: 3 });
  accepts(text, '{t:0,log:{line:"abc"}}');
  refuses(text, '{t:0,log:{line:"abcd"}}', 'vis/bad-text');

  const events = new VisValidator({ maxEvents: 2 });
  accepts(events, '{t:0,log:{line:"a"}}');
  accepts(events, '{t:0,log:{line:"b"}}');
  refuses(events, '{t:0,log:{line:"c"}}', 'vis/too-many-events');
});

test('built-in events without t are stamped with the match time, never earlier than the last', () => {
  const v = new VisValidator();
  const first = v.event({ create: { id: 1, geom: [{ circle: { r: 0.1 } }] } }, 2.5);
  assert.deepEqual(first, { ok: true, value: { t: 2.5, create: { id: 1, geom: [{ circle: { r: 0.1 } }] } } });
  assert.deepEqual(v.event({ t: 4, destroy: { id: 1 } }, 3), { ok: true, value: { t: 4, destroy: { id: 1 } } });
  const late = v.event({ log: { line: 'x' } }, 3.5);
  assert.ok(late.ok && late.value.t === 4);
  const early = v.event({ t: 3, log: { line: 'y' } }, 5);
  assert.ok(!early.ok && early.error.code === 'vis/t-decreasing');
});

test('built-in events are checked the same way as lines, including values JSON cannot carry', () => {
  const v = new VisValidator();
  const nan = v.event({ create: { id: 1, p: [NaN, 0], geom: [] } }, 0);
  assert.ok(!nan.ok && nan.error.code === 'vis/bad-number');
  const inf = v.event({ transform: { id: 1, rot: Infinity } }, 0);
  assert.ok(!inf.ok && inf.error.code === 'vis/bad-number');
  const undef = v.event({ create: { id: 2, p: undefined, z: undefined, geom: [] } }, 0);
  assert.deepEqual(undef, { ok: true, value: { t: 0, create: { id: 2, geom: [] } } });
  assert.equal(v.event(null, 0).ok, false);
});

test('checkVisEvent checks a single event without sequence state', () => {
  assert.deepEqual(checkVisEvent({ t: 1, destroy: { id: 9 } }), { ok: true, value: { t: 1, destroy: { id: 9 } } });
  const missing = checkVisEvent({ log: { line: 'a' } });
  assert.ok(!missing.ok && missing.error.code === 'vis/bad-time');
  assert.deepEqual(checkVisEvent({ log: { line: 'a' } }, { requireTime: false }), { ok: true, value: { log: { line: 'a' } } });
});

test('error messages name the field and the offending value', () => {
  const message = refuses(new VisValidator(), '{t:0,create:{id:1,geom:[{circle:{}},{circle:{f:"red"}}]}}', 'vis/bad-color');
  assert.match(message, /create\.geom\[1\]\.circle\.f/);
  assert.match(message, /"red"/);
});

test('the web fixture scene is a valid event sequence', () => {
  const text = readFileSync(new URL('../../../web/fixtures/scene.json', import.meta.url), 'utf8');
  const events = JSON.parse(text) as unknown[];
  const v = new VisValidator();
  for (const event of events) {
    const result = v.event(event);
    assert.ok(result.ok, result.ok ? '' : result.error.message);
  }
  assert.equal(v.acceptedEvents, events.length);
});

test('an event holding prepared shapes is the same event, with the same JSON text, as with the shapes themselves', () => {
  const shapes: Shape[] = [
    { text: { s: '1f2937ff', v: '2 : 1', t: 0.07, p: [0.5, 0.82] } },
    { circle: { t: 0.006, p: [0.27, 0.5], r: 0.07, s: '2563ebff', f: '2563eb55' } },
    { line: { s: 'dc2626ff', p1: [0.73 - 0.07, 0.5 - 0.07], p2: [0.73 + 0.07, 0.5 + 0.07], t: 0.012 } },
    { poly: { vs: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], t: 0.1, f: '00000000' } },
  ];
  const plain = new VisValidator();
  const prepared = new VisValidator();
  const events = (geom: readonly (Shape | PreparedShape)[]): VisEventInput[] => [
    { create: { z: 2, geom, id: 1, p: [0.1, 0.3] } },
    { t: 3, create: { geom, id: 2 } },
    { t: 4, destroy: { id: 1 } },
    { log: { line: 'round "1": é' } },
  ];
  const asPrepared = shapes.map((shape) => prepareShape(shape));
  const [score, ...rest] = asPrepared;
  const preparedEvents = events([score!.withText('2 : 1'), ...rest]);
  events(shapes).forEach((event, i) => {
    const a = plain.acceptEvent(event, 2.5);
    const b = prepared.acceptEvent(preparedEvents[i], 2.5);
    assert.ok(a.ok && b.ok);
    assert.deepEqual(b.value.event, a.value.event);
    assert.equal(a.value.json, JSON.stringify(a.value.event));
    assert.equal(b.value.json, a.value.json);
  });
});

test('an invalid prepared shape makes its event refused with the error it has unprepared', () => {
  const bad: Shape = { circle: { f: 'red' } };
  const plain = new VisValidator().event({ t: 0, create: { id: 1, geom: [{ circle: {} }, bad] } });
  const prepared = new VisValidator().event({ t: 0, create: { id: 1, geom: [prepareShape({ circle: {} }), prepareShape(bad)] } });
  assert.ok(!plain.ok && !prepared.ok);
  assert.deepEqual(prepared.error, plain.error);
  const long = new VisValidator({ maxTextLength: 3 }).event({ t: 0, create: { id: 1, geom: [prepareShape({ text: { v: 'abcd' } })] } });
  assert.ok(!long.ok && long.error.code === 'vis/bad-text', 'checked again under the limits of the match');
  const retexted = new VisValidator().event({ t: 0, create: { id: 1, geom: [prepareShape({ text: { v: 'a' } }).withText('x'.repeat(2000))] } });
  assert.ok(!retexted.ok && retexted.error.code === 'vis/bad-text');
});

test('the text-only way of accepting an event gives the same verdicts, errors and text as the general way', () => {
  const score = prepareShape({ text: { v: '0 : 0', p: [0.5, 0.82], t: 0.07, s: '1f2937ff' } });
  const rock = prepareShape({ circle: { p: [0.27, 0.5], r: 0.07, f: '2563eb55', s: '2563ebff', t: 0.006 } });
  const events: unknown[] = [
    { t: 0, create: { id: 1, z: 2, p: [0.5, 0.25], geom: [score, rock] } },
    { create: { id: 2, geom: [score.withText('1 : 0'), rock], z: null } },
    { t: 1, destroy: { id: 1 } },
    { t: 1, destroy: { id: 1 } },
    { t: 1, create: { id: 1, geom: [rock] } },
    { t: 0.5, log: { line: 'earlier' } },
    { t: 2, log: { line: 'a "quoted" line, é' } },
    { t: 2, log: { line: 'x'.repeat(2000) } },
    { t: 2, create: { id: 3, geom: [prepareShape({ circle: { f: 'red' } })] } },
    { t: 2, create: { id: 4, geom: [score.withText('y'.repeat(2000))] } },
    { t: 2, create: { id: 5, p: [0, Number.NaN], geom: [] } },
    { t: 2, create: { id: 6, z: 256, geom: [] } },
    { t: 2, create: { id: 7, geom: [rock], extra: true }, also: 1 },
    { t: 2, create: { id: 8, geom: [rock] }, log: { line: 'two kinds' } },
    { t: -1, log: { line: 'negative' } },
    { t: 3, transform: { id: 2, mv: [0.1, 0.2] } },
    { t: 3, destroy: { id: 1.5 } },
    { t: 4, create: { id: 9, geom: [{ text: { v: 'plain' } }, rock] } },
  ];
  const general = new VisValidator({ maxEvents: 10 });
  const textOnly = new VisValidator({ maxEvents: 10 });
  for (const event of events) {
    const a = general.acceptEvent(event, 1.25);
    const b = textOnly.acceptEventJson(event, 1.25);
    assert.deepEqual(b, a.ok ? { ok: true, value: a.value.json } : a, JSON.stringify(event));
  }
  assert.equal(textOnly.acceptedEvents, general.acceptedEvents);
  assert.ok(!textOnly.acceptEventJson({ log: { line: 'no time' } }).ok, 'without now, t is required');
});

test('a prepared text shape keeps its bytes once, shared by every shape withText makes from it', () => {
  const score = prepareShape({ text: { v: '0 : 0', p: [0.5, 0.82], s: '1f2937ff' } });
  const changed = score.withText('1 : 0');
  const twice = changed.withText('é 2 : 0');
  assert.equal(twice.json, JSON.stringify({ text: { v: 'é 2 : 0', p: [0.5, 0.82], s: '1f2937ff' } }));
  assert.equal(changed.sharedJson, twice.sharedJson, 'one buffer for the text shapes made from one prepared shape');
  for (const shape of [score, changed, twice]) {
    assert.equal(Buffer.concat([Buffer.from(shape.jsonHead), shape.sharedJson]).toString('utf8'), shape.json);
  }
  assert.equal(score.sharedJson, score.sharedJson, 'made once');
  assert.equal(score.jsonHead, '');
});

test('the text-only way writes nothing for a refused event', () => {
  const validator = new VisValidator();
  const rock = prepareShape({ circle: { r: 0.07 } });
  const pieces: string[] = [];
  const out = { text: (json: string) => pieces.push(json), shape: () => pieces.push('shape'), end: () => pieces.push('end') };
  assert.equal(validator.acceptEventTo({ t: 1, create: { id: 1, geom: [rock] } }, undefined, out), null);
  const written = pieces.length;
  for (const event of [{ t: 1, create: { id: 1, geom: [rock] } }, { t: 0, log: { line: 'earlier' } }, { t: 1, destroy: { id: 2 } }, { t: 1, log: { line: 5 } }]) {
    assert.notEqual(validator.acceptEventTo(event, undefined, out), null);
  }
  assert.equal(pieces.length, written);
});
