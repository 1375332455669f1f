/**
 * The players of the open-loop benchmark, in a process of their own: two WebSocket clients per
 * match, sending gestures on a fixed schedule whatever the server does.
 *
 * argv: URL IDS ROUNDS RATE (IDS comma-separated, RATE rounds per second for this process's
 * matches together). Protocol with bench/open-loop.ts: once every match has started (both seats
 * have the header lines) the process prints `ready`; it then waits for `go EPOCH_MS` on stdin, the
 * wall-clock start of the schedule shared by all player processes, and prints one JSON line of
 * results when every match has ended.
 *
 * The schedule: round slots are spread evenly over time, slot s (match s mod M, round s div M + 1)
 * at start + s / RATE, so each match plays RATE / M rounds a second and the matches take turns
 * instead of all sending at once. At its slot, both players of the match send their gesture for
 * that round, even if earlier rounds are still unanswered: the server reads a seat's lines in
 * order (cocod buffers them; the relay queues them), so a server that falls behind sees a growing
 * queue, as it would with independent clients. A round's latency is measured by the first player
 * from the round's scheduled time to the moment it reads that round's result: time the server
 * makes the round wait behind earlier ones counts (no coordinated omission), and so does any
 * lateness of this process itself, which is reported on its own as the send lag.
 */
import WebSocket from 'ws';
import { percentiles } from './report.js';

const [url, idList, roundsText, rateText] = process.argv.slice(2) as [string, string, string, string];
const ids = idList.split(',');
const rounds = Number(roundsText);
const rate = Number(rateText);
const matches = ids.length;
const slots = matches * rounds;
const GESTURES = ['ROCK', 'PAPER', 'SCISSORS'].map((gesture) => Buffer.from(`${gesture}\n`));
/** ms between two slots */
const spacing = 1000 / rate;

/** performance.now() at the start of the schedule, known once `go` has come. */
let start = Number.NaN;
const scheduled = (match: number, round: number): number => start + ((round - 1) * matches + match) * spacing;

/** Per measured round: latency (ms) and scheduled time (s since the start). */
const latencies: number[] = [];
const scheduledAt: number[] = [];
/** How late each slot was sent (ms): this process's own lateness. */
const sendLag = new Float64Array(slots);
let lastResultAt = 0;

const sockets: [WebSocket, WebSocket][] = [];
let started = 0;
let ended = 0;

function fail(message: string): never {
  process.stderr.write(`open-loop players: ${message}\n`);
  process.exit(1);
}

function connect(match: number, seat: 0 | 1): WebSocket {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let buffered = '';
  let lines = 0;
  ws.on('open', () => {
    ws.send('{"Handshake":{"magic":"coco","version":2}}');
    ws.send(`{"LobbyJoinMatch":{"id":"${ids[match]}","name":"p${seat}","password":null}}`);
  });
  ws.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) {
      const text = data.toString();
      if (text.startsWith('{"MatchEnded"')) {
        ws.close();
        if (++ended === 2 * matches) finish();
      } else if (text.includes('"Err"')) fail(text);
      return;
    }
    buffered += data.toString();
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      buffered = buffered.slice(newline + 1);
      lines++;
      // Three header lines (the two names and the number of rounds), then one result a round.
      if (lines === 3) {
        if (++started === 2 * matches) process.stdout.write('ready\n');
      } else if (lines > 3 && seat === 0) {
        const round = lines - 3;
        const now = performance.now();
        latencies.push(now - scheduled(match, round));
        scheduledAt.push((scheduled(match, round) - start) / 1000);
        lastResultAt = now - start;
      }
    }
  });
  ws.on('error', (error) => fail(error.message));
  return ws;
}

let nextSlot = 0;
function pump(): void {
  const now = performance.now();
  const due = Math.min(slots, Math.floor((now - start) / spacing) + 1);
  for (; nextSlot < due; nextSlot++) {
    const match = nextSlot % matches;
    const round = Math.floor(nextSlot / matches) + 1;
    const [first, second] = sockets[match]!;
    first.send(GESTURES[round % 3]!, { binary: true });
    second.send(GESTURES[(round + 1) % 3]!, { binary: true });
    sendLag[nextSlot] = now - scheduled(match, round);
  }
  if (nextSlot < slots) setTimeout(pump, Math.max(0, start + nextSlot * spacing - performance.now()));
}

/** Three decimals are enough (ms: microseconds; s: milliseconds) and keep the output small. */
const micros = (value: number): number => Math.round(value * 1000) / 1000;

let cpuAtStart = process.cpuUsage();
function finish(): void {
  const cpu = process.cpuUsage(cpuAtStart);
  const lag = percentiles(Array.from(sendLag));
  const result = { roundsPlayed: latencies.length, lastResultAt, cpuSeconds: (cpu.user + cpu.system) / 1e6, sendLagMs: lag, latencies: latencies.map(micros), scheduledAt: scheduledAt.map(micros) };
  // A pipe is written asynchronously: exit only once the whole line is out.
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

for (let match = 0; match < matches; match++) sockets.push([connect(match, 0), connect(match, 1)]);
let input = '';
process.stdin.on('data', (chunk: Buffer) => {
  input += chunk.toString();
  const go = /^go (\d+)\n/.exec(input);
  if (!go || !Number.isNaN(start)) return;
  // The wall-clock start, shared by all player processes, on this process's monotonic clock.
  start = performance.now() + (Number(go[1]) - Date.now());
  cpuAtStart = process.cpuUsage();
  setTimeout(pump, Math.max(0, start - performance.now()));
});
