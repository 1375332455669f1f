import { StringDecoder } from 'node:string_decoder';
import type { BotIO } from '../../match/game.js';
import { ChildProgram } from './child-program.js';
import type { Argv } from './manifest.js';

/** A local program that plays as a server bot: its argv (no shell) and its working folder. */
export interface BotProgram {
  readonly argv: Argv;
  readonly cwd: string;
}

/**
 * Input waiting for a bot program beyond what its stdin pipe holds, past which the program is
 * stopped and its seat ends (the game server gets `dropped p`). The reference controller buffers
 * nothing: it drops a bot whose pipe stays full for about 10 ms. A byte bound instead of a time
 * bound keeps a bot that reads, only slowly on a busy machine, and cannot depend on timing;
 * 64 KiB on top of the pipe's own 64 KiB is far more than a turn of any game needs.
 */
export const BOT_MAX_PENDING_INPUT_BYTES = 64 * 1024;

/**
 * Plays one seat with a local program: the lines its game writes go to the program's stdin, what
 * the program prints goes to the seat as it is (the seat splits lines and enforces the line
 * limit). `onOutputEnd` is called once when the program can no longer talk (stdout closed, or it
 * could not start). Resolves when the match is done with the seat; the program and everything it
 * started (ChildProgram.stop) are killed then, on every path.
 */
export async function runProgramBot(io: BotIO, program: BotProgram): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    io.end();
  };
  const child = new ChildProgram(
    program.argv,
    program.cwd,
    {
      stdout: (chunk) => io.write(decoder.write(chunk)),
      stdoutEnd: () => {
        const rest = decoder.end();
        if (rest) io.write(rest);
        end();
      },
      exit: () => {},
      spawnError: () => end(),
    },
    { keepStderr: false },
  );
  try {
    for (;;) {
      const line = await io.readLine();
      if (line === null) break;
      if (ended) continue;
      child.write(`${line}\n`);
      if (child.pendingInput > BOT_MAX_PENDING_INPUT_BYTES) {
        // The seat ends first, so the game hears of it now, not after the process sweep.
        end();
        await child.stop();
      }
    }
  } finally {
    await child.stop();
  }
}
