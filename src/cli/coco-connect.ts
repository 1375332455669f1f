import { constants } from 'node:os';
import { CocoClient, type Incoming } from '../client/coco-client.js';
import { ownStdio, startPipeProgram, startStdioProgram, type ChannelKind, type ProgramChannel } from '../bridges/program-channel.js';
import { singleProgram, type ProgramLink } from '../bridges/program-link.js';
import { QtpRestarts, answerDeadlineMs } from '../bridges/qtp-restarts.js';
import type { MatchInfo, Outcome } from '../protocol/coco/messages.js';

export interface ConnectOptions {
  readonly url: string;
  readonly id: string;
  readonly spectate: boolean;
  readonly name: string;
  readonly password: string | null;
  readonly channel: ChannelKind;
  /** The program and its arguments; empty for coco's own stdin/stdout. */
  readonly program: readonly string[];
  /** A fresh program for each game of a QTP match (see bridges/qtp-restarts.ts). */
  readonly restartPerGame?: boolean;
  /** With restartPerGame: seconds an answer may take before coco stops the engine (default: from the match's timeout). */
  readonly answerWithin?: number;
  readonly status: (line: string) => void;
  /** Aborted when coco is told to leave (a signal): the program is stopped and coco returns. */
  readonly signal?: AbortSignal;
}

/** How long a program may take to finish after its match ended before it is stopped. */
const EXIT_GRACE_MS = 10_000;
/**
 * How long coco waits for the end of the match after the program exited with code 0 while
 * playing: a bot usually exits right after its last move or the last bytes it reads, and the
 * server announces the end a moment later (the reference server 0.25 s after the last bytes,
 * ours once the record is kept).
 */
const END_GRACE_MS = 5_000;

function players(info: MatchInfo): string {
  return `${info.connected.length + info.bots}/${info.players}`;
}

function startChannel(options: ConnectOptions): Promise<ProgramChannel> {
  if (options.program.length === 0) return Promise.resolve(ownStdio(options.spectate));
  if (options.channel === 'pipe') return startPipeProgram(options.program, options.spectate, options.signal);
  return Promise.resolve(startStdioProgram(options.program, options.spectate));
}

/**
 * `coco connect`: starts the program first, then joins (or spectates) the match and moves bytes
 * between the server and the program until the match ends. Returns the exit status. Every way
 * out (the end of the match, an error, a lost connection, a signal) stops the program.
 */
