import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY_MS, DEFAULT_RATINGS_LIMIT, HISTORY_RETENTION_DEFAULTS, MAX_RATINGS_LIMIT, storedSize, type HistoryStore, type HistoryStoreOptions, type MatchRecord, type RecordPart } from './history-store.js';
import { MemoryHistoryStore } from './memory-history-store.js';
import Database from 'better-sqlite3';
import { MIGRATIONS, SqliteHistoryDb } from './sqlite-history-db.js';
import { SqliteHistoryStore } from './sqlite-history-store.js';
import { PostgresHistoryStore } from './postgres-history-store.js';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';
import { ManualClock } from '../util/clock.js';
import { MessageChannel } from 'node:worker_threads';
import { ipcChannel, portEnd } from '../cluster/ipc-channel.js';
import { RemoteHistoryStore, serveHistoryStore, type RemoteStoreReply, type RemoteStoreRequest } from '../cluster/remote-store.js';

function record(id: string, game: string, players: string[], endedAt: number): MatchRecord {
  return {
    id,
    game,
    name: `match ${id}`,
    args: { rounds: '3' },
    players,
    bots: players.filter((p) => p.includes('$')).length,
    scores: players.map((_, i) => i),
    reason: 'done',
    error: null,
    seed: 's',
    verified: false,
    startedAt: endedAt - 1000,
    endedAt,
    spectatorStream: Buffer.from(`${players.join('\n')}\n`),
    visJson: '[{"t":0,"log":{"line":"hello"}}]',
    artifacts: { 'replay.log': `000.000001 > start ${id}\n` },
  };
}

/** A record whose spectator stream is `bytes` long, so that its size can be chosen. */
function sized(id: string, endedAt: number, bytes: number, players = ['alice', 'bob']): MatchRecord {
  return { ...record(id, 'roshambo', players, endedAt), spectatorStream: Buffer.alloc(bytes, id) };
}

/** A verified match with these scores, seat by seat. */
function rated(id: string, players: string[], scores: number[], endedAt: number, game = 'roshambo'): MatchRecord {
  return { ...record(id, game, players, endedAt), scores, verified: true };
}

/** The figures of rating.test.ts: a newcomer's skill after one win or one loss against a newcomer. */
const WON = { mu: 27.635, sigma: 8.066 };
const LOST = { mu: 22.365, sigma: 8.066 };

