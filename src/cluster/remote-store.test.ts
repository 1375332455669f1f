import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { HistoryUnavailableError, type HistoryStore } from '../store/history-store.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { ipcChannel, portEnd } from './ipc-channel.js';
import { RemoteHistoryStore, serveHistoryStore, type RemoteStoreReply, type RemoteStoreRequest } from './remote-store.js';

test("a node sees the owner's HistoryUnavailableError as one (its front doors answer try again later), other errors as plain errors", async () => {
  const owned = new MemoryHistoryStore();
  const failing: HistoryStore = {
    ...owned,
    record: (record) => owned.record(record),
    list: () => Promise.reject(new HistoryUnavailableError('the history database postgres://coco:***@db/h is unreachable: connect ECONNREFUSED')),
    ids: () => Promise.reject(new Error('a bug')),
    get: (id) => owned.get(id),
    outline: (id) => owned.outline(id),
    readPart: (id, part, range) => owned.readPart(id, part, range),
    ratings: (game, query) => owned.ratings(game, query),
    ratingHistory: (game, player, query) => owned.ratingHistory(game, player, query),
    saveTournament: (tournament) => owned.saveTournament(tournament),
    addTournamentResult: (id, index, result) => owned.addTournamentResult(id, index, result),
    tournaments: () => owned.tournaments(),
    forgetTournament: (id) => owned.forgetTournament(id),
    claimName: (name, digest) => owned.claimName(name, digest),
    nameDigest: (name) => owned.nameDigest(name),
    replaceNameDigest: (name, expected, next) => owned.replaceNameDigest(name, expected, next),
    releaseName: (name) => owned.releaseName(name),
    close: () => owned.close(),
  };
  const pipe = new MessageChannel();
  serveHistoryStore(failing, ipcChannel<RemoteStoreRequest, RemoteStoreReply>(portEnd(pipe.port1), 'store'));
  const remote = new RemoteHistoryStore(ipcChannel<RemoteStoreReply, RemoteStoreRequest>(portEnd(pipe.port2), 'store'));
  try {
    const unavailable = await remote.list().then(
      () => assert.fail('listed'),
      (error: unknown) => error,
    );
    assert.ok(unavailable instanceof HistoryUnavailableError);
    assert.match(unavailable.message, /is unreachable: connect ECONNREFUSED/);
    const bug = await remote.ids().then(
      () => assert.fail('listed'),
      (error: unknown) => error,
    );
    assert.ok(bug instanceof Error && !(bug instanceof HistoryUnavailableError));
  } finally {
    pipe.port1.close();
    pipe.port2.close();
  }
});
