/**
 * The chaos run's checker: what every client saw against what PostgreSQL holds, in the spirit of
 * Jepsen's checkers. Pure: the run gathers the observations, this judges them.
 */

/** What the clients of one match saw: its creator got `id`; each player's last `> match ...` line. */
export interface MatchObservation {
  readonly id: string;
  /** Did some player print `> match started`? A match that never started need not be recorded. */
  readonly started: boolean;
  /** Each player's `> match ended: ...` text, or null when it saw no end (its connection was cut). */
  readonly endings: readonly (string | null)[];
  /** Each ending's player name (`-n`), when known: a player cut off must not be the winner. */
  readonly names?: readonly string[];
}

/** A row of `matches` as the checker reads it. */
export interface StoredMatch {
  readonly id: string;
  readonly seq: number;
  readonly reason: string;
  readonly scores: readonly number[] | null;
  readonly endedAt: number;
}

export interface CheckInput {
  readonly matches: readonly MatchObservation[];
  /** Every row of `matches` at the end of the run. */
  readonly stored: readonly StoredMatch[];
  /** Rows read earlier in the run (after each fault's recovery): none may have changed since. */
  readonly snapshots: readonly (readonly StoredMatch[])[];
  /** Processes the run started that are still alive after it stopped them. */
  readonly stillRunning: readonly string[];
}

export interface CheckReport {
  readonly problems: string[];
  readonly started: number;
  readonly recorded: number;
  readonly byReason: Record<string, number>;
}

/**
 * `> match ended: ...` as coco prints it (src/cli/match-result.ts): `no result (REASON...)`, or
 * `you won A-B (REASON)` / `you lost` / `a draw`; or `cut off (...)` (src/cli/coco-connect.ts):
 * the player's node stopped while its match went on on another node without it. Returns what a
 * record must then hold: for `cut-off`, the result the match went on to, which the player did not win.
 */
export function parseEnding(text: string): { scores: 'none' | 'some' | 'cut-off'; reason: string | null } | null {
  if (/^cut off \(this node stopped before your match ended\b/.test(text)) return { scores: 'cut-off', reason: null };
  const none = /^no result \(([^;:)]+)/.exec(text);
  if (none) return { scores: 'none', reason: none[1]!.trim() };
  const some = /^(you won|you lost|a draw) \S+(?: \(([^;:)]+))?/.exec(text);
  if (some) return { scores: 'some', reason: some[2]?.trim() ?? null };
  return null;
}

export function check(input: CheckInput): CheckReport {
  const problems: string[] = [];
  const byId = new Map<string, StoredMatch>();
  for (const row of input.stored) {
    if (byId.has(row.id)) problems.push(`match ${row.id} is recorded twice`);
    byId.set(row.id, row);
  }
  const given = new Set<string>();
  let started = 0;
  for (const match of input.matches) {
    if (given.has(match.id)) problems.push(`match id ${match.id} was given out twice`);
    given.add(match.id);
    if (!match.started) continue;
    started++;
    const row = byId.get(match.id);
    if (!row) {
      problems.push(`match ${match.id} started but is not recorded`);
      continue;
    }
    for (const [index, ending] of match.endings.entries()) {
      if (ending === null) continue;
      const seen = parseEnding(ending);
      if (!seen) {
        problems.push(`match ${match.id}: a player saw an ending the checker cannot read: ${ending}`);
        continue;
      }
      if (seen.scores === 'cut-off') {
        // The match went on without the player: to a result (it retired, timed out or lost), not
        // to an end with none (that would be its own node's reason, or a failure it did not see).
        const name = match.names?.[index];
        if (row.scores === null) problems.push(`match ${match.id}: a player was cut off while it went on, the record has no result (${row.reason})`);
        else if (name !== undefined && row.reason.startsWith(`${name} wins `)) problems.push(`match ${match.id}: ${name} was cut off, the record says "${row.reason}"`);
        continue;
      }
      if (seen.scores === 'none' && row.scores !== null) problems.push(`match ${match.id}: a player saw no result (${seen.reason}), the record has scores ${row.scores.join(' ')} (${row.reason})`);
      if (seen.scores === 'some' && row.scores === null) problems.push(`match ${match.id}: a player saw a result (${ending}), the record has none (${row.reason})`);
      if (seen.reason !== null && seen.reason !== row.reason) problems.push(`match ${match.id}: a player saw "${seen.reason}", the record says "${row.reason}"`);
    }
  }
  for (const snapshot of input.snapshots) {
    for (const before of snapshot) {
      const now = byId.get(before.id);
      if (!now) problems.push(`match ${before.id} was recorded, then is gone`);
      else if (now.seq !== before.seq || now.reason !== before.reason || now.endedAt !== before.endedAt || JSON.stringify(now.scores) !== JSON.stringify(before.scores)) {
        problems.push(`match ${before.id} was overwritten: ${JSON.stringify(before)} became ${JSON.stringify(now)}`);
      }
    }
  }
  for (const name of input.stillRunning) problems.push(`${name} is still running after the run`);
  const byReason: Record<string, number> = {};
  for (const row of input.stored) byReason[row.reason] = (byReason[row.reason] ?? 0) + 1;
  return { problems, started, recorded: input.stored.filter((row) => given.has(row.id)).length, byReason };
}
