import type { MatchContext, MatchResult } from '../../match/game.js';

/** What one external match reports beyond the runtime's MatchOutcome, and how it fails. */

export interface PlayerErrorRecord {
  /** 1-based player number, as on the wire. */
  readonly player: number;
  readonly text: string;
}

/** A `vis` line the controller refused: its text (cut when long) and why. */
export interface VisRefusal {
  readonly line: string;
  readonly why: string;
}

/** Everything about one external match that the runtime's MatchOutcome does not hold. */
export interface ExternalMatchReport {
  readonly game: string;
  readonly seatNames: readonly string[];
  readonly param: string;
  /** The reference-format replay log (replay-log.ts). */
  readonly replay: string;
  readonly replayTruncated: boolean;
  /** Up to PLAYER_ERRORS_KEPT texts per player, in order. */
  readonly playerErrors: readonly PlayerErrorRecord[];
  /** `playererror` lines per player (index p-1), kept or not. */
  readonly playerErrorCounts: readonly number[];
  /** 1-based players dropped by the controller or who left, in order. */
  readonly dropped: readonly number[];
  /** The first VIS_REFUSALS_KEPT refused `vis` lines. */
  readonly visRefusals: readonly VisRefusal[];
  readonly visRefusedCount: number;
  /** The scores of `over` as the game server printed them (`inf`, `NaN`...), null without `over`. */
  readonly printedScores: readonly string[] | null;
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

/** The artifact with the report's findings, kept with the match record and shown on the web page. */
export const REPORT_ARTIFACT = 'report.json';

/**
 * The report as the match record keeps it (artifact REPORT_ARTIFACT), snake_case as the history
 * API. Only what the record has nowhere else: the replay log and transcripts are artifacts of
 * their own, the result and error are in the record.
 */
export function reportArtifactText(report: ExternalMatchReport): string {
  return JSON.stringify({
    dropped: report.dropped,
    player_errors: report.playerErrors,
    player_error_counts: report.playerErrorCounts,
    printed_scores: report.printedScores,
    vis_refused: report.visRefusals,
    vis_refused_count: report.visRefusedCount,
  });
}

/** A failure of the game itself; its stack is its message, so the match record stays readable. */
export class ExternalGameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExternalGameError';
    this.stack = message;
  }
}
