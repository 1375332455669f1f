import type { VisEvent } from '../../protocol/vis-event.js';
import { err, ok, type Result } from '../../util/result.js';
import { parseVisPayload } from './vis-line.js';

/**
 * The reference platform's replay log of one game server (notes/game-server-protocol.md): one
 * line per line of its I/O, `SSS.UUUUUU D line`, seconds since the game server started, D `>` for
 * lines sent to it and `<` for lines it printed.
 */
export type ReplayDirection = '>' | '<';

/** The name under which a match's replay log is kept with its record. */
export const REPLAY_ARTIFACT = 'replay.log';

/** A log stops growing here (it is kept in memory until the match is stored). */
export const REPLAY_LOG_MAX_BYTES = 16 * 1024 * 1024;

export function formatReplayTime(seconds: number): string {
  const micros = Math.max(0, Math.round(seconds * 1e6));
  const whole = Math.floor(micros / 1e6);
  return `${String(whole).padStart(3, '0')}.${String(micros % 1e6).padStart(6, '0')}`;
}

export class ReplayLog {
  private readonly lines: string[] = [];
  private bytes = 0;
  private cut = false;

  /** `now` gives the seconds since the game server started. */
  constructor(
    private readonly now: () => number,
    private readonly maxBytes = REPLAY_LOG_MAX_BYTES,
  ) {}

  /** A line written to the game server. */
  sent(line: string): void {
    this.add('>', line);
  }

  /** A line the game server printed. */
  received(line: string): void {
    this.add('<', line);
  }

  /** Whether lines were left out because the log reached its size limit. */
  get truncated(): boolean {
    return this.cut;
  }

  text(): string {
    return this.lines.join('');
  }

  private add(direction: ReplayDirection, line: string): void {
    if (this.cut) return;
    const entry = `${formatReplayTime(this.now())} ${direction} ${line}\n`;
    const size = Buffer.byteLength(entry);
    if (this.bytes + size > this.maxBytes) {
      this.cut = true;
      return;
    }
    this.bytes += size;
    this.lines.push(entry);
  }
}

export interface ReplayEntry {
  readonly seconds: number;
  readonly direction: ReplayDirection;
  readonly line: string;
}

const ENTRY = /^(\d{3,})\.(\d{6}) ([<>])(?: (.*))?$/;

/** Parses a replay log into entries; a malformed line is an error naming its number. */
export function parseReplayLog(text: string): Result<ReplayEntry[]> {
  const entries: ReplayEntry[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const match = ENTRY.exec(lines[i]!.replace(/\r$/, ''));
    if (!match) return err(`replay log line ${i + 1} is not "SSS.UUUUUU > line" or "SSS.UUUUUU < line"`);
    entries.push({
      seconds: Number(match[1]) + Number(match[2]) / 1e6,
      direction: match[3] as ReplayDirection,
      line: match[4] ?? '',
    });
  }
  return ok(entries);
}

/**
 * The visualizer events of a replay log (ours or the reference platform's), for showing an
 * imported match in the web visualizer: every `vis` line the game server printed, in order. An
 * event without `t` takes the log time of its line, and `t` never decreases, as in a live match.
 */
export function importReplayLog(text: string): Result<VisEvent[]> {
  const entries = parseReplayLog(text);
  if (!entries.ok) return entries;
  const events: VisEvent[] = [];
  let last = 0;
  for (const [index, entry] of entries.value.entries()) {
    if (entry.direction !== '<' || !entry.line.startsWith('vis ')) continue;
    const event = parseVisPayload(entry.line.slice(4), { requireTime: false });
    if (!event.ok) return err(`replay log entry ${index + 1}: ${event.error}`);
    last = Math.max(last, event.value.t ?? entry.seconds);
    events.push({ ...event.value, t: last } as VisEvent);
  }
  return ok(events);
}
