/**
 * SIGTERM during a replay flood (issue 26): cocod runs as a child process over a SQLite history
 * holding one finished roshambo match of ROUNDS rounds (the record of bench/vis-replay-flood.ts,
 * which must have run once), CLIENTS connections loop `VisSubscribe` on it for FLOOD seconds, then
 * the server gets SIGTERM while they go on. Prints one JSON line: how long cocod took to exit, its
 * exit status, and its `shutdown-seconds` deadline (10).
 *
 *   node dist/bench/vis-replay-sigterm.js [FLOOD=5] [CLIENTS=4] [ROUNDS=9999]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { FLOOD_MATCH_ID, floodRecord } from './flood-record.js';
import { SqliteHistoryStore } from '../src/store/sqlite-history-store.js';


function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  const [flood = 5, clients = 4, rounds = 9999] = process.argv.slice(2).map(Number);
  const visJson = readFileSync(join(tmpdir(), `vis-replay-flood-${rounds}.json`), 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'vis-sigterm-'));
  const database = join(dir, 'history.sqlite');
  const store = await SqliteHistoryStore.open(database);
  await store.record(floodRecord(rounds, visJson));
  await store.close();
  const port = await freePort();
  const cocod = spawn(process.execPath, [fileURLToPath(new URL('../src/cli/cocod.js', import.meta.url)), '-p', String(port), '-d', database, '-v', 'master'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => cocod.once('exit', (code) => resolve(code)));
  // Wait until it listens.
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}`);
      ws.once('open', () => (ws.terminate(), resolve(true)));
      ws.once('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let completed = 0;
  const sockets = Array.from({ length: clients }, () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    const subscribe = (): void => void (ws.readyState === ws.OPEN && ws.send(JSON.stringify({ VisSubscribe: { id: FLOOD_MATCH_ID } })));
    ws.on('open', () => ws.send(JSON.stringify({ Handshake: { magic: 'coco', version: 2 } })));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const head = (data as Buffer).toString('utf8', 0, 40);
      if (head.startsWith('{"Handshake"')) subscribe();
      else if (head.startsWith('{"VisEnded"')) (completed++, subscribe());
      else if (head.startsWith('{"VisSubscribed":{"info":{"Err"')) setTimeout(subscribe, 10);
    });
    ws.on('error', () => {});
    return ws;
  });
  await new Promise((resolve) => setTimeout(resolve, flood * 1000));
  const signalled = performance.now();
  cocod.kill('SIGTERM');
  const status = await exited;
  const exitSeconds = (performance.now() - signalled) / 1000;
  for (const ws of sockets) ws.terminate();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ rounds, clients, floodSeconds: flood, replaysCompleted: completed, exitSeconds: Number(exitSeconds.toFixed(2)), status, deadlineSeconds: 10 })}\n`);
}

await main();
