import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch } from '../../match/local-match.js';
import type { VisEvent } from '../../protocol/vis-event.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';
import { legalMoves } from './moves.js';
import { playing, scriptedClient } from './protocol-kit.js';
import { initialState, performMove } from './rules.js';
import { TEST_BOARD, TEST_BOARD_CODE, advance, card, move, stateOf } from './test-kit.js';
import { HaseVis, fieldPosition } from './vis.js';

const game = createHaseUndIgelGame();
const firstLegal = scriptedClient(playing((state) => legalMoves(state)[0]!));

function collect(): { events: VisEvent[]; vis: HaseVis } {
  const events: VisEvent[] = [];
  const vis = new HaseVis((event) => events.push({ ...event, t: event.t ?? 0 } as VisEvent), ['alice', 'bob']);
  return { events, vis };
}

test('the 65 fields lie on a track around the unit square, in order and apart', () => {
  const points = Array.from({ length: 65 }, (_, i) => fieldPosition(i));
  for (const [x, y] of points) assert.ok(x > 0 && x < 1 && y > 0 && y < 1);
  assert.ok(Math.hypot(points[64]![0] - points[0]![0], points[64]![1] - points[0]![1]) > 0.048, 'goal and start apart');
  for (let i = 1; i < 65; i++) {
    const [x0, y0] = points[i - 1]!;
    const [x1, y1] = points[i]!;
    assert.ok(Math.hypot(x1 - x0, y1 - y0) > 0.048, `fields ${i - 1} and ${i} overlap`);
  }
});

test('the board is drawn once: one labelled, coloured object per field, two hares and a text panel', () => {
  const { events, vis } = collect();
  vis.start(initialState(TEST_BOARD));
  const creates = events.flatMap((e) => ('create' in e ? [e.create] : []));
  assert.equal(creates.length, 65 + 2 + 1 + 1, 'the fields, the hares, the legend and the panel');
  const fields = creates.slice(0, 65);
  assert.ok(fields.every((f) => f.geom.some((g) => 'text' in g) && f.geom.some((g) => 'circle' in g)));
  const panel = creates.at(-1)!;
  const texts = panel.geom.flatMap((g) => ('text' in g ? [g.text.v] : []));
  assert.deepEqual(texts.slice(1), [
    'RED alice: field 0, 68 carrots, 5 salads, cards TEHF',
    'BLUE bob: field 0, 68 carrots, 5 salads, cards TEHF',
  ]);
  for (const colour of JSON.stringify(events).match(/"[fs]":"[^"]*"/g) ?? []) assert.match(colour, /"[fs]":"[0-9a-f]{8}"/);
});

test('a move is animated action by action, logged, and the panel replaced', () => {
  const { events, vis } = collect();
  const before = stateOf({ index: 56, carrots: 20, salads: 1 }, { index: 59 });
  vis.start(before);
  events.length = 0;
  const m = move(advance(2), card('HURRY_AHEAD', 1), card('FALL_BACK', 2), card('EAT_SALAD', 3));
  const after = performMove(before, m);
  assert.ok(after.ok);
  vis.move(before, after.value.lastMove!, after.value);
  const transforms = events.flatMap((e) => ('transform' in e ? [e] : []));
  assert.equal(transforms.length, 3, 'advance, hurry ahead and fall back move the hare; eating does not');
  assert.ok(transforms.every((e, i) => i === 0 || e.t > transforms[i - 1]!.t));
  const logs = events.flatMap((e) => ('log' in e ? [e.log.line] : []));
  assert.deepEqual(logs, ['1. RED alice: advance 2, card HURRY_AHEAD, card FALL_BACK, card EAT_SALAD']);
  assert.ok(events.some((e) => 'destroy' in e));
});

test('a whole match emits visualizer events with unique ids and a log line per move', async () => {
  const record = await playLocalMatch({
    game,
    params: { args: { room: 'r1', board: TEST_BOARD_CODE } },
    players: [
      { name: 'alice', play: firstLegal },
      { name: 'bob', play: firstLegal },
    ],
  });
  const created = record.vis.flatMap((e) => ('create' in e ? [e.create.id] : []));
  assert.equal(new Set(created).size, created.length, 'ids are never reused');
  const moves = (record.received[0]!.match(/<lastMove>/g) ?? []).length;
  const logs = record.vis.filter((e) => 'log' in e);
  assert.equal(logs.length, moves + 1, 'one line per move and one for the result');
  for (let i = 1; i < record.vis.length; i++) assert.ok(record.vis[i]!.t >= record.vis[i - 1]!.t);
});
