import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { ManualClock } from '../util/clock.js';
import { lineLog } from '../util/log.js';
import { PeerAddresses, type ClientAddress } from './peer-addresses.js';
import { TrustedProxies } from './trusted-proxies.js';

const clock = new ManualClock();
const logs: string[] = [];
const trusted = TrustedProxies.parse('127.0.0.1');
assert.ok(trusted.ok);
const peers = new PeerAddresses({ trusted: trusted.value, proxyProtocol: true, preambleSeconds: 5, preambleBytes: 256, clock, log: lineLog((line) => logs.push(line)) });

/** What the front door behind `peers` saw of each connection: its client and the bytes it read. */
interface Seen {
  readonly client: ClientAddress;
  bytes: string;
}
const seen: Seen[] = [];
const waiters: (() => void)[] = [];
let server: Server;
let port = 0;

before(async () => {
  server = createServer((socket) =>
    peers.accept(socket, 'test', (client) => {
      const entry: Seen = { client, bytes: '' };
      seen.push(entry);
      socket.on('data', (chunk: Buffer) => {
        entry.bytes += chunk.toString('latin1');
        for (const wake of waiters.splice(0)) wake();
      });
      for (const wake of waiters.splice(0)) wake();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const open: Socket[] = [];
/** Connections from the trusted address so far: each arms one preamble deadline on the clock. */
let trustedDials = 0;
function dial(localAddress = '127.0.0.1'): Promise<Socket> {
  if (localAddress === '127.0.0.1') trustedDials++;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    open.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves once `check` holds (looked at each time the front door sees something). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise<void>((resolve) => waiters.push(resolve));
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));
}

test('the client a trusted balancer names is the one the front door gets, with every byte after the preamble', async (t) => {
  t.after(() => open.splice(0).forEach((socket) => socket.destroy()));
  const before = seen.length;
  const one = await dial();
  one.write('PROXY TCP4 203.0.113.7 127.0.0.1 40000 8088\r\nplay clob');
  one.write('ber alice\n');
  const two = await dial();
  // v2 over several writes, with the stream's first bytes in the last one.
  const v2 = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x21, 0x11, 0x00, 0x0c, 198, 51, 100, 9, 127, 0, 0, 1, 0x9c, 0x41, 0x1f, 0x98]);
  two.write(v2.subarray(0, 7));
  await until(() => seen.length >= before + 1);
  two.write(Buffer.concat([v2.subarray(7), Buffer.from('GET / HTTP/1.1\r\n')]));
  await until(() => seen.length >= before + 2 && seen.every((entry) => entry.bytes.endsWith('\n')));
  const byAddress = new Map(seen.slice(before).map((entry) => [entry.client.address, entry]));
  assert.deepEqual(byAddress.get('203.0.113.7'), { client: { address: '203.0.113.7', port: 40000 }, bytes: 'play clobber alice\n' });
  assert.deepEqual(byAddress.get('198.51.100.9'), { client: { address: '198.51.100.9', port: 40001 }, bytes: 'GET / HTTP/1.1\r\n' });
});

test("a LOCAL preamble (a balancer's health check) makes the balancer its own client, marked as such so that doors keep its resets out of the log", async (t) => {
  t.after(() => open.splice(0).forEach((socket) => socket.destroy()));
  const before = seen.length;
  const socket = await dial();
  // v2, command LOCAL (0x20), family UNSPEC, no address block.
  socket.write(Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x20, 0x00, 0x00, 0x00]));
  socket.write('x\n');
  await until(() => seen.length > before && seen[before]!.bytes.length > 0);
  assert.equal(seen[before]!.client.address, '127.0.0.1');
  assert.equal(seen[before]!.client.balancersOwn, true);
  assert.equal(seen[before]!.bytes, 'x\n');
});

test('a peer that is not trusted is its own client: its PROXY line reaches the front door as its first bytes', async (t) => {
  t.after(() => open.splice(0).forEach((socket) => socket.destroy()));
  const before = seen.length;
  const socket = await dial('127.0.0.2');
  socket.write('PROXY TCP4 1.2.3.4 127.0.0.1 1 2\r\n');
  await until(() => seen.length > before && seen[before]!.bytes.length > 0);
  assert.equal(seen[before]!.client.address, '127.0.0.2');
  assert.equal(seen[before]!.bytes, 'PROXY TCP4 1.2.3.4 127.0.0.1 1 2\r\n');
});

test('a malformed or oversized preamble closes that connection only, with a log line', async (t) => {
  t.after(() => open.splice(0).forEach((socket) => socket.destroy()));
  const bystander = await dial();
  bystander.write('PROXY TCP4 203.0.113.8 127.0.0.1 1 2\r\n');
  const malformed = await dial();
  malformed.write('PROXY TCP4 999.1.1.1 127.0.0.1 1 2\r\n');
  const oversized = await dial();
  const header = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a, 0x21, 0x11, 0x01, 0x00]);
  oversized.write(header);
  const plain = await dial();
  plain.write('GET / HTTP/1.1\r\n');
  await Promise.all([closed(malformed), closed(oversized), closed(plain)]);
  assert.ok(logs.some((line) => /test 127\.0\.0\.1:\d+: PROXY v1 addresses are not TCP4: .*; connection closed/.test(line)), logs.join('\n'));
  assert.ok(logs.some((line) => /PROXY v2 preamble of 272 bytes, more than 256 \(limit proxy-preamble-bytes\); connection closed/.test(line)), logs.join('\n'));
  assert.ok(logs.some((line) => /no PROXY protocol preamble at the start of the connection; connection closed/.test(line)), logs.join('\n'));
  await until(() => seen.some((entry) => entry.client.address === '203.0.113.8'));
  bystander.write('still here\n');
  await until(() => seen.some((entry) => entry.client.address === '203.0.113.8' && entry.bytes === 'still here\n'));
  assert.ok(!bystander.closed);
});

test('a trusted peer that sends its preamble too slowly is closed after proxy-preamble-seconds; one in time is not', async (t) => {
  t.after(() => open.splice(0).forEach((socket) => socket.destroy()));
  const armed = 5000;
  const already = logs.length;
  const slow = await dial();
  slow.write('PROXY TCP4 203.0');
  // The deadline is armed when the server accepts the connection, a moment after it connects.
  await clock.timerSet(armed, trustedDials);
  await clock.advance(armed - 1);
  assert.ok(!slow.closed, 'not before the deadline');
  const prompt = await dial();
  prompt.write('PROXY TCP4 203.0.113.9 127.0.0.1 1 2\r\n');
  await until(() => seen.some((entry) => entry.client.address === '203.0.113.9'));
  await clock.advance(1);
  await closed(slow);
  assert.ok(logs.slice(already).some((line) => /no PROXY protocol preamble within 5 s \(limit proxy-preamble-seconds\); connection closed/.test(line)), logs.join('\n'));
  await clock.advance(armed);
  prompt.write('x\n');
  await until(() => seen.some((entry) => entry.client.address === '203.0.113.9' && entry.bytes === 'x\n'));
  assert.ok(!prompt.closed, 'the one that sent its preamble keeps its connection past the deadline');
});
