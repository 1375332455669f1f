import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clobber } from '../games/clobber/clobber.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import { royalur } from '../games/royalur/royalur.js';
import type { GameDefinition } from '../match/game.js';
import { playLocalMatch } from '../match/local-match.js';
import { VisFeed } from '../match/vis-feed.js';
import { encodeReply, encodeVisEventsFrame } from '../protocol/coco/json-codec.js';
import { JsonArraySlicer } from '../protocol/json-array-slicer.js';
import type { VisEvent } from '../protocol/vis-event.js';
import type { Reply } from '../protocol/coco/messages.js';
import { NO_REPLAY_SLOT } from './replay-slots.js';
import { VIS_STREAM_CHUNKS, VisStream } from './vis-stream.js';

/** Matches of server bots, short enough for a test, each game drawing with its own shapes. */
const RECORDED: readonly { game: GameDefinition<any>; args: Record<string, string> }[] = [
  { game: roshambo, args: { pace: '0', rounds: '600' } },
  { game: royalur, args: { pace: '0' } },
  { game: clobber, args: { pace: '0', columns: '4', rows: '4', games: '1' } },
];

/** The events as the record keeps them, for a match of server bots of `game`. */
async function recordedVisJson(game: GameDefinition<any>, args: Record<string, string>): Promise<string> {
  const record = await playLocalMatch({ game, params: { bots: 2, args }, players: [], seed: 'vis-stream' });
  return record.visJson;
}

/** Events an external game may send, through the validator: unicode, escapes, numbers of every form. */
function externalVisJson(): string {
  const feed = new VisFeed(() => 0, { onReject: (error) => assert.fail(error.message) });
  const lines = (t: number): string[] => [
    `{t: ${t}, log: {line: "ÿ 日本語 🙂 \\ud800 lone, \\u0000 \\u001f \\" ] } ,"}}`,
    `{"t":${t}.0000001,"create":{"id":${t},"p":[0.1,-0.25],"z":3,"geom":[{"text":{"v":"\\\\","p":[1e0,0.30000000000000004]}}]}}`,
    `{t: ${t}.5, transform: {id: ${t}, mv: [0.000001, 123456.125], d: 0.5, f: "easeinout"}}`,
    `{"t":${t + 1}e0,"destroy":{"id":${t}}}`,
  ];
  for (let i = 0; i < 700; i++) for (const line of lines(i + 1)) assert.equal(feed.emitLine(line), null);
  return feed.json();
}

/** The VisEvents messages of a replay as they are sent now: spliced from the stored text, slice by slice. */
function splicedFrames(id: string, json: string, maxBytes: number): string[] {
  const bytes = Buffer.from(json, 'utf8');
  const slicer = new JsonArraySlicer(bytes);
  const frames: string[] = [];
  for (let slice = slicer.next(VIS_STREAM_CHUNKS.batch, maxBytes); slice; slice = slicer.next(VIS_STREAM_CHUNKS.batch, maxBytes)) {
    frames.push(encodeVisEventsFrame(id, bytes.subarray(slice.start, slice.end)).toString('utf8'));
  }
  return frames;
}

/** As they were sent before: the whole record parsed, each batch encoded anew. */
function reencodedFrames(id: string, json: string): string[] {
  const events = JSON.parse(json) as VisEvent[];
  const frames: string[] = [];
  for (let i = 0; i < events.length; i += VIS_STREAM_CHUNKS.batch) {
    frames.push(encodeReply({ type: 'VisEvents', id, events: events.slice(i, i + VIS_STREAM_CHUNKS.batch) }, 2));
  }
  return frames;
}

test('a replay spliced from the stored events is byte for byte what encoding the parsed events gave, for every game recorded here', async () => {
  const cases: { name: string; json: string }[] = [{ name: 'external', json: externalVisJson() }];
  for (const { game, args } of RECORDED) cases.push({ name: game.name, json: await recordedVisJson(game, args) });
  for (const { name, json } of cases) {
    for (const id of ['0123456789abc', 'an "odd" id ÿ']) {
      const old = reencodedFrames(id, json);
      assert.ok(old.length >= 1, `${name}: some events`);
      assert.deepEqual(splicedFrames(id, json, Infinity), old, `${name}: the same messages when only the count cuts`);
      // Cut by bytes too: other boundaries, but each message is still what encoding its events gives.
      const small = splicedFrames(id, json, 4096);
      const events: VisEvent[] = [];
      for (const frame of small) {
        const body = (JSON.parse(frame) as { VisEvents: { id: string; events: VisEvent[] } }).VisEvents;
        assert.equal(body.id, id);
        assert.equal(frame, encodeReply({ type: 'VisEvents', id, events: body.events }, 2), `${name}: a message cut by bytes`);
        events.push(...body.events);
      }
      assert.deepEqual(events, JSON.parse(json), `${name}: every event once, in order`);
      if (Buffer.byteLength(json) > 3 * 4096) assert.ok(small.length > old.length, `${name}: the byte limit cut`);
    }
  }
});

test('the seats a running match tells (VisSeats) go out as they come, and nothing after VisEnded', async () => {
  const replies: Reply[] = [];
  const stream = new VisStream('m1', { reply: (reply) => void replies.push(reply), sendText: () => {}, drainedTo: () => Promise.resolve(true), idle: () => {}, fail: () => {} }, NO_REPLAY_SLOT);
  const seats = { now: 1.5, seats: [{ name: 'ann', turn: [1, null, 30] as const, closed: null }] };
  stream.seats(seats);
  stream.history(Buffer.from('[]'));
  await new Promise((resolve) => setImmediate(resolve));
  stream.end();
  await new Promise((resolve) => setImmediate(resolve));
  stream.seats({ ...seats, now: 2 });
  assert.deepEqual(replies.map((reply) => reply.type), ['VisSeats', 'VisEnded']);
  assert.deepEqual(replies[0], { type: 'VisSeats', id: 'm1', ...seats });
});