function near(actual: { mu: number; sigma: number } | undefined, expected: { mu: number; sigma: number }): void {
  assert.ok(actual && Math.abs(actual.mu - expected.mu) < 1e-3 && Math.abs(actual.sigma - expected.sigma) < 1e-3, `${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
}

type Opened = { store: HistoryStore; cleanup: () => void };

/** Runs `body` on a store opened with `options`, and closes it and cleans up after, whatever happens. */
function usingStore(open: (options?: HistoryStoreOptions) => Promise<Opened>) {
  return async (options: HistoryStoreOptions, body: (store: HistoryStore) => Promise<void>): Promise<void> => {
    const { store, cleanup } = await open(options);
    try {
      await body(store);
    } finally {
      await store.close();
      cleanup();
    }
  };
}

/** The contract every HistoryStore keeps. */
function contract(name: string, open: (options?: HistoryStoreOptions) => Promise<Opened>): void {
  ratingsContract(name, open);
  partsContract(name, open);
  tournamentsContract(name, open);
  /** Runs `body` with a store opened with `options`, closing it whatever happens. */
  const using = usingStore(open);

  test(`${name}: visualizer events given as the bytes of their JSON text come back as that text, counted at the same size`, async () => {
    await using({}, async (store) => {
      const text = '[{"t":0,"log":{"line":"héllo, 世界"}}]';
      const asText = record('t', 'roshambo', ['alice', 'bob'], 1000);
      const asBytes = { ...record('b', 'roshambo', ['alice', 'bob'], 2000), visJson: new Uint8Array(Buffer.from(text)) };
      await store.record({ ...asText, visJson: text });
      await store.record(asBytes);
      assert.equal((await store.get('b'))!.visJson, text);
      assert.equal((await store.get('t'))!.visJson, text);
      assert.equal(storedSize(asBytes), storedSize({ ...asBytes, visJson: text }));
    });
  });

  test(`${name}: records come back whole, newest first, filtered by game and player`, async () => {
    const { store, cleanup } = await open();
    try {
      await store.record(record('a', 'roshambo', ['alice', 'bob'], 1000));
      await store.record(record('b', 'royalur', ['bob', 'ServerBot$0'], 2000));
      await store.record(record('c', 'roshambo', ['carol', 'dave'], 3000));
      assert.deepEqual((await store.list()).map((m) => m.id), ['c', 'b', 'a']);
      assert.deepEqual((await store.list({ game: 'roshambo' })).map((m) => m.id), ['c', 'a']);
      assert.deepEqual((await store.list({ player: 'bob' })).map((m) => m.id), ['b', 'a']);
      assert.deepEqual((await store.list({ before: 3000, limit: 1 })).map((m) => m.id), ['b']);
      assert.deepEqual(await store.ids(), ['a', 'b', 'c']);
      const b = await store.get('b');
      assert.deepEqual(b, record('b', 'royalur', ['bob', 'ServerBot$0'], 2000));
      assert.equal(await store.get('zzz'), null);
    } finally {
      await store.close();
      cleanup();
    }
  });

  test(`${name}: past maxBytes the oldest records are removed first, down to a total within the limit`, async () => {
    const records = ['a', 'b', 'c', 'd'].map((id, i) => sized(id, 1000 * (i + 1), 500));
    const [, , c, d] = records;
    // Exactly c and d fit: a total equal to the limit is within it.
    await using({ retention: { maxBytes: storedSize(c!) + storedSize(d!) } }, async (store) => {
      for (const match of records.slice(0, 3)) await store.record(match);
      assert.deepEqual(await store.ids(), ['b', 'c']);
      await store.record(d!);
      assert.deepEqual(await store.ids(), ['c', 'd']);
      assert.deepEqual(await store.get('d'), d);
    });
  });

  test(`${name}: the oldest by end time is removed first, whatever order the records arrived in`, async () => {
    const late = sized('late', 3000, 500);
    const early = sized('early', 1000, 500);
    const middle = sized('middle', 2000, 500);
    await using({ retention: { maxBytes: storedSize(late) + storedSize(middle) } }, async (store) => {
      await store.record(late);
      await store.record(early);
      await store.record(middle);
      assert.deepEqual(await store.ids(), ['middle', 'late']);
    });
  });

  test(`${name}: a record larger than maxBytes is kept while it is the newest, and removes every older one`, async () => {
    await using({ retention: { maxBytes: 4096 } }, async (store) => {
      await store.record(sized('a', 1000, 100));
      await store.record(sized('b', 2000, 100));
      const big = sized('big', 3000, 10_000);
      await store.record(big);
      assert.deepEqual(await store.ids(), ['big']);
      assert.deepEqual(await store.get('big'), big);
      // A newer record makes it the oldest, and it goes.
      await store.record(sized('c', 4000, 100));
      assert.deepEqual(await store.ids(), ['c']);
    });
  });

  test(`${name}: maxAgeDays removes the records that ended before now minus the limit, by the store's clock`, async () => {
    const clock = new ManualClock(100 * DAY_MS);
    await using({ retention: { maxAgeDays: 1 }, clock }, async (store) => {
      const start = clock.now();
      await store.record(sized('old', start - 3 * DAY_MS, 10));
      // The newest record stays, however old.
      assert.deepEqual(await store.ids(), ['old']);
      await store.record(sized('edge', start - DAY_MS, 10));
      // Ended exactly a day ago: at the limit, not past it.
      assert.deepEqual(await store.ids(), ['edge']);
      await store.record(sized('fresh', start, 10));
      assert.deepEqual(await store.ids(), ['edge', 'fresh']);
      await clock.advance(1);
      await store.record(sized('next', clock.now(), 10));
      assert.deepEqual(await store.ids(), ['fresh', 'next']);
      await clock.advance(DAY_MS + 1);
      await store.record(sized('later', clock.now(), 10));
      assert.deepEqual(await store.ids(), ['later']);
    });
  });

  test(`${name}: a limit of 0 is no limit, and HISTORY_RETENTION_DEFAULTS (1 GiB, no age limit) apply to limits not given`, async () => {
    assert.deepEqual(HISTORY_RETENTION_DEFAULTS, { maxBytes: 1024 ** 3, maxAgeDays: 0 });
    const clock = new ManualClock(1000 * DAY_MS);
    await using({ retention: { maxBytes: 0 }, clock }, async (store) => {
      await store.record(sized('ancient', 1000, 100_000));
      await store.record(sized('big', 2000, 100_000));
      await store.record(sized('now', clock.now(), 100_000));
      assert.deepEqual(await store.ids(), ['ancient', 'big', 'now']);
    });
  });

  test(`${name}: a negative or non-numeric limit is refused with a RangeError`, async () => {
    await assert.rejects(open({ retention: { maxBytes: -1 } }), RangeError);
    await assert.rejects(open({ retention: { maxAgeDays: Number.NaN } }), /maxAgeDays must be a number >= 0/);
  });

  test(`${name}: a removed match is gone from ids, list and get, with its players and artifacts`, async () => {
    const gone = { ...sized('gone', 1000, 500, ['alice', 'bob']), game: 'royalur' };
    const kept = sized('kept', 2000, 500, ['carol', 'bob']);
    await using({ retention: { maxBytes: storedSize(kept) } }, async (store) => {
      await store.record(gone);
      await store.record(kept);
      assert.deepEqual(await store.ids(), ['kept']);
      assert.deepEqual((await store.list()).map((m) => m.id), ['kept']);
      assert.deepEqual(await store.list({ player: 'alice' }), []);
      assert.deepEqual(await store.list({ game: 'royalur' }), []);
      assert.deepEqual((await store.list({ player: 'bob' })).map((m) => m.id), ['kept']);
      assert.equal(await store.get('gone'), null);
    });
  });

  test(`${name}: the first record of a match wins: a later one of the same id neither overwrites it nor counts`, async () => {
    const a = sized('a', 1000, 500);
    const b = sized('b', 2000, 500);
    // The same id recorded again as a woken node would: another reason, no scores, a later end.
    const again: MatchRecord = { ...a, reason: 'server shutdown', scores: null, endedAt: 3000, spectatorStream: Buffer.alloc(0) };
    await using({ retention: { maxBytes: storedSize(a) + storedSize(b) } }, async (store) => {
      await store.record(a);
      for (let i = 0; i < 3; i++) await store.record(again);
      await store.record(b);
      assert.deepEqual(await store.ids(), ['a', 'b']);
      assert.deepEqual(await store.get('a'), a);
    });
  });
}

