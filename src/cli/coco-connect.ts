import { constants } from 'node:os';
import { CocoClient, type Incoming } from '../client/coco-client.js';
import { ownStdio, startPipeProgram, startStdioProgram, STDERR_INHERIT, type ChannelKind, type ProgramChannel, type StderrTarget } from '../bridges/program-channel.js';
import { singleProgram, type ProgramLink } from '../bridges/program-link.js';
import { QtpRestarts, answerDeadlineMs } from '../bridges/qtp-restarts.js';
import { formatSeatCount, matchSeatCount } from '../lobby/seat-count.js';
import type { MatchInfo, Outcome } from '../protocol/coco/messages.js';
import { CliError, EXIT } from './exit-status.js';
import { awaitMatch, fetchArtifact, type MatchSummary } from './match-record.js';
import { describeResult } from './match-result.js';
import { refused } from './refusals.js';
import { closureReason, seatClosure } from './seat-closure.js';

export interface ConnectOptions {
  readonly url: string;
  readonly id: string;
  readonly spectate: boolean;
  readonly name: string;
  readonly password: string | null;
  /** The token of a claimed name (token-store.ts); null: the join carries none, as the reference client's. */
  readonly token?: string | null;
  readonly channel: ChannelKind;
  /** The program and its arguments; empty for coco's own stdin/stdout. */
  readonly program: readonly string[];
  /** A fresh program for each game of a QTP match (see bridges/qtp-restarts.ts). */
  readonly restartPerGame?: boolean;
  /** With restartPerGame: seconds an answer may take before coco stops the engine (default: from the match's timeout). */
  readonly answerWithin?: number;
  readonly status: (line: string) => void;
  /** Where the program's stderr goes (default: coco's own stderr). */
  readonly stderr?: StderrTarget;
  /** Aborted when coco is told to leave (a signal): the program is stopped and coco returns. */
  readonly signal?: AbortSignal;
}

/** How long a program may take to finish after its match ended before it is stopped. */
const EXIT_GRACE_MS = 10_000;
/**
 * How long coco waits for the end of the match after the program exited with code 0 while
 * playing: a bot usually exits right after its last move or the last bytes it reads, and the
 * server announces the end a moment later (the reference server 0.25 s after the last bytes,
 * ours once the record is kept). Past it the program counts as gone early, and coco stays connected
 * until the server ends the match all the same (see `orphanSeat` in the session).
 */
const END_GRACE_MS = 5_000;
/**
 * How long coco asks for the record of a match that ended for its seat. The record is written
 * before players hear MatchEnded, so the first answer has it; only a seat closed mid-match (the
 * others play on) may wait, and then coco says the match goes on.
 */
const RESULT_WAIT = { waitMs: 5_000, intervalMs: 100 } as const;
/**
 * How long coco waits for the close frame after a match ended and no history answered: a server
 * shutting down ends its matches, then closes every connection with 1001 and the reason (our
 * server: "server shutdown"), which is then the result's reason. Short: against a server without
 * our history API that keeps the connection open, it only delays the last line.
 */
const GOING_AWAY_WAIT_MS = 1_000;
/** The WebSocket close code of a server going away (RFC 6455). */
const GOING_AWAY = 1001;
/**
 * The start of the 1001 reason of a node of a cluster that stopped (or was declared dead) while
 * this player's match ran on another node (LEFT_MATCH_ON_OTHER_NODE in src/gateways/): that match
 * goes on there without this player, so the reason is not the match's end. After MatchEnded (the
 * seat was closed as the node was cut off) it is printed as `> match ended: cut off (...)`, never
 * as `no result (...)`; mid-match, as the reason the connection closed (see `lost`).
 */
const CUT_OFF = /^this node stopped before your match ended\b/;

/** The line for a server that went away with `close`, and its reason when it says the match goes on. */
function goneAway(close: { readonly code: number; readonly reason: string } | null): string {
  if (close?.code !== GOING_AWAY) return 'match ended';
  return CUT_OFF.test(close.reason) ? `match ended: cut off (${close.reason})` : `match ended: no result (${close.reason || 'server shutdown'})`;
}
/**
 * What a program may print before its match starts, kept for the server until then: many bots
 * greet at once (a `ready` line), before coco has even reached the server. As much as a seat holds
 * of unread input on the server (SEAT_LIMITS), which would close the seat past it anyway.
 */
const EARLY_OUTPUT_MAX_BYTES = 1 << 20;


function startChannel(options: ConnectOptions): Promise<ProgramChannel> {
  if (options.program.length === 0) return Promise.resolve(ownStdio(options.spectate));
  const stderr = options.stderr ?? STDERR_INHERIT;
  if (options.channel === 'pipe') return startPipeProgram(options.program, options.spectate, options.signal, stderr);
  return Promise.resolve(startStdioProgram(options.program, options.spectate, stderr));
}

