import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { playLocalMatch, type LocalPlayer } from '../match/local-match.js';
import type { Match } from '../match/match.js';
import { CLOCK_RECORD } from '../match/seat-clocks.js';
import { DERIVED_VIS_LIMITS, DerivedVisStore } from './derived-vis-store.js';
import type { MatchRecord } from './history-store.js';
import { MemoryHistoryStore } from './memory-history-store.js';
import type { Log } from '../util/log.js';

function scripted(moves: readonly string[]): LocalPlayer {
  return async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    for (const move of moves) {
      io.write(`${move}\n`);
      if ((await io.readLine()) === null) return;
    }
  };
}

/** A roshambo match as the lobby records it (its events as a note), and the events and the clock a replay must show. */
async function playedMatch(id: string, rounds: number): Promise<{ record: MatchRecord; events: string; clock: string }> {
  let match: Match<any> | null = null;
  const moves = (offset: number): string[] => Array.from({ length: rounds }, (_, i) => ['ROCK', 'PAPER', 'SCISSORS'][(i + offset) % 3]!);
  const played = await playLocalMatch({ game: roshambo, params: { args: { rounds: String(rounds), pace: '0' } }, players: [{ name: 'alice', play: scripted(moves(0)) }, { name: 'bob', play: scripted(moves(1)) }], seed: id, made: (made) => (match = made) });
  const { outcome } = played;
  const record: MatchRecord = {
    id,
    game: 'roshambo',
    name: id,
    args: { rounds: String(rounds), pace: '0' },
    players: ['alice', 'bob'],
    bots: 0,
    scores: [...outcome.result!.scores],
    reason: outcome.result!.reason,
    error: null,
    seed: id,
    verified: false,
    startedAt: 1,
    endedAt: 2,
    spectatorStream: Buffer.from(''),
    visJson: match!.recordVis().toString('utf8'),
    artifacts: outcome.artifacts,
  };
  assert.ok(record.visJson.startsWith('{'));
  return { record, events: played.visJson, clock: played.clock! };
}

test('a record that keeps a note is read with its derived events: the record, the outline, the part and its ranges', async () => {
  const inner = new MemoryHistoryStore();
  const store = new DerivedVisStore(inner, (name) => (name === 'roshambo' ? roshambo : undefined));
  const { record, events } = await playedMatch('m1', 40);
  await store.record(record);
  const bytes = Buffer.from(events);
  assert.equal((await store.get('m1'))!.visJson, events);
  assert.equal((await store.outline('m1'))!.visBytes, bytes.length);
  assert.deepEqual(await store.readPart('m1', { kind: 'vis' }), bytes);
  assert.deepEqual(await store.readPart('m1', { kind: 'vis' }, { offset: 100, length: 250 }), bytes.subarray(100, 350));
  // The other parts, and a record that keeps its events, pass through.
  assert.deepEqual(await store.readPart('m1', { kind: 'artifact', name: 'transcript-0.txt' }), Buffer.from(record.artifacts['transcript-0.txt']!));
  await store.record({ ...record, id: 'm2', visJson: '[{"t":0,"log":{"line":"kept"}}]' });
  assert.equal((await store.get('m2'))!.visJson, '[{"t":0,"log":{"line":"kept"}}]');
  assert.equal((await store.readPart('m2', { kind: 'vis' }, { offset: 1, length: 3 }))!.toString(), '{"t');
  assert.equal(await store.readPart('nothing', { kind: 'vis' }), null);
  assert.equal(await store.outline('nothing'), null);
});

