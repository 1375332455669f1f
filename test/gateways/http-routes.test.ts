import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ServerMetrics } from '../../src/gateways/metrics.js';
import { ReplayLogImporter } from '../../src/games/external/replay-log-importer.js';
import { roshambo } from '../../src/games/roshambo/roshambo.js';
import { isWebAsset } from '../../src/gateways/http-headers.js';
import { HttpRoutes } from '../../src/gateways/http-routes.js';
import { ResponseWriter, type Delivery } from '../../src/gateways/response-writer.js';
import { CocoServer } from '../../src/gateways/server.js';
import { encodeReply } from '../../src/protocol/coco/json-codec.js';
import { Lobby } from '../../src/lobby/lobby.js';
import { InlineCompute } from '../../src/match/compute.js';
import type { MatchRecord } from '../../src/store/history-store.js';
import { MemoryHistoryStore } from '../../src/store/memory-history-store.js';
import { silentLog } from '../../src/util/log.js';
import { systemClock } from '../../src/util/clock.js';
import { AddressLimits } from '../../src/gateways/address-limits.js';
import { finishedMatch } from '../support/match-records.js';
import { PeerAddresses } from '../../src/gateways/peer-addresses.js';
import { DEFAULT_LIMITS } from '../../src/gateways/server-limits.js';
import { RawHttp } from '../support/raw-http.js';
import { nameDesk } from '../../src/names/name-desk.js';
import { StoredNameClaims } from '../../src/names/name-claims.js';

/** The built page (dist/web): index.html, the bundled script and its map, the style sheet, the demo fixture. */
const WEB_ROOT = fileURLToPath(new URL('../../web', import.meta.url));
const MATCH_ID = '0123456789abc';
const BIG_ID = '0123456789abe';
/** Larger than any socket buffers between two local sockets, so an abandoned GET cannot be "done" already. */
const BIG_ARTIFACT_BYTES = 32 * 1024 * 1024;

function record(id: string, artifacts: Record<string, string>): MatchRecord {
  return finishedMatch(id, { visJson: '[{"t":0,"log":{"line":"hello"}}]', artifacts });
}

const VIS_LINE = '000.010000 < vis {t:0,create:{id:1,p:[0.5,0.5],geom:[{circle:{r:0.2,f:"3366ccff"}}]}}\n';
const TINY_LOG = VIS_LINE;

/** A replay log of about `bytes` bytes: enough visualizer lines that parsing takes a while. */
function bigLog(bytes: number): string {
  return VIS_LINE.repeat(Math.floor(bytes / VIS_LINE.length));
}

function statusOf(raw: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
}

