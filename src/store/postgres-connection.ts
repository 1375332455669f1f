/**
 * What the server says about its PostgreSQL connection: the URL without its password, and
 * whether an error means "the database is not reachable now" (try again later) or "this write is
 * wrong" (trying again cannot help).
 */

/** Does this look like a PostgreSQL connection URL (what `--postgres` takes)? */
export function isPostgresUrl(text: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The URL as it may be logged: a password (in the user part, or a `password=` parameter) becomes
 * `***`. Text that does not parse is not echoed at all, since it may hold a password too.
 */
export function maskedUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '(a PostgreSQL URL that does not parse)';
  }
  if (url.password) url.password = '***';
  for (const key of [...url.searchParams.keys()]) {
    if (/pass|secret|key/i.test(key)) url.searchParams.set(key, '***');
  }
  return url.toString();
}

/**
 * SQLSTATE classes and codes after which the same statement may succeed later: connection
 * exceptions (08, but 08P01, a protocol violation, is the client's own bug), insufficient
 * resources (53: too many connections, disk full), operator intervention (57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now), and the transaction conflicts PostgreSQL asks
 * clients to retry (40001 serialization, 40P01 deadlock).
 */
const TRANSIENT_SQLSTATE = /^(08(?!P01)|53|57P0[123]|40001|40P01)/;

/**
 * True when the error says the database could not be reached or went away: a socket error
 * (refused, reset, unknown host, timed out), the pg client's own connection errors, or one of
 * TRANSIENT_SQLSTATE. Any other error with a SQLSTATE is the statement's own fault (a NUL in a
 * text value, a constraint) and is final, as is a TypeError or RangeError (a value the client
 * could not send): retrying those would keep a record in the backlog for ever.
 */
export function isTransientPostgresError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return TRANSIENT_SQLSTATE.test(code);
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return false;
  // Without a SQLSTATE the failure is the connection's: a socket error (ECONNREFUSED...), or pg's
  // own "Connection terminated unexpectedly" and "timeout exceeded when trying to connect".
  return error instanceof Error;
}

export function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return error.errors.map(errorText).join('; ');
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}
