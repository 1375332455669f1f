import { preprocessCommand } from '../games/quoridor/qtp-lines.js';
import type { ProgramChannel } from './program-channel.js';
import type { ProgramLink } from './program-link.js';

/**
 * `coco connect --restart-per-game`: a fresh QTP engine for each game of a match, as the course's
 * own referee runs engines.
 *
 * Why on coco's side: the server is the QTP controller and reaches the engine only through the
 * seat's stream, so an engine that crashed (or that the server timed out) leaves its seat closed
 * and forfeits every later game of the match. coco runs the engine, so coco can start it again.
 *
 * What it reads of the stream (and nothing more; the bytes pass unchanged):
 * - the commands from the server, line by line: each game starts with `boardsize` (then
 *   `clear_board`, `walls`), so a `boardsize` after the engine's first game is a game boundary;
 * - the engine's answer lines (first non-blank character `=` or `?`, as the server's controller
 *   reads them), to know which commands are still waiting for an answer.
 * At a boundary the engine gets `quit` and end of input, and is stopped if it lingers; a new one
 * is started and gets the `boardsize` and what follows. While no engine runs (it crashed, or did
 * not answer in time), coco answers each waiting and each new command with `? ...`: the server
 * counts that game as lost, as it would have anyway, and the seat stays for the next game.
 */

/** Longest server line interpreted as a command; longer ones pass through uninterpreted. */
const MAX_COMMAND_BYTES = 64 * 1024;
/** How long an engine has to leave after `quit` at a game boundary before it is stopped. */
export const QUIT_GRACE_MS = 500;

/**
 * coco's own deadline for an answer, from the match's timeout: the timeout less a margin for the
 * way to the server and back (a second, or a quarter of short timeouts), so that coco's `?`
 * reaches the server before the server times the seat out.
 */
export function answerDeadlineMs(timeoutSeconds: number): number {
  const ms = timeoutSeconds * 1000;
  return ms - Math.min(1000, ms / 4);
}

export interface QtpRestartOptions {
  /** Starts a fresh engine (rejects when it cannot be started). */
  readonly start: () => Promise<ProgramChannel>;
  /** Bytes for the server. */
  readonly output: (bytes: Buffer) => void;
  /** A status line for the user. */
  readonly status: (line: string) => void;
}

/** One running engine and what coco knows of its side of the conversation. */
interface Engine {
  readonly channel: ProgramChannel;
  /** Commands it received and has not answered yet. */
  waiting: number;
  /** It received a `boardsize`: the next one starts a new game and a new engine. */
  playedGame: boolean;
  /** It was sent `quit`: leaving is what it was asked to do. */
  quitting: boolean;
  /** It has left (exited, or stopped by coco): its output no longer counts and is not relayed. */
  gone: boolean;
  /** Its exit code once known. */
  code: number | null | undefined;
  /** Whether the current output line has shown its first character yet, and whether that was an answer. */
  lineStarted: boolean;
  midLine: boolean;
}

export class QtpRestarts implements ProgramLink {
  readonly exited: Promise<number | null>;
  private engine: Engine | null = null;
  private restarting = false;
  private stopped = false;
  private readonly held: Buffer[] = [];
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private deadlineMs: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private lastCode: number | null = 0;

  /** `first` is the engine already started (coco starts the program before it joins). */
  constructor(
    first: ProgramChannel,
    private readonly options: QtpRestartOptions,
  ) {
    this.engine = this.adopt(first, true);
    // Only the first start is fatal to coco (the user's command line is wrong); later ones are
    // reported and cost that game only. A link that restarts never exits by itself.
    this.exited = first.exited.then(() => new Promise<never>(() => {}));
    this.exited.catch(() => {});
  }

  /** Answers not given within `ms` of the command reaching coco stop the engine; null: no deadline. */
  answerWithin(ms: number | null): void {
    this.deadlineMs = ms;
  }

  write(bytes: Uint8Array): void {
    let start = 0;
    for (let lf = bytes.indexOf(0x0a); lf !== -1; lf = bytes.indexOf(0x0a, start)) {
      this.keep(bytes.subarray(start, lf + 1));
      this.line(Buffer.concat(this.partial, this.partialBytes));
      this.partial = [];
      this.partialBytes = 0;
      start = lf + 1;
    }
    if (start < bytes.length) this.keep(bytes.subarray(start));
    if (this.partialBytes > MAX_COMMAND_BYTES) {
      // Not a command the server sends: pass it on without looking at it.
      this.line(Buffer.concat(this.partial, this.partialBytes), false);
      this.partial = [];
      this.partialBytes = 0;
    }
  }

  async finish(graceMs: number): Promise<number | null | 'stopped'> {
    this.clearDeadline();
    const engine = this.engine;
    if (engine === null || engine.gone) {
      await this.stop();
      return this.lastCode;
    }
    engine.channel.input.end();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'stopped'>((resolve) => (timer = setTimeout(() => resolve('stopped'), graceMs)));
    const outcome = await Promise.race([engine.channel.exited.catch(() => null), late]);
    clearTimeout(timer);
    await this.stop();
    return outcome;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearDeadline();
    const engine = this.engine;
    if (engine) {
      engine.gone = true;
      await engine.channel.stop();
    }
  }

  private keep(bytes: Uint8Array): void {
    this.partial.push(Buffer.from(bytes));
    this.partialBytes += bytes.length;
  }

