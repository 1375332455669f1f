import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHjson, type HjsonErrorCode } from './hjson-lite.js';

function value(text: string): unknown {
  const parsed = parseHjson(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
  // Round-trip through JSON so that prototype-less objects compare as plain ones.
  return JSON.parse(JSON.stringify(parsed.value));
}

function code(text: string, maxDepth = 32): HjsonErrorCode {
  const parsed = parseHjson(text, { maxChars: 1000, maxDepth });
  assert.ok(!parsed.ok, `expected ${text} to be refused`);
  return parsed.error.code;
}

test('plain JSON parses exactly as JSON.parse does', () => {
  const samples = [
    '{"t":0,"create":{"id":123321,"z":3,"geom":[{"poly":{"f":"77000077","t":0.006,"vs":[[0.1, 0.1],[0.1,0.9]]}}]}}',
    '[1, -2.5, 3e-2, 0, -0, true, false, null, "a\\"b\\\\c\\u00e9\\n"]',
    '{"":{"a":[[],{}]}}',
  ];
  for (const sample of samples) assert.deepEqual(value(sample), JSON.parse(JSON.stringify(JSON.parse(sample))));
});

test('the Hjson examples of the spec parse with unquoted keys', () => {
  assert.deepEqual(value('{t:2.3,transform:{id:33,d:0.3,mv:[0,0.060000002]}}'), {
    t: 2.3,
    transform: { id: 33, d: 0.3, mv: [0, 0.060000002] },
  });
  assert.deepEqual(value("{t:1.5, create: {id:33, p:[0.77,0.83], geom:[{circle:{r:0.024,f:'33cc33ff'}}]}}"), {
    t: 1.5,
    create: { id: 33, p: [0.77, 0.83], geom: [{ circle: { r: 0.024, f: '33cc33ff' } }] },
  });
});

test('trailing commas, comments and newline separators are accepted', () => {
  assert.deepEqual(value('{a:1, b:[1,2,], # comment\n c:2 // more\n d:/* inline */3,}'), { a: 1, b: [1, 2], c: 2, d: 3 });
});

test('quoteless values, duplicate keys and junk are refused with stable codes', () => {
  assert.equal(code('{log:{line:hello}}'), 'hjson/quoteless-value');
  assert.equal(code('{a:1,a:2}'), 'hjson/duplicate-key');
  assert.equal(code('{a:1} x'), 'hjson/trailing-text');
  assert.equal(code('{a:1 b:2}'), 'hjson/unexpected-char');
  assert.equal(code('{a:[1,2'), 'hjson/unexpected-end');
  assert.equal(code('{a:"x'), 'hjson/unexpected-end');
  assert.equal(code('{a:"\\q"}'), 'hjson/bad-string');
  assert.equal(code('{a:"tab\there"}'), 'hjson/bad-string');
  assert.equal(code('{a:01}'), 'hjson/bad-number');
  assert.equal(code('{a:1e999}'), 'hjson/bad-number');
  assert.equal(code('{a:12px}'), 'hjson/bad-number');
  assert.equal(code('{a:truex}'), 'hjson/quoteless-value');
});

test('nesting and length are bounded before any work is done', () => {
  assert.equal(code('[[[[1]]]]', 3), 'hjson/too-deep');
  assert.deepEqual(value('[[[1]]]'), [[[1]]]);
  assert.equal(code('['.repeat(100000)), 'hjson/too-long');
  const deep = parseHjson('['.repeat(5000) + ']'.repeat(5000), { maxChars: 20000, maxDepth: 32 });
  assert.ok(!deep.ok && deep.error.code === 'hjson/too-deep');
});

test('a __proto__ key is plain data and does not touch any prototype', () => {
  const parsed = parseHjson('{__proto__:{polluted:1}, constructor:2}');
  assert.ok(parsed.ok);
  const object = parsed.value as Record<string, unknown>;
  assert.deepEqual(Object.keys(object), ['__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.equal(Object.getPrototypeOf(object), null);
});