test('the record\'s clock is read with its turns placed among the derived events: the record, the outline\'s size, the part and its ranges', async () => {
  const inner = new MemoryHistoryStore();
  const store = new DerivedVisStore(inner, (name) => (name === 'roshambo' ? roshambo : undefined));
  const { record, clock } = await playedMatch('m1', 4);
  await store.record(record);
  const kept = JSON.parse(record.artifacts[CLOCK_RECORD.artifact]!) as { seats: { turns: unknown[][] }[] };
  assert.deepEqual(kept.seats.map((seat) => seat.turns.map((turn) => turn.length)), [[3, 3, 3, 3], [3, 3, 3, 3]], 'kept unplaced');
  const placed = JSON.parse(clock) as { seats: { turns: unknown[][] }[] };
  // Roshambo's start draws 5 events, each round 3; both seats are asked, and answer, between them.
  assert.deepEqual(placed.seats.map((seat) => seat.turns.map((turn) => turn.slice(3))), [0, 1].map(() => [[5, 5], [8, 8], [11, 11], [14, 14]]));
  const bytes = Buffer.from(clock);
  assert.equal((await store.get('m1'))!.artifacts[CLOCK_RECORD.artifact], clock);
  assert.deepEqual((await store.outline('m1'))!.artifacts.find((artifact) => artifact.name === CLOCK_RECORD.artifact), { name: CLOCK_RECORD.artifact, bytes: bytes.length });
  assert.deepEqual(await store.readPart('m1', { kind: 'artifact', name: CLOCK_RECORD.artifact }), bytes);
  assert.deepEqual(await store.readPart('m1', { kind: 'artifact', name: CLOCK_RECORD.artifact }, { offset: 20, length: 30 }), bytes.subarray(20, 50));
  // A record that keeps its events keeps its clock placed: it passes through.
  await store.record({ ...record, id: 'm2', visJson: '[]', artifacts: { ...record.artifacts, [CLOCK_RECORD.artifact]: '{"kept":1}' } });
  assert.equal((await store.readPart('m2', { kind: 'artifact', name: CLOCK_RECORD.artifact }))!.toString(), '{"kept":1}');
});

test('derived events are kept for the records read last, within maxCachedBytes, and derived again past it', async () => {
  const inner = new MemoryHistoryStore();
  let derivations = 0;
  const counted = { ...roshambo, play: (...args: Parameters<typeof roshambo.play>) => (derivations++, roshambo.play(...args)) };
  const first = await playedMatch('a', 20);
  const second = await playedMatch('b', 20);
  // Room for either match's events and clock, not both (the clocks' texts vary with the time the matches took).
  const sizes = [first, second].map(({ events, clock }) => Buffer.byteLength(events) + Buffer.byteLength(clock));
  const room = Math.max(...sizes) + 10;
  assert.ok(room < sizes[0]! + sizes[1]!);
  const store = new DerivedVisStore(inner, () => counted, undefined, { ...DERIVED_VIS_LIMITS, maxCachedBytes: room });
  await store.record(first.record);
  await store.record(second.record);
  for (let i = 0; i < 3; i++) await store.readPart('a', { kind: 'vis' }, { offset: i * 10, length: 10 });
  assert.equal(derivations, 1);
  await store.readPart('b', { kind: 'vis' });
  assert.equal(derivations, 2);
  // `b` took `a`'s room.
  await store.readPart('a', { kind: 'vis' });
  assert.equal(derivations, 3);
});

test('a record whose game this server does not know is read with no events, and the failure is logged', async () => {
  const inner = new MemoryHistoryStore();
  const errors: string[] = [];
  const log: Log = { info: () => {}, warn: () => {}, error: (text) => void errors.push(text) };
  const store = new DerivedVisStore(inner, () => undefined, log);
  const { record } = await playedMatch('m', 5);
  await store.record(record);
  assert.equal((await store.get('m'))!.visJson, '[]');
  assert.match(errors.join('\n'), /match m could not be derived.*no game "roshambo"/s);
});

test('a derivation lets the event loop turn every readsPerTurn lines it reads, and draws the same', async () => {
  const { record, events } = await playedMatch('paced', 40);
  const turnsWhileDeriving = async (readsPerTurn: number): Promise<number> => {
    const inner = new MemoryHistoryStore();
    await inner.record(record);
    const store = new DerivedVisStore(inner, () => roshambo, undefined, { ...DERIVED_VIS_LIMITS, readsPerTurn });
    let turns = 0;
    let deriving = true;
    const count = (): void => {
      if (!deriving) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const drawn = await store.readPart('paced', { kind: 'vis' });
    deriving = false;
    assert.equal(drawn!.toString('utf8'), events);
    return turns;
  };
  // 80 lines (40 rounds of two players): a turn every 10 of them, or none at all.
  assert.ok((await turnsWhileDeriving(10)) >= 8);
  assert.ok((await turnsWhileDeriving(1e9)) <= 1);
});
