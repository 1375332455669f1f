/**
 * `coco uci`: plays the chess stream with any engine that speaks the Universal Chess Interface.
 * It reads the stream on stdin and writes moves on stdout (so `coco connect ID -- coco uci --
 * stockfish` plays), and talks UCI with the engine on the engine's own stdin/stdout.
 *
 * The engine gets `position startpos moves ...` and `go movetime N` for each move; its `bestmove`
 * is written in the stream's syntax. A draw offer is refused; the game's end (or the end of the
 * stream) sends `quit`.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { Chess, normalizeMove } from 'chessops/chess';
import type { NormalMove } from 'chessops/types';
import { parseUci } from 'chessops/util';
import { readEcho, standardUci, writeCommand } from './notation.js';
import { ChessGame } from './rules.js';

export interface UciBridgeOptions {
  readonly engine: string;
  readonly engineArgs: readonly string[];
  /** Milliseconds the engine thinks per move. */
  readonly movetime: number;
  /** UCI options set before the game (`setoption name N value V`). */
  readonly options: Readonly<Record<string, string>>;
  readonly input: Readable;
  readonly output: Writable;
  readonly log: (line: string) => void;
}

/** How long the engine may take to answer `uci` and `isready`, and to exit after `quit`. */
const HANDSHAKE_MS = 30_000;
const QUIT_GRACE_MS = 2000;

/** A line reader over a stream that can be awaited line by line. */
class Lines {
  private readonly queue: string[] = [];
  private waiting: ((line: string | null) => void) | null = null;
  private ended = false;

  constructor(stream: Readable) {
    const reader = createInterface({ input: stream, crlfDelay: Infinity });
    reader.on('line', (line) => {
      if (this.waiting) {
        const wake = this.waiting;
        this.waiting = null;
        wake(line);
      } else this.queue.push(line);
    });
    reader.on('close', () => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = null;
    });
  }

  next(): Promise<string | null> {
    const line = this.queue.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

class UciEngine {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly lines: Lines;
  readonly exited: Promise<number | null>;
  /** Set when the command could not be run at all (already said in the log). */
  failedToStart = false;

  constructor(command: string, args: readonly string[], private readonly log: (line: string) => void) {
    this.child = spawn(command, [...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code) => resolve(code));
      this.child.once('error', (error) => {
        this.failedToStart = true;
        log(`cannot start the engine "${command}": ${error.message}`);
        resolve(null);
      });
    });
    this.child.stdin.on('error', () => {});
    this.lines = new Lines(this.child.stdout);
  }

  send(command: string): void {
    if (!this.child.stdin.destroyed) this.child.stdin.write(`${command}\n`);
  }

  /** Reads the engine's lines until one starts with `prefix`; that line, or null when it ended or took too long. */
  async expect(prefix: string, timeoutMs: number): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
    try {
      for (;;) {
        const line = await Promise.race([this.lines.next(), late]);
        if (line === null) return null;
        if (line === prefix || line.startsWith(`${prefix} `)) return line;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async quit(): Promise<void> {
    this.send('quit');
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), QUIT_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Plays one game; resolves with the exit status for the command. */
export async function runUciBridge(options: UciBridgeOptions): Promise<number> {
  const stream = new Lines(options.input);
  const engine = new UciEngine(options.engine, options.engineArgs, options.log);
  const say = (line: string): void => void options.output.write(`${line}\n`);
  try {
    engine.send('uci');
    if (!(await engine.expect('uciok', HANDSHAKE_MS))) {
      if (!engine.failedToStart) options.log('the engine did not answer "uci" with "uciok"');
      return 1;
    }
    for (const [name, value] of Object.entries(options.options)) engine.send(`setoption name ${name} value ${value}`);
    engine.send('ucinewgame');
    engine.send('isready');
    if (!(await engine.expect('readyok', HANDSHAKE_MS))) {
      options.log('the engine did not answer "isready" with "readyok"');
      return 1;
    }

    // The game as the server keeps it: when its rules end the game, the result line follows and the
    // engine is not asked for a move.
    const game = new ChessGame(Chess.default());
    const position = game.position;
    const moves: string[] = [];
    for (let i = 0; i < 2; i++) if ((await stream.next()) === null) return 0;
    const colourLine = await stream.next();
    if (colourLine === null) return 0;
    const colour = colourLine.trim() === '0' ? 'white' : 'black';
    const think = async (): Promise<boolean> => {
      engine.send(`position startpos${moves.length ? ` moves ${moves.join(' ')}` : ''}`);
      engine.send(`go movetime ${options.movetime}`);
      const best = await engine.expect('bestmove', options.movetime + HANDSHAKE_MS);
      const uci = best?.split(' ')[1];
      const parsed = uci ? parseUci(uci) : undefined;
      if (!parsed || !('from' in parsed)) {
        options.log(best ? `the engine gave no move: ${best}` : 'the engine stopped answering');
        return false;
      }
      const move = normalizeMove(position, parsed) as NormalMove;
      if (!position.isLegal(move)) {
        options.log(`the engine's move ${uci} is not legal here`);
        return false;
      }
      say(writeCommand(position, move));
      return true;
    };

    if (colour === 'white' && !(await think())) return 1;
    for (;;) {
      const line = await stream.next();
      if (line === null) return 0;
      if (line.startsWith('OK ')) {
        const move = readEcho(position, line);
        if (!move) {
          options.log(`cannot follow the game: ${line}`);
          return 1;
        }
        moves.push(standardUci(position, move));
        game.play(move);
        if (position.turn === colour && !game.ending() && !(await think())) return 1;
      } else if (line === 'DRAW <PROPOSED>' && position.turn !== colour) {
        say('NO');
      } else if (line.startsWith('WINNER') || line === 'RETIRE' || (line.startsWith('DRAW <') && line !== 'DRAW <PROPOSED>' && line !== 'DRAW <REFUSED>')) {
        return 0;
      }
    }
  } finally {
    await engine.quit();
  }
}
