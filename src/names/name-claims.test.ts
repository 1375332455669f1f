import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { ipcChannel, portEnd } from '../cluster/ipc-channel.js';
import { RemoteHistoryStore, serveHistoryStore, type RemoteStoreReply, type RemoteStoreRequest } from '../cluster/remote-store.js';
import { HistoryUnavailableError, type NameClaimTable } from '../store/history-store.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { MemoryNameTable } from '../store/memory-name-table.js';
import { PostgresHistoryStore } from '../store/postgres-history-store.js';
import { SqliteHistoryStore } from '../store/sqlite-history-store.js';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';
import { InvalidName, NameNotClaimed, NameTaken, StoredNameClaims, TOKEN_MAX_CHARS, WrongToken, claimRefusal, tokenDigest, type NameClaims } from './name-claims.js';

type Opened = { table: NameClaimTable; close: () => Promise<void> };

/** The contract every NameClaims keeps, whatever table holds its digests. */
function contract(label: string, open: () => Promise<Opened>): void {
  const using = async (body: (claims: NameClaims, table: NameClaimTable) => Promise<void>): Promise<void> => {
    const { table, close } = await open();
    try {
      await body(new StoredNameClaims(table), table);
    } finally {
      await close();
    }
  };

  test(`${label}: an unclaimed name is played with any token or none; once registered, only with its token`, () =>
    using(async (claims) => {
      assert.equal(await claims.check('alice', undefined), null);
      assert.equal(await claims.check('alice', 'whatever'), null);
      const token = await claims.register('alice');
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(await claims.check('alice', token), null);
      assert.equal(await claims.check('alice', undefined), claimRefusal.noToken('alice'));
      assert.equal(await claims.check('alice', ''), claimRefusal.noToken('alice'));
      assert.equal(await claims.check('alice', `${token}x`), claimRefusal.wrongToken('alice'));
      assert.equal(await claims.check('alice', 'x'.repeat(TOKEN_MAX_CHARS + 1)), claimRefusal.wrongToken('alice'));
      // Names are exact: another spelling is another name.
      assert.equal(await claims.check('Alice', undefined), null);
    }));

  test(`${label}: a claimed name cannot be registered again, and two claims of one name at once give it to one of them`, () =>
    using(async (claims) => {
      await claims.register('bob');
      await assert.rejects(claims.register('bob'), NameTaken);
      const both = await Promise.allSettled([claims.register('carol'), claims.register('carol')]);
      assert.equal(both.filter((r) => r.status === 'fulfilled').length, 1);
      assert.ok(both.some((r) => r.status === 'rejected' && r.reason instanceof NameTaken));
    }));

  test(`${label}: a name that breaks the player-name rule cannot be registered`, () =>
    using(async (claims) => {
      for (const bad of ['', 'has space', 'ServerBot$0', 'seventeen-chars-x']) await assert.rejects(claims.register(bad), InvalidName, bad);
    }));

  test(`${label}: the table keeps the token's SHA-256, never the token`, () =>
    using(async (claims, table) => {
      const token = await claims.register('dave');
      const kept = await table.nameDigest('dave');
      assert.equal(kept, tokenDigest(token));
      assert.notEqual(kept, token);
    }));

  test(`${label}: rotate needs the current token, gives a new one, and the old one stops working`, () =>
    using(async (claims) => {
      const first = await claims.register('erin');
      await assert.rejects(claims.rotate('erin', 'not-the-token'), WrongToken);
      await assert.rejects(claims.rotate('nobody', first), NameNotClaimed);
      const second = await claims.rotate('erin', first);
      assert.notEqual(second, first);
      assert.equal(await claims.check('erin', second), null);
      assert.equal(await claims.check('erin', first), claimRefusal.wrongToken('erin'));
      // Two rotations with the same token: one wins, the other is told its token is stale.
      const both = await Promise.allSettled([claims.rotate('erin', second), claims.rotate('erin', second)]);
      assert.equal(both.filter((r) => r.status === 'fulfilled').length, 1);
      assert.ok(both.some((r) => r.status === 'rejected' && r.reason instanceof WrongToken));
    }));

  test(`${label}: release frees a name for anyone to play or claim again; releasing a free name is NameNotClaimed`, () =>
    using(async (claims) => {
      const token = await claims.register('frank');
      await claims.release('frank');
      assert.equal(await claims.check('frank', undefined), null);
      await assert.rejects(claims.release('frank'), NameNotClaimed);
      const again = await claims.register('frank');
      assert.notEqual(again, token);
      assert.equal(await claims.check('frank', token), claimRefusal.wrongToken('frank'));
    }));
}

