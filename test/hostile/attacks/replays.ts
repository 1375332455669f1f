import WebSocket from 'ws';
import { LIMIT_SPECS } from '../../../src/gateways/server-limits.js';
import { ATTACKER, attackerNetworkAddress, bystanderAddress } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { LegitSession } from '../legit.js';
import { wsSend } from '../net.js';

const HANDSHAKE = '{"Handshake":{"magic":"coco","version":2}}';

/**
 * A legitimate match beside a replay flood may wait at most this long for its next round ("a few
 * seconds"): the unfixed server froze for up to 16 s, a fixed one spends milliseconds per slice,
 * and a loaded machine needs the rest.
 */
export const REPLAY_STALL_BOUND_MS = 5000;

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
 * replayed) and HistoryMatch (the whole record), each keeping a few requests outstanding and
 * asking again at each answer's end. Replies are recognised by their first bytes, not decoded: the
 * attacker spends nothing on them.
 */
class ReplayFlood {
  private running = true;
  private answered = 0;
  private readonly waiters = new Set<() => void>();
  readonly counts = { replays: 0, histories: 0, closed: 0 };

  private constructor(private readonly context: AttackContext) {}

  static async start(context: AttackContext, id: string, options: { vis: number; history: number; depth: number }): Promise<ReplayFlood> {
    const flood = new ReplayFlood(context);
    const kinds = [...Array<'vis'>(options.vis).fill('vis'), ...Array<'history'>(options.history).fill('history')];
    await Promise.all(kinds.map((kind) => flood.connect(kind, id, options.depth)));
    return flood;
  }

  /** Resolves once `count` answers came (or every connection closed). */
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

  private connections = 0;

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
    const last = Buffer.from(kind === 'vis' ? '{"VisEnded"' : '{"HistoryMatch"');
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || !Buffer.isBuffer(data) || data.compare(last, 0, last.length, 0, Math.min(data.length, last.length)) !== 0) return;
      if (kind === 'vis') this.counts.replays++;
      else this.counts.histories++;
      this.answered++;
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

/** The flood's size: rounds of the finished match it replays, connections and requests outstanding on each. */
function floodSize(context: AttackContext): { rounds: number; vis: number; history: number; depth: number } {
  return { rounds: context.scale(3000, 9999), vis: 4, history: 1, depth: 4 };
}

export const cocoReplayFlood: Attack = {
  name: 'coco-replay-flood',
  door: 'coco WebSocket',
  summary: 'VisSubscribe in a loop on 4 connections (and HistoryMatch on another) for a finished match of 3,000 rounds (fuzz: up to 9,999), while someone else creates and plays a match',
  async run(context) {
    const size = floodSize(context);
    const id = await longFinishedMatch(context, size.rounds);
    if (!id) return;
    const flood = await ReplayFlood.start(context, id, size);
    await flood.reached(size.vis + size.history);
    // Someone else comes while the flood runs: a match created, started and played through.
    const began = performance.now();
    let probe: LegitSession;
    try {
      probe = await LegitSession.start({ net: context.net, url: context.server.url, httpPort: context.server.wsPort, watch: context.watch, rounds: 100, chain: false, address: bystanderAddress, label: 'probe' });
    } catch (error) {
      flood.stop();
      return context.check('a match created during the replay flood is played through', false, error instanceof Error ? error.message : String(error));
    }
    const startedMs = performance.now() - began;
    probe.attackEnded();
    await probe.done;
    const stall = Math.max(Math.round(startedMs), probe.worstGapMs(began, performance.now()));
    flood.stop();
    const played = await probe.verify('a match created during the replay flood is played through');
    context.check(played.name, played.ok, `${played.detail}; ${flood.counts.replays} replays and ${flood.counts.histories} records sent meanwhile`);
    context.check(
      `the match played during the flood never waits more than ${REPLAY_STALL_BOUND_MS / 1000} s for its next step`,
      stall <= REPLAY_STALL_BOUND_MS,
      `worst wait ${stall} ms (creating to starting: ${Math.round(startedMs)} ms)`,
    );
    context.note(`${size.rounds}-round match replayed; probe match's worst wait ${stall} ms; ${flood.counts.replays} replays, ${flood.counts.histories} records, ${flood.counts.closed} flood connections closed by the server`);
  },
};

export const sigtermUnderFlood: Attack = {
  name: 'sigterm-under-flood',
  door: 'coco WebSocket',
  summary: 'SIGTERM while 4 connections replay a finished 3,000-round match in a loop: the server exits within its shutdown deadline',
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
    context.note(`SIGTERM after ${flood.counts.replays} replays and ${flood.counts.histories} records; exit after ${seconds.toFixed(1)} s`);
  },
};

export const REPLAY_ATTACKS: readonly Attack[] = [cocoReplayFlood, sigtermUnderFlood];
