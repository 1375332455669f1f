import type { ProgramChannel } from './program-channel.js';

/**
 * What `coco connect` relays a seat's stream to: one program for the whole match, or (for QTP
 * engines, see qtp-restarts.ts) a fresh program for each game. The connection code only moves
 * bytes through it and tells it when the match is over.
 */
export interface ProgramLink {
  /** Bytes from the server, for the program. */
  write(bytes: Uint8Array): void;
  /**
   * Resolves with the exit code (null after a signal) when the program has left the match by
   * itself; rejects when it cannot be started. A link that restarts its program never resolves.
   */
  readonly exited: Promise<number | null>;
  /**
   * The match is over: ends the program's input and waits up to `graceMs` for it to exit, then
   * stops it. Resolves with its exit code, or 'stopped' when it had to be stopped.
   */
  finish(graceMs: number): Promise<number | null | 'stopped'>;
  /** Ends the program now (see ProgramChannel.stop); safe to call more than once. */
  stop(): Promise<void>;
}

/** One program for the whole match; its output goes to `output` as it comes. */
export function singleProgram(channel: ProgramChannel, output: (bytes: Buffer) => void): ProgramLink {
  channel.output?.on('data', output);
  return {
    write: (bytes) => {
      if (!channel.input.destroyed && !channel.input.writableEnded) channel.input.write(bytes);
    },
    exited: channel.exited,
    finish: async (graceMs) => {
      channel.input.end();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'stopped'>((resolve) => (timer = setTimeout(() => resolve('stopped'), graceMs)));
      const outcome = await Promise.race([channel.exited.catch(() => null), late]);
      clearTimeout(timer);
      await channel.stop();
      return outcome;
    },
    stop: () => channel.stop(),
  };
}
