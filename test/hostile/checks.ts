import { WRONG_PASSWORD_PREFIX } from './server.js';

/** One invariant, held or not, with what was seen. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export function check(name: string, ok: boolean, detail = ''): Check {
  return { name, ok, detail };
}

/** Text an attack puts after a line break inside a value the server might log. */
export const FORGED_MARK = 'FORGED-LINE';
/** What a forged line would look like: a whole log event of the server's shape, with the forged text. */
export const FORGED_LINE = `{"level":"info","time":"2031-01-01T00:00:00.000Z","msg":"${FORGED_MARK} match 0000000000000 ended: 1 0 (forged)"}`;

/** cocod logs one JSON object a line with a level, a time and a message (pino). */
function ownLine(line: string): boolean {
  try {
    const event = JSON.parse(line) as Record<string, unknown>;
    return typeof event.level === 'string' && typeof event.time === 'string' && typeof event.msg === 'string' && !event.msg.startsWith(FORGED_MARK);
  } catch {
    return false;
  }
}
/** No line the server writes needs to be longer: names are at most 24 characters, ids 13. */
export const MAX_LOG_LINE = 2048;

const excerpt = (text: string, max = 160): string => JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);

/** The invariants of the server's log: no attempted password, no line a client wrote, no huge line. */
export function logChecks(log: string): Check[] {
  // A line still being written when the log is read is left out.
  const lines = log.split('\n').slice(0, -1);
  const secrets = lines.filter((line) => line.includes(WRONG_PASSWORD_PREFIX));
  const foreign = lines.filter((line) => !ownLine(line));
  const longest = lines.reduce((max, line) => Math.max(max, line.length), 0);
  return [
    check('no attempted password in the log', secrets.length === 0, secrets.length ? `${secrets.length} lines, e.g. ${excerpt(secrets[0]!)}` : ''),
    check(
      'no forged or foreign line in the log',
      foreign.length === 0,
      foreign.length ? `${foreign.length} lines not written by the server as its own, e.g. ${excerpt(foreign[0]!)}` : '',
    ),
    check(`no log line longer than ${MAX_LOG_LINE} characters`, longest <= MAX_LOG_LINE, `longest: ${longest}`),
  ];
}
