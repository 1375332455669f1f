/**
 * One game of a tournament: the match is created on the server, each program is connected to it
 * the way `coco connect` connects one (the same code: coco-connect.ts), and the result is read
 * from the server's history, as one line of the results file.
 */
import type { StderrTarget } from '../bridges/program-channel.js';
import { CocoClient } from '../client/coco-client.js';
import { SEAT_ORDER_ARG } from '../lobby/seat-order-arg.js';
import { botName } from '../match/match.js';
import type { Pairing } from '../tournament/pairings.js';
import { outcomeOf, type ResultLine } from '../tournament/results-file.js';
import { connectProgram } from './coco-connect.js';
import { deleteOwnMatches } from './delete-match.js';
import { keptToken } from './token-store.js';
import { CliError, EXIT } from './exit-status.js';
import { awaitMatch, fetchArtifact } from './match-record.js';
import { noSuchGame, refused } from './refusals.js';
import { closureReason } from './seat-closure.js';

export interface Entrant {
  readonly name: string;
  /** A shell command line; null for the server's bot. */
  readonly command: string | null;
}

export interface MatchContext {
  readonly url: string;
  readonly game: string;
  /** Players in each match. */
  readonly players: number;
  readonly args: Readonly<Record<string, string>>;
  /** Seconds of player inactivity, or null for the game's default. */
  readonly timeout: number | null;
  /** Aborted when the tournament stops: the programs of this match are stopped. */
  readonly signal: AbortSignal;
  /** Where the program of the player named so writes its stderr. */
  readonly stderrOf: (name: string) => StderrTarget;
  /** Told once the server has made the match of `pairing`, before any program joins it. */
  readonly created: (pairing: Pairing, id: string) => void;
}

/**
 * How long to ask for the record of a match after its programs are done: it is written before
 * players hear the end, but a seat closed early (a crash) hears it while the other plays on.
 */
const RESULT_WAIT = { waitMs: 30_000, intervalMs: 100 } as const;

/** The status line coco-connect gives when the match starts (see session() there). */
const STARTED = 'match started';

/**
 * Creates the match with its seats named in order (SEAT_ORDER_ARG): this server seats them so;
 * the reference server ignores the argument and seats players its own way, and the results file
 * records the seats they had either way.
 */
