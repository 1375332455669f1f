import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyPreambleReader, V1_MAX_BYTES, type PreambleStep } from './proxy-protocol.js';

const SIGNATURE = [0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a];

/** A v2 header: version/command byte, family/transport byte, then the address block. */
function v2(versionCommand: number, familyTransport: number, block: readonly number[]): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(block.length);
  return Buffer.from([...SIGNATURE, versionCommand, familyTransport, ...length, ...block]);
}

const IPV4_BLOCK = [203, 0, 113, 7, 10, 0, 0, 11, 0xd4, 0x31, 0x1f, 0x98]; // 203.0.113.7:54321 -> 10.0.0.11:8088

/** Feeds `bytes` one byte at a time: a preamble may arrive in any number of chunks. */
function feedBytewise(bytes: Buffer, maxBytes = 1024): PreambleStep {
  const reader = new ProxyPreambleReader(maxBytes);
  let step: PreambleStep = { kind: 'more' };
  for (let i = 0; i < bytes.length && step.kind === 'more'; i++) step = reader.push(bytes.subarray(i, i + 1));
  return step;
}

function feed(bytes: Buffer | string, maxBytes = 1024): PreambleStep {
  return new ProxyPreambleReader(maxBytes).push(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
}

test('v1 TCP4 and TCP6 lines name the client; the bytes after the line are the stream', () => {
  assert.deepEqual(feed('PROXY TCP4 203.0.113.7 10.0.0.11 54321 8088\r\nGET / HTTP/1.1\r\n'), {
    kind: 'done',
    source: { address: '203.0.113.7', port: 54321 },
    rest: Buffer.from('GET / HTTP/1.1\r\n'),
  });
  const six = feed('PROXY TCP6 2001:db8::7 2001:db8::11 0 65535\r\n');
  assert.deepEqual(six, { kind: 'done', source: { address: '2001:db8::7', port: 0 }, rest: Buffer.alloc(0) });
  const bytewise = feedBytewise(Buffer.from('PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\nplay clobber x\n'));
  assert.equal(bytewise.kind, 'done');
  assert.deepEqual(bytewise.kind === 'done' && bytewise.source, { address: '1.2.3.4', port: 1 });
});

test('v1 UNKNOWN names no client (the balancer\'s own connection)', () => {
  assert.deepEqual(feed('PROXY UNKNOWN\r\n'), { kind: 'done', source: null, rest: Buffer.alloc(0) });
  assert.deepEqual(feed('PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\nx'), { kind: 'done', source: null, rest: Buffer.from('x') });
});

test('malformed v1 lines are refused, each with its reason', () => {
  const cases: [string, RegExp][] = [
    ['PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n', /malformed/],
    ['PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n', /malformed/],
    ['PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n', /family "UDP4"/],
    ['PROXY TCP4 2001:db8::1 5.6.7.8 1 2\r\n', /not TCP4/],
    ['PROXY TCP6 1.2.3.4 2001:db8::1 1 2\r\n', /not TCP6/],
    ['PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n', /ports/],
    ['PROXY TCP4 1.2.3.4 5.6.7.8 0080 2\r\n', /ports/],
    ['PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n', /ports/],
    ['PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n', /longer than|malformed/],
  ];
  for (const [line, why] of cases) {
    const step = feed(line.endsWith('2\n') ? line + ' '.repeat(V1_MAX_BYTES) : line);
    assert.equal(step.kind, 'refused', line);
    assert.match(step.kind === 'refused' ? step.why : '', why, line);
  }
});

test('a v1 line may be at most 107 bytes, CRLF included: one byte more is refused before its end comes', () => {
  const longest = `PROXY UNKNOWN ${'ffff:'.repeat(7)}ffff ${'ffff:'.repeat(7)}ffff 65535 65535\r\n`;
  assert.equal(longest.length, V1_MAX_BYTES);
  assert.equal(feed(longest).kind, 'done');
  const endless = Buffer.from(`PROXY TCP4 ${'9'.repeat(200)}`, 'latin1');
  assert.deepEqual(feed(endless), { kind: 'refused', why: `PROXY v1 line longer than ${V1_MAX_BYTES} bytes` });
  // Byte by byte, the refusal comes at byte 107, not whenever the peer stops.
  const reader = new ProxyPreambleReader(1024);
  let at = 0;
  for (; at < endless.length; at++) if (reader.push(endless.subarray(at, at + 1)).kind === 'refused') break;
  assert.equal(at + 1, V1_MAX_BYTES);
});

test('v2 PROXY over IPv4 and IPv6 names the client; TLVs after the addresses are skipped', () => {
  const four = Buffer.concat([v2(0x21, 0x11, [...IPV4_BLOCK, 0x04, 0x00, 0x01, 0x00]), Buffer.from('rest')]);
  assert.deepEqual(feedBytewise(four), { kind: 'done', source: { address: '203.0.113.7', port: 54321 }, rest: Buffer.alloc(0) });
  assert.deepEqual(feed(four), { kind: 'done', source: { address: '203.0.113.7', port: 54321 }, rest: Buffer.from('rest') });
  const sixBlock = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, ...Array(16).fill(0), 0x01, 0xbb, 0x1f, 0x98];
  assert.deepEqual(feed(v2(0x21, 0x21, sixBlock)), { kind: 'done', source: { address: '2001:db8::7', port: 443 }, rest: Buffer.alloc(0) });
  const mapped = [...Array(10).fill(0), 0xff, 0xff, 198, 51, 100, 9, ...Array(16).fill(0), 0, 80, 0, 80];
  assert.deepEqual(feed(v2(0x21, 0x21, mapped)).kind === 'done' && (feed(v2(0x21, 0x21, mapped)) as { source: unknown }).source, { address: '::ffff:198.51.100.9', port: 80 });
});

