/**
 * `BENCH_MODE=tournament npm run bench`: how many matches a second the server's own tournaments
 * play, a round robin of roshambo's server bots (fast: no search, pace 0), at each concurrency of
 * BENCH_CONCURRENCY. Each run starts a fresh cocod, creates the tournament over HTTP, follows it
 * with long polls until it is over, and takes the server's own creation and end times. Runs
 * alternate between the concurrencies (1, 4, 16, 1, 4, 16, ...) so that each sees the same machine.
 *
 * Options (environment):
 *   BENCH_RUNS                    runs at each concurrency (default 3)
 *   BENCH_CONCURRENCY             concurrencies (default 1,4,16)
 *   BENCH_TOURNAMENT_ENTRANTS     entrants (default 8: 56 matches a round)
 *   BENCH_TOURNAMENT_ROUNDS       round-robin rounds (default 4: 224 matches)
 *   BENCH_TOURNAMENT_GAME_ROUNDS  roshambo rounds of each match (default 10)
 */
import { cpus, loadavg } from 'node:os';
import { execFileSync } from 'node:child_process';
import { markdownTable, range } from './report.js';
import { startServer, type ServerSetup } from './server.js';

interface TournamentRun {
  readonly concurrency: number;
  readonly repetition: number;
  readonly matches: number;
  readonly seconds: number;
  readonly matchesPerSecond: number;
}

function integers(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  return text.split(',').map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be positive integers separated by commas, not "${text}"`);
    return value;
  });
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** One tournament on a fresh server: its matches and the server's time from creation to end. */
async function once(setup: ServerSetup, concurrency: number, entrants: number, rounds: number, gameRounds: number, repetition: number): Promise<TournamentRun> {
  const server = await startServer({ kind: 'cocod' }, setup, { limits: { 'tournament-concurrency': Math.max(16, concurrency) } });
  try {
    const base = server.url.replace(/^ws:/, 'http:').replace(/\/$/, '');
    const created = await json(`${base}/api/tournaments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        game: 'roshambo',
        password: 'bench',
        rounds,
        concurrency,
        entrants: Array.from({ length: entrants }, (_, i) => ({ name: `bot${i}`, bot: null })),
        args: { rounds: String(gameRounds), pace: '0' },
      }),
    });
    if (created.status !== 201) throw new Error(`the server refused the tournament: ${JSON.stringify(created.body)}`);
    let view = created.body;
    while (view['state'] === 'running') view = (await json(`${base}/api/tournaments/${String(view['id'])}?after=${String(view['version'])}`)).body;
    if (view['state'] !== 'finished') throw new Error(`the tournament ${String(view['state'])}: ${String(view['error'])}`);
    const matches = (view['results'] as unknown[]).length;
    const seconds = ((view['ended_at'] as number) - (view['created_at'] as number)) / 1000;
    return { concurrency, repetition, matches, seconds, matchesPerSecond: matches / seconds };
  } finally {
    await server.stop();
  }
}

/** Runs the measurement and prints a Markdown report (or JSON with BENCH_JSON=1). */
export async function tournamentBench(env: NodeJS.ProcessEnv, setup: ServerSetup): Promise<void> {
  const [runs = 3] = integers(env, 'BENCH_RUNS', [3]);
  const concurrencies = integers(env, 'BENCH_CONCURRENCY', [1, 4, 16]);
  const [entrants = 8] = integers(env, 'BENCH_TOURNAMENT_ENTRANTS', [8]);
  const [rounds = 4] = integers(env, 'BENCH_TOURNAMENT_ROUNDS', [4]);
  const [gameRounds = 10] = integers(env, 'BENCH_TOURNAMENT_GAME_ROUNDS', [10]);
  const started = new Date();
  const uptimeAtStart = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const done: TournamentRun[] = [];
  for (let repetition = 1; repetition <= runs; repetition++) {
    for (const concurrency of concurrencies) {
      process.stderr.write(`bench: tournament #${repetition}, concurrency ${concurrency} ...\n`);
      const run = await once(setup, concurrency, entrants, rounds, gameRounds, repetition);
      process.stderr.write(`bench: tournament #${repetition}, concurrency ${concurrency}: ${run.matches} matches in ${run.seconds.toFixed(2)} s, ${run.matchesPerSecond.toFixed(1)} matches/s\n`);
      done.push(run);
    }
  }
  const uptimeAtEnd = execFileSync('uptime', { encoding: 'utf8' }).trim();
  if (env['BENCH_JSON'] === '1') {
    process.stdout.write(`${JSON.stringify({ started: started.toISOString(), cores: cpus().length, node: process.version, uptimeAtStart, uptimeAtEnd, entrants, rounds, gameRounds, runs: done }, null, 2)}\n`);
    return;
  }
  const rows = done.map((r) => [String(r.repetition), String(r.concurrency), String(r.matches), r.seconds.toFixed(2), r.matchesPerSecond.toFixed(1)]);
  const summary = concurrencies.map((k) => {
    const mine = done.filter((r) => r.concurrency === k);
    return [String(k), range(mine.map((r) => r.matchesPerSecond), 1), range(mine.map((r) => r.seconds), 2)];
  });
  process.stdout.write(
    [
      `cocod server tournaments, ${started.toISOString()}: ${cpus().length} cores, Node.js ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`,
      `uptime at the start: ${uptimeAtStart}`,
      `uptime at the end: ${uptimeAtEnd}`,
      `round robin of ${entrants} roshambo server bots, ${rounds} round(s): ${entrants * (entrants - 1) * rounds} matches of ${gameRounds} roshambo rounds at pace 0`,
      '',
      markdownTable(['run', 'concurrency', 'matches', 'seconds', 'matches/s'], rows),
      '',
      markdownTable(['concurrency', 'matches/s (range)', 'seconds (range)'], summary),
      '',
    ].join('\n'),
  );
}
