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
 *
 * BENCH_GAME names another built-in game: one match of the game's own bots is played first (with
 * `BENCH_ARGS`, JSON, pace 0), and each measured match replays it, each seat sending the lines its
 * bot sent, each once as many lines have come to it as had come to the bot (so the game plays the
 * same match again, with no bot search in the measure). A "round" is then one line a player sent.
 * With BENCH_SCRIPTS (a file), the bots' match is read from that file, or played and written there
 * when there is none yet; measure allocation in a second invocation, so that it counts no search.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { roshambo, type RoshamboConfig } from '../src/games/roshambo/roshambo.js';
import { BUILT_IN_GAMES } from '../src/games/registry.js';
import { InlineCompute } from '../src/match/compute.js';
import type { GameDefinition, MatchSettings } from '../src/match/game.js';
import { playLocalMatch } from '../src/match/local-match.js';
import { Match, lineupOf, transcriptName } from '../src/match/match.js';
import { Random } from '../src/match/random.js';
import type { Seat } from '../src/match/seat.js';
import { SpectatorFeed } from '../src/match/spectator-feed.js';

const env = process.env;
const matches = Number(env['BENCH_MATCHES'] ?? 1000);
const rounds = Number(env['BENCH_ROUNDS'] ?? 200);
const runs = Number(env['BENCH_RUNS'] ?? 5);
/** Runs first and not counted: the first ones pay for compiling the code and growing the heap. */
const warmups = Number(env['BENCH_WARMUP'] ?? 2);

const gameName = env['BENCH_GAME'] ?? 'roshambo';
const benchArgs = JSON.parse(env['BENCH_ARGS'] ?? '{}') as Record<string, string>;

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

/** What a seat's bot sent, each line with how many lines it had received before sending it. */
interface ScriptLine {
  readonly after: number;
  readonly bytes: Buffer;
}

/** One match of `game`'s bots, as each seat's script (from its transcript). */
async function recordScripts(game: GameDefinition<any>, settings: MatchSettings<unknown>): Promise<ScriptLine[][]> {
  const compute = new InlineCompute();
  const players = [0, 1].map((seat) => ({
    name: `bot${seat}`,
    play: (io: Parameters<GameDefinition['playBot']>[0]) => game.playBot(io, settings.config, { seat, random: Random.fromSeed(`bot-${seat}`), compute, timeout: settings.timeout, choice: null }),
  }));
  const record = await playLocalMatch({ game, params: { players: 2, args: settings.args }, players, seed: 'runtime-script' });
  return [0, 1].map((seat) => {
    const script: ScriptLine[] = [];
    let received = 0;
    for (const line of record.outcome.artifacts[transcriptName(seat)]!.split('\n')) {
      const space = line.indexOf(' ');
      if (line.startsWith('< ', space + 1)) received++;
      if (line.startsWith('> ', space + 1)) script.push({ after: received, bytes: Buffer.from(`${line.slice(space + 3)}\n`) });
    }
    return script;
  });
}

/** A player that sends its script, each line once it has received as many lines as the bot had. */
function attachScripted(seat: Seat, script: readonly ScriptLine[]): void {
  let received = 0;
  let next = 0;
  const sendDue = (): void => {
    while (next < script.length && script[next]!.after <= received) seat.receive(script[next++]!.bytes);
  };
  seat.attach({
    send: (bytes) => {
      for (const byte of bytes) if (byte === 0x0a) received++;
      if (next < script.length && script[next]!.after <= received) later(sendDue);
    },
    close: () => {},
  });
  later(sendDue);
}

async function playGame(game: GameDefinition<any>, settings: MatchSettings<unknown>, scripts: ScriptLine[][]): Promise<void> {
  const compute = new InlineCompute();
  await Promise.all(
    Array.from({ length: matches }, (_, index) => {
      const match = new Match({ game, settings, lineup: lineupOf(['bot0', 'bot1'], 0), seed: 'runtime-script', spectators: new SpectatorFeed(), compute });
      match.seats.forEach((seat, index) => attachScripted(seat, scripts[index]!));
      return match.run(async () => {
        match.recordVis();
      });
    }),
  );
}

if (gameName !== 'roshambo') {
  const game = BUILT_IN_GAMES.find((known) => known.name === gameName);
  if (!game) throw new Error(`no built-in game ${gameName}`);
  const configured = game.configure({ players: 2, bots: 0, timeout: null, args: { pace: '0', ...benchArgs } });
  if (!configured.ok) throw new Error(configured.error);
  const file = env['BENCH_SCRIPTS'];
  let scripts: ScriptLine[][];
  if (file && existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { after: number; line: string }[][];
    scripts = kept.map((script) => script.map(({ after, line }) => ({ after, bytes: Buffer.from(line) })));
  } else {
    scripts = await recordScripts(game, configured.value);
    if (file) {
      writeFileSync(file, JSON.stringify(scripts.map((script) => script.map(({ after, bytes }) => ({ after, line: bytes.toString() })))));
      process.stdout.write(`the bots' match is in ${file}: run again to measure\n`);
      process.exit(0);
    }
  }
  const lines = scripts[0]!.length + scripts[1]!.length;
  const figures: number[] = [];
  for (let run = -warmups; run < runs; run++) {
    const before = process.cpuUsage();
    await playGame(game, configured.value, scripts);
    const used = process.cpuUsage(before);
    const micros = (used.user + used.system) / (matches * lines);
    if (run >= 0) figures.push(micros);
    process.stderr.write(`runtime bench ${gameName} ${run < 0 ? 'warm-up' : `#${run + 1}`}: ${micros.toFixed(2)} us of CPU a line a player sent (${matches} matches x ${lines} lines)\n`);
  }
  const sorted = [...figures].sort((a, b) => a - b);
  process.stdout.write(`runtime ${gameName}: ${sorted[0]!.toFixed(2)}-${sorted[sorted.length - 1]!.toFixed(2)} us of CPU a line over ${runs} runs; lines a match: ${lines}\n`);
  process.exit(0);
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