/** Why a program could not start, with what to do about it. */
function unstartable(program: readonly string[], error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'ENOENT'
      ? 'not found (check the path; a program in this folder needs ./ before its name)'
      : code === 'EACCES'
        ? 'permission denied (is it executable? chmod +x)'
        : error instanceof Error
          ? error.message
          : String(error);
  return new CliError(`cannot run the program "${program[0]}": ${why}`, EXIT.programStart);
}

/**
 * The first program, started: a program that cannot run is reported before coco joins, so it
 * never takes (and forfeits) a seat.
 */
async function startFirst(options: ConnectOptions): Promise<ProgramChannel> {
  let channel: ProgramChannel;
  try {
    channel = await startChannel(options);
    await channel.started;
  } catch (error) {
    throw unstartable(options.program, error);
  }
  return channel;
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
  // Kept from the program's first byte: it may print before coco has joined, or even connected.
  const early = new EarlyOutput(EARLY_OUTPUT_MAX_BYTES, () => status(`the program printed more than ${EARLY_OUTPUT_MAX_BYTES} bytes before the match started: the rest is dropped`));
  let toServer: (bytes: Buffer) => void = (bytes) => early.keep(bytes);
  const output = (bytes: Buffer): void => toServer(bytes);
  const first = await startFirst(options);
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
        try {
          client = await CocoClient.connect(options.url);
        } catch (error) {
          throw new CliError(error instanceof Error ? error.message : String(error), EXIT.connection);
        }
        if (signal?.aborted) return EXIT.error;
        return session({ ...options, status }, client, link, early, (send) => (toServer = send));
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
    const request = { type: 'LobbyJoinMatch', id: options.id, name: options.name, password: options.password, token: options.token ?? null } as const;
    return (await client.request(request, 'LobbyJoinedMatch')).info;
  } catch (error) {
    if (client.closedBecause === '') throw error;
    throw new CliError(`cannot ${options.spectate ? 'spectate' : 'join'} match ${options.id}: ${client.closedBecause} (try again; is the server running?)`, EXIT.connection);
  }
}

/** How the program left, for a status line. */
function left(options: ConnectOptions, code: number | null): string {
  if (options.program.length === 0) return 'your input ended';
  return `program exited with ${code === null ? 'a signal' : `code ${code}`}`;
}

/** Why the server closed this seat early, from its transcript; null for a spectator or when it was not. */
async function closureOf(options: ConnectOptions, match: MatchSummary, seat: string | null): Promise<{ readonly phrase: string; readonly reason: string } | null> {
  const index = seat === null ? -1 : match.players.indexOf(seat);
  if (index === -1) return null;
  const transcript = await fetchArtifact(options.url, options.id, `transcript-${index}.txt`);
  const phrase = transcript === null ? null : seatClosure(transcript);
  return phrase === null ? null : { phrase, reason: closureReason(transcript!) ?? '' };
}

type SessionEvent = { readonly kind: 'server'; readonly item: Incoming | null } | { readonly kind: 'exit'; readonly code: number | null } | { readonly kind: 'unstartable'; readonly error: unknown } | { readonly kind: 'end-grace' };

