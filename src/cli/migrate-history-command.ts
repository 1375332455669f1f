import { parseArgs } from 'node:util';
import { DEFAULT_MIGRATE_BATCH, migrateHistory, type MigrateProgress } from '../store/migrate-history.js';
import { errorText, isPostgresUrl, maskedUrl } from '../store/postgres-connection.js';
import { err, ok, type Result } from '../util/result.js';

export const MIGRATE_HISTORY_HELP = `cocod migrate-history: copy an SQLite history into PostgreSQL

Usage: cocod migrate-history --from FILE.sqlite --to postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE

Options:
      --from FILE       the SQLite history file (cocod --database FILE)
      --to URL          the PostgreSQL database (its tables are made if it has none); or
                        COCOD_POSTGRES in the environment, out of the process list
      --batch N         matches per transaction (default ${DEFAULT_MIGRATE_BATCH})
  -h, --help            this text

Matches already in PostgreSQL are skipped: running it again copies nothing twice.
See docs/postgres.md.
`;

export interface MigrateCommand {
  readonly from: string;
  readonly to: string;
  readonly batch: number;
}

/** The command line of `cocod migrate-history` (the arguments after it); null for --help. */
export function parseMigrateHistory(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Result<MigrateCommand | null> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { from: { type: 'string' }, to: { type: 'string' }, batch: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return err(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return ok(null);
  if (values.from === undefined) return err('migrate-history needs --from FILE.sqlite');
  const to = values.to ?? (env['COCOD_POSTGRES'] || undefined);
  if (to === undefined) return err('migrate-history needs --to postgres://... (or COCOD_POSTGRES)');
  if (!isPostgresUrl(to)) return err('invalid --to URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)');
  const batch = values.batch === undefined ? DEFAULT_MIGRATE_BATCH : Number(values.batch);
  if (!/^\d+$/.test(values.batch ?? '1') || batch < 1) return err(`invalid --batch "${values.batch}" (a whole number >= 1)`);
  return ok({ from: values.from, to, batch });
}

/** One line of progress, as printed after each batch. */
export function progressLine(progress: MigrateProgress): string {
  return `${progress.done} of ${progress.total} matches: ${progress.copied} copied, ${progress.skipped} already there`;
}

/**
 * Runs `cocod migrate-history`, printing progress on stdout; returns the exit status (0 done, 1
 * failed, 2 wrong command line). Never prints the URL's password.
 */
export async function runMigrateHistory(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, out: (line: string) => void, fail: (line: string) => void): Promise<number> {
  const command = parseMigrateHistory(argv, env);
  if (!command.ok) {
    fail(`cocod migrate-history: ${command.error} (cocod migrate-history --help shows the options)`);
    return 2;
  }
  if (command.value === null) {
    out(MIGRATE_HISTORY_HELP.trimEnd());
    return 0;
  }
  const { from, to, batch } = command.value;
  out(`copying ${from} into ${maskedUrl(to)}, ${batch} matches a batch`);
  try {
    const done = await migrateHistory(from, to, { batch, progress: (progress) => out(progressLine(progress)) });
    out(`done: ${done.total} matches in ${from}, ${done.copied} copied, ${done.skipped} already in PostgreSQL`);
    return 0;
  } catch (error) {
    fail(`cocod migrate-history: ${errorText(error).split('\n', 1)[0]} (${maskedUrl(to)})`);
    return 1;
  }
}
