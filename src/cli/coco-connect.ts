import { CocoClient } from '../client/coco-client.js';
import { ownStdio, startPipeProgram, startStdioProgram, type ChannelKind, type ProgramChannel } from '../bridges/program-channel.js';
import type { MatchInfo } from '../protocol/coco/messages.js';

export interface ConnectOptions {
  readonly url: string;
  readonly id: string;
  readonly spectate: boolean;
  readonly name: string;
  readonly password: string | null;
  readonly channel: ChannelKind;
  /** The program and its arguments; empty for coco's own stdin/stdout. */
  readonly program: readonly string[];
  readonly status: (line: string) => void;
}

/** How long a program may take to finish after its match ended before it is stopped. */
const EXIT_GRACE_MS = 10_000;
/**
 * How long coco waits for the end of the match after the program exited while playing: a bot
 * usually exits right after the last move, and the server announces the end once its record is
 * kept, a moment later.
 */
const END_GRACE_MS = 5_000;

function players(info: MatchInfo): string {
  return `${info.connected.length + info.bots}/${info.players}`;
}

/**
 * `coco connect`: starts the program first, then joins (or spectates) the match and moves bytes
 * between the server and the program until the match ends. Returns the exit status.
 */
export async function connectProgram(options: ConnectOptions): Promise<number> {
  const { status, spectate } = options;
  let program: ProgramChannel;
  if (options.program.length === 0) program = ownStdio(spectate);
  else if (options.channel === 'pipe') program = await startPipeProgram(options.program, spectate);
  else program = startStdioProgram(options.program, spectate);

  let client: CocoClient;
  try {
    client = await CocoClient.connect(options.url);
  } catch (error) {
    program.dispose();
    throw error;
  }

  let programExit: number | null | undefined;
  let playing = false;
  let ended = false;
  const early: Buffer[] = [];
  program.exited.then(
    (code) => {
      programExit = code;
      if (ended) return;
      const giveUp = (): void => {
        if (ended) return;
        status(`program exited with ${code === null ? 'a signal' : `code ${code}`} before the match ended`);
        client.close();
      };
      if (playing && code === 0) setTimeout(giveUp, END_GRACE_MS).unref();
      else giveUp();
    },
    (error: unknown) => {
      programExit = 127;
      status(`cannot run the program: ${error instanceof Error ? error.message : String(error)}`);
      client.close();
    },
  );
  program.output?.on('data', (chunk: Buffer) => {
    if (playing) client.sendBytes(chunk);
    else early.push(chunk);
  });
  if (options.program.length === 0) program.output?.on('end', () => !ended && client.close());

  const finish = async (code: number): Promise<number> => {
    ended = true;
    program.input.end();
    const exited = await Promise.race([
      program.exited.catch(() => null),
      new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), EXIT_GRACE_MS).unref()),
    ]);
    if (exited === 'late') status('the program did not exit after the match: stopping it');
    program.dispose();
    client.close();
    return code !== 0 ? code : typeof exited === 'number' ? exited : 0;
  };

  if (spectate) {
    const joined = await client.request({ type: 'SpectateJoin', id: options.id }, 'SpectateJoined');
    if ('Err' in joined.info) {
      program.dispose();
      client.close();
      throw new Error(joined.info.Err);
    }
    status(`spectating "${joined.info.Ok.name}" (${joined.info.Ok.id}), a match of ${joined.info.Ok.game}`);
  } else {
    const joined = await client.request({ type: 'LobbyJoinMatch', id: options.id, name: options.name, password: options.password }, 'LobbyJoinedMatch');
    if ('Err' in joined.info) {
      program.dispose();
      client.close();
      throw new Error(joined.info.Err);
    }
    const info = joined.info.Ok;
    status(`joined "${info.name}" (${info.id}), a match of ${info.game}, as ${options.name}`);
    status(`waiting for players: ${info.connected.length + 1 + info.bots}/${info.players}`);
  }

  for (;;) {
    const item = await client.next();
    if (item === null) {
      if (programExit !== undefined) return finish(programExit === 0 ? 1 : programExit ?? 1);
      status(client.closedBecause || 'connection to the server lost');
      return finish(1);
    }
    if (item.kind === 'data') {
      program.input.write(item.bytes);
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
}