/** A part read `size` bytes at a time, put together again. */
async function readInRanges(store: HistoryStore, id: string, part: RecordPart, size: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let offset = 0; ; offset += size) {
    const piece = await store.readPart(id, part, { offset, length: size });
    assert.ok(piece, `${JSON.stringify(part)} at ${offset}`);
    if (piece.length === 0) return Buffer.concat(pieces);
    assert.ok(piece.length <= size);
    pieces.push(piece);
  }
}

/** The part of the contract that reads one part of a record (outline, readPart). */
function partsContract(name: string, open: (options?: HistoryStoreOptions) => Promise<Opened>): void {
  const using = usingStore(open);
  // Multi-byte characters everywhere, so that a range may end inside one.
  const match: MatchRecord = {
    ...record('parts', 'roshambo', ['alice', 'bob'], 5000),
    spectatorStream: Buffer.from('é\u{1F600}\n'.repeat(40_000)),
    visJson: `[${Array.from({ length: 5000 }, (_, i) => `{"t":${i},"log":{"line":"ß ${i} \u{1F600}"}}`).join(',')}]`,
    artifacts: { 'transcript-1.txt': 'zwei\n', 'replay.log': '000.000001 > start ü\n'.repeat(30_000), 'empty.txt': '' },
  };
  const whole: Record<string, Buffer> = {
    stream: match.spectatorStream,
    vis: Buffer.from(match.visJson),
    ...Object.fromEntries(Object.entries(match.artifacts).map(([artifact, text]) => [`artifact:${artifact}`, Buffer.from(text)])),
  };
  const parts: RecordPart[] = [{ kind: 'stream' }, { kind: 'vis' }, ...Object.keys(match.artifacts).map((artifact) => ({ kind: 'artifact' as const, name: artifact }))];
  const keyOf = (part: RecordPart): string => (part.kind === 'artifact' ? `artifact:${part.name}` : part.kind);

  test(`${name}: outline gives the summary and each part's size in bytes, artifacts in the order of get, without the parts`, async () => {
    await using({}, async (store) => {
      await store.record(match);
      const got = (await store.get('parts'))!;
      const outline = await store.outline('parts');
      const { spectatorStream: _s, visJson: _v, artifacts: _a, ...summary } = got;
      assert.deepEqual(outline, {
        ...summary,
        streamBytes: whole['stream']!.length,
        visBytes: whole['vis']!.length,
        artifacts: Object.keys(got.artifacts).map((artifact) => ({ name: artifact, bytes: Buffer.byteLength(got.artifacts[artifact]!) })),
      });
      assert.equal(await store.outline('none'), null);
    });
  });

  test(`${name}: readPart gives one part's bytes whole, or null for a match or an artifact that is not there`, async () => {
    await using({}, async (store) => {
      await store.record(match);
      for (const part of parts) assert.deepEqual(await store.readPart('parts', part), whole[keyOf(part)], keyOf(part));
      assert.equal(await store.readPart('none', { kind: 'vis' }), null);
      assert.equal(await store.readPart('none', { kind: 'stream' }, { offset: 0, length: 10 }), null);
      for (const missing of ['nope.txt', '__proto__', 'toString']) assert.equal(await store.readPart('parts', { kind: 'artifact', name: missing }), null, missing);
      assert.equal(await store.readPart('parts', { kind: 'artifact', name: 'nope.txt' }, { offset: 0, length: 10 }), null);
    });
  });

  test(`${name}: readPart in ranges gives the part's bytes, a range cut anywhere (inside a character too), none past the end`, async () => {
    await using({}, async (store) => {
      await store.record(match);
      for (const size of [4093, 64 * 1024]) {
        for (const part of parts) assert.deepEqual(await readInRanges(store, 'parts', part, size), whole[keyOf(part)], `${keyOf(part)} by ${size}`);
      }
      assert.deepEqual(await store.readPart('parts', { kind: 'stream' }, { offset: 1, length: 4 }), whole['stream']!.subarray(1, 5));
      assert.deepEqual(await store.readPart('parts', { kind: 'vis' }, { offset: whole['vis']!.length + 10, length: 100 }), Buffer.alloc(0));
      assert.deepEqual(await store.readPart('parts', { kind: 'stream' }, { offset: 3, length: 0 }), Buffer.alloc(0));
    });
  });

  test(`${name}: a part read after its match is recorded again is still the first record's; after retention removed it, none`, async () => {
    await using({ retention: { maxBytes: storedSize(match) + 100 } }, async (store) => {
      await store.record(match);
      const first = await store.readPart('parts', { kind: 'artifact', name: 'replay.log' }, { offset: 0, length: 100 });
      assert.ok(first);
      const again = { ...match, artifacts: { 'replay.log': 'second version\n' } };
      await store.record(again);
      assert.deepEqual(await store.readPart('parts', { kind: 'artifact', name: 'replay.log' }, { offset: 0, length: 100 }), first);
      // The second record had no such artifact: the first record's (empty) one is still there.
      assert.deepEqual(await store.readPart('parts', { kind: 'artifact', name: 'empty.txt' }, { offset: 0, length: 100 }), Buffer.alloc(0));
      await store.record(sized('newer', 6000, storedSize(match)));
      assert.equal(await store.readPart('parts', { kind: 'artifact', name: 'replay.log' }, { offset: 0, length: 100 }), null);
      assert.equal(await store.outline('parts'), null);
    });
  });
}

