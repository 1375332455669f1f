import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareShape } from '../protocol/vis-check.js';
import type { PreparedShape } from '../protocol/vis-shape.js';
import { ByteLog } from '../util/byte-log.js';
import { Random } from './random.js';
import { SharedRuns, VisLog } from './vis-log.js';

/** What a log must read back: the pieces put together as text, events separated by commas. */
class PlainText {
  json = '';
  private first = true;
  private atEventStart = true;

  text(json: string): void {
    this.separate();
    this.json += json;
  }

  shape(shape: PreparedShape, comma: boolean): void {
    this.separate();
    this.json += comma ? `,${shape.json!}` : shape.json!;
  }

  end(): void {
    this.atEventStart = true;
  }

  private separate(): void {
    if (this.atEventStart && !this.first) this.json += ',';
    this.atEventStart = false;
    this.first = false;
  }
}

function readBack(log: VisLog): string {
  const bytes = new Uint8Array(log.jsonLength);
  assert.equal(log.copyJsonTo(bytes, 0), bytes.length);
  return Buffer.from(bytes).toString('utf8');
}

test('a log reads back exactly the pieces written, in any order of text, shapes with and without commas, and ends', () => {
  const score = prepareShape({ text: { v: '0 : 0', p: [0.5, 0.82] } });
  const shapes = [score, ...Array.from({ length: 6 }, (_, i) => prepareShape({ circle: { r: i / 10, f: '00000000' } }))];
  const texts = ['{"t":1,"log":{"line":"é"}}', ']', '{"id":3,"geom":[', 'ÿ日本🙂', ''];
  for (const maxSharedBytes of [0, 200, 64 * 1024]) {
    const random = Random.fromSeed(`vis-log ${maxSharedBytes}`);
    const log = new VisLog(new SharedRuns({ maxSharedBytes }));
    const plain = new PlainText();
    for (let i = 0; i < 5000; i++) {
      const choice = random.int(10);
      if (choice < 3) {
        const text = texts[random.int(texts.length)]!;
        log.text(text);
        plain.text(text);
      } else if (choice < 9) {
        const base = shapes[random.int(shapes.length)]!;
        const shape = base === score && random.int(2) === 0 ? score.withText(`${i} : ${random.int(5)}`) : base;
        const comma = random.int(4) !== 0;
        log.shape(shape, comma);
        plain.shape(shape, comma);
      } else {
        log.end();
        plain.end();
      }
      if (i % 500 === 0) assert.equal(readBack(log), plain.json, `after ${i} pieces, maxSharedBytes ${maxSharedBytes}`);
    }
    assert.equal(readBack(log), plain.json);
    assert.ok(log.compactLength <= log.jsonLength);
  }
});

test('a reference split between two chunks of the log reads back right', () => {
  // Chunks of 5 bytes: the marker and the one or two bytes of the index after it fall on every
  // side of a boundary; 300 runs make indices of two bytes.
  const shapes = Array.from({ length: 300 }, (_, i) => prepareShape({ circle: { r: i } }));
  const random = Random.fromSeed('vis-log split references');
  const log = new VisLog(undefined, new ByteLog(5, 5));
  const plain = new PlainText();
  for (let i = 0; i < 3000; i++) {
    const shape = shapes[random.int(shapes.length)]!;
    if (random.int(3) === 0) {
      const text = 'x'.repeat(random.int(4));
      log.text(text);
      plain.text(text);
    }
    const comma = random.int(2) === 0;
    log.shape(shape, comma);
    plain.shape(shape, comma);
    if (random.int(2) === 0) {
      log.end();
      plain.end();
    }
  }
  assert.equal(readBack(log), plain.json);
});

test('a log copies into a buffer at an offset, leaving the bytes around it', () => {
  const log = new VisLog();
  const rock = prepareShape({ circle: { r: 0.07 } });
  log.text('{"a":[');
  log.shape(rock, false);
  log.shape(rock, true);
  log.text(']}');
  log.end();
  const target = Buffer.alloc(log.jsonLength + 2, 0x2e);
  assert.equal(log.copyJsonTo(target, 1), log.jsonLength);
  assert.equal(target.toString(), `.{"a":[${rock.json!},${rock.json!}]}.`);
});

test('an empty log reads back nothing', () => {
  const log = new VisLog();
  assert.equal(log.jsonLength, 0);
  assert.equal(readBack(log), '');
});

test('logs sharing a table keep a run once for all of them, and each reads back its own text', () => {
  const table = new SharedRuns({ maxSharedBytes: 64 * 1024 });
  const [a, b] = [prepareShape({ circle: { r: 1 } }), prepareShape({ circle: { r: 2 } })];
  const logs = [new VisLog(table), new VisLog(table)];
  logs.forEach((log, i) => {
    log.text(`{"id":${i},"geom":[`);
    log.shape(a!, false);
    log.shape(b!, true);
    log.text(']}');
    log.end();
  });
  const run = [a!.sharedJson, b!.sharedJson];
  const length = run[0]!.length + run[1]!.length + 1;
  assert.equal(table.indexOf(run, length), 0, 'the one run, kept at the first index');
  logs.forEach((log, i) => assert.equal(readBack(log), `{"id":${i},"geom":[{"circle":{"r":1}},{"circle":{"r":2}}]}`));
});
