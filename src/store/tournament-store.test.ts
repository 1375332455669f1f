import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPostgres, type PostgresServer } from '../../test/support/services.js';
import { MessageChannel } from 'node:worker_threads';
import { ipcChannel, portEnd } from '../cluster/ipc-channel.js';
import { RemoteTournamentStore, serveTournamentStore, type RemoteTournamentReply, type RemoteTournamentRequest } from '../cluster/remote-tournament-store.js';
import { PostgresTournamentStore } from './postgres-tournament-store.js';
import { MemoryTournamentStore, type TournamentStore } from './tournament-store.js';

/** The TournamentStore contract: every implementation passes the same tests. */
let postgres: PostgresServer;
let databases = 0;
before(async () => {
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
});

const IMPLEMENTATIONS: readonly { readonly name: string; open(): Promise<TournamentStore> }[] = [
  { name: 'memory', open: async () => new MemoryTournamentStore() },
  { name: 'postgres', open: async () => PostgresTournamentStore.open(await postgres.createDatabase(`tourstore_${++databases}`)) },
  // A node of `cocod --nodes N` reaching the primary's store over IPC (here a MessageChannel).
  {
    name: 'remote (IPC to a memory store)',
    open: async () => {
      const pipe = new MessageChannel();
      serveTournamentStore(new MemoryTournamentStore(), ipcChannel<RemoteTournamentRequest, RemoteTournamentReply>(portEnd(pipe.port1), 'tournaments'));
      const remote = new RemoteTournamentStore(ipcChannel<RemoteTournamentReply, RemoteTournamentRequest>(portEnd(pipe.port2), 'tournaments'));
      const stopAsking = remote.close.bind(remote);
      remote.close = async () => {
        await stopAsking();
        pipe.port1.close();
        pipe.port2.close();
      };
      return remote;
    },
  },
];

const entry = (id: string, createdAt = 1000) => ({ id, createdAt, body: `{"of":"${id}"}` });

for (const implementation of IMPLEMENTATIONS) {
  describe(`TournamentStore contract: ${implementation.name}`, () => {
    const withStore = (run: (store: TournamentStore) => Promise<void>) => async () => {
      const store = await implementation.open();
      try {
        await run(store);
      } finally {
        await store.close();
      }
    };

    test('a created tournament is leased to its node under epoch 1, read back with no results at version 1', withStore(async (store) => {
      assert.deepEqual(await store.create(entry('t1'), 'node-a', 5000), { node: 'node-a', epoch: 1, until: 5000 });
      assert.deepEqual(await store.get('t1'), { ...entry('t1'), results: [], version: 1, lease: { node: 'node-a', epoch: 1, until: 5000 }, stopAsked: false });
      assert.equal(await store.get('nope'), null);
    }));

    test('an id taken is refused', withStore(async (store) => {
      await store.create(entry('t1'), 'node-a', 5000);
      await assert.rejects(store.create(entry('t1'), 'node-b', 5000));
      assert.equal((await store.get('t1'))?.lease.node, 'node-a');
    }));

    test('a write under the lease changes the body, adds results by index, moves the lease, and counts a version when a follower sees a change', withStore(async (store) => {
      await store.create(entry('t1'), 'node-a', 5000);
      assert.equal(await store.write('t1', 1, { body: '{"b":2}', results: { from: 0, lines: ['r0', 'r1'] } }), true);
      assert.equal(await store.write('t1', 1, { results: { from: 1, lines: ['r1bis', 'r2'] }, until: 9000 }), true);
      const got = await store.get('t1');
      assert.equal(got?.body, '{"b":2}');
      assert.deepEqual(got?.results, ['r0', 'r1bis', 'r2']);
      assert.equal(got?.version, 3);
      assert.deepEqual(got?.lease, { node: 'node-a', epoch: 1, until: 9000 });
      assert.equal(await store.write('t1', 1, { until: 12000 }), true);
      assert.equal((await store.get('t1'))?.version, 3, 'a renewal alone wakes no follower');
      assert.equal(await store.write('t1', 1, { until: null }), true);
      assert.equal((await store.get('t1'))?.lease.until, null, 'over: nobody needs to run it');
    }));

    test('only a tournament whose lease ran out is an orphan; one node takes it over under the next epoch, and the old epoch writes nothing more', withStore(async (store) => {
      await store.create(entry('old', 1000), 'node-a', 5000);
      await store.create(entry('live', 2000), 'node-a', 9000);
      await store.create(entry('over', 3000), 'node-a', 5000);
      await store.write('over', 1, { until: null });
      assert.deepEqual(await store.orphans(5000), [], 'a lease runs to its end');
      assert.deepEqual(await store.orphans(5001), ['old']);
      assert.equal(await store.takeOver('live', 'node-b', 5001, 15001), null, 'a live lease is not taken');
      assert.equal(await store.takeOver('over', 'node-b', 5001, 15001), null, 'an ended tournament is not taken');
      const [first, second] = await Promise.all([store.takeOver('old', 'node-b', 5001, 15001), store.takeOver('old', 'node-c', 5001, 15001)]);
      assert.equal([first, second].filter((lease) => lease !== null).length, 1, 'one node wins');
      assert.deepEqual(first ?? second, { node: first ? 'node-b' : 'node-c', epoch: 2, until: 15001 });
      assert.equal(await store.write('old', 1, { body: '{"stale":true}', results: { from: 0, lines: ['stale'] } }), false, 'fenced');
      const got = await store.get('old');
      assert.equal(got?.body, entry('old').body);
      assert.deepEqual(got?.results, []);
      assert.equal(await store.write('old', 2, { results: { from: 0, lines: ['fresh'] } }), true);
      assert.deepEqual((await store.get('old'))?.results, ['fresh']);
      assert.deepEqual(await store.orphans(5001), []);
    }));

    test('orphans come oldest first', withStore(async (store) => {
      await store.create(entry('b', 2000), 'n', 10);
      await store.create(entry('a', 1000), 'n', 10);
      assert.deepEqual(await store.orphans(11), ['a', 'b']);
    }));

    test('the list is newest first; of equal creation times the one created last first', withStore(async (store) => {
      await store.create(entry('a', 1000), 'n', 10);
      await store.create(entry('c', 3000), 'n', 10);
      await store.create(entry('b', 1000), 'n', 10);
      assert.deepEqual((await store.list()).map((t) => t.id), ['c', 'b', 'a']);
    }));

    test('a stop asked of another node is kept and counts a version; unknown ids are told', withStore(async (store) => {
      await store.create(entry('t1'), 'node-a', 5000);
      assert.equal(await store.askStop('t1'), true);
      const got = await store.get('t1');
      assert.equal(got?.stopAsked, true);
      assert.equal(got?.version, 2);
      assert.equal(await store.askStop('nope'), false);
    }));

    test('a tournament forgotten is gone with its results, and writes to it are refused', withStore(async (store) => {
      await store.create(entry('t1'), 'node-a', 5000);
      await store.write('t1', 1, { results: { from: 0, lines: ['r0'] } });
      await store.forget('t1');
      assert.equal(await store.get('t1'), null);
      assert.equal(await store.write('t1', 1, { body: '{}' }), false);
      assert.equal(await store.takeOver('t1', 'node-b', 6000, 9000), null);
    }));
  });
}
