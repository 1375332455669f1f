import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VisEvent, VisEventInput } from '../protocol/vis-event.js';
import type { Shape } from '../protocol/vis-shape.js';
import { prepareShape } from '../protocol/vis-check.js';
import type { VisError } from '../protocol/vis-limits.js';
import { VisValidator } from '../protocol/vis-validate.js';
import { RoshamboVis } from '../games/roshambo/vis.js';
import { GESTURES } from '../games/roshambo/rules.js';
import { Random } from './random.js';
import { VisFeed, type VisSink } from './vis-feed.js';
import { SharedRuns } from './vis-log.js';

/** An event as a game emits it, or an external game's `vis` line. */
type Emitted = { readonly event: VisEventInput | unknown } | { readonly line: string };

const score = prepareShape({ text: { v: '0 : 0', p: [0.5, 0.82], t: 0.07, s: '1f2937ff' } });
const rock = prepareShape({ circle: { p: [0.27, 0.5], r: 0.07, f: '2563eb55', s: '2563ebff', t: 0.006 } });
const cut = prepareShape({ line: { p1: [0.66, 0.43], p2: [0.8, 0.57], t: 0.012, s: 'dc2626ff' } });
const sheet = prepareShape({ poly: { vs: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], f: '00000000' } });
const plainText: Shape = { text: { v: 'plain é', p: [0.5, 0.5] } };

/** Every kind of event, on the quick way and the general way, and some refused ones between. */
const MIXED: readonly Emitted[] = [
  { event: { t: 0, create: { id: 1, p: [0.5, 0.25], z: 2, geom: [score, rock, cut] } } },
  { event: { create: { id: 2, geom: [score.withText('1 : 0'), sheet] } } },
  { event: { t: 1, log: { line: 'round 1: ROCK against SCISSORS, "alice" scores' } } },
  { event: { t: 1, create: { id: 3, geom: [rock, plainText, cut] } } },
  { event: { t: 1, transform: { id: 3, mv: [0.1, 0.2], d: 0.5, f: 'easeinout' } } },
  { line: '{t: 1.5, log: {line: "from an external game, 日本語"}}' },
  { line: '{"t":1.5,"create":{"id":4,"geom":[{"circle":{"r":0.1}}]}}' },
  { event: { t: 2, destroy: { id: 1 } } },
  { event: { t: 2, destroy: { id: 1 } } },
  { event: { t: 0.5, log: { line: 'earlier than the last event' } } },
  { event: { t: 2, create: { id: 5, geom: [prepareShape({ circle: { f: 'red' } })] } } },
  { line: '{t: 2, create: {id: 6, geom: [{text: {v: 5}}]}}' },
  { event: { t: 2, create: { id: 7, geom: [score.withText('ÿ \uffff 🙂 "q" \\ \u0000'), rock] } } },
  { event: { create: { id: 8, z: 0, geom: [] } } },
  { event: { log: { line: 'a lone surrogate \ud800 and ÿ' } } },
  { event: { t: 3, create: { id: 9, geom: [sheet, score.withText('2 : 1').withText('3 : 1'), rock, sheet] } } },
];

/** The JSON text of the events the plain way gives (each accepted event's JSON, as before the log was compact), and its verdicts. */
function plainWay(emitted: readonly Emitted[], now: number): { json: string; errors: (VisError | null)[] } {
  const validator = new VisValidator();
  const texts: string[] = [];
  const errors = emitted.map((item) => {
    const accepted = 'line' in item ? validator.acceptLine(item.line) : validator.acceptEvent(item.event, now);
    if (!accepted.ok) return accepted.error;
    texts.push(accepted.value.json);
    return null;
  });
  return { json: `[${texts.join(',')}]`, errors };
}

function plainJson(emitted: readonly Emitted[], now: number): string {
  return plainWay(emitted, now).json;
}

function emitAll(feed: VisFeed, emitted: readonly Emitted[]): (VisError | null)[] {
  return emitted.map((item) => ('line' in item ? feed.emitLine(item.line) : feed.emit(item.event as VisEventInput)));
}

