/**
 * `coco arena GAME [-n NAME] [--concurrency K] [--games N] -- PROGRAM ARGS`: queues the program in
 * the server's arena (docs/arena.md) and plays each game it is paired for with a fresh PROGRAM
 * through `coco connect`'s bridge, K at once, printing one line per finished game and the running
 * score, until N games or a signal. The first signal leaves the queue and lets the games in
 * progress finish; a second one stops them.
 */
import { CocoClient } from '../client/coco-client.js';
import type { ArenaResultInfo } from '../protocol/coco/messages.js';
import type { StderrTarget } from '../bridges/program-channel.js';
import { connectProgram } from './coco-connect.js';
import { CliError, EXIT } from './exit-status.js';
import { withHint } from './refusals.js';

export interface ArenaCommandOptions {
  readonly url: string;
  readonly game: string;
  readonly name: string;
  /** The claimed name's token, or undefined for an unclaimed name. */
  readonly token: string | undefined;
  readonly concurrency: number;
  /** Games to play before leaving; null: until told to leave. */
  readonly games: number | null;
  readonly program: readonly string[];
  readonly write: (text: string) => void;
  /** Aborted to leave the queue; games in progress are finished. */
  readonly leave: AbortSignal;
  /** Aborted to stop everything now (the programs too). */
  readonly stop: AbortSignal;
  readonly stderr?: StderrTarget;
}

/** The tally printed after each game. */
export interface ArenaScore {
  wins: number;
  draws: number;
  losses: number;
  /** Games that rated nobody (not played, the game failed). */
  unrated: number;
}

/** One line for a finished game: `game 3 (ID): win 7-3 against bob (reason), rating 12.34; score +2 =1 -0`. */
export function arenaResultLine(result: ArenaResultInfo, name: string, count: number, score: ArenaScore): string {
  const opponents = result.players.filter((player) => player !== name);
  // Own score first, then the others' in seat order: "win 7-3" reads the same from either seat.
  const seat = result.players.indexOf(name);
  const scores = result.scores ? ` ${[result.scores[seat], ...result.scores.filter((_, i) => i !== seat)].join('-')}` : '';
  const what = result.outcome === 'none' ? `no result (${result.reason})` : `${result.outcome === 'loss' ? 'loss' : result.outcome}${scores} against ${opponents.join(', ')}${result.reason ? ` (${result.reason})` : ''}`;
  const rating = result.rating === null ? '' : `, rating ${result.rating.toFixed(2)}`;
  return `game ${count} (${result.id}): ${what}${rating}; score +${score.wins} =${score.draws} -${score.losses}${score.unrated ? ` (${score.unrated} unrated)` : ''}`;
}

export function tally(score: ArenaScore, result: ArenaResultInfo): void {
  if (result.outcome === 'win') score.wins++;
  else if (result.outcome === 'draw') score.draws++;
  else if (result.outcome === 'loss') score.losses++;
  else score.unrated++;
}

export async function arenaCommand(options: ArenaCommandOptions): Promise<number> {
  const { write } = options;
  const status = (line: string): void => write(`> ${line}\n`);
  let client: CocoClient;
  try {
    client = await CocoClient.connect(options.url);
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)} (is cocod running there? -s URL picks the server)`, EXIT.connection);
  }
  const playing = new Set<Promise<void>>();
  try {
    const entered = await client.request({ type: 'ArenaEnter', game: options.game, name: options.name, token: options.token ?? null, concurrency: options.concurrency }, 'ArenaEntered');
    if ('Err' in entered.info) throw new CliError(withHint(entered.info.Err), EXIT.refused);
    const info = entered.info.Ok;
    const args = Object.entries(info.args).map(([key, value]) => `${key}=${value}`).join(' ');
    status(`queued as ${info.name} in the arena of ${info.game} (${info.players} players${args ? `, ${args}` : ''}), ${options.concurrency} game${options.concurrency === 1 ? '' : 's'} at once; Ctrl-C leaves after the games in progress`);

    let paired = 0;
    let finished = 0;
    const awaiting = new Set<string>();
    const score: ArenaScore = { wins: 0, draws: 0, losses: 0, unrated: 0 };
    let leaving = false;
    const leave = (why: string): void => {
      if (leaving) return;
      leaving = true;
      status(`${why}: leaving the queue${awaiting.size ? ` after the ${awaiting.size} game${awaiting.size === 1 ? '' : 's'} in progress` : ''}`);
      client.send({ type: 'ArenaLeave' });
    };
    const onLeave = (): void => leave(String(options.leave.reason ?? 'told to leave'));
    options.leave.addEventListener('abort', onLeave, { once: true });
    if (options.leave.aborted) onLeave();
    const stopped = new Promise<null>((resolve) => {
      if (options.stop.aborted) resolve(null);
      options.stop.addEventListener('abort', () => resolve(null), { once: true });
    });
    let left = false;
    try {
      // Done once the server said the entry left and every game it was paired for has its result.
      while (!(left && awaiting.size === 0)) {
        const item = await Promise.race([client.next(), stopped]);
        if (options.stop.aborted) {
          status('stopping the games in progress');
          return 128 + 2;
        }
        if (item === null) {
          status(`${client.closedBecause || 'connection to the server lost'}${awaiting.size ? ` with ${awaiting.size} games in progress` : ''}`);
          return EXIT.connection;
        }
        if (item.kind !== 'reply') continue;
        const reply = item.reply;
        switch (reply.type) {
          case 'ArenaPaired': {
            paired++;
            awaiting.add(reply.id);
            const opponents = reply.players.filter((player) => player !== options.name);
            status(`game ${paired} (${reply.id}) against ${opponents.join(', ')}: seat ${reply.players.indexOf(options.name) + 1} of ${reply.players.length}`);
            const game = playOne(options, reply.id, reply.password).finally(() => playing.delete(game));
            playing.add(game);
            if (options.games !== null && paired >= options.games) leave(`${options.games} game${options.games === 1 ? '' : 's'} started`);
            break;
          }
          case 'ArenaResult': {
            if (!awaiting.delete(reply.result.id)) break;
            finished++;
            tally(score, reply.result);
            status(arenaResultLine(reply.result, options.name, finished, score));
            break;
          }
          case 'ArenaHeld':
            status(`held out of pairing until ${new Date(reply.until).toISOString()}: ${reply.reason}`);
            break;
          case 'ArenaLeft':
            left = true;
            break;
          default:
            break;
        }
      }
      status(`left the arena after ${finished} game${finished === 1 ? '' : 's'}: +${score.wins} =${score.draws} -${score.losses}`);
      return EXIT.ok;
    } finally {
      options.leave.removeEventListener('abort', onLeave);
    }
  } finally {
    // The programs of games still running stop with them (a second signal, a lost connection).
    await Promise.all([...playing]);
    client.close();
  }
}

/** Plays one paired game through the bridge of `coco connect`; its result comes from the arena, so its own lines are kept quiet but for trouble. */
async function playOne(options: ArenaCommandOptions, id: string, password: string): Promise<void> {
  const status = (line: string): void => {
    if (/^(program exited|cannot|the program|connection to the server lost)/.test(line)) options.write(`> ${id}: ${line}\n`);
  };
  try {
    await connectProgram({
      url: options.url,
      id,
      spectate: false,
      name: options.name,
      password,
      // A claimed name's seat is joined with its token too, as every join of the name is.
      token: options.token ?? null,
      channel: 'stdio',
      program: options.program,
      status,
      signal: options.stop,
      ...(options.stderr && { stderr: options.stderr }),
    });
  } catch (error) {
    options.write(`> ${id}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
