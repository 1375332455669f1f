/**
 * Holds idle WebSocket connections for the memory benchmark, in a process of its own.
 *
 * argv: URL COUNT HANDSHAKE CONCURRENCY. Opens COUNT connections, at most CONCURRENCY at a time
 * (10,000 at once would overflow the server's accept queue and wait out SYN retransmissions);
 * with HANDSHAKE=1 each sends the coco Handshake and counts as open once the server answered it
 * (cocod closes a connection without one after `handshake-seconds`). Prints `open N` when all
 * are; then, for each `count` line on stdin, `alive N` (connections still open, so the
 * orchestrator knows the server kept them all); exits when stdin ends. Pings are answered by `ws`
 * itself, so cocod's heartbeat keeps the connections.
 */
import WebSocket from 'ws';

const [url, countText, handshakeText, concurrencyText] = process.argv.slice(2) as [string, string, string, string];
const count = Number(countText);
const handshake = handshakeText === '1';
const concurrency = Number(concurrencyText);
const sockets: WebSocket[] = [];
let alive = 0;

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let counted = false;
    const ready = (): void => {
      counted = true;
      alive++;
      resolve();
    };
    ws.on('open', () => {
      if (!handshake) return ready();
      ws.send('{"Handshake":{"magic":"coco","version":2}}');
    });
    ws.on('message', (data: Buffer, isBinary) => {
      if (!counted && !isBinary && data.toString().startsWith('{"Handshake"')) ready();
    });
    ws.on('close', () => {
      if (counted) alive--;
      else reject(new Error('the server closed a connection before it was open'));
    });
    ws.on('error', (error) => {
      if (!counted) reject(error);
    });
    sockets.push(ws);
  });
}

let next = 0;
const worker = async (): Promise<void> => {
  while (next < count) {
    next++;
    await open();
  }
};
try {
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
} catch (error) {
  process.stderr.write(`idle clients: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
process.stdout.write(`open ${alive}\n`);
process.stdin.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) if (line === 'count') process.stdout.write(`alive ${alive}\n`);
});
process.stdin.on('end', () => process.exit(0));
