import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INITIAL_SKILL, rateMatch } from '../ratings/rating.js';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';
import { outcomeOf, type ArenaStore } from './arena-store.js';
import { MemoryArenaStore } from './memory-arena-store.js';
import { PostgresArenaStore } from './postgres-arena-store.js';
import { SqliteArenaStore } from './sqlite-arena-store.js';
import { MessageChannel } from 'node:worker_threads';
import { ipcChannel, portEnd } from '../cluster/ipc-channel.js';
import { RemoteArenaStore, serveArenaStore, type RemoteArenaReply, type RemoteArenaRequest } from '../cluster/remote-arena-store.js';

/** The contract every arena store passes (memory, SQLite, PostgreSQL). */
function contract(name: string, open: () => Promise<ArenaStore>): void {
  describe(`arena store contract: ${name}`, () => {
    test('a newcomer has the initial skill; a game rates both players as OpenSkill does and counts wins, draws and last seen', async () => {
      const store = await open();
      try {
        assert.deepEqual(await store.skills('roshambo', ['amy']), new Map([['amy', INITIAL_SKILL]]));
        const after = await store.record({ matchId: 'm1', game: 'roshambo', endedAt: 1000, standings: [{ player: 'amy', score: 3 }, { player: 'bob', score: 1 }] });
        const expected = rateMatch([{ player: 'amy', score: 3 }, { player: 'bob', score: 1 }], () => undefined);
        assert.equal(after[0]!.mu, expected[0]!.mu);
        assert.equal(after[1]!.sigma, expected[1]!.sigma);
        assert.deepEqual(after.map((r) => [r.player, r.games, r.wins, r.draws, r.lastSeen]), [['amy', 1, 1, 0, 1000], ['bob', 1, 0, 0, 1000]]);
        await store.record({ matchId: 'm2', game: 'roshambo', endedAt: 2000, standings: [{ player: 'bob', score: 2 }, { player: 'amy', score: 2 }] });
        const board = await store.board('roshambo', 10);
        assert.deepEqual(board.map((r) => [r.player, r.games, r.wins, r.draws, r.lastSeen]), [['amy', 2, 1, 1, 2000], ['bob', 2, 0, 1, 2000]]);
        assert.ok(board[0]!.rating > board[1]!.rating);
        const skills = await store.skills('roshambo', ['amy', 'bob']);
        assert.equal(skills.get('amy')!.mu, board[0]!.mu);
      } finally {
        await store.close();
      }
    });

    test('a match id recorded twice is rated once', async () => {
      const store = await open();
      try {
        const result = { matchId: 'same', game: 'royalur', endedAt: 5, standings: [{ player: 'a', score: 1 }, { player: 'b', score: 0 }] };
        const first = await store.record(result);
        const again = await store.record(result);
        assert.deepEqual(again.map((r) => r.mu), first.map((r) => r.mu));
        assert.deepEqual((await store.board('royalur', 10)).map((r) => r.games), [1, 1]);
        assert.equal((await store.games('royalur', null, 10)).length, 1);
      } finally {
        await store.close();
      }
    });

    test('standing: a newcomer has none; failures and a hold are kept; each member of a table counts its games with that set of names', async () => {
      const store = await open();
      try {
        assert.deepEqual(await store.standing('roshambo', 'amy'), { failures: 0, heldUntil: 0, meetings: new Map() });
        await store.saveFailures('roshambo', 'amy', 2, 0);
        await store.saveFailures('roshambo', 'amy', 0, 1_700_000_300_000);
        await store.saveFailures('royalur', 'amy', 1, 0);
        await store.countMeeting('roshambo', ['bob', 'amy']);
        await store.countMeeting('roshambo', ['amy', 'bob']);
        await store.countMeeting('roshambo', ['amy', 'cid', 'bob']);
        await store.countMeeting('royalur', ['amy', 'bob']);
        const amy = await store.standing('roshambo', 'amy');
        assert.deepEqual([amy.failures, amy.heldUntil], [0, 1_700_000_300_000]);
        assert.deepEqual(new Map([...amy.meetings].sort()), new Map([['amy bob', 2], ['amy bob cid', 1]]));
        assert.deepEqual((await store.standing('roshambo', 'cid')).meetings, new Map([['amy bob cid', 1]]));
        assert.deepEqual(await store.standing('royalur', 'amy'), { failures: 1, heldUntil: 0, meetings: new Map([['amy bob', 1]]) });
      } finally {
        await store.close();
      }
    });

    test('games: newest first, of one player or of the whole game, each game apart; the board is limited', async () => {
      const store = await open();
      try {
        await store.record({ matchId: 'g1', game: 'roshambo', endedAt: 10, standings: [{ player: 'a', score: 1 }, { player: 'b', score: 0 }] });
        await store.record({ matchId: 'g2', game: 'roshambo', endedAt: 20, standings: [{ player: 'c', score: 1 }, { player: 'b', score: 0 }] });
        await store.record({ matchId: 'g3', game: 'royalur', endedAt: 30, standings: [{ player: 'a', score: 0 }, { player: 'c', score: 1 }] });
        assert.deepEqual((await store.games('roshambo', null, 10)).map((g) => g.matchId), ['g2', 'g1']);
        assert.deepEqual((await store.games('roshambo', 'b', 1)).map((g) => g.matchId), ['g2']);
        const [game] = await store.games('roshambo', 'a', 10);
        assert.deepEqual([game!.players, game!.scores, game!.endedAt], [['a', 'b'], [1, 0], 10]);
        assert.equal(game!.ratings.length, 2);
        assert.equal((await store.board('roshambo', 2)).length, 2);
        assert.deepEqual((await store.board('royalur', 10)).map((r) => r.player), ['c', 'a']);
      } finally {
        await store.close();
      }
    });
  });
}

