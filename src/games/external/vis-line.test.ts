import { test } from 'node:test';
import assert from 'node:assert/strict';
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

test('invalid events are refused with the validator\'s error code', () => {
  const cases: [string, RegExp][] = [
    ['nope', /^vis\/bad-syntax/],
    ['{destroy:{id:1}}', /^vis\/bad-time/],
    ['{t:0,create:{id:1,geom:[{circle:{f:"ff0000"}}]}}', /^vis\/bad-color/],
    ['{t:0,transform:{id:1,mv:[0,1],scale:2}}', /^vis\/bad-transform/],
  ];
  for (const [text, error] of cases) {
    const parsed = parseVisPayload(text);
    assert.ok(!parsed.ok, text);
    assert.match(parsed.error, error, text);
  }
});
