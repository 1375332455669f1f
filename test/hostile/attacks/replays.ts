import WebSocket from 'ws';
import { LIMIT_SPECS } from '../../../src/gateways/server-limits.js';
import { ATTACKER, attackerNetworkAddress, bystanderAddress } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { LegitSession } from '../legit.js';
import { wsSend } from '../net.js';

const HANDSHAKE = '{"Handshake":{"magic":"coco","version":2}}';

/**
 * A match played beside a replay flood may wait at most this long for its next step ("a few
 * seconds"). A wall-clock bound, the one this attack exists for: the unfixed server made it wait
 * 3.5 s (4 requests outstanding per connection) to 5.3 s (8) and froze for up to 16 s in the
 * issue; a fixed one spends milliseconds per slice, which leaves the rest to a loaded machine.
 */
export const REPLAY_STALL_BOUND_MS = 3000;

/** Rounds of the match someone plays during the flood, and how long it may take at worst before it counts as locked out. */
const PROBE_ROUNDS = 20;
const PROBE_CAP_MS = 60_000;

/** How much later than `shutdown-seconds` the process may exit (the exit itself, a loaded machine). */
export const SHUTDOWN_MARGIN_SECONDS = 5;

/** Resolves with `promise`, or null after `ms`; the timer never outlives it. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A finished roshambo match of `rounds` rounds between two players that answer at once (its
 * visualizer log and record are as long as such a match makes them); its id once recorded.
 */
