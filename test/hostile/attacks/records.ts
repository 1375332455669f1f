import type { Socket } from 'node:net';
import { LIMIT_SPECS } from '../../../src/gateways/server-limits.js';
import { ATTACKER, attackerAddress, attackerNetworkAddress, bystanderAddress } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { CocoPeer } from '../coco-peer.js';
import { RSS_BOUND_MIB } from '../harness.js';
import { getJson, http } from '../http-client.js';
import { inParallel, rawSocket, tcpWrite } from '../net.js';
import { readMemory } from '../rss.js';
import { replayLog } from './http.js';
import { HASE, hostileMatch } from './seats.js';

const KiB = 1024;
const MiB = 1 << 20;

const mib = (bytes: number): string => (bytes / MiB).toFixed(1);

/** The server's resident memory now, in MiB (0 once it is gone). */
function rssMiB(context: AttackContext): number {
  return Math.round((readMemory(context.server.pid)?.rssKiB ?? 0) / 1024);
}

/**
 * Waits `ms` while the server works through what was sent, and returns early once its memory has
 * passed the harness's bound: the invariant is broken by then, and a machine shared with others
 * must not watch it grow to gigabytes. Returns the highest RSS seen (MiB).
 */
async function settle(context: AttackContext, ms: number): Promise<number> {
  let peak = rssMiB(context);
  for (let waited = 0; waited < ms && peak < RSS_BOUND_MIB && context.server.alive; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    peak = Math.max(peak, rssMiB(context));
  }
  return peak;
}

/**
 * Cuts the attack's connections once the server's memory has passed the harness's bound by half
 * again: the invariant is broken by then, and a shared machine must not watch the server grow to
 * gigabytes (an unfixed server answering pipelined GETs died at 8 GiB). It keeps watching after the
 * attack returns, while the invariants are checked, until its connections have closed.
 */
function guardMemory(context: AttackContext, sockets: Set<Socket>): void {
  const timer = setInterval(() => {
    const open = [...sockets].filter((s) => !s.destroyed);
    if (open.length === 0 && sockets.size > 0) return clearInterval(timer);
    if (rssMiB(context) < 1.5 * RSS_BOUND_MIB) return;
    context.note('connections cut by the harness: the server passed 1.5 times the memory bound');
    for (const socket of open) socket.destroy();
  }, 50);
  timer.unref();
}

/** A record artifact, by its match and name, and its size. */
interface BigArtifact {
  readonly path: string;
  readonly bytes: number;
}

/**
 * A finished match with a ~4 MiB artifact: a hase-und-igel player (against the server bot) sends
 * 6 MiB of complete XML comments, which its seat transcript keeps up to its 4 MiB limit. The record
 * is the same whatever the budget (the budget grows what is asked of it, not the record).
 */
async function bigArtifact(context: AttackContext): Promise<BigArtifact | null> {
  const outcome = await hostileMatch({ ...context, scale: () => 6 }, HASE, 'comments-forever', 0);
  if (outcome.unrecorded || !outcome.id) {
    context.note(`no big record: ${outcome.unrecorded ?? 'no match'}`);
    return null;
  }
  const address = attackerAddress(0);
  const { json } = await getJson<{ artifacts: string[] }>(context.server.wsPort, `/api/history/${outcome.id}`, address);
  let best: BigArtifact | null = null;
  for (const name of json?.artifacts ?? []) {
    const path = `/api/history/${outcome.id}/artifacts/${name}`;
    const { body } = await http(context.server.wsPort, path, address);
    if (!best || body.length > best.bytes) best = { path, bytes: body.length };
  }
  return best;
}

const getRequest = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

export const httpPipelinedArtifacts: Attack = {
  name: 'http-pipelined-artifacts',
  door: 'HTTP',
  summary: 'pipelined GETs of a ~4 MiB record artifact on one connection, never read; then 128 connections that GET it once each and never read',
  async run(context) {
    const artifact = await bigArtifact(context);
    if (!artifact) return;
    context.check('the attacked artifact is a large one (at least 3 MiB)', artifact.bytes >= 3 * MiB, `${mib(artifact.bytes)} MiB at ${artifact.path}`);
    const port = context.server.wsPort;
    // One connection, thousands of requests in a few writes, not one byte read.
    const sockets = new Set<Socket>();
    guardMemory(context, sockets);
    // 300 requests would make an unfixed server hold 1.2 GiB; the issue's attacker sent 6,000.
    const pipelined = context.scale(300, 6000);
    const socket = await context.net.tcp(port, ATTACKER);
    sockets.add(socket);
    socket.pause();
    const batch = getRequest(artifact.path).repeat(100);
    let sent = 0;
    while (sent < pipelined && !socket.destroyed && rssMiB(context) < RSS_BOUND_MIB) {
      await tcpWrite(socket, batch);
      sent += 100;
      context.tried(100);
    }
    const pipelinedPeak = await settle(context, 3000);
    context.note(`${sent} pipelined GETs (${Math.round((sent * getRequest(artifact.path).length) / KiB)} KiB sent) on one unread connection: server RSS up to ${pipelinedPeak} MiB, connection ${socket.destroyed ? 'closed by the server' : 'still open'}`);
    // Then many connections, each asking once: spread over networks so that connection limits are not what stops them.
    const connections = context.scale(128, 512);
    const spread: Socket[] = [];
    await inParallel(connections, 16, async (i) => {
      if (rssMiB(context) >= RSS_BOUND_MIB) return;
      let one: Socket;
      try {
        one = await context.net.tcp(port, attackerNetworkAddress(10 + (i % 8), 0));
      } catch {
        return;
      }
      one.pause();
      sockets.add(one);
      spread.push(one);
      context.tried();
      await tcpWrite(one, getRequest(artifact.path));
    });
    const spreadPeak = await settle(context, 3000);
    const open = spread.filter((s) => !s.destroyed).length;
    context.note(`${spread.length} connections each GET it once, never read: server RSS up to ${spreadPeak} MiB, ${open} still open`);
  },
};