/** The ratings part of the contract (PlayerRating). */
function ratingsContract(name: string, open: (options?: HistoryStoreOptions) => Promise<Opened>): void {
  const using = usingStore(open);

  test(`${name}: a verified match rates its players by score; an unverified one, a failed one and another game's do not`, async () => {
    await using({}, async (store) => {
      await store.record(rated('a', ['alice', 'bob'], [3, 1], 1000));
      await store.record({ ...rated('b', ['alice', 'bob'], [0, 5], 2000), verified: false });
      await store.record({ ...rated('c', ['alice', 'bob'], [0, 5], 3000), scores: null });
      await store.record(rated('d', ['carol', 'dave'], [1, 1], 4000, 'royalur'));
      const board = await store.ratings('roshambo');
      assert.deepEqual(board.map((r) => [r.player, r.games]), [['alice', 1], ['bob', 1]]);
      near(board[0], WON);
      near(board[1], LOST);
      assert.ok(Math.abs(board[0]!.rating - (board[0]!.mu - 3 * board[0]!.sigma)) < 1e-9);
      // A tie between newcomers leaves their mu alone; their leaderboard order is by name.
      const royalur = await store.ratings('royalur');
      assert.deepEqual(royalur.map((r) => r.player), ['carol', 'dave']);
      assert.ok(Math.abs(royalur[0]!.mu - 25) < 1e-9);
      assert.deepEqual(await store.ratings('chess'), []);
    });
  });

  test(`${name}: a player's rating history holds the rating after each rated match, oldest first, the newest \`limit\``, async () => {
    await using({}, async (store) => {
      await store.record(rated('a', ['alice', 'bob'], [3, 1], 1000));
      await store.record(rated('b', ['bob', 'alice'], [2, 1], 2000));
      await store.record(rated('c', ['alice', 'carol'], [1, 0], 3000));
      const history = await store.ratingHistory('roshambo', 'alice');
      assert.deepEqual(history.map((p) => [p.matchId, p.endedAt]), [['a', 1000], ['b', 2000], ['c', 3000]]);
      near(history[0], WON);
      const [alice] = (await store.ratings('roshambo')).filter((r) => r.player === 'alice');
      assert.deepEqual({ mu: history[2]!.mu, sigma: history[2]!.sigma, rating: history[2]!.rating }, { mu: alice!.mu, sigma: alice!.sigma, rating: alice!.rating });
      assert.equal(alice!.games, 3);
      assert.deepEqual((await store.ratingHistory('roshambo', 'alice', { limit: 2 })).map((p) => p.matchId), ['b', 'c']);
      assert.deepEqual((await store.ratings('roshambo', { limit: 1 })).length, 1);
      assert.deepEqual(await store.ratingHistory('roshambo', 'nobody'), []);
      assert.deepEqual(await store.ratingHistory('royalur', 'alice'), []);
    });
  });

  test(`${name}: server bots' seats are rated as one player, ServerBot`, async () => {
    await using({}, async (store) => {
      await store.record(rated('a', ['alice', 'ServerBot$0', 'ServerBot$1'], [0, 1, 2], 1000));
      const board = await store.ratings('roshambo');
      assert.deepEqual(board.map((r) => [r.player, r.games]), [['ServerBot', 1], ['alice', 1]]);
      near(board[0], WON);
      assert.deepEqual((await store.ratingHistory('roshambo', 'ServerBot')).map((p) => p.matchId), ['a']);
    });
  });

  test(`${name}: the leaderboard gives DEFAULT_RATINGS_LIMIT (100) rows unless asked, and never more than MAX_RATINGS_LIMIT (1000)`, async () => {
    assert.deepEqual([DEFAULT_RATINGS_LIMIT, MAX_RATINGS_LIMIT], [100, 1000]);
    const crowd = Array.from({ length: MAX_RATINGS_LIMIT + 1 }, (_, i) => `p${i}`);
    await using({}, async (store) => {
      await store.record(rated('crowd', crowd, crowd.map((_, i) => i), 1000));
      assert.equal((await store.ratings('roshambo')).length, DEFAULT_RATINGS_LIMIT);
      assert.equal((await store.ratings('roshambo', { limit: MAX_RATINGS_LIMIT + 5 })).length, MAX_RATINGS_LIMIT);
      assert.equal((await store.ratings('roshambo', { limit: 0 })).length, 0);
      // The best score ranks first.
      assert.equal((await store.ratings('roshambo', { limit: 1 }))[0]!.player, `p${MAX_RATINGS_LIMIT}`);
    });
  });

  test(`${name}: recording a match again does not rate it again`, async () => {
    await using({}, async (store) => {
      const a = rated('a', ['alice', 'bob'], [3, 1], 1000);
      await store.record(a);
      await store.record(a);
      const board = await store.ratings('roshambo');
      assert.deepEqual(board.map((r) => r.games), [1, 1]);
      near(board[0], WON);
      assert.equal((await store.ratingHistory('roshambo', 'alice')).length, 1);
    });
  });

  test(`${name}: a match removed by retention takes its rating points with it; the ratings stay`, async () => {
    const first = { ...sized('a', 1000, 500), verified: true, scores: [1, 0] };
    const second = { ...sized('b', 2000, 500), verified: true, scores: [1, 0] };
    await using({ retention: { maxBytes: storedSize(second) } }, async (store) => {
      await store.record(first);
      await store.record(second);
      assert.deepEqual(await store.ids(), ['b']);
      assert.deepEqual((await store.ratingHistory('roshambo', 'alice')).map((p) => p.matchId), ['b']);
      assert.deepEqual((await store.ratings('roshambo')).map((r) => [r.player, r.games]), [['alice', 2], ['bob', 2]]);
    });
  });
}

