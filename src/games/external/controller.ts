import type { MatchContext, MatchResult } from '../../match/game.js';
import type { PlayerSeat, SeatCloseReason } from '../../match/seat.js';
import { LineSplitter } from '../../protocol/line-splitter.js';
import { ChildProgram } from './child-program.js';
import type { GameManifest } from './manifest.js';
import { REPLAY_ARTIFACT, ReplayLog } from './replay-log.js';
import { ExternalGameError, REPORT_ARTIFACT, reportArtifactText, type ExternalGameHooks, type ExternalMatchReport } from './match-report.js';
import { PlayerErrorLog } from './player-errors.js';
import { storedScore } from './score-text.js';
import { parseServerLine, type ServerCommand } from './server-line.js';
import { VisGate } from './vis-gate.js';

/**
 * The controller of one external match (notes/game-server-protocol.md): it runs the game server
 * as a child process and joins it to the seats through the match runtime.
 *
 * To the game server: `vis inline`, `param ...`, `dropped p` for each player whose first line is
 * not `ready` (at once) or who is silent past the ready deadline, then `start` once every seat has
 * answered, then `recv p line`, `timeout id`, `dropped p`.
 * From the game server: `send`, `sendall`, `playererror`, `over`, `timer`, `vis`.
 * Spectators receive every `sendall` message, one line each, as the players do.
 * What the reference controller does in each case (notes/game-server-protocol.md, last section)
 * is what this one does; README.md beside this file lists the choices where it could not be.
 *
 * A game server that fails (crash, exit without `over`, garbage, flood, bad command, the match's
 * time limit) ends the match with an ExternalGameError, which the runtime records as the match
 * error. Whatever happens, the game server and everything it started (ChildProgram.stop) are
 * killed and waited for before `play` returns.
 */

/** Unread input of the game server beyond which it is failed (it is not reading). */
export const SERVER_MAX_PENDING_INPUT_BYTES = 4 * 1024 * 1024;
/** Timers a game server may have running at once. */
export const MAX_PENDING_TIMERS = 10_000;
/** The stall watchdog's least allowance before the game server's first line (its start-up). */
export const STARTUP_ALLOWANCE_SECONDS = 10;
/** After the game server's output ends, how long to wait for its exit status before failing. */
const EXIT_STATUS_WAIT_SECONDS = 0.5;

export interface ControllerSetup {
  readonly manifest: GameManifest;
  readonly folder: string;
  /** The instantiated param string (without the leading `param `). */
  readonly param: string;
  readonly hooks: ExternalGameHooks;
}

type Ending = { readonly result: MatchResult } | { readonly error: string };

export function runExternalMatch(ctx: MatchContext, setup: ControllerSetup): Promise<MatchResult> {
  return new ExternalMatch(ctx, setup).run();
}