describe('the HTTP front door of CocoServer', () => {
  const store = new MemoryHistoryStore();
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master' });
  let server: CocoServer;
  let base = '';

  before(async () => {
    await store.record(record(MATCH_ID, { 'replay.log': '000.000001 > start\n', 'transcript-0.txt': '# seat 0, alice\n' }));
    const metrics: ServerMetrics = new ServerMetrics({
      connections: () => server.connections(),
      matches: () => lobby.counts(),
      outboundQueuedBytes: () => server.queuedBytes(),
      storeQueueDepth: () => 0,
    });
    server = new CocoServer({
      lobby,
      store,
      metrics,
      host: '127.0.0.1',
      port: 0,
      webRoot: WEB_ROOT,
      log: silentLog,
      limits: DEFAULT_LIMITS,
      clock: systemClock,
      names: nameDesk(new StoredNameClaims(store), DEFAULT_LIMITS, systemClock, 'master'),
      addresses: new AddressLimits(DEFAULT_LIMITS, systemClock),
      peers: PeerAddresses.direct(),
    });
    base = `http://127.0.0.1:${(await server.listen()).port}`;
  });
  after(async () => {
    await server.close();
    await lobby.shutdown();
  });

  test('a malformed % escape is a 400 with a JSON error, not a 500', async () => {
    for (const path of [`/api/history/%zz`, `/api/history/%`, `/api/history/${MATCH_ID}/artifacts/%E0%A4%A`, `/api/history/%C0/artifacts/x`]) {
      const response = await fetch(base + path);
      assert.equal(response.status, 400, path);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.match(((await response.json()) as { error: string }).error, /malformed % escape/);
    }
  });

  test('only real artifacts of the match answer; inherited names are 404', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf']) {
      const response = await fetch(`${base}/api/history/${MATCH_ID}/artifacts/${name}`);
      assert.equal(response.status, 404, name);
      await response.arrayBuffer();
    }
    const real = await fetch(`${base}/api/history/${MATCH_ID}/artifacts/replay.log`);
    assert.equal(real.status, 200);
    assert.equal(await real.text(), '000.000001 > start\n');
  });

  test('an artifact opens in the browser as text: text/plain, inline, nosniff', async () => {
    const response = await fetch(`${base}/api/history/${MATCH_ID}/artifacts/transcript-0.txt`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(response.headers.get('content-disposition'), `inline; filename="${MATCH_ID}-transcript-0.txt"`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await response.text(), '# seat 0, alice\n');
  });

  test('the page, its bundled script and that script\'s source map are served; notes and paths outside are not', async () => {
    for (const path of ['/', '/static/app.js', '/static/app.js.map', '/static/style.css', '/static/fixtures/scene.json']) {
      const response = await fetch(base + path);
      assert.equal(response.status, 200, path);
      await response.arrayBuffer();
    }
    for (const path of ['/static/views/replay.js', '/static/README.md', '/static/THIRD-PARTY-NOTICES.txt', '/static/../web/format.test.js', '/static/../src/cli/coco.js', '/static/']) {
      const response = await fetch(base + path);
      assert.equal(response.status, 404, path);
      await response.arrayBuffer();
    }
  });

  test('a unit test is never a web asset, wherever the build puts it', () => {
    for (const name of ['format.test.js', 'format.test.js.map', 'views/x.test.js', '.hidden.js', 'README.md', 'notes.txt']) assert.equal(isWebAsset(name), false, name);
    for (const name of ['app.js', 'app.js.map', 'style.css', 'fixtures/scene.json', 'index.html']) assert.equal(isWebAsset(name), true, name);
  });

  test('every response carries the security headers: the page, JSON, errors', async () => {
    for (const path of ['/', '/api/history', '/api/history/nope', '/health']) {
      const response = await fetch(base + path);
      await response.arrayBuffer();
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /(^|; )default-src 'self'(;|$)/, path);
      assert.match(csp, /(^|; )script-src 'self'(;|$)/, path);
      assert.match(csp, /(^|; )style-src 'self'(;|$)/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.ok(csp.includes(`connect-src 'self' ws://${new URL(base).host} wss://${new URL(base).host}`), csp);
      assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer', path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
    }
  });

  test('a Host header that is not a plain host:port stays out of the policy', async () => {
    const raw = new RawHttp(Number(new URL(base).port));
    raw.socket.write('GET /health HTTP/1.1\r\nHost: evil.example;script-src *\r\nConnection: close\r\n\r\n');
    const answer = await raw.until('\r\n\r\n');
    assert.equal(statusOf(answer), 200);
    assert.match(answer, /content-security-policy: [^\r]*connect-src 'self'; /i);
    assert.ok(!answer.includes('evil.example'));
    raw.socket.destroy();
  });

  test('/api/games describes each argument for people: hint, example, default, the error in words; GameList stays as it was', async () => {
    const response = await fetch(`${base}/api/games`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { games: { name: string; args: Record<string, unknown>[] }[] };
    assert.deepEqual(body.games.map((game) => game.name), ['roshambo']);
    const [rounds, pace] = body.games[0]!.args;
    // In the game's own order of arguments, with the coco wire's description and regex beside the rest.
    assert.deepEqual(pace, {
      name: 'pace',
      description: roshambo.args['pace']!.description,
      regex: roshambo.args['pace']!.regex,
      hint: 'seconds to wait between moves, 0 to 30',
      expects: 'a number from 0 to 30',
      problem: 'pace must be a number from 0 to 30 (for example 1.5)',
      example: '1.5',
      default: '1',
      default_note: null,
      range: { min: 0, max: 30, integer: false, odd: false },
    });
    assert.equal(rounds!['name'], 'rounds');
    assert.equal(rounds!['problem'], 'rounds must be a whole number from 1 to 9999 (for example 5)');
    // The coco GameList of the same server has only what the reference clients know.
    const wire = JSON.parse(encodeReply({ type: 'GameList', games: lobby.gameList() }, 2)) as { GameList: { games: { args: Record<string, object> }[] } };
    assert.deepEqual(wire.GameList.games[0]!.args['pace'], { description: roshambo.args['pace']!.description, regex: roshambo.args['pace']!.regex });
  });

  test('/health answers 200 JSON', async () => {
    const response = await fetch(`${base}/health`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { status: string; uptime_seconds: number; matches: { waiting: number; running: number }; connections: Record<string, number> };
    assert.equal(body.status, 'ok');
    assert.equal(typeof body.uptime_seconds, 'number');
    assert.deepEqual(body.matches, { waiting: 0, running: 0 });
    assert.ok(body.connections['http']! >= 1);
  });

  test('/metrics is Prometheus text with the server metrics and the process metrics', async () => {
    const response = await fetch(`${base}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const sample = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*\})? (-?[0-9.]+(e[+-]?\d+)?|NaN|[+-]Inf)( -?\d+)?$/;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      if (line.startsWith('#')) assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /, line);
      else assert.match(line, sample, line);
    }
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
    assert.equal(types.get('cocod_connections'), 'gauge');
    assert.equal(types.get('cocod_matches'), 'gauge');
    assert.equal(types.get('cocod_moves_total'), 'counter');
    assert.equal(types.get('cocod_outbound_queued_bytes'), 'gauge');
    assert.equal(types.get('cocod_requests_refused_total'), 'counter');
    assert.equal(types.get('cocod_store_queue_depth'), 'gauge');
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) assert.ok(types.has(name), name);
    assert.match(text, /^cocod_connections\{front_door="http"\} [1-9]\d*$/m);
    for (const door of ['coco', 'clobber', 'socha']) assert.match(text, new RegExp(`^cocod_connections\\{front_door="${door}"\\} \\d+$`, 'm'));
    assert.match(text, /^cocod_matches\{state="waiting"\} 0$/m);
    assert.match(text, /^cocod_matches\{state="running"\} 0$/m);
  });
});

describe('HttpRoutes against hostile clients', () => {
  const store = new MemoryHistoryStore();
  const deliveryWaiters: ((delivery: Delivery) => void)[] = [];
  const responses = new ResponseWriter({
    onDelivered: (delivery) => {
      for (const wake of deliveryWaiters.splice(0)) wake(delivery);
    },
  });
  const importer = new ReplayLogImporter({ concurrentImports: 1 });
  const metrics = new ServerMetrics(
    { connections: () => ({}), matches: () => ({ waiting: 0, running: 0 }), outboundQueuedBytes: () => responses.queuedBytes(), storeQueueDepth: () => 0 },
    { processMetrics: false },
  );
  const REPLAY_LIMIT = 1000;
  const routes = new HttpRoutes(store, WEB_ROOT, { responses, importer, metrics, replayLogMaxBytes: REPLAY_LIMIT });
  const http: Server = createServer((request, response) => {
    routes.handle(request, response).catch(() => response.destroy());
  });
  let port = 0;

  const nextDelivery = (): Promise<Delivery> => new Promise((resolve) => deliveryWaiters.push(resolve));

  before(async () => {
    await store.record(record(BIG_ID, { 'big.txt': 'x'.repeat(BIG_ARTIFACT_BYTES) }));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await routes.close();
  });

  test('a Content-Length above the limit is refused with 413 before the body is read', async () => {
    const raw = new RawHttp(port);
    // A gigabyte is announced and never sent: the answer can only come from the headers.
    raw.socket.write('POST /api/replay-log HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1073741824\r\n\r\n000.0');
    const answer = await raw.until('}');
    assert.equal(statusOf(answer), 413);
    assert.match(answer, /connection: close/i);
    assert.match(answer, /"error":"a replay log may be at most 1000 bytes"/);
    await raw.closed;
    assert.match(await metrics.text(), /^cocod_requests_refused_total\{reason="replay_log_too_large"\} 1$/m);
  });

  test('a chunked body that grows past the limit is refused at once, while the client is still sending', async () => {
    const raw = new RawHttp(port);
    raw.socket.write('POST /api/replay-log HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
    const piece = 'a'.repeat(600);
    raw.socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    raw.socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    // The body is never finished (no last chunk): a server that read it all would never answer.
    const answer = await raw.until('}');
    assert.equal(statusOf(answer), 413);
    await raw.closed;
  });

  test('replay logs are parsed off the main thread: a request is answered while a big import is parsed', async () => {
    // A server of its own, with the default body limit, for a log that takes seconds to parse.
    let parsing: () => void = () => {};
    const startedParsing = new Promise<void>((resolve) => (parsing = resolve));
    const bigRoutes = new HttpRoutes(store, WEB_ROOT, { importer: new ReplayLogImporter({ onParse: () => parsing() }) });
    const bigServer = createServer((request, response) => void bigRoutes.handle(request, response));
    try {
      await new Promise<void>((resolve) => bigServer.listen(0, '127.0.0.1', resolve));
      const bigBase = `http://127.0.0.1:${(bigServer.address() as AddressInfo).port}`;
      const events: string[] = [];
      const big = fetch(`${bigBase}/api/replay-log`, { method: 'POST', body: bigLog(8 * 1024 * 1024) }).then(async (response) => {
        // Noted as its headers arrive: they are written as soon as the import is done.
        events.push(`import ${response.status}`);
        return ((await response.json()) as { vis: unknown[] }).vis.length;
      });
      await startedParsing;
      // The log is with the worker thread now; a parse on the main thread would hold this answer
      // back until the import was answered.
      const health = await fetch(`${bigBase}/health`);
      events.push(`health ${health.status}`);
      await health.arrayBuffer();
      assert.equal(await big, Math.floor((8 * 1024 * 1024) / VIS_LINE.length));
      assert.deepEqual(events, ['health 200', 'import 200']);
    } finally {
      bigServer.closeAllConnections();
      await new Promise<void>((resolve) => bigServer.close(() => resolve()));
      await bigRoutes.close();
    }
  });

  test('imports past the concurrent limit are refused with 503 once their body has arrived; the place is free again after', async () => {
    // The only place, held as an import whose body has arrived would hold it.
    const held = importer.tryAdmit();
    assert.ok(held);
    const refused = await fetch(`http://127.0.0.1:${port}/api/replay-log`, { method: 'POST', body: TINY_LOG });
    assert.equal(refused.status, 503);
    assert.match(((await refused.json()) as { error: string }).error, /too many replay logs/);
    assert.match(await metrics.text(), /^cocod_requests_refused_total\{reason="replay_import_busy"\} 1$/m);
    held.release();
    const again = await fetch(`http://127.0.0.1:${port}/api/replay-log`, { method: 'POST', body: TINY_LOG });
    assert.equal(again.status, 200);
    await again.arrayBuffer();
  });

  test('a GET abandoned by its client stops being written, and the queued bytes go back to 0', async () => {
    const delivered = nextDelivery();
    const firstChunk = await new Promise<number>((resolve, reject) => {
      const request = get({ host: '127.0.0.1', port, path: `/api/history/${BIG_ID}/artifacts/big.txt`, agent: false }, (response: IncomingMessage) => {
        assert.equal(response.statusCode, 200);
        response.once('data', (chunk: Buffer) => {
          // A client that takes one piece and goes away.
          request.destroy();
          resolve(chunk.length);
        });
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    assert.ok(firstChunk > 0);
    const delivery = await delivered;
    assert.equal(delivery.complete, false);
    assert.equal(delivery.bodyBytes, BIG_ARTIFACT_BYTES);
    assert.ok(delivery.bytesWritten < BIG_ARTIFACT_BYTES, `wrote ${delivery.bytesWritten} of ${BIG_ARTIFACT_BYTES}`);
    assert.equal(responses.queuedBytes(), 0);
    assert.equal(responses.responsesInFlight, 0);
    assert.match(await metrics.text(), /^cocod_outbound_queued_bytes 0$/m);
  });

  test('a GET read to the end is delivered whole', async () => {
    const delivered = nextDelivery();
    const response = await fetch(`http://127.0.0.1:${port}/api/history/${BIG_ID}/artifacts/big.txt`);
    assert.equal((await response.arrayBuffer()).byteLength, BIG_ARTIFACT_BYTES);
    assert.deepEqual(await delivered, { complete: true, bytesWritten: BIG_ARTIFACT_BYTES, bodyBytes: BIG_ARTIFACT_BYTES });
  });
});
