import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import type { Random } from '../../../src/match/random.js';
import { ROOT } from '../../support/processes.js';
import { ATTACKER } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { CocoPeer, gameNew } from '../coco-peer.js';
import { http, rawHttp } from '../http-client.js';
import { inParallel, tcpWrite } from '../net.js';

const MiB = 1 << 20;

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

/** Statuses seen, as "status xN" (0: the connection closed without a response). */
function tally(statuses: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status} x${n}`).join(', ');
}

/**
 * A client's mistake is answered as one (4xx), never as the server's own failure (5xx); 503 (busy:
 * the replay-log imports are all under way) is an answer, not a failure.
 */
function noServerErrors(context: AttackContext, what: string, results: readonly { path: string; status: number }[]): void {
  const bad = results.filter((r) => r.status >= 500 && r.status !== 503);
  context.check(
    `HTTP answers ${what} with 4xx or 503, never another 5xx`,
    bad.length === 0,
    bad.length ? `${bad.length} of ${results.length} got 5xx, e.g. ${bad.slice(0, 3).map((r) => `${JSON.stringify(r.path.slice(0, 60))} -> ${r.status}`).join(', ')}` : tally(results.map((r) => r.status)),
  );
}

function badEscape(random: Random): string {
  const escape = (): string => random.pick(['%', '%e', '%E0%A4%A', '%C0%AF', '%FF', '%zz', '%%', '%ED%A0%80', '%F4%90%80%80', '%00', '%0A']);
  switch (random.int(7)) {
    case 0: return `/api/history/${escape()}`;
    case 1: return `/api/history/${escape()}/artifacts/replay.log`;
    case 2: return `/api/history/0000000000000/artifacts/${escape()}`;
    case 3: return `/static/${escape()}`;
    case 4: return `/api/history?game=${escape()}&player=${escape()}&limit=${random.pick(['-1', '99999999999999999999', '1e9', 'x'])}`;
    case 5: return `/api/history/${escape().repeat(1 + random.int(2000))}`;
    default: return `/${escape()}${escape()}`;
  }
}

export const httpBadEscapes: Attack = {
  name: 'http-bad-escapes',
  door: 'HTTP',
  summary: 'GETs with malformed % escapes in the path and the query',
  async run(context) {
    const results: { path: string; status: number }[] = [];
    await inParallel(context.scale(200, 5000), 16, async () => {
      const path = badEscape(context.random);
      context.tried();
      results.push({ path, status: (await rawHttp(context.net, context.server.wsPort, get(path), ATTACKER)).status });
    });
    noServerErrors(context, 'malformed escapes', results);
  },
};

/** Plays one short roshambo match against the server bot and returns its id once recorded. */
async function finishedMatch(context: AttackContext): Promise<string | null> {
  const client = await CocoPeer.open(context.net, context.server.url, ATTACKER);
  const created = await client.request(gameNew('roshambo', 'finished', { bots: 1, args: { rounds: '1', pace: '0' } }), 'GameNew');
  if (!('Ok' in created.id)) return null;
  const id = created.id.Ok;
  await client.request({ type: 'LobbyJoinMatch', id, name: 'attacker', password: null }, 'LobbyJoinedMatch');
  await client.until('MatchStarted');
  client.sendBytes(Buffer.from('ROCK\n'));
  await client.until('MatchEnded');
  client.terminate();
  return (await context.watch.deleted(id)) ? id : null;
}

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__lookupSetter__'];

export const httpPrototypeArtifacts: Attack = {
  name: 'http-prototype-artifacts',
  door: 'HTTP',
  summary: 'GET /api/history/ID/artifacts/__proto__ (and constructor, toString, ...) of a finished match',
  async run(context) {
    const id = await finishedMatch(context);
    if (!id) return context.note('no finished match to ask about');
    const results: { path: string; status: number; body: string }[] = [];
    for (let i = 0; i < context.scale(1, 20) && context.server.alive; i++) {
      for (const name of PROTOTYPE_NAMES) {
        // A server that died answers nothing more: what it answered before is the finding.
        if (!context.server.alive) break;
        for (const path of [`/api/history/${id}/artifacts/${name}`, `/api/history/${name}`, `/api/history/${name}/artifacts/${name}`, `/api/history?game=${name}&player=${name}`]) {
          const response = await http(context.server.wsPort, path, ATTACKER);
          context.tried();
          results.push({ path, status: response.status, body: response.body.toString('utf8', 0, 80) });
        }
      }
    }
    const artifacts = results.filter((r) => r.path.includes('/artifacts/'));
    const wrong = artifacts.filter((r) => r.status !== 404);
    context.check(
      'an artifact named like an Object.prototype member is 404',
      wrong.length === 0,
      wrong.length ? `${wrong.length} of ${artifacts.length}, e.g. ${wrong.slice(0, 3).map((r) => `${r.path.split('/').at(-1)} -> ${r.status} ${JSON.stringify(r.body)}`).join(', ')}` : '',
    );
    noServerErrors(context, 'prototype names', results);
  },
};

/** A replay log of about `bytes`: every line a visualizer event the server must parse and send back. */
export function replayLog(bytes: number): Buffer {
  const line = '000.000000 < vis {t:0,create:{id:1,geom:[{circle:{r:0.1}}]}}\n';
  return Buffer.from(line.repeat(Math.floor(bytes / line.length)));
}

export const httpHugePosts: Attack = {
  name: 'http-huge-posts',
  door: 'HTTP',
  summary: 'POST /api/replay-log with bodies of ~16 MiB, several at once: valid logs of 270,000 events, junk, and bodies over the limit',
  async run(context) {
    const valid = replayLog(16 * MiB - 1024);
    const junk = Buffer.alloc(16 * MiB - 1024, 0x78);
    const over = Buffer.alloc(17 * MiB, 0x78);
    const results: { path: string; status: number; bytes: number }[] = [];
    const count = context.scale(6, 48);
    await inParallel(count, 6, async (i) => {
      const body = [valid, valid, junk, over][i % 4]!;
      context.tried();
      const response = await http(context.server.wsPort, '/api/replay-log', ATTACKER, { method: 'POST', body });
      results.push({ path: `body ${i % 4 === 3 ? 'over the limit' : i % 4 === 2 ? 'junk' : 'valid'}`, status: response.status, bytes: response.body.length });
    });
    const largest = results.reduce((max, r) => Math.max(max, r.bytes), 0);
    context.note(`${tally(results.map((r) => r.status))}; largest answer ${(largest / MiB).toFixed(1)} MiB`);
    noServerErrors(context, 'huge bodies', results);
  },
};

export const httpSlowRequests: Attack = {
  name: 'http-slow-requests',
  door: 'HTTP',
  summary: 'slowloris: 300 connections that send part of a request (headers without an end, or 1 MiB of a 16 MiB body) and stay',
  async run(context) {
    let open = 0;
    const part = Buffer.alloc(MiB, 0x30);
    await inParallel(context.scale(300, 3000), 32, async (i) => {
      context.tried();
      let socket: Socket;
      try {
        socket = await context.net.tcp(context.server.wsPort, ATTACKER);
      } catch {
        return;
      }
      if (i % 2 === 0) await tcpWrite(socket, `GET /api/history HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-${i}: a`);
      else await tcpWrite(socket, Buffer.concat([Buffer.from(`POST /api/replay-log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${16 * MiB - 1}\r\n\r\n`), part]));
      if (!socket.destroyed) open++;
    });
    context.note(`${open} partial requests open`);
  },
};

export const httpAbandonedGets: Attack = {
  name: 'http-abandoned-gets',
  door: 'HTTP',
  summary: 'GETs abandoned mid-response (cut after the first bytes) or never read',
  async run(context) {
    const paths = ['/static/markdown.js', '/static/timeline.js', '/static/style.css', '/', '/api/history?limit=1000000', `/api/history/${context.legitId}`];
    let cut = 0;
    let unread = 0;
    await inParallel(context.scale(300, 5000), 16, async (i) => {
      context.tried();
      let socket: Socket;
      try {
        socket = await context.net.tcp(context.server.wsPort, ATTACKER);
      } catch {
        return;
      }
      const path = context.random.pick(paths);
      if (i % 3 === 0) {
        // Never read: the answer waits in the server's buffers.
        socket.pause();
        await tcpWrite(socket, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
        unread++;
        return;
      }
      const first = new Promise<void>((resolve) => {
        socket.once('data', () => resolve());
        socket.once('close', () => resolve());
      });
      // Keep-alive: the server may be writing the next answer when the socket goes.
      await tcpWrite(socket, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`.repeat(4));
      await first;
      socket.destroy();
      cut++;
    });
    context.note(`${cut} cut after the first bytes, ${unread} never read`);
  },
};

