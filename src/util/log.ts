import pino from 'pino';

/** Values a log event may carry besides its message. */
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

/**
 * Where the server writes what happens. Every event is one line with a level; text that came from
 * a peer (names, errors quoting a request) is escaped and cut by `cleanLogText` first, so that no
 * peer can forge a line or fill the disk.
 */
export interface Log {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export const LOG_LIMITS = {
  /**
   * Characters of one message once escaped; the rest is cut and counted. JSON may double an
   * escaped character, so a whole line stays under about 2 KiB.
   */
  maxMessageChars: 960,
  /** Characters of one string field, once escaped. */
  maxFieldChars: 200,
} as const;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Control characters escaped (a newline becomes `\n`), then at most `max` characters kept. */
export function cleanLogText(text: string, max: number = LOG_LIMITS.maxMessageChars): string {
  // Only the part that can be kept is escaped: a peer's megabyte costs no more than its first `max` characters.
  const escaped = text
    .slice(0, max)
    .replace(CONTROL, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  if (escaped.length <= max && text.length <= max) return escaped;
  return `${escaped.slice(0, max)}...(cut; ${text.length} characters in all)`;
}

function cleanFields(fields: LogFields | undefined): Record<string, unknown> | undefined {
  if (!fields) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) out[key] = typeof value === 'string' ? cleanLogText(value, LOG_LIMITS.maxFieldChars) : value;
  }
  return out;
}

/**
 * Structured logs with pino: one JSON object a line on stderr (`level`, `time`, `msg`, fields).
 * Written synchronously, so that the lines before an exit are not lost.
 */
export function pinoLog(options: { readonly level?: 'info' | 'warn' | 'error'; readonly fd?: number } = {}): Log {
  const logger = pino(
    { level: options.level ?? 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
    pino.destination({ dest: options.fd ?? 2, sync: true }),
  );
  const at =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields?: LogFields): void => {
      const cleaned = cleanFields(fields);
      if (cleaned) logger[level](cleaned, cleanLogText(message));
      else logger[level](cleanLogText(message));
    };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

/** A log that hands each event to `write` as one plain line (`warn: message key=value`), for tests. */
export function lineLog(write: (line: string) => void): Log {
  const at =
    (level: string) =>
    (message: string, fields?: LogFields): void => {
      const cleaned = cleanFields(fields);
      const tail = cleaned ? Object.entries(cleaned).map(([key, value]) => ` ${key}=${String(value)}`).join('') : '';
      write(`${level === 'info' ? '' : `${level}: `}${cleanLogText(message)}${tail}`);
    };
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

/** A log that keeps nothing. */
export const silentLog: Log = { info: () => {}, warn: () => {}, error: () => {} };

/** A log whose every message starts with `prefix` (e.g. the match it is about). */
export function prefixedLog(log: Log, prefix: string): Log {
  return {
    info: (message, fields) => log.info(`${prefix}${message}`, fields),
    warn: (message, fields) => log.warn(`${prefix}${message}`, fields),
    error: (message, fields) => log.error(`${prefix}${message}`, fields),
  };
}
