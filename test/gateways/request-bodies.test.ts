import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ReplayLogImporter } from '../../src/games/external/replay-log-importer.js';
import { ClientMemory, type MemoryCutReason } from '../../src/gateways/client-memory.js';
import { HttpRoutes } from '../../src/gateways/http-routes.js';
import { RequestBodies } from '../../src/gateways/request-body.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { ManualClock } from '../../src/util/clock.js';
import { RawHttp } from '../support/raw-http.js';

const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));
const TINY_LOG = '000.010000 < vis {t:0,create:{id:1,p:[0.5,0.5],geom:[{circle:{r:0.2,f:"3366ccff"}}]}}\n';
const BODY_SECONDS = 30;

/** A POST of a replay log whose body is still to come, for the address named in its X-Client header (the test's addressOf). */
function rawPost(port: number, client: string, contentLength: number): RawHttp {
  const raw = new RawHttp(port);
  raw.socket.write(`POST /api/replay-log HTTP/1.1\r\nHost: x\r\nX-Client: ${client}\r\nContent-Length: ${contentLength}\r\n\r\n`);
  return raw;
}

const statusOf = (raw: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);

describe('request bodies: deadline, per-address count and memory budget before an import place', () => {
  const clock = new ManualClock();
  const cuts: MemoryCutReason[] = [];
  const memory = new ClientMemory({ perConnection: 4000, perAddress: 3000, serverWide: 100_000 });
  const bodies = new RequestBodies({
    clock,
    memory,
    addressOf: (request) => String(request.headers['x-client']),
    seconds: BODY_SECONDS,
    perAddress: 2,
    cut: (why) => cuts.push(why),
  });
  // One import place, as a busy server has it: a dripping body must not hold it.
  const importer = new ReplayLogImporter({ concurrentImports: 1 });
  const routes = new HttpRoutes(new MemoryHistoryStore(), WEB_ROOT, { importer, bodies, replayLogMaxBytes: 10_000 });
  const http: Server = createServer((request, response) => {
    routes.handle(request, response).catch(() => response.destroy());
  });
  let port = 0;
  let armed = 0;
  /** Opens a body that will not finish and waits until the server reads it (its deadline armed). */
  const drip = async (client: string): Promise<RawHttp> => {
    const post = rawPost(port, client, 5000);
    post.socket.write('0');
    await clock.timerSet(BODY_SECONDS * 1000, ++armed);
    return post;
  };
  const postWhole = (client: string): Promise<Response> => fetch(`http://127.0.0.1:${port}/api/replay-log`, { method: 'POST', body: TINY_LOG, headers: { 'x-client': client } });

  before(async () => {
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await routes.close();
  });

  test('bodies dripping from one address hold no import place: another address imports, the third drip gets 429, and the deadline answers 408', async () => {
    const first = await drip('10.0.0.1');
    const second = await drip('10.0.0.1');
    assert.equal(bodies.receiving, 2);
    assert.equal(memory.heldBy('10.0.0.1'), 2, 'the bytes received so far count against the address');
    const other = await postWhole('10.0.0.2');
    assert.equal(other.status, 200);
    assert.ok(((await other.json()) as { vis: unknown[] }).vis.length > 0);
    const third = rawPost(port, '10.0.0.1', 5000);
    const refused = await third.until('}');
    assert.equal(statusOf(refused), 429);
    assert.match(refused, /request-bodies-per-address/);
    await third.closed;
    // Just before the deadline nothing happens; at it, both drips are answered 408 and closed.
    await clock.advance(BODY_SECONDS * 1000 - 1);
    assert.equal(bodies.receiving, 2);
    await clock.advance(1);
    for (const post of [first, second]) {
      const answer = await post.until('}');
      assert.equal(statusOf(answer), 408);
      assert.match(answer, /connection: close/i);
      await post.closed;
    }
    assert.equal(bodies.receiving, 0);
    assert.equal(memory.heldBy('10.0.0.1'), 0);
    // The address may send again.
    const later = await postWhole('10.0.0.1');
    assert.equal(later.status, 200);
    await later.arrayBuffer();
  });

  test('bodies past the address\'s memory budget are cut off, largest first, and count no more', async () => {
    const big = await drip('10.0.0.3');
    big.socket.write('x'.repeat(1999)); // 2000 held
    const small = await drip('10.0.0.3'); // 2001 held
    // 2000 + 1001 passes the address's 3000: the largest body (the first) goes.
    small.socket.write('x'.repeat(1000));
    await big.closed;
    assert.deepEqual(cuts, ['client-memory-per-address']);
    assert.equal(small.socket.destroyed, false);
    assert.equal(memory.heldBy('10.0.0.3'), 1001);
    small.socket.destroy();
    await small.closed;
    while (bodies.receiving > 0) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(memory.heldBy('10.0.0.3'), 0);
  });
});