async function longFinishedMatch(context: AttackContext, rounds: number): Promise<string | null> {
  try {
    const session = await LegitSession.start({
      net: context.net,
      url: context.server.url,
      httpPort: context.server.wsPort,
      watch: context.watch,
      rounds,
      chain: false,
      address: () => attackerNetworkAddress(30, 0),
      label: 'long',
    });
    session.attackEnded();
    await session.done;
    const id = session.currentId;
    return id && (await context.watch.deleted(id)) ? id : null;
  } catch (error) {
    context.note(`the long match could not be played: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/**
 * Connections that ask for a finished match over and over: VisSubscribe (the whole visualizer log
 * replayed; one at a time on a connection, as the protocol allows, asked again as soon as it ends
 * or is refused) and HistoryMatch (the whole record, several outstanding). Replies are recognised
 * by their first bytes, not decoded: the attacker spends nothing on them.
 */
class ReplayFlood {
  private running = true;
  private answered = 0;
  private connections = 0;
  private readonly waiters = new Set<() => void>();
  readonly counts = { replays: 0, refused: 0, histories: 0, closed: 0 };

  private constructor(private readonly context: AttackContext) {}

  static async start(context: AttackContext, id: string, size: FloodSize): Promise<ReplayFlood> {
    const flood = new ReplayFlood(context);
    await Promise.all([
      ...Array.from({ length: size.vis }, () => flood.connect('vis', id, 1)),
      ...Array.from({ length: size.history }, () => flood.connect('history', id, size.historyDepth)),
    ]);
    return flood;
  }

  /** Resolves once `count` replays or records were sent whole (refusals do not count), or every connection closed. */
  reached(count: number): Promise<void> {
    return new Promise((resolve) => {
      const look = (): void => {
        if (this.answered < count && this.counts.closed < this.connections) return;
        this.waiters.delete(look);
        resolve();
      };
      this.waiters.add(look);
      look();
    });
  }

  /** No more requests (the ones outstanding are still answered). */
  stop(): void {
    this.running = false;
  }

  private async connect(kind: 'vis' | 'history', id: string, depth: number): Promise<void> {
    let ws: WebSocket;
    try {
      ws = await this.context.net.ws(this.context.server.url, ATTACKER);
    } catch {
      return;
    }
    this.connections++;
    const shaken = new Promise<void>((resolve) => ws.once('message', () => resolve()));
    await wsSend(ws, HANDSHAKE);
    await shaken;
    const request = kind === 'vis' ? `{"VisSubscribe":{"id":"${id}"}}` : `{"HistoryMatch":{"id":"${id}"}}`;
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      const answer = kind === 'history' ? (isBinary ? 'histories' : null) : isBinary ? null : replayAnswer(data);
      if (answer === null) return;
      this.counts[answer]++;
      if (answer !== 'refused') this.answered++;
      this.wake();
      if (this.running) this.send(ws, request);
    });
    ws.once('close', () => {
      this.counts.closed++;
      this.wake();
    });
    for (let i = 0; i < depth; i++) this.send(ws, request);
  }

  private send(ws: WebSocket, request: string): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(request);
    this.context.tried();
  }

  private wake(): void {
    for (const look of [...this.waiters]) look();
  }
}

/** A replay's last frame (VisEnded), or its refusal (VisSubscribed with an Err); null for the frames between. */
function replayAnswer(data: Buffer): 'replays' | 'refused' | null {
  const head = data.toString('latin1', 0, 40);
  if (head.startsWith('{"VisEnded"')) return 'replays';
  if (head.startsWith('{"VisSubscribed"') && head.includes('"Err"')) return 'refused';
  return null;
}

interface FloodSize {
  readonly rounds: number;
  readonly vis: number;
  readonly history: number;
  readonly historyDepth: number;
}

/**
 * The flood's size: the finished match it replays has the 9,999 rounds (its visualizer log
 * is what each replay costs); 8 connections replay it (fuzz: more), one asks for the record with
 * 8 requests outstanding.
 */
function floodSize(context: AttackContext): FloodSize {
  return { rounds: 9999, vis: context.scale(8, 32), history: 1, historyDepth: context.scale(8, 24) };
}

export const cocoReplayFlood: Attack = {
  name: 'coco-replay-flood',
  door: 'coco WebSocket',
  summary: 'VisSubscribe in a loop on 8 connections (and HistoryMatch on another) for a finished match of 9,999 rounds, while someone else creates and plays a match',
  async run(context) {
    const size = floodSize(context);
    const id = await longFinishedMatch(context, size.rounds);
    if (!id) return;
    const flood = await ReplayFlood.start(context, id, size);
    await flood.reached(size.vis + size.history);
    // Someone else comes while the flood runs: a match created, started and played through.
    const began = performance.now();
    const name = 'a match created during the replay flood is played through';
    const probe = await within(
      LegitSession.start({ net: context.net, url: context.server.url, httpPort: context.server.wsPort, watch: context.watch, rounds: PROBE_ROUNDS, chain: false, address: bystanderAddress, label: 'probe' }).catch(
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      PROBE_CAP_MS,
    );
    if (probe === null || typeof probe === 'string') {
      flood.stop();
      return context.check(name, false, probe ?? `not started within ${PROBE_CAP_MS / 1000} s of asking`);
    }
    const startedMs = performance.now() - began;
    probe.attackEnded();
    const finished = await within(probe.done.then(() => true), PROBE_CAP_MS);
    const stall = Math.max(Math.round(startedMs), probe.worstGapMs(began, performance.now()));
    flood.stop();
    if (!finished) return context.check(name, false, `started after ${Math.round(startedMs)} ms, then not over within ${PROBE_CAP_MS / 1000} s`);
    const played = await probe.verify(name);
    context.check(played.name, played.ok, `${played.detail}; ${flood.counts.replays} replays and ${flood.counts.histories} records sent meanwhile`);
    context.check(
      `the match played during the flood never waits more than ${REPLAY_STALL_BOUND_MS / 1000} s for its next step`,
      stall <= REPLAY_STALL_BOUND_MS,
      `worst wait ${stall} ms (creating to starting: ${Math.round(startedMs)} ms)`,
    );
    context.note(`${size.rounds}-round match replayed on ${size.vis} connections; probe match's worst wait ${stall} ms; ${flood.counts.replays} replays, ${flood.counts.refused} refused, ${flood.counts.histories} records, ${flood.counts.closed} flood connections closed by the server`);
  },
};

export const sigtermUnderFlood: Attack = {
  name: 'sigterm-under-flood',
  door: 'coco WebSocket',
  summary: 'SIGTERM while 8 connections replay a finished 9,999-round match in a loop: the server exits within its shutdown deadline',
  stopsServer: true,
  async run(context) {
    const size = floodSize(context);
    const id = await longFinishedMatch(context, size.rounds);
    if (!id) return;
    const flood = await ReplayFlood.start(context, id, size);
    await flood.reached(2 * (size.vis + size.history));
    const deadline = LIMIT_SPECS['shutdown-seconds'].default;
    const sent = performance.now();
    context.server.signal('SIGTERM');
    const exit = await within(context.server.exited, 3 * (deadline + SHUTDOWN_MARGIN_SECONDS) * 1000);
    const seconds = (performance.now() - sent) / 1000;
    flood.stop();
    context.check(
      `on SIGTERM under a replay flood the server exits within shutdown-seconds (${deadline} s) + ${SHUTDOWN_MARGIN_SECONDS} s`,
      exit !== null && seconds <= deadline + SHUTDOWN_MARGIN_SECONDS,
      exit ? `exited after ${seconds.toFixed(1)} s (code ${exit.code}, signal ${exit.signal})` : `still running ${seconds.toFixed(1)} s after SIGTERM`,
    );
    context.note(`SIGTERM after ${flood.counts.replays} replays (${flood.counts.refused} refused) and ${flood.counts.histories} records; exit after ${seconds.toFixed(1)} s`);
  },
};

export const REPLAY_ATTACKS: readonly Attack[] = [cocoReplayFlood, sigtermUnderFlood];