async function createMatch(context: MatchContext, seats: readonly string[], bots: number, name: string): Promise<string> {
  let client: CocoClient;
  try {
    client = await CocoClient.connect(context.url);
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)} (is cocod running there? -s URL picks the server)`, EXIT.connection);
  }
  try {
    const request = { type: 'GameNew', name, game: context.game, params: { players: context.players, bots, timeout: context.timeout }, args: { ...context.args, [SEAT_ORDER_ARG]: seats.join(' ') }, password: null, verification: null } as const;
    const reply = await client.request(request, 'GameNew');
    if ('Err' in reply.id) throw reply.id.Err === 'Game not found' ? noSuchGame(context.game) : refused(reply.id.Err);
    return reply.id.Ok;
  } finally {
    client.close();
  }
}

interface Connected {
  readonly name: string;
  /** connectProgram's exit status, or the error it threw. */
  readonly code: number | null;
  readonly error: unknown;
  readonly started: boolean;
  /** Whether it left before the match started of its own accord (not stopped for another's leaving). */
  readonly culprit: boolean;
  /** Whether it was done before the tournament was stopped: its match may have ended, and then counts. */
  readonly doneBeforeStop: boolean;
}

/**
 * Plays `pairing` between `entrants` (indices into it); null when the tournament was stopped
 * before the match ended. Errors that concern the whole tournament (the server refused, cannot be
 * reached) are thrown; a program that cannot start or dies early is this game's result.
 */
export async function playPairing(context: MatchContext, pairing: Pairing, entrants: readonly Entrant[]): Promise<ResultLine | null> {
  const seats = pairing.seats.map((i) => entrants[i]!);
  const bot = seats.find((entrant) => entrant.command === null);
  // The server's bot (at most one entrant) is named as the match names it.
  const seatNames = seats.map((entrant) => (entrant.command === null ? botName(0) : entrant.name));
  const id = await createMatch(context, seatNames, seats.filter((entrant) => entrant.command === null).length, `tournament #${pairing.index}`);
  context.created(pairing, id);
  // Stopped while the server made the match: nobody joins it, and it is taken back at once.
  if (context.signal.aborted) {
    await deleteOwnMatches(context.url, [id]);
    return null;
  }
  // A program that leaves before the match starts would leave the other waiting in the lobby
  // until the match expires: then this match is stopped at once.
  const halt = new AbortController();
  const signal = AbortSignal.any([context.signal, halt.signal]);
  const connected = await Promise.all(
    seats
      .filter((entrant) => entrant.command !== null)
      .map(async (entrant): Promise<Connected> => {
        let started = false;
        try {
          const code = await connectProgram({
            url: context.url,
            id,
            spectate: false,
            name: entrant.name,
            password: null,
            // A claimed name plays with the token coco register kept for it on this server.
            token: (await keptToken(context.url, entrant.name)) ?? null,
            channel: 'stdio',
            program: ['/bin/sh', '-c', entrant.command!],
            status: (line) => {
              if (line === STARTED) started = true;
            },
            stderr: context.stderrOf(entrant.name),
            signal,
          });
          const doneBeforeStop = !context.signal.aborted;
          const culprit = !started && !halt.signal.aborted;
          if (culprit) halt.abort('SIGTERM');
          return { name: entrant.name, code, error: null, started, culprit, doneBeforeStop };
        } catch (error) {
          const doneBeforeStop = !context.signal.aborted;
          const culprit = !halt.signal.aborted;
          halt.abort('SIGTERM');
          return { name: entrant.name, code: null, error, started, culprit, doneBeforeStop };
        }
      }),
  );
  // A match that never started (stopped, or a program could not start) would wait in the lobby
  // until it expires, counting against this address's waiting matches: it is deleted (one that
  // started meanwhile is refused and ends on its own).
  if (!connected.some((c) => c.started)) await deleteOwnMatches(context.url, [id]);
  // Stopped while playing: the match's end (a forfeit by the stopped programs) is not a result. A
  // match whose programs were all done before the stop ended on its own: it is kept, so that a
  // rerun with the same results file does not play it again.
  if (context.signal.aborted && !connected.every((c) => c.doneBeforeStop && c.started && c.error === null)) return null;
  const fatal = connected.find((c) => c.error !== null && !(c.error instanceof CliError && c.error.status === EXIT.programStart));
  if (fatal) throw fatal.error;
  const names = seats.map((entrant) => entrant.name);
  const failedToStart = connected.filter((c) => c.culprit);
  if (failedToStart.length > 0) {
    const why = failedToStart.map((c) => `${c.name}: ${c.error instanceof Error ? c.error.message : `program exited with code ${c.code} before the match started`}`).join('; ');
    return { pairing: pairing.index, players: names, scores: null, outcome: '*', match: id, reason: why, crashed: failedToStart.map((c) => c.name), timedOut: [], illegal: [] };
  }
  const found = await awaitMatch(context.url, id, RESULT_WAIT);
  if (found.kind !== 'found') {
    const crashed = connected.filter((c) => c.code !== EXIT.ok).map((c) => c.name);
    const reason = found.kind === 'unavailable' ? `the server's history could not be read: ${found.why}` : 'the server has no record of the match';
    return { pairing: pairing.index, players: names, scores: null, outcome: '*', match: id, reason, crashed, timedOut: [], illegal: [] };
  }
  const record = found.value;
  const players = record.players.map((seat) => (bot && seat === botName(0) ? bot.name : seat));
  const transcripts = await Promise.all(players.map((name, index) => (name === bot?.name ? null : fetchArtifact(context.url, id, `transcript-${index}.txt`))));
  const closures = transcripts.map((transcript) => (transcript === null ? null : closureReason(transcript)));
  const closedFor = (reason: string): string[] => players.filter((_, index) => closures[index] === reason);
  // A program that left after its last move is no crash even when its coco heard the end too late
  // (a loaded server) and said the program ended first: the server's transcript of the seat says
  // whether the seat was closed before the match was over for it.
  const playedToTheEnd = (name: string): boolean => {
    const index = players.indexOf(name);
    return index >= 0 && transcripts[index] !== null && closures[index] === null;
  };
  const crashed = connected
    .filter((c) => (c.code === EXIT.programEnded && !playedToTheEnd(c.name)) || c.code === EXIT.programStart || c.error !== null)
    .map((c) => c.name);
  return {
    pairing: pairing.index,
    players,
    scores: record.scores,
    outcome: outcomeOf(record.scores),
    match: id,
    // The game speaks of the server's bot as the match names it (ServerBot$0): here it is its entrant.
    reason: withEntrantName([record.reason, record.error].filter((text): text is string => !!text).join(': '), bot),
    crashed,
    timedOut: closedFor('timeout'),
    illegal: closedFor('removed'),
  };
}

/** `text` with the server bot's seat name (ServerBot$0) replaced by the name it has in the tournament. */
export function withEntrantName(text: string, bot: Entrant | undefined): string {
  return bot ? text.split(botName(0)).join(bot.name) : text;
}
