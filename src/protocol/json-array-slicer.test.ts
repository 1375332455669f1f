import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonArraySlicer, type ArraySlice } from './json-array-slicer.js';

/** Every slice of `json` with the given limits, as the elements' text of each. */
function slices(json: string, maxElements: number, maxBytes: number): { texts: string[]; counts: number[] } {
  const bytes = Buffer.from(json, 'utf8');
  const slicer = new JsonArraySlicer(bytes);
  const texts: string[] = [];
  const counts: number[] = [];
  let slice: ArraySlice | null;
  while ((slice = slicer.next(maxElements, maxBytes)) !== null) {
    texts.push(bytes.subarray(slice.start, slice.end).toString('utf8'));
    counts.push(slice.count);
  }
  assert.ok(slicer.finished);
  return { texts, counts };
}

/** Elements whose strings hold every byte that means something outside a string. */
const TRICKY = [
  { t: 0, log: { line: 'brackets ] } [ { and a comma, in a string' } },
  { t: 1.5, log: { line: 'an escaped quote \\" then ], a backslash at the end \\' } },
  { t: 2, log: { line: '"quoted" \\\\" ]' } },
  { t: 1e21, create: { id: 2, p: [-0.25, 5e-7], geom: [{ text: { v: 'ÿ 日本語 🙂 \ud800 \u0000 \u001f' } }] } },
  [[], {}, [[{}]]],
  'a lone string, with a comma',
  -3,
  null,
];

test('an array is cut between whole elements, strings with brackets, commas, quotes and backslashes included', () => {
  const json = JSON.stringify(TRICKY);
  for (let per = 1; per <= TRICKY.length + 1; per++) {
    const { texts, counts } = slices(json, per, Infinity);
    const parsed = texts.map((text) => JSON.parse(`[${text}]`) as unknown[]);
    assert.deepEqual(parsed.flat(), JSON.parse(json), `${per} a slice: the slices hold every element once, in order`);
    assert.deepEqual(counts, parsed.map((elements) => elements.length));
    assert.ok(counts.slice(0, -1).every((count) => count === per), 'every slice but the last is full');
    assert.equal(`[${texts.join(',')}]`, json, 'the slices are the text as it was');
  }
});

test('a slice ends at the first boundary at or past maxBytes, and a larger element is still given whole', () => {
  const json = JSON.stringify(TRICKY);
  const { texts } = slices(json, 1000, 10);
  assert.deepEqual(texts.map((text) => JSON.parse(`[${text}]`)).flat(), TRICKY);
  for (const text of texts.slice(0, -1)) {
    const elements = JSON.parse(`[${text}]`) as unknown[];
    const withoutLast = JSON.stringify(elements.slice(0, -1)).length - 2;
    assert.ok(elements.length === 1 || withoutLast < 10, 'no element was added after the slice reached maxBytes');
  }
});

test('empty arrays, whitespace, and text that is not an array', () => {
  assert.deepEqual(slices('[]', 5, 5).texts, []);
  assert.deepEqual(slices(' [ ] ', 5, 5).texts, []);
  assert.deepEqual(slices('[1]', 5, 5).texts, ['1']);
  assert.throws(() => new JsonArraySlicer(Buffer.from('{"a":1}')), /not a JSON array/);
  assert.throws(() => new JsonArraySlicer(Buffer.from('[1,2')).next(5, 100), /does not end/);
  assert.throws(() => new JsonArraySlicer(Buffer.from('["abc]')).next(5, 100), /string does not end/);
});