export const httpMalformedRequests: Attack = {
  name: 'http-malformed-requests',
  door: 'HTTP',
  summary: 'header bombs, bad methods and versions, bogus chunked bodies, conflicting lengths',
  async run(context) {
    const requests = (random: Random): string =>
      random.pick([
        `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
        `GET / HTTP/1.1\r\n${Array.from({ length: 5000 }, (_, i) => `X-${i}: ${i}\r\n`).join('')}\r\n`,
        `BREW /api/history HTTP/1.1\r\nHost: x\r\n\r\n`,
        `GET / HTTP/9.9\r\nHost: x\r\n\r\n`,
        `POST /api/replay-log HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\nabc\r\n`,
        `POST /api/replay-log HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        `POST /api/replay-log HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\nhello`,
        `POST /api/replay-log HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`,
        `GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n`,
        `\r\n\r\n\r\n`,
        `GET ${'/a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
        `DELETE /api/history HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ]);
    const results: { path: string; status: number }[] = [];
    await inParallel(context.scale(200, 5000), 16, async () => {
      const text = requests(context.random);
      context.tried();
      results.push({ path: text.slice(0, 40), status: (await rawHttp(context.net, context.server.wsPort, text, ATTACKER)).status });
    });
    noServerErrors(context, 'malformed requests', results);
  },
};

/** The web page's own unit tests (compiled to dist/web-test/, out of the web root), asked for by name. */
function webTestFiles(): string[] {
  return readdirSync(join(ROOT, 'dist/web-test/web')).filter((name) => /\.test\.js(\.map)?$/.test(name));
}

export const httpStaticTestFiles: Attack = {
  name: 'http-static-test-files',
  door: 'HTTP',
  summary: 'GET /static/*.test.js: the web page\'s unit tests are not part of the page',
  async run(context) {
    const files = webTestFiles();
    const served: string[] = [];
    for (let i = 0; i < context.scale(1, 10); i++) {
      for (const file of files) {
        context.tried();
        const { status } = await http(context.server.wsPort, `/static/${file}`, ATTACKER);
        if (status === 200 && i === 0) served.push(file);
      }
    }
    context.check('test files are not served under /static/', served.length === 0, served.length ? `served: ${served.join(', ')}` : `${files.length} files refused`);
  },
};

export const HTTP_ATTACKS: readonly Attack[] = [
  httpBadEscapes,
  httpPrototypeArtifacts,
  httpHugePosts,
  httpSlowRequests,
  httpAbandonedGets,
  httpMalformedRequests,
  httpStaticTestFiles,
];