function collectingSink(): VisSink & { events: VisEvent[]; ended: boolean } {
  return {
    events: [],
    ended: false,
    history() {},
    event(event) {
      this.events.push(event);
    },
    end() {
      this.ended = true;
    },
  };
}

test('a feed reads back, byte for byte, the JSON the plain way writes, for every kind of event', () => {
  const feed = new VisFeed(() => 2.5);
  const errors = emitAll(feed, MIXED);
  const expected = plainWay(MIXED, 2.5);
  assert.equal(feed.json(), expected.json);
  assert.deepEqual(feed.jsonBytes(), Buffer.from(expected.json, 'utf8'));
  assert.deepEqual(feed.all(), JSON.parse(expected.json));
  assert.deepEqual(errors, expected.errors, 'the same events are refused, with the same errors');
  assert.ok(errors.filter((error) => error !== null).length >= 4);
});

test('a refused event leaves the feed as it was', () => {
  const refused: Emitted[] = [
    { event: { t: 5, destroy: { id: 99 } } },
    { event: { t: 5, create: { id: 1, geom: [rock] } } },
    { event: { t: 5, create: { id: 50, geom: [rock, score.withText('x'.repeat(2000))] } } },
    { event: { t: 4, log: { line: 'earlier' } } },
    { line: '{"t":5,"create":{"id":51,"geom":[{"circle":{"f":"red"}}]}}' },
  ];
  const feed = new VisFeed(() => 5);
  emitAll(feed, MIXED);
  const before = feed.jsonBytes();
  for (const error of emitAll(feed, refused)) assert.notEqual(error, null);
  assert.deepEqual(feed.jsonBytes(), before);
  emitAll(feed, [{ event: { t: 5, create: { id: 50, geom: [rock] } } }]);
  assert.equal(feed.json(), plainJson([...MIXED, ...refused, { event: { t: 5, create: { id: 50, geom: [rock] } } }], 5));
});

test('prepared shapes shared by several feeds read back right in each, whatever order each met them in', () => {
  const shapes = [score, rock, cut, sheet];
  const random = Random.fromSeed('vis-feed shared shapes');
  const feeds = [0, 1, 2].map(() => ({ feed: new VisFeed(() => 1), emitted: [] as Emitted[] }));
  for (let id = 1; id <= 300; id++) {
    for (const { feed, emitted } of feeds) {
      const geom = Array.from({ length: random.int(5) }, () => shapes[random.int(shapes.length)]!);
      const event: Emitted = { event: { create: { id, geom: random.int(3) === 0 ? [score.withText(`${id} : ${random.int(9)}`), ...geom] : geom } } };
      feed.emit((event as { event: VisEventInput }).event);
      emitted.push(event);
    }
  }
  for (const { feed, emitted } of feeds) assert.equal(feed.json(), plainJson(emitted, 1));
});

test('text that encodes to any UTF-8 byte is never taken for a reference to a shape', () => {
  // Every character from U+0000 to U+FFFF plus an astral one: their UTF-8 bytes cover every lead
  // and continuation byte a text can hold (0xFF is none of them), written between references.
  const characters: string[] = [];
  for (let code = 0; code <= 0xffff; code += 1) characters.push(String.fromCharCode(code));
  characters.push('🙂');
  const feed = new VisFeed(() => 1);
  const emitted: Emitted[] = [];
  for (let i = 0; i * 512 < characters.length; i++) {
    const text = characters.slice(i * 512, (i + 1) * 512).join('');
    emitted.push({ event: { create: { id: i, geom: [rock, score.withText(text), cut] } } });
    emitted.push({ event: { log: { line: text } } });
  }
  emitAll(feed, emitted);
  assert.equal(feed.json(), plainJson(emitted, 1));
});