/** The server tournaments part of the contract (TournamentEntry, StoredTournament). */
function tournamentsContract(name: string, open: (options?: HistoryStoreOptions) => Promise<Opened>): void {
  const using = usingStore(open);

  test(`${name}: tournaments come back newest first with their results by index; saving one again replaces its body only`, async () => {
    await using({}, async (store) => {
      assert.deepEqual(await store.tournaments(), []);
      await store.saveTournament({ id: 'old', createdAt: 1000, body: '{"state":"running"}' });
      await store.saveTournament({ id: 'new', createdAt: 2000, body: '{"n":1}' });
      // Same time as "old": the one saved later comes first.
      await store.saveTournament({ id: 'twin', createdAt: 1000, body: '{"t":1}' });
      // Added out of order, one replaced: read back by index.
      await store.addTournamentResult('old', 1, '{"r":1}');
      await store.addTournamentResult('old', 0, '{"r":0}');
      await store.addTournamentResult('old', 2, '{"r":"first"}');
      await store.addTournamentResult('old', 2, '{"r":2}');
      await store.saveTournament({ id: 'old', createdAt: 1000, body: '{"state":"finished"}' });
      assert.deepEqual(await store.tournaments(), [
        { id: 'new', createdAt: 2000, body: '{"n":1}', results: [] },
        { id: 'twin', createdAt: 1000, body: '{"t":1}', results: [] },
        { id: 'old', createdAt: 1000, body: '{"state":"finished"}', results: ['{"r":0}', '{"r":1}', '{"r":2}'] },
      ]);
    });
  });

  test(`${name}: a forgotten tournament goes with its results; its id may be saved afresh; matches are not touched`, async () => {
    await using({}, async (store) => {
      await store.record(record('m1', 'roshambo', ['alice', 'bob'], 1000));
      await store.saveTournament({ id: 't', createdAt: 1000, body: '{}' });
      await store.addTournamentResult('t', 0, '{"match":"m1"}');
      await store.saveTournament({ id: 'u', createdAt: 2000, body: '{}' });
      await store.forgetTournament('t');
      await store.forgetTournament('never-saved');
      assert.deepEqual((await store.tournaments()).map((t) => t.id), ['u']);
      await store.saveTournament({ id: 't', createdAt: 3000, body: '{"again":true}' });
      assert.deepEqual(await store.tournaments(), [
        { id: 't', createdAt: 3000, body: '{"again":true}', results: [] },
        { id: 'u', createdAt: 2000, body: '{}', results: [] },
      ]);
      assert.deepEqual(await store.ids(), ['m1']);
    });
  });

  test(`${name}: retention removes matches, never tournaments`, async () => {
    const a = sized('a', 1000, 500);
    await using({ retention: { maxBytes: storedSize(a) } }, async (store) => {
      await store.saveTournament({ id: 't', createdAt: 500, body: '{}' });
      await store.addTournamentResult('t', 0, '{"match":"a"}');
      await store.record(a);
      await store.record(sized('b', 2000, 500));
      assert.deepEqual(await store.ids(), ['b']);
      assert.deepEqual((await store.tournaments())[0]?.results, ['{"match":"a"}']);
    });
  });
}

