/**
 * The replay flood of issue 26: CLIENTS connections loop `VisSubscribe` on one finished roshambo
 * match of ROUNDS rounds, and the server's main thread is watched for stalls
 * (`perf_hooks.monitorEventLoopDelay`). The server runs in this process, the clients on a worker
 * thread, so that the delays measured are the server's own.
 *
 *   node dist/bench/vis-replay-flood.js [SECONDS=20] [CLIENTS=4] [ROUNDS=9999] [REPLAYS_PER_ADDRESS]
 *
 * All clients come from 127.0.0.1: with the default `replays-per-address` (2) the others are
 * refused and ask again 10 ms later; REPLAYS_PER_ADDRESS lets them all replay at once.
 *
 * The recorded match is kept in $TMPDIR/vis-replay-flood-ROUNDS.json after the first run (playing
 * 9,999 rounds takes a while). Prints one JSON line: the longest stall and the 99th percentile in
 * ms, replays completed and refused, and how long a GameList took while the flood ran.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { FLOOD_MATCH_ID, floodRecord } from './flood-record.js';
import { roshambo } from '../src/games/roshambo/roshambo.js';
import { AddressLimits } from '../src/gateways/address-limits.js';
import { PeerAddresses } from '../src/gateways/peer-addresses.js';
import { DEFAULT_LIMITS } from '../src/gateways/server-limits.js';
import { CocoServer } from '../src/gateways/server.js';
import { Lobby } from '../src/lobby/lobby.js';
import { InlineCompute } from '../src/match/compute.js';
import { playLocalMatch } from '../src/match/local-match.js';
import { MemoryHistoryStore } from '../src/store/memory-history-store.js';
import { systemClock } from '../src/util/clock.js';
import { silentLog } from '../src/util/log.js';
import { nameDesk } from '../src/names/name-desk.js';
import { StoredNameClaims } from '../src/names/name-claims.js';


interface ClientJob {
  readonly url: string;
  readonly clients: number;
  readonly seconds: number;
}

interface ClientReport {
  readonly completed: number;
  readonly refused: number;
  /** Milliseconds of each GameList asked for meanwhile by a client of its own. */
  readonly gameListMs: number[];
}

/** The stored visualizer events of a roshambo match of `rounds` rounds between two server bots. */
async function recordedVis(rounds: number): Promise<string> {
  const cached = join(tmpdir(), `vis-replay-flood-${rounds}.json`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  const record = await playLocalMatch({ game: roshambo, params: { bots: 2, args: { rounds: String(rounds), pace: '0' } }, players: [], seed: 'flood' });
  // JSON.stringify of the parsed events: the record's own text (the store keeps JSON.stringify's form).
  const json = JSON.stringify(record.vis);
  writeFileSync(cached, json);
  return json;
}

async function main(): Promise<void> {
  const [seconds = 20, clients = 4, rounds = 9999, perAddress] = process.argv.slice(2).map(Number);
  const limits = { ...DEFAULT_LIMITS, ...(perAddress !== undefined && { 'replays-per-address': perAddress }) };
  const visJson = await recordedVis(rounds);
  const store = new MemoryHistoryStore();
  await store.record(floodRecord(rounds, visJson));
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master' });
  const server = new CocoServer({
    lobby,
    store,
    host: '127.0.0.1',
    port: 0,
    webRoot: fileURLToPath(new URL('../web', import.meta.url)),
    log: silentLog,
    limits,
    clock: systemClock,
    addresses: new AddressLimits(limits, systemClock),
    names: nameDesk(new StoredNameClaims(store), limits, systemClock, 'master'),
    peers: PeerAddresses.direct(),
  });
  const address = await server.listen();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const job: ClientJob = { url: `ws://127.0.0.1:${address.port}`, clients, seconds };
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: job });
  const report = await new Promise<ClientReport>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  delay.disable();
  await worker.terminate();
  const closing = performance.now();
  await server.close();
  const gameList = [...report.gameListMs].sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      rounds,
      visBytes: Buffer.byteLength(visJson),
      clients,
      replaysPerAddress: limits['replays-per-address'],
      seconds,
      maxStallMs: Math.round(delay.max / 1e6),
      p99StallMs: Math.round(delay.percentile(99) / 1e6),
      replaysCompleted: report.completed,
      replaysRefused: report.refused,
      gameListMaxMs: Math.round(gameList.at(-1) ?? Number.NaN),
      gameListMedianMs: Math.round(gameList[Math.floor(gameList.length / 2)] ?? Number.NaN),
      closeMs: Math.round(performance.now() - closing),
    })}\n`,
  );
}

/** One client connection: the Handshake, then `onText` for every text frame. */
function open(url: string, onText: (ws: WebSocket, text: string) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ Handshake: { magic: 'coco', version: 2 } })));
    let shaken = false;
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = (data as Buffer).toString('utf8', 0, 40);
      if (!shaken) {
        shaken = true;
        return resolve(ws);
      }
      onText(ws, text);
    });
  });
}

/** The worker: the flooding clients and one client measuring GameList. */
async function flood(job: ClientJob): Promise<ClientReport> {
  let completed = 0;
  let refused = 0;
  let running = true;
  const subscribe = (ws: WebSocket): void => {
    if (running) ws.send(JSON.stringify({ VisSubscribe: { id: FLOOD_MATCH_ID } }));
  };
  const floods = await Promise.all(
    Array.from({ length: job.clients }, () =>
      open(job.url, (ws, text) => {
        if (text.startsWith('{"VisEnded"')) {
          completed++;
          subscribe(ws);
        } else if (text.startsWith('{"VisSubscribed":{"info":{"Err"')) {
          refused++;
          setTimeout(() => subscribe(ws), 10);
        }
      }),
    ),
  );
  for (const ws of floods) subscribe(ws);
  const gameListMs: number[] = [];
  let asked = 0;
  const probe = await open(job.url, () => {
    gameListMs.push(performance.now() - asked);
    if (running) setTimeout(ask, 100);
  });
  const ask = (): void => {
    asked = performance.now();
    probe.send(JSON.stringify({ GameList: {} }));
  };
  ask();
  await new Promise((resolve) => setTimeout(resolve, job.seconds * 1000));
  running = false;
  for (const ws of [...floods, probe]) ws.terminate();
  return { completed, refused, gameListMs };
}

if (isMainThread) {
  await main();
} else {
  parentPort!.postMessage(await flood(workerData as ClientJob));
}
