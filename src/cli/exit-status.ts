/**
 * The exit statuses of `coco`, one for each way out a script may want to tell apart (README.md,
 * "Exit statuses", and `coco connect --help` list them). Signals add 128 + the signal's number.
 */
export const EXIT = {
  /** The command did its work; for `connect`, the match ended (won, lost or drawn). */
  ok: 0,
  /** Anything else that went wrong. */
  error: 1,
  /** The command line is wrong. */
  usage: 2,
  /** The server said no: no such match or game, wrong password, name taken, already running. */
  refused: 3,
  /** The server could not be reached, or the connection was lost before the match ended. */
  connection: 4,
  /** The program could not be started. */
  programStart: 5,
  /** The program crashed or exited before the match ended. */
  programEnded: 6,
  /** The match expired in the lobby before it started. */
  expired: 7,
} as const;

export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

/** The table printed by `coco connect --help`; README.md has the same one. */
export const EXIT_HELP = `Exit statuses:
  0    the match ended (won, lost or drawn); other commands: done
  1    another error
  2    the command line is wrong
  3    the server refused: no such match or game, wrong password, name taken, already running
  4    the server could not be reached, or the connection was lost before the match ended
  5    the program could not be started
  6    the program crashed or exited before the match ended
  7    the match expired before it started
  128+N  coco was ended by signal N (SIGINT 130, SIGTERM 143, SIGHUP 129)
`;

/**
 * An error that ends the command with a given status and a one-line message (coco prints
 * `coco: MESSAGE` on stderr, never a stack trace).
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly status: ExitStatus,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}