contract('memory', async (options) => ({ store: new MemoryHistoryStore(options), cleanup: () => {} }));

contract('sqlite', async (options) => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  try {
    return { store: await SqliteHistoryStore.open(join(dir, 'h.sqlite'), options), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
});

// A node of `cocod --nodes N` records into the primary's store over IPC; a MessagePort carries the
// same structured clones (Buffers arrive as Uint8Arrays). The owner here is an SQLite store.
contract('remote (an SQLite store behind a channel)', async (options) => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  const owned = await SqliteHistoryStore.open(join(dir, 'h.sqlite'), options);
  const pipe = new MessageChannel();
  serveHistoryStore(owned, ipcChannel<RemoteStoreRequest, RemoteStoreReply>(portEnd(pipe.port1), 'store'));
  const store = new RemoteHistoryStore(ipcChannel<RemoteStoreReply, RemoteStoreRequest>(portEnd(pipe.port2), 'store'));
  return {
    store,
    cleanup: () => {
      pipe.port1.close();
      pipe.port2.close();
      void owned.close().finally(() => rmSync(dir, { recursive: true, force: true }));
    },
  };
});

// A real PostgreSQL server (test/support/services.ts), started by the first test that needs it;
// each store gets a fresh database of its own.
let postgres: Promise<PostgresServer> | null = null;
let databases = 0;
after(async () => {
  if (postgres) await (await postgres).stop();
});

contract('postgres', async (options) => {
  postgres ??= startPostgres();
  const url = await (await postgres).createDatabase(`contract_${++databases}`);
  return { store: await PostgresHistoryStore.open(url, options), cleanup: () => {} };
});

// `cocod --nodes N --postgres URL`: the primary owns the PostgreSQL store and the nodes record
// through it, as above for SQLite.
contract('remote (a PostgreSQL store behind a channel)', async (options) => {
  postgres ??= startPostgres();
  const url = await (await postgres).createDatabase(`contract_${++databases}`);
  const owned = await PostgresHistoryStore.open(url, options);
  const pipe = new MessageChannel();
  serveHistoryStore(owned, ipcChannel<RemoteStoreRequest, RemoteStoreReply>(portEnd(pipe.port1), 'store'));
  const store = new RemoteHistoryStore(ipcChannel<RemoteStoreReply, RemoteStoreRequest>(portEnd(pipe.port2), 'store'));
  return {
    store,
    cleanup: () => {
      pipe.port1.close();
      pipe.port2.close();
      void owned.close();
    },
  };
});

/** Runs `body` with a fresh folder for history files, removed afterwards. */
async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function count(file: string, sql: string): number {
  const raw = new Database(file, { readonly: true });
  try {
    return raw.prepare(sql).pluck().get() as number;
  } finally {
    raw.close();
  }
}

test('sqlite: removing a match deletes its players, artifacts and size rows too (foreign keys are on)', async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, 'h.sqlite');
    const kept = sized('kept', 2000, 500);
    const store = await SqliteHistoryStore.open(file, { retention: { maxBytes: storedSize(kept) } });
    await store.record(sized('gone', 1000, 500));
    await store.record(kept);
    await store.close();
    for (const table of ['match_players', 'match_artifacts', 'match_sizes']) {
      assert.equal(count(file, `SELECT count(*) FROM ${table} WHERE match_id = 'gone'`), 0, table);
      assert.ok(count(file, `SELECT count(*) FROM ${table} WHERE match_id = 'kept'`) > 0, table);
    }
  });
});

