/**
 * The match runtime's own cost of a round, without sockets (`npm run bench:runtime`): `matches`
 * roshambo matches at pace 0 run in this process through the real Match, Seat, transcripts,
 * spectator feed and visualizer feed, each seat's transport answering every result with its next
 * gesture on the next turn of the event loop, as a closed-loop player does. What a round costs here
 * is what cocod adds to the relay's WebSocket work (bench/relay.ts) for the same round, less the
 * coco connection's framing; it is measured in one process so that a change to the runtime can be
 * compared in seconds, before the socket benchmark says what it is worth on the wire.
 *
 * BENCH_MATCHES (1000) matches of BENCH_ROUNDS (200) rounds, BENCH_RUNS (5) times after
 * BENCH_WARMUP (2) runs that are not counted.
 */
import { roshambo, type RoshamboConfig } from '../src/games/roshambo/roshambo.js';
import { InlineCompute } from '../src/match/compute.js';
import { Match, lineupOf } from '../src/match/match.js';
import type { Seat } from '../src/match/seat.js';
import { SpectatorFeed } from '../src/match/spectator-feed.js';

const env = process.env;
const matches = Number(env['BENCH_MATCHES'] ?? 1000);
const rounds = Number(env['BENCH_ROUNDS'] ?? 200);
const runs = Number(env['BENCH_RUNS'] ?? 5);
/** Runs first and not counted: the first ones pay for compiling the code and growing the heap. */
const warmups = Number(env['BENCH_WARMUP'] ?? 2);

const GESTURES = ['ROCK\n', 'SCISSORS\n'].map((text) => Buffer.from(text));

/**
 * Replies due on the next turn of the event loop: one setImmediate delivers them all, as one poll
 * of the sockets delivers many reads.
 */
let due: (() => void)[] = [];
/** The batch being run, swapped with `due`: no array is made per batch. */
let running: (() => void)[] = [];
function runDue(): void {
  const batch = due;
  due = running;
  running = batch;
  for (let i = 0; i < running.length; i++) running[i]!();
  running.length = 0;
}
function later(reply: () => void): void {
  if (due.length === 0) setImmediate(runDue);
  due.push(reply);
}

/** A player that sends `gesture` after the header and after every result. */
function attachPlayer(seat: Seat, gesture: Buffer, headerLines: number): void {
  let linesSeen = 0;
  const move = (): void => seat.receive(gesture);
  seat.attach({
    send: (bytes) => {
      for (const byte of bytes) {
        if (byte !== 0x0a) continue;
        linesSeen++;
        if (linesSeen >= headerLines) later(move);
      }
    },
    close: () => {},
  });
}

async function playAll(): Promise<void> {
  const configured = roshambo.configure({ players: 2, bots: 0, timeout: null, args: { rounds: String(rounds), pace: '0' } });
  if (!configured.ok) throw new Error(configured.error);
  const compute = new InlineCompute();
  const runsOfMatches = Array.from({ length: matches }, (_, index) => {
    const match = new Match<RoshamboConfig>({
      game: roshambo,
      settings: configured.value,
      lineup: lineupOf([`a${index}`, `b${index}`], 0),
      seed: `runtime-${index}`,
      spectators: new SpectatorFeed(),
      compute,
    });
    match.seats.forEach((seat, index) => attachPlayer(seat, GESTURES[index]!, 3));
    return match.run(async (outcome) => {
      // What the lobby does with a finished match before it is stored.
      match.recordVis();
      if (outcome.result?.scores.join(' ') !== `${rounds} 0`) throw new Error(`wrong result ${JSON.stringify(outcome.result)}`);
    });
  });
  await Promise.all(runsOfMatches);
}

const figures: number[] = [];
for (let run = -warmups; run < runs; run++) {
  const before = process.cpuUsage();
  await playAll();
  const used = process.cpuUsage(before);
  const micros = (used.user + used.system) / (matches * rounds);
  if (run >= 0) figures.push(micros);
  const label = run < 0 ? 'warm-up' : `#${run + 1}`;
  process.stderr.write(`runtime bench ${label}: ${micros.toFixed(2)} us of CPU a round, ${(used.system / (matches * rounds)).toFixed(2)} of it in the kernel (${matches} matches x ${rounds} rounds)\n`);
}
const sorted = [...figures].sort((a, b) => a - b);
process.stdout.write(`runtime: ${sorted[0]!.toFixed(2)}-${sorted[sorted.length - 1]!.toFixed(2)} us of CPU a round over ${runs} runs (median ${sorted[Math.floor(runs / 2)]!.toFixed(2)})\n`);
