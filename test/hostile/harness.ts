import { Random } from '../../src/match/random.js';
import { NEWCOMER, legitAddress } from './addresses.js';
import type { Attack, AttackContext, Door } from './attack.js';
import { check, logChecks, type Check } from './checks.js';
import { http } from './http-client.js';
import { LegitSession } from './legit.js';
import { LobbyWatch } from './lobby-watch.js';
import { Net } from './net.js';
import { RssSampler } from './rss.js';
import { HostileServer, type Exit } from './server.js';

/**
 * The server's resident memory must stay under this whatever a client does ("a few hundred MiB"):
 * the worst measured is two 16 MiB replay logs imported at once, about 440 MiB.
 */
export const RSS_BOUND_MIB = 512;

export interface RunOptions {
  readonly seed: string;
  /** 1 in `npm test`; larger in the fuzz run. */
  readonly budget: number;
  /** Rounds of each legitimate match. */
  readonly legitRounds: number;
  /** Legitimate matches back to back during the whole attack (fuzz: measures stalls). */
  readonly chain: boolean;
  /**
   * The fuzz run's safety net: an attack still going after this long is stopped and reported as a
   * hang. Tests leave it out and rely on node:test's timeout.
   */
  readonly capMs?: number;
}

export interface AttackReport {
  readonly attack: string;
  readonly door: Door;
  readonly seed: string;
  readonly budget: number;
  readonly inputs: number;
  /** How the server process ended during the run, if it did. */
  readonly exit: Exit | null;
  /** The attack ended the server on purpose (an exit is then no crash). */
  readonly stopsServer: boolean;
  readonly peakRssMiB: number;
  /** Largest gap between two rounds the legitimate match received during the attack. */
  readonly worstStallMs: number;
  readonly legitMatches: number;
  readonly checks: readonly Check[];
  readonly notes: readonly string[];
  readonly durationMs: number;
}

export const failed = (report: AttackReport): Check[] => report.checks.filter((c) => !c.ok);

/** Cleanups of runs under way, for `releaseAll` (a test's `after`, even when the test timed out). */
const live = new Set<() => Promise<void>>();

/** Stops every server and closes every connection of runs still under way. */
export async function releaseAll(): Promise<void> {
  await Promise.all([...live].map((release) => release()));
}

const LEGIT_CHECK = 'the legitimate match beside the attack ended with its known result (stream and history)';

const NEWCOMER_CHECK = 'a newcomer from another address can create and play a match';

const CAPPED = Symbol('capped');

/** Resolves with `promise`, or CAPPED after `ms` (never, without `ms`). */
function capped<T>(promise: Promise<T>, ms: number | undefined): Promise<T | typeof CAPPED> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<typeof CAPPED>((resolve) => (timer = setTimeout(() => resolve(CAPPED), ms)));
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}

/**
 * One attack against a fresh server: a legitimate match starts first, the attack runs, the match
 * finishes, and then every invariant is checked: the server is alive, the match ended with its
 * known result, a newcomer can create and play a match, the server's memory stayed bounded, its
 * log holds no attempted password and no line a client forged, and the attack's own checks.
 */