test('sqlite: opening the file applies a lowered retention to the records already in it', async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, 'h.sqlite');
    const first = await SqliteHistoryStore.open(file);
    for (const id of ['a', 'b', 'c']) await first.record(sized(id, id.charCodeAt(0), 500));
    await first.close();
    const second = await SqliteHistoryStore.open(file, { retention: { maxBytes: storedSize(sized('c', 0, 500)) } });
    try {
      assert.deepEqual(await second.ids(), ['c']);
    } finally {
      await second.close();
    }
  });
});

test('sqlite: under steady churn past maxBytes the file stops growing (freed pages are reused)', async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, 'h.sqlite');
    const each = storedSize(sized('m0000', 0, 16 * 1024));
    const retention = { maxBytes: 8 * each };
    let next = 0;
    async function churn(records: number): Promise<number> {
      const store = await SqliteHistoryStore.open(file, { retention });
      // One at a time, so that each batch is one record and the run is the same every time.
      for (let i = 0; i < records; i++, next++) await store.record(sized(`m${String(next).padStart(4, '0')}`, next, 16 * 1024));
      assert.equal((await store.ids()).length, 8);
      await store.close();
      return count(file, 'PRAGMA page_count');
    }
    const settled = await churn(24);
    const pageSize = count(file, 'PRAGMA page_size');
    assert.ok(settled * pageSize < 2 * retention.maxBytes, `${settled} pages of ${pageSize} bytes for ${retention.maxBytes} bytes of records`);
    const after = await churn(200);
    assert.ok(after <= settled, `${after} pages after 200 more records, ${settled} before`);
  });
});

test('sqlite: queueDepth counts the requests the worker has not answered yet', async () => {
  await inTempDir(async (dir) => {
    const store = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
    try {
      assert.equal(store.queueDepth, 0);
      const writes = [store.record(sized('a', 1000, 10)), store.record(sized('b', 2000, 10))];
      const read = store.ids();
      assert.equal(store.queueDepth, 3);
      await Promise.all([...writes, read]);
      assert.equal(store.queueDepth, 0);
      assert.equal(new MemoryHistoryStore().queueDepth, 0);
    } finally {
      await store.close();
    }
  });
});