export async function connectProgram(options: ConnectOptions): Promise<number> {
  const { signal } = options;
  // Once coco is told to leave, what the stopping program does is no news.
  const status = (line: string): void => {
    if (!signal?.aborted) options.status(line);
  };
  let client: CocoClient | null = null;
  let toServer: (bytes: Buffer) => void = () => {};
  const output = (bytes: Buffer): void => toServer(bytes);
  const first = await startChannel(options);
  const link: ProgramLink = options.restartPerGame
    ? new QtpRestarts(first, { start: () => startChannel(options), output, status })
    : singleProgram(first, output);
  // The session stops here on a signal, wherever it is: the `finally` below ends the program.
  let onAbort: () => void = () => {};
  const aborted = new Promise<number>((resolve) => {
    onAbort = () => {
      if (options.program.length > 0) options.status(`${String(signal?.reason)}: stopping the program`);
      resolve(128 + signalNumber(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  if (signal?.aborted) onAbort();
  try {
    return await Promise.race([
      aborted,
      (async () => {
        client = await CocoClient.connect(options.url);
        if (signal?.aborted) return 1;
        return session({ ...options, status }, client, link, (send) => (toServer = send));
      })(),
    ]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await link.stop();
    (client as CocoClient | null)?.close();
  }
}

/** The number of the signal named `reason` (SIGTERM's when it is not one). */
export function signalNumber(reason: unknown): number {
  const numbers = constants.signals as Record<string, number>;
  return typeof reason === 'string' ? (numbers[reason] ?? constants.signals.SIGTERM) : constants.signals.SIGTERM;
}

/** Joins or spectates; a server that hangs up instead of answering must not leave coco waiting. */
async function answerToJoin(options: ConnectOptions, client: CocoClient): Promise<Outcome<MatchInfo>> {
  try {
    if (options.spectate) return (await client.request({ type: 'SpectateJoin', id: options.id }, 'SpectateJoined')).info;
    const request = { type: 'LobbyJoinMatch', id: options.id, name: options.name, password: options.password } as const;
    return (await client.request(request, 'LobbyJoinedMatch')).info;
  } catch (error) {
    if (client.closedBecause === '') throw error;
    throw new Error(`cannot ${options.spectate ? 'spectate' : 'join'} match ${options.id}: ${client.closedBecause}`);
  }
}

/** How the program left, for a status line. */
function left(options: ConnectOptions, code: number | null): string {
  if (options.program.length === 0) return 'your input ended';
  return `program exited with ${code === null ? 'a signal' : `code ${code}`}`;
}

type SessionEvent = { readonly kind: 'server'; readonly item: Incoming | null } | { readonly kind: 'exit'; readonly code: number | null } | { readonly kind: 'unstartable'; readonly error: unknown } | { readonly kind: 'end-grace' };

async function session(options: ConnectOptions, client: CocoClient, link: ProgramLink, relay: (send: (bytes: Buffer) => void) => void): Promise<number> {
  const { status, spectate } = options;
  const early: Buffer[] = [];
  let playing = false;
  relay((bytes) => {
    if (playing) client.sendBytes(bytes);
    else early.push(bytes);
  });

  const joined = await answerToJoin(options, client);
  if ('Err' in joined) throw new Error(joined.Err);
  const joinedInfo = joined.Ok;
  if (spectate) status(`spectating "${joinedInfo.name}" (${joinedInfo.id}), a match of ${joinedInfo.game}`);
  else {
    status(`joined "${joinedInfo.name}" (${joinedInfo.id}), a match of ${joinedInfo.game}, as ${options.name}`);
    status(`waiting for players: ${joinedInfo.connected.length + 1 + joinedInfo.bots}/${joinedInfo.players}`);
  }
  if (link instanceof QtpRestarts) link.answerWithin(options.answerWithin !== undefined ? options.answerWithin * 1000 : answerDeadlineMs(joinedInfo.timeout));

  // One queue of what happens, in order: the server's messages, the program's exit, the deadline
  // for the end of the match after the program left. One `next()` stays pending across turns,
  // so no message is lost to a race.
  let pendingServer: Promise<SessionEvent> | null = null;
  let programEvent: Promise<SessionEvent> | null = link.exited.then(
    (code): SessionEvent => ({ kind: 'exit', code }),
    (error: unknown): SessionEvent => ({ kind: 'unstartable', error }),
  );
  let endGrace: Promise<SessionEvent> | null = null;
  let endTimer: NodeJS.Timeout | undefined;
  let programExit: number | null | undefined;

  const finish = async (code: number): Promise<number> => {
    clearTimeout(endTimer);
    if (programExit !== undefined) {
      await link.stop();
      return code !== 0 ? code : programExit ?? 1;
    }
    const exited = await link.finish(EXIT_GRACE_MS);
    if (exited === 'stopped') status('the program did not exit after the match: stopping it');
    return code !== 0 ? code : typeof exited === 'number' ? exited : 0;
  };
  /** The connection is gone mid-match: the program is stopped at once, as the reference client does. */
  const lost = async (): Promise<number> => {
    clearTimeout(endTimer);
    status(client.closedBecause || 'connection to the server lost');
    await link.stop();
    return programExit === undefined || programExit === 0 ? 1 : programExit ?? 1;
  };

  try {
    for (;;) {
      pendingServer ??= client.next().then((item): SessionEvent => ({ kind: 'server', item }));
      const event = await Promise.race([pendingServer, ...(programEvent ? [programEvent] : []), ...(endGrace ? [endGrace] : [])]);
      if (event.kind === 'unstartable') {
        status(`cannot run the program: ${event.error instanceof Error ? event.error.message : String(event.error)}`);
        programExit = 127;
        return finish(127);
      }
      if (event.kind === 'exit') {
        programEvent = null;
        programExit = event.code;
        if (playing && event.code === 0) {
          // Leaving after the last move is normal: wait for the server to say the match is over.
          endGrace = new Promise((resolve) => (endTimer = setTimeout(() => resolve({ kind: 'end-grace' }), END_GRACE_MS)));
          continue;
        }
        status(`${left(options, event.code)} before the match ended`);
        return finish(event.code === 0 ? 1 : event.code ?? 1);
      }
      if (event.kind === 'end-grace') {
        status(`${left(options, 0)} before the match ended`);
        return finish(1);
      }
      pendingServer = null;
      const item = event.item;
      if (item === null) return await lost();
      if (item.kind === 'data') {
        link.write(item.bytes);
        continue;
      }
      const reply = item.reply;
      switch (reply.type) {
        case 'LobbyUpdate':
          if (!reply.info.running) status(`players connected: ${reply.info.connected.join(', ') || 'none'} (${players(reply.info)})`);
          break;
        case 'LobbyDelete':
          status('the match expired before it started');
          return finish(1);
        case 'MatchStarted':
          status('match started');
          playing = true;
          for (const chunk of early.splice(0)) client.sendBytes(chunk);
          break;
        case 'MatchEnded':
          status('match ended');
          return finish(0);
        case 'SpectateStarted':
          status('match started');
          break;
        case 'SpectateSynced':
          status('reached current status');
          break;
        case 'SpectateEnded':
          status('match ended');
          return finish(0);
        default:
          status(`unexpected message from the server: ${reply.type}`);
      }
    }
  } finally {
    clearTimeout(endTimer);
  }
}