async function session(options: ConnectOptions, client: CocoClient, link: ProgramLink, early: EarlyOutput, relay: (send: (bytes: Buffer) => void) => void): Promise<number> {
  const { status, spectate } = options;
  let playing = false;
  /** The match has started, for a player or a spectator: a program that exits 0 from here on may be done. */
  let started = false;
  relay((bytes) => {
    if (playing) client.sendBytes(bytes);
    else early.keep(bytes);
  });

  const joined = await answerToJoin(options, client);
  if ('Err' in joined) throw refused(joined.Err, options.id);
  const joinedInfo = joined.Ok;
  if (spectate) status(`spectating "${joinedInfo.name}" (${joinedInfo.id}), a match of ${joinedInfo.game}`);
  else {
    status(`joined "${joinedInfo.name}" (${joinedInfo.id}), a match of ${joinedInfo.game}, as ${options.name}`);
    // The join answer describes the match as it was just before this program joined.
    status(`waiting for players: ${formatSeatCount(joinedInfo.connected.length + 1, joinedInfo.bots, joinedInfo.players)}`);
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
  /**
   * The program left a match it was playing: coco stays connected, as the reference client does,
   * so the server scores the seat as the game scores a silent player (it times out) and the others
   * play on; the status will say that the program ended early.
   */
  let seatOrphaned = false;
  const orphanSeat = (code: number | null): void => {
    seatOrphaned = true;
    status(`${left(options, code)} before the match ended; staying connected until the server ends the match`);
  };

  /**
   * Ends the program (given EXIT_GRACE_MS after a match that ended) and returns `code`. What the
   * program does after the end of the match does not change the status: the match was played.
   */
  const finish = async (code: number, ended?: Promise<unknown>): Promise<number> => {
    clearTimeout(endTimer);
    if (programExit !== undefined) {
      await Promise.all([link.stop(), ended]);
      return code;
    }
    const exited = link.finish(EXIT_GRACE_MS);
    // The result line comes first; the program meanwhile gets its end of input.
    await ended;
    const how = await exited;
    if (how === 'stopped') status('the program did not exit after the match: stopping it');
    else if (ended && typeof how === 'number' && how !== 0 && options.program.length > 0) status(`program exited with code ${how} after the match`);
    return code;
  };
  /** The connection is gone mid-match: the program is stopped at once, as the reference client does. */
  const lost = async (): Promise<number> => {
    clearTimeout(endTimer);
    // A node that stopped while the match ran on another one says so in its reason, printed here.
    status(`${client.closedBecause || 'connection to the server lost'}; the match was not over`);
    await link.stop();
    // A program that had already left is the first cause, and the status says so.
    return seatOrphaned ? EXIT.programEnded : EXIT.connection;
  };
  /**
   * `> match ended`, with the result when this server's history has it. Resolves with the reason
   * the server closed this seat early (`timeout`), when it says so.
   */
  const ended = async (seat: string | null): Promise<string | null> => {
    const found = await awaitMatch(options.url, options.id, RESULT_WAIT);
    if (found.kind === 'found') {
      const closure = await closureOf(options, found.value, seat);
      status(`match ended: ${describeResult(found.value, seat, closure?.phrase ?? null)}`);
      return closure?.reason ?? null;
    } else if (found.kind === 'missing' && seat !== null) status(`match ended for you; the match goes on (its result: coco history once it ends)`);
    else if (found.kind === 'unavailable') status(`match ended; its result cannot be read yet: ${found.why} (coco history ${options.id})`);
    else {
      // No history to read: a server that went away says why in its close frame.
      const close = found.kind === 'no-api' ? await client.closeFrameWithin(GOING_AWAY_WAIT_MS) : null;
      status(goneAway(close));
    }
    return null;
  };

  try {
    for (;;) {
      pendingServer ??= client.next().then((item): SessionEvent => ({ kind: 'server', item }));
      const event = await Promise.race([pendingServer, ...(programEvent ? [programEvent] : []), ...(endGrace ? [endGrace] : [])]);
      if (event.kind === 'unstartable') {
        // Not expected (the program was seen to start before the join), but said all the same.
        status(`cannot run the program: ${event.error instanceof Error ? event.error.message : String(event.error)}`);
        programExit = null;
        return finish(EXIT.programStart);
      }
      if (event.kind === 'exit') {
        programEvent = null;
        programExit = event.code;
        if (started && event.code === 0) {
          // Leaving after the last move is normal: wait for the server to say the match is over.
          endGrace = new Promise((resolve) => (endTimer = setTimeout(() => resolve({ kind: 'end-grace' }), END_GRACE_MS)));
          continue;
        }
        if (playing) {
          orphanSeat(event.code);
          continue;
        }
        status(`${left(options, event.code)} before the match ended`);
        return finish(EXIT.programEnded);
      }
      if (event.kind === 'end-grace') {
        endGrace = null;
        if (playing) {
          orphanSeat(0);
          continue;
        }
        status(`${left(options, 0)} before the match ended`);
        return finish(EXIT.programEnded);
      }
      pendingServer = null;
      const item = event.item;
      if (item === null) return await lost();
      if (item.kind === 'data') {
        // Nobody reads what comes for a seat whose program has left.
        if (!seatOrphaned) link.write(item.bytes);
        continue;
      }
      const reply = item.reply;
      switch (reply.type) {
        case 'LobbyUpdate':
          if (!reply.info.running) status(`players connected: ${reply.info.connected.join(', ') || 'none'} (${matchSeatCount(reply.info)})`);
          break;
        case 'LobbyDelete':
          status('the match expired before it started (create another with coco new)');
          return finish(EXIT.expired);
        case 'MatchStarted':
          status('match started');
          playing = true;
          started = true;
          for (const chunk of early.take()) client.sendBytes(chunk);
          break;
        case 'MatchEnded': {
          const closure = ended(options.name);
          const code = await finish(seatOrphaned ? EXIT.programEnded : EXIT.ok, closure);
          // A program that exited with code 0 in the grace, and whose seat then timed out, had not
          // finished its match: the server said so before the grace ran out.
          return programExit === 0 && (await closure) === 'timeout' ? EXIT.programEnded : code;
        }
        case 'SpectateStarted':
          status('match started');
          started = true;
          break;
        case 'SpectateSynced':
          status('reached current status');
          break;
        case 'SpectateEnded':
          return finish(EXIT.ok, ended(null));
        default:
          status(`unexpected message from the server: ${reply.type}`);
      }
    }
  } finally {
    clearTimeout(endTimer);
  }
}

/** A program's output before its match started, up to a cap; what passes the cap is dropped (once said). */
class EarlyOutput {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private full = false;

  constructor(
    private readonly maxBytes: number,
    private readonly overflowed: () => void,
  ) {}

  keep(chunk: Buffer): void {
    if (this.full) return;
    if (this.bytes + chunk.length > this.maxBytes) {
      this.full = true;
      this.overflowed();
      return;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
  }

  take(): Buffer[] {
    const chunks = this.chunks;
    this.chunks = [];
    this.bytes = 0;
    return chunks;
  }
}
