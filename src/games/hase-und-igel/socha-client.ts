import { connect, type Socket } from 'node:net';
import { err, ok, type Result } from '../../util/result.js';
import { CLIENT_CLOSING, SERVER_BOT_SEARCH, SochaClientState, renderClientMove } from './bot.js';
import { GAME_TYPE } from './messages.js';
import { searchMove, type SearchOptions } from './search.js';
import { attr, child } from './xml/xml-element.js';
import { STREAM_OPENING } from './xml/xml-writer.js';

/**
 * A standalone Software-Challenge 2018 client that plays with the server bot's search: it connects
 * to a server (the real one, or this platform's TCP front door), joins a game or takes a reserved
 * seat, and plays until the game is over. Arguments as the Software-Challenge clients take them:
 * `-h/--host`, `-p/--port`, `-r/--reservation`.
 */

export const DEFAULT_HOST = 'localhost';
export const DEFAULT_PORT = 13050;
/** A server silent for this long is given up on. */
export const CLIENT_IDLE_SECONDS = 300;

export interface SochaClientOptions {
  readonly host: string;
  readonly port: number;
  /** A reservation code to take a prepared seat with, or null to join any game. */
  readonly reservation: string | null;
  readonly search: SearchOptions;
}

export interface SochaGameSummary {
  readonly roomId: string | null;
  readonly color: 'RED' | 'BLUE' | null;
  /** The winner's color from the result, null on a draw or when no result came. */
  readonly winner: string | null;
  /** Our score parts (points, field, carrots) from the result. */
  readonly score: readonly number[] | null;
  readonly error: string | null;
  /** Moves this client made. */
  readonly moves: number;
  /** Moves of the whole game, both players', as the history and the replay count them (the last state's turn); null when no state came. */
  readonly gameMoves: number | null;
}

const USAGE = 'usage: socha-client [-h HOST] [-p PORT] [-r RESERVATION]';

export function parseSochaArgs(argv: readonly string[]): Result<SochaClientOptions> {
  let host = DEFAULT_HOST;
  let port = DEFAULT_PORT;
  let reservation: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) return err(`${flag} needs a value; ${USAGE}`);
    switch (flag) {
      case '-h':
      case '--host':
        host = value;
        break;
      case '-p':
      case '--port': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1 || n > 65535) return err(`bad port "${value}"; ${USAGE}`);
        port = n;
        break;
      }
      case '-r':
      case '--reservation':
        reservation = value;
        break;
      default:
        return err(`unknown argument "${arg}"; ${USAGE}`);
    }
  }
  return ok({ host, port, reservation, search: SERVER_BOT_SEARCH });
}

/** The client's opening: the root element and the join (each ended by a line break for line-based servers). */
export function clientOpening(reservation: string | null): string {
  const join = reservation === null ? `<join gameType="${GAME_TYPE}"/>` : `<joinPrepared reservationCode="${reservation.replace(/[&<>"']/g, '')}"/>`;
  return `${STREAM_OPENING}\n  ${join}\n`;
}

/** Plays one game over TCP and resolves when the connection is closed. */
export function runSochaClient(options: SochaClientOptions): Promise<SochaGameSummary> {
  return new Promise((resolve) => {
    const client = new SochaClientState();
    let moves = 0;
    let failure: string | null = null;
    const socket: Socket = connect({ host: options.host, port: options.port });
    socket.setEncoding('utf8');
    socket.setTimeout(CLIENT_IDLE_SECONDS * 1000, () => {
      failure = 'the server was silent for too long';
      socket.destroy();
    });
    socket.on('connect', () => socket.write(clientOpening(options.reservation)));
    socket.on('data', (chunk: string) => {
      const requests = client.push(chunk);
      for (let i = 0; i < requests && client.state && client.roomId; i++) {
        socket.write(renderClientMove(client.roomId, searchMove(client.state, options.search).move));
        moves++;
      }
      if (client.finished && socket.writable) {
        socket.end(CLIENT_CLOSING);
      }
    });
    socket.on('end', () => {
      client.end();
      if (socket.writable) socket.end();
    });
    socket.on('error', (error) => {
      failure = error.message;
    });
    socket.on('close', () => resolve(summarize(client, moves, failure)));
  });
}

function summarize(client: SochaClientState, moves: number, failure: string | null): SochaGameSummary {
  const result = client.result;
  const winner = result ? (child(result, 'winner') ? attr(child(result, 'winner')!, 'color') ?? null : null) : null;
  const scores = result ? result.children.filter((c) => c.name === 'score') : [];
  const mine = client.color === null ? undefined : scores[client.color === 'RED' ? 0 : 1];
  return {
    roomId: client.roomId,
    color: client.color,
    winner,
    score: mine ? mine.children.map((part) => Number(part.text)) : null,
    error: client.error ?? failure,
    moves,
    gameMoves: client.state?.turn ?? null,
  };
}

/** The command-line entry: returns the process exit code (0 played a game, 1 failed, 2 bad arguments). */
export async function sochaClientMain(argv: string[]): Promise<number> {
  const options = parseSochaArgs(argv);
  if (!options.ok) {
    process.stderr.write(`${options.error}\n`);
    return 2;
  }
  const summary = await runSochaClient(options.value);
  if (summary.error !== null || summary.score === null) {
    process.stderr.write(`game failed: ${summary.error ?? 'no result'}\n`);
    return 1;
  }
  const outcome = summary.winner === null ? 'draw' : summary.winner === summary.color ? 'won' : 'lost';
  // The game's moves, as `coco history` and the replay count them; then how many were ours.
  const moves = summary.gameMoves === null ? `${summary.moves} moves of ours` : `${summary.gameMoves} moves (${summary.moves} of ours)`;
  process.stdout.write(`${summary.color} ${outcome} in room ${summary.roomId} after ${moves}: ${summary.score.join(' ')}\n`);
  return 0;
}
