import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { roshambo } from '../../src/games/roshambo/roshambo.js';
import { AddressLimits } from '../../src/gateways/address-limits.js';
import { CLOSE_CODES } from '../../src/gateways/coco-connection.js';
import { PeerAddresses } from '../../src/gateways/peer-addresses.js';
import { DEFAULT_LIMITS } from '../../src/gateways/server-limits.js';
import { CocoServer } from '../../src/gateways/server.js';
import { Lobby } from '../../src/lobby/lobby.js';
import { InlineCompute } from '../../src/match/compute.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { systemClock } from '../../src/util/clock.js';
import { silentLog } from '../../src/util/log.js';
import { finishedMatch } from '../support/match-records.js';
import { nameDesk } from '../../src/names/name-desk.js';
import { StoredNameClaims } from '../../src/names/name-claims.js';

const MATCH_ID = '0123456789abc';
/** Events of the recorded match: a hundred slices of VisEvents. */
const EVENTS = 50_000;

test('closing the server stops a replay in progress at once: the close does not wait for the rest of it', async () => {
  const store = new MemoryHistoryStore();
  const events = Array.from({ length: EVENTS }, (_, i) => ({ t: i, log: { line: `round ${i}` } }));
  await store.record(finishedMatch(MATCH_ID, { name: 'long', startedAt: 0, endedAt: 1, spectatorStream: Buffer.alloc(0), visJson: JSON.stringify(events) }));
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master' });
  const server = new CocoServer({
    lobby,
    store,
    host: '127.0.0.1',
    port: 0,
    webRoot: fileURLToPath(new URL('../../web', import.meta.url)),
    log: silentLog,
    limits: DEFAULT_LIMITS,
    clock: systemClock,
    names: nameDesk(new StoredNameClaims(store), DEFAULT_LIMITS, systemClock, 'master'),
    addresses: new AddressLimits(DEFAULT_LIMITS, systemClock),
    peers: PeerAddresses.direct(),
  });
  const { port } = await server.listen();
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  const received: string[] = [];
  let closing: Promise<void> | null = null;
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('open', () => ws.send(JSON.stringify({ Handshake: { magic: 'coco', version: 2 } })));
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const text = (data as Buffer).toString('utf8');
    const type = text.slice(2, text.indexOf('"', 2));
    received.push(type);
    if (type === 'Handshake') ws.send(JSON.stringify({ VisSubscribe: { id: MATCH_ID } }));
    // The replay has begun: the server stops now (the client goes on reading what comes).
    if (type === 'VisEvents' && closing === null) closing = server.close();
  });
  assert.equal(await closed, CLOSE_CODES.goingAway);
  await closing;
  const slices = received.filter((type) => type === 'VisEvents').length;
  assert.ok(received.includes('VisSubscribed'));
  assert.ok(!received.includes('VisEnded'), 'the replay was not finished first');
  assert.ok(slices >= 1 && slices < EVENTS / 500, `${slices} of ${EVENTS / 500} slices were sent before the close`);
});
