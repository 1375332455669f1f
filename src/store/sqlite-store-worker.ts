/**
 * The worker thread that owns the SQLite history file (see SqliteHistoryStore). Records that
 * arrive together are written in one transaction: when a thousand matches end at once, that is
 * one commit instead of a thousand, with the retention applied in the same transaction. A read
 * first writes what is pending, so it sees every record sent before it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { NewMatchRecord } from './history-store.js';
import { SqliteHistoryDb } from './sqlite-history-db.js';
import { asBuffer, type StoreReply, type StoreRequest, type StoreWorkerData } from './sqlite-store-messages.js';

const port = parentPort!;
const { file, retention, now: openedAt } = workerData as StoreWorkerData;

let db: SqliteHistoryDb;
try {
  db = new SqliteHistoryDb(file, { retention });
  db.prune(openedAt);
  port.postMessage({ id: 0, ok: true, value: db.schemaVersion } satisfies StoreReply);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: message(error) } satisfies StoreReply);
  process.exit(0);
}

let pending: { id: number; record: NewMatchRecord; now: number }[] = [];
let flushScheduled = false;

function flush(): void {
  flushScheduled = false;
  if (pending.length === 0) return;
  const batch = pending;
  pending = [];
  // The batch's latest time: the records are written together, as of the last one sent.
  const now = batch.reduce((latest, entry) => Math.max(latest, entry.now), -Infinity);
  try {
    db.record(batch.map((entry) => entry.record), now);
    for (const { id } of batch) port.postMessage({ id, ok: true, value: null } satisfies StoreReply);
  } catch (error) {
    // One bad record must not lose the others: write them one at a time to find it.
    for (const { id, record, now: sentAt } of batch) {
      try {
        db.record([record], sentAt);
        port.postMessage({ id, ok: true, value: null } satisfies StoreReply);
      } catch (single) {
        port.postMessage({ id, ok: false, error: message(single ?? error) } satisfies StoreReply);
      }
    }
  }
}

port.on('message', (request: StoreRequest) => {
  if (request.op === 'record') {
    const { spectatorStream, visJson } = request.record;
    const record = { ...request.record, spectatorStream: asBuffer(spectatorStream), visJson: typeof visJson === 'string' ? visJson : asBuffer(visJson) };
    pending.push({ id: request.id, record, now: request.now });
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
    return;
  }
  flush();
  let reply: StoreReply;
  try {
    switch (request.op) {
      case 'list':
        reply = { id: request.id, ok: true, value: db.list(request.query) };
        break;
      case 'ids':
        reply = { id: request.id, ok: true, value: db.ids() };
        break;
      case 'get':
        reply = { id: request.id, ok: true, value: db.get(request.matchId) };
        break;
      case 'outline':
        reply = { id: request.id, ok: true, value: db.outline(request.matchId) };
        break;
      case 'readPart': {
        const bytes = db.readPart(request.matchId, request.part, request.range);
        // A range is a window on the part kept whole (PartCache): posted as it is, the whole part
        // would be copied, and moved, the kept part would be lost. A copy of its own is moved.
        const own = bytes && Buffer.from(Uint8Array.prototype.slice.call(bytes).buffer);
        port.postMessage({ id: request.id, ok: true, value: own } satisfies StoreReply, own ? [own.buffer as ArrayBuffer] : []);
        return;
      }
      case 'ratings':
        reply = { id: request.id, ok: true, value: db.ratingBoard(request.game, request.query) };
        break;
      case 'ratingHistory':
        reply = { id: request.id, ok: true, value: db.ratingHistory(request.game, request.player, request.query) };
        break;
      case 'saveTournament':
        db.saveTournament(request.tournament);
        reply = { id: request.id, ok: true, value: null };
        break;
      case 'addTournamentResult':
        db.addTournamentResult(request.tournamentId, request.index, request.result);
        reply = { id: request.id, ok: true, value: null };
        break;
      case 'tournaments':
        reply = { id: request.id, ok: true, value: db.tournaments() };
        break;
      case 'forgetTournament':
        db.forgetTournament(request.tournamentId);
        reply = { id: request.id, ok: true, value: null };
        break;
      case 'claimName':
        reply = { id: request.id, ok: true, value: db.claimName(request.name, request.digest) };
        break;
      case 'nameDigest':
        reply = { id: request.id, ok: true, value: db.nameDigest(request.name) };
        break;
      case 'replaceNameDigest':
        reply = { id: request.id, ok: true, value: db.replaceNameDigest(request.name, request.expected, request.next) };
        break;
      case 'releaseName':
        reply = { id: request.id, ok: true, value: db.releaseName(request.name) };
        break;
      case 'close':
        db.close();
        reply = { id: request.id, ok: true, value: null };
        break;
    }
  } catch (error) {
    reply = { id: request.id, ok: false, error: message(error) };
  }
  port.postMessage(reply);
  if (request.op === 'close') port.close();
});

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