  /** One line from the server (with its LF). */
  private line(bytes: Buffer, interpret = true): void {
    if (this.restarting) {
      this.held.push(bytes);
      return;
    }
    const command = interpret ? commandName(bytes) : null;
    const engine = this.engine;
    if (command === 'boardsize' && (engine === null || engine.gone || engine.playedGame)) {
      this.held.push(bytes);
      void this.restart();
      return;
    }
    if (engine === null || engine.gone) {
      // No engine for the rest of this game: the server reads `?` as a lost game, not a lost seat.
      if (command !== null) this.options.output(Buffer.from('? the engine is not running\n\n'));
      return;
    }
    if (command === 'boardsize') engine.playedGame = true;
    if (command === 'quit') engine.quitting = true;
    if (!engine.channel.input.destroyed && !engine.channel.input.writableEnded) engine.channel.input.write(bytes);
    if (command !== null) {
      engine.waiting++;
      if (engine.waiting === 1) this.armDeadline(engine);
    }
  }

  private adopt(channel: ProgramChannel, first = false): Engine {
    const engine: Engine = { channel, waiting: 0, playedGame: false, quitting: false, gone: false, code: undefined, lineStarted: false, midLine: false };
    const output = channel.output!;
    output.on('data', (chunk: Buffer) => this.fromEngine(engine, chunk));
    // Its last answers may still be in the pipe when it exits: it is gone once its output ended too.
    const ended = new Promise<void>((resolve) => {
      output.once('end', resolve);
      output.once('close', resolve);
    });
    Promise.all([channel.exited, ended]).then(
      ([code]) => {
        engine.code = code;
        this.lastCode = code;
        if (engine.gone) return;
        if (!engine.quitting) this.options.status(`the engine exited with ${code === null ? 'a signal' : `code ${code}`}; a new one starts with the next game`);
        this.lose(engine, 'the engine exited');
      },
      (error: unknown) => {
        engine.code = 127;
        this.lastCode = 127;
        // The first engine's failure is coco's own (see `exited`); later ones cost a game.
        if (engine.gone || first) return;
        this.options.status(`cannot run the engine: ${error instanceof Error ? error.message : String(error)}`);
        this.lose(engine, 'the engine could not be started');
      },
    );
    return engine;
  }

  private fromEngine(engine: Engine, chunk: Buffer): void {
    if (engine.gone) return;
    this.options.output(chunk);
    for (const byte of chunk) {
      if (byte === 0x0a) {
        engine.lineStarted = false;
        engine.midLine = false;
        continue;
      }
      engine.midLine = true;
      // QTP's controller-side preprocessing drops control characters; leading spaces and tabs
      // do not count either: the first other character tells whether the line is an answer.
      if (engine.lineStarted || byte <= 0x20 || byte === 0x7f) continue;
      engine.lineStarted = true;
      if ((byte === 0x3d || byte === 0x3f) && engine.waiting > 0) {
        engine.waiting--;
        if (engine.waiting > 0) this.armDeadline(engine);
        else this.clearDeadline();
      }
    }
  }

  /** The engine left mid-game: its waiting commands get `?` from coco. */
  private lose(engine: Engine, why: string): void {
    engine.gone = true;
    if (this.engine === engine) this.clearDeadline();
    // A line it left unfinished is ended, so that our answer starts a line of its own.
    let text = engine.midLine ? '\n' : '';
    for (; engine.waiting > 0; engine.waiting--) text += `? ${why}\n\n`;
    if (text !== '') this.options.output(Buffer.from(text));
  }

  private armDeadline(engine: Engine): void {
    this.clearDeadline();
    if (this.deadlineMs === null) return;
    const seconds = this.deadlineMs / 1000;
    this.timer = setTimeout(() => {
      if (engine.gone || this.stopped) return;
      this.options.status(`the engine did not answer within ${seconds}s: stopping it; a new one starts with the next game`);
      this.lose(engine, 'the engine did not answer in time');
      void engine.channel.stop();
    }, this.deadlineMs);
  }

  private clearDeadline(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Game boundary: the old engine leaves, a new one takes the held lines from `boardsize` on. */
  private async restart(): Promise<void> {
    this.restarting = true;
    const old = this.engine;
    if (old && !old.gone) {
      old.gone = true; // its game is over: nothing it says now belongs to the match
      this.clearDeadline();
      if (!old.channel.input.destroyed && !old.channel.input.writableEnded) old.channel.input.end('quit\n');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        old.channel.exited.catch(() => null),
        new Promise((resolve) => (timer = setTimeout(resolve, QUIT_GRACE_MS))),
      ]);
      clearTimeout(timer);
    }
    if (old) await old.channel.stop();
    let next: Engine | null = null;
    if (!this.stopped) {
      try {
        next = this.adopt(await this.options.start());
      } catch (error) {
        this.options.status(`cannot restart the engine: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (this.stopped) {
      if (next) {
        next.gone = true;
        await next.channel.stop();
      }
      return;
    }
    this.engine = next;
    this.restarting = false;
    const held = this.held.splice(0);
    if (next === null) {
      // No engine for this game: its `boardsize` (the first held line) is refused by coco, and
      // the next game's `boardsize` tries again.
      held.shift();
      this.options.output(Buffer.from('? the engine could not be started\n\n'));
    }
    for (const bytes of held) this.line(bytes);
  }
}

/** The command's name in lower case (a leading numeric id skipped), or null for no command. */
function commandName(line: Buffer): string | null {
  const text = preprocessCommand(line.toString('latin1'));
  if (text === null) return null;
  const words = text.trim().split(' ').filter((word) => word !== '');
  if (words.length > 1 && /^\d+$/.test(words[0]!)) words.shift();
  return words[0]?.toLowerCase() ?? null;
}