test('v2 LOCAL, UNSPEC and UNIX name no client; their address block is skipped', () => {
  assert.deepEqual(feed(Buffer.concat([v2(0x20, 0x11, IPV4_BLOCK), Buffer.from('x')])), { kind: 'done', source: null, rest: Buffer.from('x') });
  assert.deepEqual(feed(v2(0x21, 0x00, [])), { kind: 'done', source: null, rest: Buffer.alloc(0) });
  assert.deepEqual(feed(v2(0x21, 0x31, Array(216).fill(0))), { kind: 'done', source: null, rest: Buffer.alloc(0) });
});

test('malformed v2 headers are refused, each with its reason', () => {
  const cases: [Buffer, RegExp][] = [
    [v2(0x11, 0x11, IPV4_BLOCK), /version 1/],
    [v2(0x22, 0x11, IPV4_BLOCK), /unknown command 2/],
    [v2(0x21, 0x12, IPV4_BLOCK), /transport 2, not a stream/],
    [v2(0x21, 0x11, IPV4_BLOCK.slice(0, 11)), /shorter than 12/],
    [v2(0x21, 0x21, Array(35).fill(0)), /shorter than 36/],
    [v2(0x21, 0x41, IPV4_BLOCK), /family 4/],
  ];
  for (const [bytes, why] of cases) {
    const step = feed(bytes);
    assert.equal(step.kind, 'refused', String(why));
    assert.match(step.kind === 'refused' ? step.why : '', why);
  }
});

test('a v2 preamble longer than proxy-preamble-bytes is refused from its header, before its body is read', () => {
  const header = v2(0x21, 0x11, IPV4_BLOCK).subarray(0, 16);
  header.writeUInt16BE(65535 - 16, 14);
  assert.deepEqual(feed(header, 512), { kind: 'refused', why: 'PROXY v2 preamble of 65535 bytes, more than 512 (limit proxy-preamble-bytes)' });
  assert.equal(feed(v2(0x21, 0x11, [...IPV4_BLOCK, ...Array(100).fill(0)]), 128).kind, 'done');
  assert.equal(feed(v2(0x21, 0x11, [...IPV4_BLOCK, ...Array(101).fill(0)]), 128).kind, 'refused');
});

test('anything but a preamble at the start is refused at its first wrong byte', () => {
  for (const start of ['GET / HTTP/1.1\r\n', 'play clobber x\n', '<protocol>', 'PROXX', '\r\n\r\n\0\r\nQUIT!']) {
    assert.equal(feed(start).kind, 'refused', start);
  }
  assert.equal(feed('PRO').kind, 'more');
  assert.equal(feed(Buffer.from(SIGNATURE.slice(0, 5))).kind, 'more');
});