contract('memory table', async () => ({ table: new MemoryNameTable(), close: async () => {} }));

contract('memory history store', async () => {
  const store = new MemoryHistoryStore();
  return { table: store, close: () => store.close() };
});

function sqliteDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'coco-names-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

contract('sqlite', async () => {
  const { dir, remove } = sqliteDir();
  const store = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
  return { table: store, close: () => store.close().finally(remove) };
});

// A node of `cocod --nodes N` asks the primary's store over IPC.
contract('remote (an SQLite store behind a channel)', async () => {
  const { dir, remove } = sqliteDir();
  const owned = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
  const pipe = new MessageChannel();
  serveHistoryStore(owned, ipcChannel<RemoteStoreRequest, RemoteStoreReply>(portEnd(pipe.port1), 'store'));
  const store = new RemoteHistoryStore(ipcChannel<RemoteStoreReply, RemoteStoreRequest>(portEnd(pipe.port2), 'store'));
  return {
    table: store,
    close: async () => {
      await store.close();
      pipe.port1.close();
      pipe.port2.close();
      await owned.close().finally(remove);
    },
  };
});

let postgres: Promise<PostgresServer> | null = null;
let databases = 0;
after(async () => {
  if (postgres) await (await postgres).stop();
});

contract('postgres', async () => {
  postgres ??= startPostgres();
  const url = await (await postgres).createDatabase(`names_${++databases}`);
  const store = await PostgresHistoryStore.open(url);
  return { table: store, close: () => store.close() };
});

test('sqlite: claims survive closing and reopening the history file', async () => {
  const { dir, remove } = sqliteDir();
  try {
    const first = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
    const token = await new StoredNameClaims(first).register('grace');
    await first.close();
    const second = await SqliteHistoryStore.open(join(dir, 'h.sqlite'));
    try {
      const claims = new StoredNameClaims(second);
      assert.equal(await claims.check('grace', token), null);
      assert.equal(await claims.check('grace', undefined), claimRefusal.noToken('grace'));
    } finally {
      await second.close();
    }
  } finally {
    remove();
  }
});

test('while the database is away, a name looked up before keeps its claim and others count as unclaimed, so joins go on', async () => {
  const table = new MemoryNameTable();
  let away = false;
  const flaky: NameClaimTable = {
    claimName: (name, digest) => table.claimName(name, digest),
    nameDigest: (name) => (away ? Promise.reject(new HistoryUnavailableError('database away')) : table.nameDigest(name)),
    replaceNameDigest: (name, expected, next) => table.replaceNameDigest(name, expected, next),
    releaseName: (name) => table.releaseName(name),
  };
  const claims = new StoredNameClaims(flaky);
  const token = await claims.register('alice');
  assert.equal(await claims.check('alice', token), null);
  away = true;
  assert.equal(await claims.check('alice', undefined), claimRefusal.noToken('alice'));
  assert.equal(await claims.check('alice', 'wrong'), claimRefusal.wrongToken('alice'));
  assert.equal(await claims.check('alice', token), null);
  assert.equal(await claims.check('ivan', undefined), null, 'a name never looked up plays on');
  away = false;
  await assert.rejects(claims.rotate('alice', 'wrong'), WrongToken);
});