test('sqlite: a file at schema version 2 is upgraded to 3, its matches sized as storedSize counts them, and retention applies to them', async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, 'v2.sqlite');
    const old = [
      // Multi-byte text, a null score and an error, to hold the SQL sum to storedSize's.
      { ...record('é1', 'roshambo', ['ålice', 'bob'], 1000), scores: null, error: 'the game crashed: ✗', artifacts: { 'replay.log': 'ü\n', 'b.txt': '' } },
      record('b', 'royalur', ['bob', 'ServerBot$0'], 2000),
    ];
    // A file as the previous server wrote it: the first two migrations and rows in their shape.
    const raw = new Database(file);
    for (const migration of MIGRATIONS.slice(0, 2)) raw.exec(migration as string);
    raw.pragma('user_version = 2');
    for (const m of old) {
      raw.prepare(
        `INSERT INTO matches (id, game, name, args, bots, scores, reason, error, seed, verified, started_at, ended_at, spectator_stream, vis)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(m.id, m.game, m.name, JSON.stringify(m.args), m.bots, m.scores ? JSON.stringify(m.scores) : null, m.reason, m.error, m.seed, m.verified ? 1 : 0, m.startedAt, m.endedAt, m.spectatorStream, m.visJson);
      m.players.forEach((name, seat) => raw.prepare('INSERT INTO match_players (match_id, seat, name) VALUES (?, ?, ?)').run(m.id, seat, name));
      for (const [name, content] of Object.entries(m.artifacts)) raw.prepare('INSERT INTO match_artifacts (match_id, name, content) VALUES (?, ?, ?)').run(m.id, name, content);
    }
    raw.close();

    const db = new SqliteHistoryDb(file);
    assert.equal(db.schemaVersion, MIGRATIONS.length);
    assert.equal(db.storedBytes, storedSize(old[0]!) + storedSize(old[1]!));
    db.close();
    assert.equal(count(file, `SELECT size FROM match_sizes WHERE match_id = 'é1'`), storedSize(old[0]!));

    const newest = sized('c', 3000, 100);
    const store = await SqliteHistoryStore.open(file, { retention: { maxBytes: storedSize(old[1]!) + storedSize(newest) } });
    try {
      assert.deepEqual(await store.get('é1'), old[0]);
      await store.record(newest);
      assert.deepEqual(await store.ids(), ['b', 'c']);
    } finally {
      await store.close();
    }
  });
});

test('sqlite: the history and the tournaments survive closing and reopening the file, at the current schema version', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  try {
    const file = join(dir, 'h.sqlite');
    const first = await SqliteHistoryStore.open(file);
    await first.record(record('a', 'roshambo', ['alice', 'bob'], 1000));
    await first.saveTournament({ id: 't', createdAt: 900, body: '{}' });
    await first.addTournamentResult('t', 0, '{"match":"a"}');
    await first.close();
    const second = await SqliteHistoryStore.open(file);
    assert.equal(second.schemaVersion, MIGRATIONS.length);
    assert.deepEqual(await second.get('a'), record('a', 'roshambo', ['alice', 'bob'], 1000));
    assert.deepEqual(await second.tournaments(), [{ id: 't', createdAt: 900, body: '{}', results: ['{"match":"a"}'] }]);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sqlite: records sent together are all kept, and a read sees every record sent before it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  const store = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
  try {
    const writes = Array.from({ length: 200 }, (_, i) => store.record(record(`m${i}`, 'roshambo', [`p${i}`, 'q'], 1000 + i)));
    // Not awaited yet: the read is queued behind the writes and must see them.
    const ids = await store.ids();
    await Promise.all(writes);
    assert.equal(ids.length, 200);
    assert.deepEqual(await store.get('m199'), record('m199', 'roshambo', ['p199', 'q'], 1199));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sqlite: a file that cannot be opened is refused with the reason, and a newer schema is not touched', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-store-'));
  try {
    await assert.rejects(SqliteHistoryStore.open(dir), /history file .*: /);
    const file = join(dir, 'future.sqlite');
    const db = new SqliteHistoryDb(file);
    db.close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    await assert.rejects(SqliteHistoryStore.open(file), /schema version 99, newer than this server knows/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sqlite: a file at schema version 3 is upgraded to the newest, its verified matches rated in the order they ended', async () => {
  await inTempDir(async (dir) => {
    const file = join(dir, 'v3.sqlite');
    // A file as a version-3 server leaves it: the first three migrations, and matches never rated.
    const raw = new Database(file);
    for (const migration of MIGRATIONS.slice(0, 3)) raw.exec(migration as string);
    raw.pragma('user_version = 3');
    const matches = [rated('late', ['bob', 'alice'], [2, 1], 2000), rated('early', ['alice', 'bob'], [3, 1], 1000), { ...rated('unverified', ['alice', 'bob'], [0, 9], 3000), verified: false }];
    for (const m of matches) {
      raw.prepare(
        `INSERT INTO matches (id, game, name, args, bots, scores, reason, error, seed, verified, started_at, ended_at, spectator_stream, vis)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(m.id, m.game, m.name, JSON.stringify(m.args), m.bots, JSON.stringify(m.scores), m.reason, m.error, m.seed, m.verified ? 1 : 0, m.startedAt, m.endedAt, m.spectatorStream, m.visJson);
      m.players.forEach((name, seat) => raw.prepare('INSERT INTO match_players (match_id, seat, name) VALUES (?, ?, ?)').run(m.id, seat, name));
      raw.prepare('INSERT INTO match_sizes (match_id, size) VALUES (?, ?)').run(m.id, storedSize({ ...m, artifacts: {} }));
    }
    raw.close();

    const store = await SqliteHistoryStore.open(file);
    try {
      assert.equal(store.schemaVersion, MIGRATIONS.length);
      assert.deepEqual((await store.ratingHistory('roshambo', 'alice')).map((p) => p.matchId), ['early', 'late']);
      near((await store.ratingHistory('roshambo', 'alice'))[0], WON);
      assert.deepEqual((await store.ratings('roshambo')).map((r) => r.games), [2, 2]);
      assert.deepEqual((await store.get('early'))?.players, ['alice', 'bob']);
    } finally {
      await store.close();
    }
  });
});

test('sqlite: ratings are written in the transaction of their records: a batch that fails leaves no rating behind', async () => {
  await inTempDir(async (dir) => {
    const db = new SqliteHistoryDb(join(dir, 'h.sqlite'));
    try {
      const bad = { ...rated('bad', ['carol', 'dave'], [1, 0], 2000), game: null as unknown as string };
      assert.throws(() => db.record([rated('good', ['alice', 'bob'], [1, 0], 1000), bad], 3000));
      assert.deepEqual(db.ratingBoard('roshambo'), []);
      assert.deepEqual(db.ids(), []);
      db.record([rated('good', ['alice', 'bob'], [1, 0], 1000)], 3000);
      assert.deepEqual(db.ratingBoard('roshambo').map((r) => r.player), ['alice', 'bob']);
    } finally {
      db.close();
    }
  });
});
