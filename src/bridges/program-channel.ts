import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { killTaggedProcesses, newProcessTag, taggedEnvironment } from '../util/process-sweep.js';

/**
 * The local end of `coco connect`: where the game stream goes to (the program's input) and
 * comes from (its output). A channel is only a transport; it never looks at the bytes.
 */
export interface ProgramChannel {
  /** Bytes from the server are written here. */
  readonly input: Writable;
  /** Bytes for the server are read from here; null when spectating. */
  readonly output: Readable | null;
  /** Resolves with the program's exit code (null if killed by a signal or no program). */
  readonly exited: Promise<number | null>;
  /** Stops the program if it still runs and removes what the channel created. */
  dispose(): void;
}

export const CHANNELS = ['stdio', 'pipe'] as const;
export type ChannelKind = (typeof CHANNELS)[number];

/**
 * Starts the user's program with a tag of its own in its environment (COCO_PROCESS_TAG, see
 * util/process-sweep.ts). When the program exits, whatever it started and left running (even
 * in a session of its own) is killed before `exited` resolves, so a match leaves none of its
 * processes behind. The program stays in coco's process group: Ctrl-C on the terminal reaches it.
 */
function startTagged(
  argv: readonly string[],
  stdio: StdioOptions,
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcess; exited: Promise<number | null> } {
  const tag = newProcessTag();
  const child = spawn(argv[0]!, argv.slice(1), { stdio, env: taggedEnvironment(tag, env) });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      void killTaggedProcesses(tag).finally(() => resolve(code));
    });
  });
  return { child, exited };
}

/** The program's stdin and stdout carry the stream; its stderr stays on the terminal. */
export function startStdioProgram(argv: readonly string[], spectating: boolean): ProgramChannel {
  const { child, exited } = startTagged(argv, ['pipe', spectating ? 'inherit' : 'pipe', 'inherit']);
  child.stdin!.on('error', () => {}); // the program may stop reading; that is its business
  return {
    input: child.stdin!,
    output: spectating ? null : child.stdout!,
    exited,
    dispose: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}

/**
 * Two named pipes in a private temporary folder, passed as COCO_PIPEIN (the program reads) and
 * COCO_PIPEOUT (the program writes; absent when spectating). Resolves once the program has
 * opened both, which is when it counts as started.
 */
export async function startPipeProgram(argv: readonly string[], spectating: boolean): Promise<ProgramChannel> {
  const folder = mkdtempSync(join(tmpdir(), 'coco-'));
  const pipeIn = join(folder, 'in');
  const pipeOut = join(folder, 'out');
  const fifos = spectating ? [pipeIn] : [pipeIn, pipeOut];
  // Node has no mkfifo; the POSIX command is on every system that has named pipes.
  const made = spawnSync('mkfifo', ['-m', '600', ...fifos]);
  if (made.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`cannot create named pipes: ${made.stderr?.toString().trim() || made.error?.message}`);
  }
  const env = { ...process.env, COCO_PIPEIN: pipeIn, ...(spectating ? {} : { COCO_PIPEOUT: pipeOut }) };
  const { child, exited } = startTagged(argv, 'inherit', env);
  const cleanup = (): void => rmSync(folder, { recursive: true, force: true });
  // Opening a FIFO waits for the other end: both opens complete once the program opened its ends.
  const input = createWriteStream(pipeIn);
  input.on('error', () => {});
  const output = spectating ? null : createReadStream(pipeOut);
  const opened = Promise.all([
    new Promise((resolve) => input.once('open', resolve)),
    output ? new Promise((resolve) => output.once('open', resolve)) : Promise.resolve(),
  ]);
  const early = exited.then((code) => {
    throw new Error(`the program exited (code ${code}) before opening its pipes`);
  });
  try {
    await Promise.race([opened, early]);
  } catch (error) {
    input.destroy();
    output?.destroy();
    cleanup();
    throw error;
  }
  early.catch(() => {});
  return {
    input,
    output,
    exited,
    dispose: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      cleanup();
    },
  };
}

/**
 * No program: coco's own stdin and stdout carry the stream. The "program" is done when the stream
 * to it has been written out; coco's stdout itself stays open for its status lines.
 */
export function ownStdio(spectating: boolean): ProgramChannel {
  const input = new PassThrough();
  input.pipe(process.stdout, { end: false });
  return {
    input,
    output: spectating ? null : process.stdin,
    exited: new Promise((resolve) => input.once('end', () => resolve(0))),
    dispose: () => {
      process.stdin.destroy();
    },
  };
}