export const httpDrippingUploads: Attack = {
  name: 'http-dripping-uploads',
  door: 'HTTP',
  summary: 'two POST /api/replay-log whose bodies drip one byte a second, while another address imports a log',
  async run(context) {
    const port = context.server.wsPort;
    const length = 64 * KiB;
    const drips: { socket: Socket; sent: number; answer: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const socket = await context.net.tcp(port, ATTACKER);
      const drip = { socket, sent: 0, answer: '' };
      socket.on('data', (chunk: Buffer) => (drip.answer ||= chunk.toString('latin1', 0, 12)));
      await tcpWrite(socket, `POST /api/replay-log HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${length}\r\n\r\n0`);
      drip.sent = 1;
      // A byte a second until the connection goes (the harness closes it at the end).
      const timer = setInterval(() => {
        drip.sent++;
        void tcpWrite(socket, '0');
      }, 1000);
      socket.once('close', () => clearInterval(timer));
      drips.push(drip);
      context.tried();
    }
    // Both have dripped for two seconds: the server has long seen their headers.
    while (drips.some((d) => d.sent < 3 && !d.socket.destroyed)) await new Promise((resolve) => setTimeout(resolve, 100));
    const log = replayLog(64 * KiB);
    const statuses: number[] = [];
    for (let i = 0; i < context.scale(2, 20); i++) {
      const { status } = await http(port, '/api/replay-log', bystanderAddress(i), { method: 'POST', body: log });
      statuses.push(status);
      context.tried();
    }
    const imported = statuses.filter((s) => s === 200).length;
    context.check(
      'another address imports a replay log while two uploads drip',
      imported === statuses.length,
      `${imported} of ${statuses.length} imported (statuses ${statuses.join(', ')})`,
    );
    context.note(`the drips: ${drips.map((d) => `${d.sent} bytes sent, ${d.socket.destroyed ? `closed by the server${d.answer ? ` after "${d.answer.trim()}"` : ''}` : 'still open'}`).join('; ')}`);
  },
};

/**
 * A WebSocket text message of `fragments` one-byte frames, the last one never sent: every frame is
 * masked (with a zero key, so the byte goes as it is), as a client's must be.
 */
function heldFragments(fragments: number): Buffer {
  const frame = (opcode: number): number[] => [opcode, 0x80 | 1, 0, 0, 0, 0, 0x20];
  const bytes = [...frame(0x01)];
  for (let i = 1; i < fragments; i++) bytes.push(...frame(0x00));
  return Buffer.from(bytes);
}

/** What a connection may hold of a message it has not finished (docs/limits.md). */
const HELD_MESSAGE_BOUND = LIMIT_SPECS['game-frame-bytes'].default;

export const cocoHeldFragments: Attack = {
  name: 'coco-held-fragments',
  door: 'coco WebSocket',
  summary: '128 coco connections from 2 addresses each hold an unfinished message of 16,383 one-byte fragments',
  async run(context) {
    const count = context.scale(128, 512);
    const fragments = 16_383;
    const message = heldFragments(fragments);
    const peers: CocoPeer[] = [];
    await inParallel(count, 16, async (i) => {
      try {
        peers.push(await CocoPeer.open(context.net, context.server.url, i % 2 === 0 ? ATTACKER : attackerNetworkAddress(20, 0)));
      } catch {
        // refused: counted below
      }
    });
    // Memory before any fragment, with every connection open: the growth is the fragments' alone.
    const before = readMemory(context.server.pid)?.rssKiB ?? 0;
    await inParallel(peers.length, 16, async (i) => {
      const peer = peers[i]!;
      context.tried();
      // The server sends this connection nothing unasked, so the first bytes after the fragments are
      // the pong of the ping that follows them (it has read every fragment) or its close frame (it
      // refused them). Waiting for the TCP close instead would wait out the close handshake.
      const raw = rawSocket(peer.ws);
      const heard = new Promise<void>((resolve) => {
        raw.once('data', () => resolve());
        raw.once('close', () => resolve());
      });
      await tcpWrite(raw, message);
      if (peer.isOpen) peer.ws.ping();
      await heard;
    });
    const after = readMemory(context.server.pid)?.rssKiB ?? 0;
    const holding = peers.filter((p) => p.isOpen).length;
    const growth = (after - before) * KiB;
    context.note(`${peers.length} of ${count} connections accepted, ${holding} still open holding their fragments; RSS ${Math.round(before / 1024)} -> ${Math.round(after / 1024)} MiB`);
    // What the server holds is what its open connections keep; a connection it cut holds nothing
    // (what reading its fragments cost is garbage, bounded for the server by the harness's RSS check).
    context.check(
      `RSS grows by less than ${mib(HELD_MESSAGE_BOUND)} MiB per connection holding an unfinished message`,
      holding === 0 || growth / holding < HELD_MESSAGE_BOUND,
      holding === 0 ? `the server cut all ${peers.length} connections (RSS +${mib(growth)} MiB meanwhile)` : `${mib(growth / holding)} MiB per connection (${holding} holding)`,
    );
  },
};

export const RECORD_ATTACKS: readonly Attack[] = [httpPipelinedArtifacts, httpDrippingUploads, cocoHeldFragments];