test('references to more shared shapes than one byte can count read back right', () => {
  // Indices past 63 take two bytes after the marker, and some of them are 0xFF themselves.
  const shapes = Array.from({ length: 400 }, (_, i) => prepareShape({ circle: { r: i / 1000 } }));
  const feed = new VisFeed(() => 1);
  const emitted: Emitted[] = shapes.map((shape, i) => ({ event: { create: { id: i, geom: [shape, shapes[(i * 7) % shapes.length]!] } } }));
  emitAll(feed, emitted);
  assert.equal(feed.json(), plainJson(emitted, 1));
});

test('past maxSharedBytes a feed copies further shapes into its log, and reads back the same', () => {
  const shapes = Array.from({ length: 5 }, (_, i) => prepareShape({ circle: { r: i / 10 } }));
  const emitted: Emitted[] = Array.from({ length: 40 }, (_, i) => ({ event: { create: { id: i, geom: [shapes[i % 5]!, shapes[(i + 1) % 5]!] } } }));
  // Room for two of the five pairs: the events of the other three copy their 37 to 41 bytes.
  const limited = new VisFeed(() => 1, { sharedRuns: new SharedRuns({ maxSharedBytes: 90 }) });
  const unlimited = new VisFeed(() => 1);
  emitAll(limited, emitted);
  emitAll(unlimited, emitted);
  assert.equal(limited.json(), plainJson(emitted, 1));
  assert.equal(unlimited.json(), plainJson(emitted, 1));
  assert.ok(limited.logBytes > unlimited.logBytes + 24 * 35, `the log past the limit holds the shapes' bytes (${limited.logBytes} against ${unlimited.logBytes})`);
});

test('a subscriber who comes in the middle of a match gets the events so far, then the live ones, in the record too', () => {
  const feed = new VisFeed(() => 2.5);
  const half = MIXED.length / 2;
  emitAll(feed, MIXED.slice(0, half));
  const sink = collectingSink();
  const subscription = feed.subscribe(sink);
  assert.ok(subscription.live);
  const history = JSON.parse(subscription.historyJson.toString('utf8')) as VisEvent[];
  assert.equal(subscription.historyJson.toString('utf8'), plainJson(MIXED.slice(0, half), 2.5), 'the history is the text the record keeps');
  emitAll(feed, MIXED.slice(half));
  const all = JSON.parse(plainJson(MIXED, 2.5)) as VisEvent[];
  assert.deepEqual(sink.events, all.slice(history.length));
  subscription.unsubscribe();
  const after: Emitted[] = [{ event: { t: 4, create: { id: 20, geom: [score.withText('9 : 9'), rock] } } }, { event: { t: 4, destroy: { id: 20 } } }];
  emitAll(feed, after);
  assert.equal(sink.events.length, all.length - history.length, 'no event after unsubscribing');
  assert.equal(feed.json(), plainJson([...MIXED, ...after], 2.5));
  feed.end();
  assert.ok(sink.ended === false, 'an unsubscribed sink is not told the end');
  assert.equal(feed.subscribe(collectingSink()).historyJson.toString('utf8'), feed.json());
});

test('a roshambo round takes about a third of its JSON in the log', () => {
  let now = 0;
  const feed = new VisFeed(() => now, { onReject: (error) => assert.fail(error.message) });
  const validator = new VisValidator();
  const texts: string[] = [];
  const vis = new RoshamboVis((event) => {
    feed.emit(event);
    const accepted = validator.acceptEvent(event, now);
    assert.ok(accepted.ok);
    texts.push(accepted.value.json);
  });
  const random = Random.fromSeed('roshambo vis log');
  vis.start(['alice', 'bob'], 1000);
  const points: [number, number] = [0, 0];
  for (let round = 1; round <= 1000; round++) {
    now = round;
    const a = GESTURES[random.int(3)]!;
    const b = random.int(50) === 0 ? null : GESTURES[random.int(3)]!;
    points[random.int(2)]++;
    vis.round(round, [a, b], points, `round ${round}: ${a} against ${b ?? 'nobody'}`);
  }
  assert.equal(feed.json(), `[${texts.join(',')}]`);
  assert.ok(feed.logBytes * 2.5 < feed.jsonBytes().length, `${feed.logBytes} bytes kept for ${feed.jsonBytes().length} of JSON`);
});