export async function runAttack(attack: Attack, options: RunOptions): Promise<AttackReport> {
  const began = performance.now();
  const server = await HostileServer.start();
  const net = new Net();
  let sampler: RssSampler | null = null;
  let watch: LobbyWatch | null = null;
  const release = async (): Promise<void> => {
    sampler?.stop();
    watch?.close();
    net.closeAll();
    await server.stop();
  };
  live.add(release);
  const checks: Check[] = [];
  const notes: string[] = [];
  let inputs = 0;
  try {
    sampler = new RssSampler(server.pid);
    watch = await LobbyWatch.open(net, server.url);
    const legit = await LegitSession.start({
      net,
      url: server.url,
      httpPort: server.wsPort,
      watch,
      rounds: options.legitRounds,
      chain: options.chain,
      address: legitAddress,
      label: 'legit',
    });
    const random = Random.fromSeed(`${options.seed}:${attack.name}`);
    const context: AttackContext = {
      server,
      net,
      random,
      budget: options.budget,
      legitId: legit.currentId,
      watch,
      scale: (base, max = Number.POSITIVE_INFINITY) => Math.max(1, Math.min(max, Math.round(base * options.budget))),
      tried: (count = 1) => void (inputs += count),
      check: (name, ok, detail = '') => void checks.push(check(name, ok, detail)),
      note: (text) => void notes.push(text),
    };
    const attackStarted = performance.now();
    const outcome = await capped(
      attack.run(context).then(
        () => 'done' as const,
        (error: unknown) => (error instanceof Error ? error.stack ?? error.message : String(error)),
      ),
      options.capMs,
    );
    if (outcome === CAPPED) checks.push(check('the attack finished', false, `still running after ${options.capMs} ms: the server stalled or hung`));
    else if (outcome !== 'done') notes.push(`the attack stopped early: ${outcome.split('\n')[0]}`);
    legit.markAttackEnd();
    const worstStallMs = legit.worstStallMs(attackStarted);
    // The newcomer comes while the attack's connections and matches are still there and the
    // legitimate match still runs: a lobby the attack filled has no room for it.
    if (attack.stopsServer) {
      // The server is gone on purpose: its matches ended with it, so only memory and the log are checked.
      legit.attackEnded();
      await capped(legit.done, options.capMs);
    } else {
      const newcomer = await capped(newcomerCheck(net, server, watch), options.capMs);
      legit.attackEnded();
      const legitDone = await capped(legit.done, options.capMs);
      checks.push(legitDone === CAPPED ? check(LEGIT_CHECK, false, 'the legitimate match never ended') : await legit.verify(LEGIT_CHECK));
      checks.push(newcomer === CAPPED ? check(NEWCOMER_CHECK, false, 'the newcomer\'s match never ended') : newcomer);
      checks.push(await aliveCheck(server, options.capMs));
    }
    const peakRssMiB = sampler.peakMiB;
    checks.push(check(`server RSS stayed under ${RSS_BOUND_MIB} MiB`, peakRssMiB < RSS_BOUND_MIB, `peak ${peakRssMiB} MiB`));
    checks.push(...logChecks(server.log()));
    return {
      attack: attack.name,
      door: attack.door,
      seed: options.seed,
      budget: options.budget,
      inputs,
      exit: server.exit,
      stopsServer: attack.stopsServer ?? false,
      peakRssMiB,
      worstStallMs,
      legitMatches: legit.matches,
      checks,
      notes,
      durationMs: Math.round(performance.now() - began),
    };
  } finally {
    live.delete(release);
    await release();
  }
}

/** Someone from another address creates a match and plays it through. */
async function newcomerCheck(net: Net, server: HostileServer, watch: LobbyWatch): Promise<Check> {
  const name = NEWCOMER_CHECK;
  if (!server.alive) return check(name, false, 'the server is gone');
  try {
    const session = await LegitSession.start({ net, url: server.url, httpPort: server.wsPort, watch, rounds: 3, chain: false, address: () => NEWCOMER, label: 'newcomer' });
    session.attackEnded();
    await session.done;
    return await session.verify(name);
  } catch (error) {
    return check(name, false, error instanceof Error ? error.message : String(error));
  }
}

/**
 * The process runs and answers. A server that crashed may take a moment to exit after it stopped
 * answering (its worker threads end first): a refused probe waits for the exit, so the report says
 * how it ended.
 */
async function aliveCheck(server: HostileServer, capMs: number | undefined): Promise<Check> {
  const name = 'the server process is alive';
  if (server.alive) {
    const probe = await capped(http(server.wsPort, '/api/history?limit=1', NEWCOMER), capMs);
    if (probe !== CAPPED && probe.status === 200) return check(name, true);
    const exited = await capped(server.exited, capMs ?? 30_000);
    if (exited === CAPPED) return check(name, false, probe === CAPPED ? 'the process runs but does not answer HTTP' : `the process runs but answers HTTP with ${probe.status}`);
  }
  const exit = server.exit!;
  // An uncaught exception: Node.js prints the error's line, then its stack.
  const error = /^(\w*Error\b.*)\n\s+at (.*)$/m.exec(server.log());
  const tail = server.log().trimEnd().split('\n').slice(-4).join(' | ');
  return check(name, false, `exited (code ${exit.code}, signal ${exit.signal}): ${error ? `${error[1]} at ${error[2]}` : `log ends: ${tail.slice(-400)}`}`);
}
