import type { MatchContext, MatchResult } from '../../match/game.js';

/** What one external match reports beyond the runtime's MatchOutcome, and how it fails. */

export interface PlayerErrorRecord {
  /** 1-based player number, as on the wire. */
  readonly player: number;
  readonly text: string;
}

/** Everything about one external match that the runtime's MatchOutcome does not hold. */
export interface ExternalMatchReport {
  readonly game: string;
  readonly seatNames: readonly string[];
  readonly param: string;
  /** The reference-format replay log (replay-log.ts). */
  readonly replay: string;
  readonly replayTruncated: boolean;
  readonly playerErrors: readonly PlayerErrorRecord[];
  /** 1-based players dropped by the controller or who left, in order. */
  readonly dropped: readonly number[];
  readonly stderrTail: string;
  readonly serverPid: number | undefined;
  readonly result: MatchResult | null;
  readonly error: string | null;
}

export interface ExternalGameHooks {
  /**
   * Called once per match, after the game server is gone and before `play` returns. `ctx` is the
   * match's context object, to tell concurrent matches apart.
   */
  onMatchEnd?(report: ExternalMatchReport, ctx: MatchContext): void;
}

/** A failure of the game itself; its stack is its message, so the match record stays readable. */
export class ExternalGameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExternalGameError';
    this.stack = message;
  }
}