class ExternalMatch {
  private readonly players: number;
  private readonly replay: ReplayLog;
  private readonly splitter: LineSplitter;
  /** Null: no stall watchdog (the default; `max_match_seconds` bounds the match). */
  private readonly stallSeconds: number | null;
  private child!: ChildProgram;
  private done = false;
  private started = false;
  private answered = 0;
  private readonly dropped: number[] = [];
  private readonly errors: PlayerErrorLog;
  private readonly visGate = new VisGate();
  private printedScores: readonly string[] | null = null;
  private readonly cancels = new Set<() => void>();
  private pendingTimers = 0;
  private lastActivity = 0;
  /** Whether the game server has printed a line yet. */
  private printed = false;
  private outputBytes = 0;
  private exitStatus: string | null = null;
  private outputEnded = false;
  private openGate!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.openGate = resolve));
  private settle!: { resolve(result: MatchResult): void; reject(error: Error): void };

  constructor(
    private readonly ctx: MatchContext,
    private readonly setup: ControllerSetup,
  ) {
    this.players = ctx.seats.length;
    // Replay times are read from the match's clock, so a test that moves time by hand sees them move.
    const startMark = ctx.elapsed();
    this.replay = new ReplayLog(() => ctx.elapsed() - startMark);
    const { manifest } = setup;
    this.errors = new PlayerErrorLog(this.players, manifest.playerErrorLimit);
    this.stallSeconds = manifest.stallDeadline;
    this.splitter = new LineSplitter(manifest.lineLimit, {
      line: (line) => this.onServerLine(line),
      error: (code) =>
        this.fail(code === 'line/too-long' ? `the game server printed a line over ${manifest.lineLimit} bytes` : 'the game server printed invalid UTF-8'),
    });
  }

  run(): Promise<MatchResult> {
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
      this.begin();
    });
  }

  private begin(): void {
    const { manifest, folder } = this.setup;
    try {
      this.child = this.startServer(manifest, folder);
    } catch (error) {
      // spawn() throws only for arguments it refuses outright; no process exists then.
      this.done = true;
      this.settle.reject(new ExternalGameError(`game server failed: cannot start ${JSON.stringify(manifest.command)}: ${String(error)}`));
      return;
    }
    this.toServer(`vis ${manifest.vis}`);
    this.toServer(`param ${this.setup.param}`);
    this.later(manifest.maxMatchSeconds, () => this.fail(`the match lasted longer than its limit of ${manifest.maxMatchSeconds} s`));
    this.ctx.seats.forEach((seat, index) => {
      this.runSeat(seat, index + 1).catch((error: unknown) => this.fail(`controller error: ${String(error)}`));
    });
  }

  private startServer(manifest: GameManifest, folder: string): ChildProgram {
    return new ChildProgram(
      manifest.command,
      folder,
      {
        stdout: (chunk) => this.onServerOutput(chunk),
        stdoutEnd: () => this.onServerOutputEnd(),
        exit: (code, signal) => this.onServerExit(code, signal),
        spawnError: (error) => this.fail(`cannot start the game server ${JSON.stringify(manifest.command)}: ${error.message}`),
      },
      { keepStderr: true },
    );
  }

  // --- players -------------------------------------------------------------------------------

  private async runSeat(seat: PlayerSeat, player: number): Promise<void> {
    const first = await seat.readLine({ timeoutSeconds: this.setup.manifest.readyDeadline });
    if (this.done) return;
    if (first !== null) this.activity();
    // Dropped at once, so the game server hears of it before `start`, as from the reference.
    if (first !== 'ready') this.drop(player, 'removed');
    this.answered++;
    if (this.answered === this.players) this.sendStart();
    await this.gate;
    while (!this.done && !this.isDropped(player)) {
      await this.child.drained();
      if (this.done || this.isDropped(player)) return;
      const line = await seat.readLine({ timeoutSeconds: Infinity });
      if (this.done) return;
      if (line === null) {
        this.drop(player, 'disconnected');
        return;
      }
      this.activity();
      this.toServer(`recv ${player} ${line}`);
    }
  }

  private sendStart(): void {
    if (this.done || this.started) return;
    this.started = true;
    this.toServer('start');
    this.activity();
    if (this.stallSeconds !== null) this.armWatchdog(this.stallSeconds);
    // Lines ready players sent meanwhile wait in their seats and are forwarded from now on.
    this.openGate();
  }

  private isDropped(player: number): boolean {
    return this.dropped.includes(player);
  }

  /** Removes a player (closing its seat unless it is closed already) and tells the game server. */
  private drop(player: number, reason: SeatCloseReason): void {
    if (this.isDropped(player)) return;
    this.dropped.push(player);
    this.ctx.seats[player - 1]!.close(reason);
    this.toServer(`dropped ${player}`);
  }

  /**
   * A player at its error limit: dropped, and when it is gone already, `dropped p` again, as the
   * reference answers every later `playererror` naming it.
   */
  private kick(player: number): void {
    if (this.isDropped(player)) this.toServer(`dropped ${player}`);
    else this.drop(player, 'removed');
  }

  // --- the game server -----------------------------------------------------------------------

  private toServer(line: string): void {
    if (this.done) return;
    this.replay.sent(line);
    this.child.write(`${line}\n`);
    if (this.child.pendingInput > SERVER_MAX_PENDING_INPUT_BYTES) {
      this.fail(`the game server is not reading its input (${this.child.pendingInput} bytes waiting)`);
    }
  }

  private onServerOutput(chunk: Buffer): void {
    if (this.done) return;
    this.outputBytes += chunk.length;
    if (this.outputBytes > this.setup.manifest.maxOutputBytes) {
      this.fail(`the game server printed more than its limit of ${this.setup.manifest.maxOutputBytes} bytes`);
      return;
    }
    this.splitter.push(chunk);
  }

  private onServerOutputEnd(): void {
    if (this.done) return;
    this.splitter.end();
    this.outputEnded = true;
    if (this.exitStatus !== null) this.failWithoutOver();
    // Wait a moment for the exit status, which makes the error clearer.
    else this.later(EXIT_STATUS_WAIT_SECONDS, () => this.failWithoutOver());
  }

  private onServerExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitStatus = signal ? `killed by ${signal}` : `exit code ${code}`;
    if (this.done) return;
    if (this.outputEnded) this.failWithoutOver();
    // Its last lines may still be in the pipe (or a child of it may hold the pipe): wait a moment.
    else this.later(EXIT_STATUS_WAIT_SECONDS, () => this.failWithoutOver());
  }

  private failWithoutOver(): void {
    this.fail(`the game server ${this.exitStatus === null ? 'closed its output' : 'ended'} without "over"${this.exitText()}`);
  }

  private exitText(): string {
    return this.exitStatus === null ? '' : ` (${this.exitStatus})`;
  }

  private onServerLine(line: string): void {
    if (this.done) return;
    this.printed = true;
    this.activity();
    this.replay.received(line);
    if (line === '') {
      this.fail('the game server printed an empty line');
      return;
    }
    const command = parseServerLine(line, this.players);
    if (!command.ok) {
      this.fail(`the game server printed a bad line: ${command.error.message} [${command.error.code}]`);
      return;
    }
    this.execute(command.value);
  }

  private execute(command: ServerCommand): void {
    const { seats } = this.ctx;
    switch (command.kind) {
      case 'send':
        if (!this.isDropped(command.player)) seats[command.player - 1]!.write(`${command.message}\n`);
        return;
      case 'sendall':
        seats.forEach((seat, index) => {
          if (!this.isDropped(index + 1)) seat.write(`${command.message}\n`);
        });
        this.ctx.spectators.write(`${command.message}\n`);
        return;
      case 'playererror':
        if (this.errors.record(command.player, command.text)) this.kick(command.player);
        return;
      case 'stray-playererror':
        // No such player: the reference neither fails the match nor records it; it only answers.
        this.toServer(`dropped ${command.number}`);
        return;
      case 'timer': {
        if (this.pendingTimers >= MAX_PENDING_TIMERS) {
          this.fail(`the game server set more than ${MAX_PENDING_TIMERS} timers at once`);
          return;
        }
        this.pendingTimers++;
        this.later(command.ms / 1000, () => {
          this.pendingTimers--;
          this.activity();
          this.toServer(`timeout ${command.id}`);
        });
        return;
      }
      case 'vis': {
        const event = this.visGate.accept(command.body);
        if (event) this.ctx.vis(event);
        return;
      }
      case 'over':
        this.printedScores = command.printed;
        this.finish({ result: { scores: command.scores.map(storedScore), reason: command.reason } });
        return;
    }
  }

  // --- time ----------------------------------------------------------------------------------

  /** A timer that is cancelled when the match ends. */
  private later(seconds: number, callback: () => void): void {
    const cancel = this.ctx.after(seconds, () => {
      this.cancels.delete(cancel);
      if (!this.done) callback();
    });
    this.cancels.add(cancel);
  }

  private activity(): void {
    this.lastActivity = this.ctx.elapsed();
  }

  /**
   * The stall watchdog, only when the manifest asks for one (`stall_deadline`): a match where no
   * line went either way for `stallSeconds` while no timer of the game server was pending fails.
   * Off by default, because the reference has none short of a day: a game server may wait for
   * minutes on its own (a sleep, a slow computation), and a player without a time limit is the
   * game server's business. `max_match_seconds` bounds every match. Until the game server has
   * printed its first line it may still be starting (an interpreter on a busy machine), so it gets
   * at least STARTUP_ALLOWANCE_SECONDS then.
   */
  private armWatchdog(seconds: number): void {
    const stallSeconds = this.stallSeconds!;
    this.later(seconds, () => {
      const limit = this.printed ? stallSeconds : Math.max(stallSeconds, STARTUP_ALLOWANCE_SECONDS);
      const idle = this.ctx.elapsed() - this.lastActivity;
      if (this.pendingTimers > 0) this.armWatchdog(limit);
      else if (idle >= limit - 0.001) {
        this.fail(`the match stalled: no line from the game server or any player for ${limit} s and no timer pending`);
      } else this.armWatchdog(limit - idle);
    });
  }

  // --- the end -------------------------------------------------------------------------------

  private fail(reason: string): void {
    this.finish({ error: reason });
  }

  private finish(ending: Ending): void {
    if (this.done) return;
    this.done = true;
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
    this.openGate();
    void this.child.stop().then(() => {
      const stderrTail = this.child.stderrTail();
      const error =
        'error' in ending
          ? `game server failed: ${ending.error}${stderrTail ? `\n--- game server stderr (last bytes) ---\n${stderrTail}` : ''}`
          : null;
      const result = 'result' in ending ? ending.result : null;
      const report: ExternalMatchReport = {
        game: this.setup.manifest.name,
        seatNames: this.ctx.seats.map((seat) => seat.name),
        param: this.setup.param,
        replay: this.replay.text(),
        replayTruncated: this.replay.truncated,
        playerErrors: this.errors.records(),
        playerErrorCounts: this.errors.totals(),
        dropped: this.dropped,
        visRefusals: this.visGate.refusals(),
        visRefusedCount: this.visGate.refused,
        printedScores: this.printedScores,
        stderrTail,
        serverPid: this.child.pid,
        result,
        error,
      };
      this.ctx.attach(REPLAY_ARTIFACT, report.replay);
      this.ctx.attach(REPORT_ARTIFACT, reportArtifactText(report));
      try {
        this.setup.hooks.onMatchEnd?.(report, this.ctx);
      } catch {
        // A failing hook must not change the outcome of the match.
      }
      if (result) this.settle.resolve(result);
      else this.settle.reject(new ExternalGameError(error ?? 'game server failed'));
    });
  }
}
