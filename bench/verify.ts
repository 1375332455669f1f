/**
 * The benchmark checks what it measured: a server that drops rounds, garbles a stream or loses a
 * record under load would otherwise look fast. After a run against cocod, every match must be in
 * the history with the result its players' fixed gestures make (bench/players.ts and
 * open-loop-players.ts: the player named p1 always shows the gesture that beats p0's, so p1 scores
 * every round and p0 none), and each spectator's bytes (bench/spectators.ts) must be the record's
 * spectator stream, byte for byte. Any difference fails the run with the match ids.
 */
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { apiUrl } from '../src/cli/match-record.js';
import { here, sleep, spawnBenchChild } from './server.js';

export interface Watched {
  readonly id: string;
  readonly sha256: string;
  readonly bytes: number;
}

export interface Verification {
  /** Matches whose record was read and checked. */
  readonly matches: number;
  /** Of those, the ones a spectator watched and whose stream was compared. */
  readonly spectated: number;
}

/** Every `every`-th match (the first, then every `every`-th after it); none when `every` is 0. */
export function spectatedIds(ids: readonly string[], every: number): string[] {
  return every > 0 ? ids.filter((_, i) => i % every === 0) : [];
}

export interface Spectators {
  /** Every spectator has joined its match. */
  readonly ready: Promise<void>;
  /** What each received, once every watched match has ended. */
  readonly done: Promise<Watched[]>;
  readonly child: ChildProcess;
}

/** Starts bench/spectators.ts on `ids` (its own process, so that its work is not the players'). */
export function startSpectators(url: string, ids: readonly string[]): Spectators {
  const child = spawnBenchChild(process.execPath, [join(here, 'spectators.js'), url, ids.join(',')], ['ignore', 'pipe', 'inherit']);
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.startsWith('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the spectator process exited with ${code} before its matches started`)));
  });
  const done = new Promise<Watched[]>((resolve, reject) => {
    // 'close', not 'exit': the process may exit before its last output has been read.
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`the spectator process failed with ${code}`));
      try {
        resolve(JSON.parse(output.slice('ready\n'.length)) as Watched[]);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
  ready.catch(() => {});
  done.catch(() => {});
  return { ready, done, child };
}

interface Record {
  readonly players: readonly string[];
  readonly scores: readonly number[] | null;
  readonly reason: string;
  readonly spectator_stream: string;
}

/** How long a match's record may take to reach the history after its end (records are written in batches). */
const RECORD_WAIT_MS = 60_000;
/** Records read at once. */
const READERS = 8;

async function readRecord(url: string, id: string): Promise<Record> {
  const deadline = Date.now() + RECORD_WAIT_MS;
  for (;;) {
    const response = await fetch(apiUrl(url, `/api/history/${encodeURIComponent(id)}`));
    if (response.ok) return (await response.json()) as Record;
    await response.body?.cancel();
    if (response.status !== 404 || Date.now() > deadline) throw new Error(`match ${id}: no record (HTTP ${response.status})`);
    await sleep(200);
  }
}

/** What is wrong with one match's record, or null. */
function recordProblem(record: Record, rounds: number, watched: Watched | undefined): string | null {
  const seat0 = record.players.indexOf('p0');
  const seat1 = record.players.indexOf('p1');
  if (seat0 < 0 || seat1 < 0) return `players ${JSON.stringify(record.players)}`;
  if (record.scores === null || record.scores[seat1] !== rounds || record.scores[seat0] !== 0) {
    return `scores ${JSON.stringify(record.scores)} for ${JSON.stringify(record.players)} (expected p1 ${rounds}, p0 0; reason "${record.reason}")`;
  }
  if (watched) {
    const stream = Buffer.from(record.spectator_stream, 'utf8');
    const sha256 = createHash('sha256').update(stream).digest('hex');
    if (sha256 !== watched.sha256) return `the spectator received ${watched.bytes} bytes that differ from the record's ${stream.length}`;
  }
  return null;
}

/** Reads every match's record from cocod and checks it; throws with the first problems found. */
export async function verifyMatches(url: string, ids: readonly string[], rounds: number, watched: readonly Watched[]): Promise<Verification> {
  const byId = new Map(watched.map((entry) => [entry.id, entry]));
  const problems: string[] = [];
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const problem = recordProblem(await readRecord(url, id), rounds, byId.get(id));
      if (problem) problems.push(`${id}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: READERS }, reader));
  if (problems.length > 0) throw new Error(`${problems.length} of ${ids.length} matches are wrong:\n${problems.slice(0, 10).join('\n')}`);
  return { matches: ids.length, spectated: watched.length };
}
