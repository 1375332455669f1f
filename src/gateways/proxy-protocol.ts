import { isIPv4, isIPv6 } from 'node:net';

/**
 * The PROXY protocol (HAProxy's `send-proxy` and `send-proxy-v2`, spec: haproxy.org
 * doc/proxy-protocol.txt): a balancer that relays a TCP connection first sends one preamble naming
 * the client it relays. This is a strict reader of it, fed with the connection's first chunks.
 *
 * Written here rather than taken from npm: the packages either own the server (they wrap
 * `net.Server` and replace its 'connection' event, which the HTTP server and the game ports here
 * cannot give up) or, like proxy-protocol-js, decode a preamble already cut out of the stream:
 * finding its end in chunks as they come, with the size caps, is most of the work anyway, and a
 * new dependency would need an install this change cannot make. A strict reader is two small
 * state machines.
 */

/** The client a preamble names; null when it names none (LOCAL, UNKNOWN, UNSPEC, UNIX): the connection is the balancer's own. */
export type ProxySource = { readonly address: string; readonly port: number } | null;

export type PreambleStep =
  | { readonly kind: 'more' }
  /** `rest`: the bytes after the preamble, the start of the relayed stream. */
  | { readonly kind: 'done'; readonly source: ProxySource; readonly rest: Buffer }
  | { readonly kind: 'refused'; readonly why: string };

/** The longest v1 line the spec allows, "\r\n" included. */
export const V1_MAX_BYTES = 107;
const V1_PREFIX = Buffer.from('PROXY ', 'latin1');
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const V2_HEADER_BYTES = 16;
const PORT = /^(0|[1-9]\d{0,4})$/;

/**
 * Reads one PROXY v1 or v2 preamble from the start of a stream. Anything else at the start (a peer
 * that sends no preamble) is refused: a balancer that is trusted to name its clients always sends
 * one, and guessing would let a client behind a balancer that sends none name itself.
 */
export class ProxyPreambleReader {
  private received: Buffer = Buffer.alloc(0);

  /** `maxBytes`: the longest v2 preamble accepted (limit proxy-preamble-bytes); v1 has its own 107. */
  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): PreambleStep {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const bytes = this.received;
    const v1 = startsLike(bytes, V1_PREFIX);
    const v2 = startsLike(bytes, V2_SIGNATURE);
    if (!v1 && !v2) return refused('no PROXY protocol preamble at the start of the connection');
    return v1 ? readV1(bytes) : readV2(bytes, this.maxBytes);
  }
}

/** Whether `bytes` so far agree with `prefix` (all of it, or as much of it as has come). */
function startsLike(bytes: Buffer, prefix: Buffer): boolean {
  const n = Math.min(bytes.length, prefix.length);
  return bytes.subarray(0, n).equals(prefix.subarray(0, n));
}

function refused(why: string): PreambleStep {
  return { kind: 'refused', why };
}

function readV1(bytes: Buffer): PreambleStep {
  const end = bytes.subarray(0, V1_MAX_BYTES).indexOf('\r\n', 0, 'latin1');
  if (end === -1) return bytes.length >= V1_MAX_BYTES ? refused(`PROXY v1 line longer than ${V1_MAX_BYTES} bytes`) : { kind: 'more' };
  const rest = bytes.subarray(end + 2);
  const line = bytes.subarray(0, end).toString('latin1');
  const fields = line.split(' ');
  if (fields[1] === 'UNKNOWN') return { kind: 'done', source: null, rest };
  if (fields.length !== 6) return refused(`malformed PROXY v1 line ${JSON.stringify(line)}`);
  const [, family, source, destination, sourcePort, destinationPort] = fields as [string, string, string, string, string, string];
  const isFamily = family === 'TCP4' ? isIPv4 : family === 'TCP6' ? isIPv6 : null;
  if (isFamily === null) return refused(`PROXY v1 family ${JSON.stringify(family)} is not TCP4, TCP6 or UNKNOWN`);
  if (!isFamily(source) || !isFamily(destination)) return refused(`PROXY v1 addresses are not ${family}: ${JSON.stringify(line)}`);
  const port = parsePort(sourcePort);
  if (port === null || parsePort(destinationPort) === null) return refused(`PROXY v1 ports are not 0-65535: ${JSON.stringify(line)}`);
  return { kind: 'done', source: { address: source, port }, rest };
}

function parsePort(text: string): number | null {
  if (!PORT.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}

function readV2(bytes: Buffer, maxBytes: number): PreambleStep {
  if (bytes.length < V2_HEADER_BYTES) return { kind: 'more' };
  const versionCommand = bytes[12]!;
  if (versionCommand >> 4 !== 2) return refused(`PROXY v2 header with version ${versionCommand >> 4}`);
  const command = versionCommand & 0x0f;
  if (command > 1) return refused(`PROXY v2 header with unknown command ${command}`);
  const length = bytes.readUInt16BE(14);
  const total = V2_HEADER_BYTES + length;
  if (total > maxBytes) return refused(`PROXY v2 preamble of ${total} bytes, more than ${maxBytes} (limit proxy-preamble-bytes)`);
  if (bytes.length < total) return { kind: 'more' };
  const rest = bytes.subarray(total);
  // LOCAL: the balancer's own connection (a health check); the address block is to be ignored.
  if (command === 0) return { kind: 'done', source: null, rest };
  const family = bytes[13]! >> 4;
  const transport = bytes[13]! & 0x0f;
  const block = bytes.subarray(V2_HEADER_BYTES, total);
  if (family === 0 || family === 3) return { kind: 'done', source: null, rest };
  if (transport !== 1) return refused(`PROXY v2 header for transport ${transport}, not a stream`);
  if (family === 1) {
    if (block.length < 12) return refused('PROXY v2 IPv4 address block shorter than 12 bytes');
    return { kind: 'done', source: { address: [...block.subarray(0, 4)].join('.'), port: block.readUInt16BE(8) }, rest };
  }
  if (family === 2) {
    if (block.length < 36) return refused('PROXY v2 IPv6 address block shorter than 36 bytes');
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(block.readUInt16BE(i).toString(16));
    return { kind: 'done', source: { address: compactIPv6(groups), port: block.readUInt16BE(32) }, rest };
  }
  return refused(`PROXY v2 header with unknown address family ${family}`);
}

/** The usual text form of an IPv6 address (the longest run of zero groups as "::"), as Node reports peers. */
function compactIPv6(groups: readonly string[]): string {
  // An IPv4 client of an IPv6 balancer: the form Node gives such a peer, which addressKey counts as IPv4.
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const low = (g: string): string => { const n = parseInt(g, 16); return `${n >> 8}.${n & 0xff}`; };
    return `::ffff:${low(groups[6]!)}.${low(groups[7]!)}`;
  }
  let best = { start: -1, length: 0 };
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > best.length && j - i > 1) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start === -1) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}
