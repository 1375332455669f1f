import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHjsonMini } from './hjson-mini.js';
import { parseVisPayload } from './vis-line.js';

test('the spec examples parse the same in JSON and in Hjson', () => {
  const pairs = [
    [
      '{"t":0,"create":{"id":123321,"z":3,"geom":[{"poly":{"f":"77000077","t":0.006,"vs":[[0.1, 0.1],[0.1,0.9],[0.9,0.9],[0.9,0.1]]}}]}}',
      '{t:0,create:{id:123321,z:3,geom:[{poly:{f:"77000077",t:0.006,vs:[[0.1, 0.1],[0.1,0.9],[0.9,0.9],[0.9,0.1]]}}]}}',
    ],
    [
      '{"t":1.5,"create":{"id":33,"z":2,"p":[0.77,0.83],"geom":[{"circle":{"r":0.024,"f":"33cc33ff","t":0.003}}]}}',
      '{t:1.5,create:{id:33,z:2,p:[0.77,0.83],geom:[{circle:{r:0.024,f:"33cc33ff",t:0.003}}]}}',
    ],
    ['{"t":2.3,"transform":{"id":33,"d":0.3,"mv":[0,0.060000002]}}', '{t:2.3,transform:{id:33,d:0.3,mv:[0,0.060000002]}}'],
  ] as const;
  for (const [json, hjson] of pairs) {
    const a = parseVisPayload(json);
    const b = parseVisPayload(hjson);
    assert.ok(a.ok && b.ok, `${json} / ${hjson}`);
    assert.deepEqual(a.value, b.value);
    assert.deepEqual(a.value, JSON.parse(json));
  }
});

test('Hjson extras: single quotes, trailing commas, spaces, escapes; a __proto__ key is plain data', () => {
  assert.deepEqual(parseHjsonMini(" { a : 'x\\'y' , b:[1, 2,], 'c d':\"\\u00e9\\n\", } "), {
    ok: true,
    value: Object.assign(Object.create(null), { a: "x'y", b: [1, 2], 'c d': 'é\n' }),
  });
  const proto = parseHjsonMini('{__proto__:{polluted:1}}');
  assert.ok(proto.ok);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('Hjson errors say what and where', () => {
  const cases: [string, RegExp][] = [
    ['{t:0', /expected "," or "}" at character 5/],
    ['{t:0}}', /unexpected text after the value at character 6/],
    ['{log:{line:hello}}', /quoteless strings are not supported/],
    ['{a:1,a:2}', /duplicate key "a"/],
    ['"abc', /unterminated string/],
    ['['.repeat(40) + ']'.repeat(40), /nesting deeper than 32/],
    ['{a:01}', /expected "," or "}"/],
  ];
  for (const [text, error] of cases) {
    const parsed = parseHjsonMini(text);
    assert.ok(!parsed.ok, text);
    assert.match(parsed.error, error, text);
  }
});

test('every event kind and shape is accepted and unknown fields are dropped', () => {
  const parsed = parseVisPayload(
    '{t:1,create:{id:7,p:[0.5,0.5],z:0,extra:1,geom:[{line:{p1:[0,0],p2:[1,1],t:0.01,s:"000000ff"}},{circle:{}},{poly:{vs:[]}},{text:{v:"hi",p:[0,0],t:0.05}}]}}',
  );
  assert.deepEqual(parsed, {
    ok: true,
    value: {
      t: 1,
      create: {
        id: 7,
        p: [0.5, 0.5],
        z: 0,
        geom: [{ line: { p1: [0, 0], p2: [1, 1], t: 0.01, s: '000000ff' } }, { circle: {} }, { poly: { vs: [] } }, { text: { v: 'hi', p: [0, 0], t: 0.05 } }],
      },
    },
  });
  assert.deepEqual(parseVisPayload('{destroy:{id:7}}'), { ok: true, value: { destroy: { id: 7 } } });
  assert.deepEqual(parseVisPayload('{t:2,transform:{id:7,f:"step",rot:3.14}}'), { ok: true, value: { t: 2, transform: { id: 7, f: 'step', rot: 3.14 } } });
  assert.deepEqual(parseVisPayload('{t:2,log:{line:"move 3"}}'), { ok: true, value: { t: 2, log: { line: 'move 3' } } });
});

test('invalid events are refused with the field that is wrong', () => {
  const cases: [string, RegExp][] = [
    ['[1]', /the event must be an object/],
    ['{t:0}', /must have exactly one of create, destroy, transform, log/],
    ['{t:0,destroy:{id:1},log:{line:"x"}}', /exactly one of/],
    ['{t:-1,destroy:{id:1}}', /t must not be negative/],
    ['{t:"0",destroy:{id:1}}', /t must be a number/],
    ['{destroy:{id:1.5}}', /destroy.id must be an integer/],
    ['{create:{id:1,z:300,geom:[]}}', /create.z must be an integer from 0 to 255/],
    ['{create:{id:1}}', /create.geom must be a list of shapes/],
    ['{create:{id:1,geom:[{square:{}}]}}', /create.geom\[0\] must have exactly one of line, circle, poly, text/],
    ['{create:{id:1,geom:[{circle:{f:"ff0000"}}]}}', /create.geom\[0\].circle.f must be a colour of exactly 8 hex digits/],
    ['{create:{id:1,geom:[{line:{p1:[0,0]}}]}}', /create.geom\[0\].line.p2 must be \[x, y\]/],
    ['{create:{id:1,geom:[{text:{}}]}}', /text.v must be a string/],
    ['{transform:{id:1,mv:[0,1],scale:2}}', /transform must have exactly one of mv, rot, scale/],
    ['{transform:{id:1,f:"bounce",scale:2}}', /transform.f must be one of step, linear/],
    ['{log:{}}', /log.line must be a string/],
    ['nope', /not JSON\/Hjson/],
  ];
  for (const [text, error] of cases) {
    const parsed = parseVisPayload(text);
    assert.ok(!parsed.ok, text);
    assert.match(parsed.error, error, text);
  }
});