test('outcome: a win is the best score alone, a shared best is a draw', () => {
  const standings = [{ player: 'a', score: 2 }, { player: 'b', score: 2 }, { player: 'c', score: 1 }];
  assert.deepEqual([0, 1, 2].map((i) => outcomeOf(standings, i)), ['draw', 'draw', 'loss']);
  assert.equal(outcomeOf([{ player: 'a', score: 0 }, { player: 'b', score: 1 }], 1), 'win');
});

contract('memory', async () => new MemoryArenaStore());

// The nodes of `cocod --nodes N` reach the primary's store over IPC; a MessagePort carries the same structured clones.
contract('remote (a node reaching the primary\'s store over a channel)', async () => {
  const owned = new MemoryArenaStore();
  const pipe = new MessageChannel();
  serveArenaStore(owned, ipcChannel<RemoteArenaRequest, RemoteArenaReply>(portEnd(pipe.port1), 'arena'));
  const remote = new RemoteArenaStore(ipcChannel<RemoteArenaReply, RemoteArenaRequest>(portEnd(pipe.port2), 'arena'));
  return Object.assign(remote, {
    close: async () => {
      await owned.close();
      pipe.port1.close();
      pipe.port2.close();
    },
  });
});

const dir = mkdtempSync(join(tmpdir(), 'coco-arena-store-'));
let files = 0;
after(() => rmSync(dir, { recursive: true, force: true }));
contract('sqlite', async () => new SqliteArenaStore(join(dir, `history-${++files}.sqlite`)));

test('sqlite arena store: a file of version 1 (no failures, no meetings) is brought to version 2 and keeps its ratings', async () => {
  const file = join(dir, 'version-1.sqlite');
  const first = new SqliteArenaStore(file);
  await first.record({ matchId: 'old', game: 'roshambo', endedAt: 1, standings: [{ player: 'a', score: 1 }, { player: 'b', score: 0 }] });
  await first.close();
  const raw = new Database(file);
  raw.exec('DROP TABLE arena_failures; DROP TABLE arena_meetings; UPDATE arena_schema SET version = 1');
  raw.close();
  const again = new SqliteArenaStore(file);
  try {
    await again.countMeeting('roshambo', ['a', 'b']);
    assert.deepEqual((await again.standing('roshambo', 'a')).meetings, new Map([['a b', 1]]));
    assert.equal((await again.board('roshambo', 10)).length, 2);
  } finally {
    await again.close();
  }
  const check = new Database(file);
  assert.equal(check.prepare('SELECT version FROM arena_schema').pluck().get(), 2);
  check.close();
});

let postgres: PostgresServer | null = null;
let databases = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});
contract('postgres', async () => PostgresArenaStore.open(await postgres!.createDatabase(`arena_${++databases}`)));

test('postgres arena store: servers starting together on an empty database create its tables once, without a race', async () => {
  const url = await postgres!.createDatabase('arena_together');
  const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresArenaStore.open(url)));
  try {
    await stores[0]!.record({ matchId: 'm', game: 'roshambo', endedAt: 1, standings: [{ player: 'a', score: 1 }, { player: 'b', score: 0 }] });
    assert.equal((await stores[3]!.board('roshambo', 10)).length, 2);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
  }
});
