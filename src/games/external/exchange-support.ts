import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureGame, FIXTURES } from './test-support.js';

/**
 * Golden exchanges for the controller's tests (not used at run time): a file under
 * fixtures/exchanges/ is the game server's side of one match, which fixtures/script_server.py
 * plays and checks line by line (see its docstring for the steps). The tests then read the
 * match's replay log back against the same file.
 */

/** A game whose server plays exchange `name`; manifest fields may be overridden. */
export function exchangeGame(name: string, fields: Record<string, unknown> = {}): ReturnType<typeof fixtureGame> {
  return fixtureGame(name, { command: ['python3', 'script_server.py', name], ...fields });
}

type Direction = '>' | '<';
interface Entry {
  readonly direction: Direction;
  readonly line: string;
  /** Entries of one `>*` run share a group: their order is free. */
  readonly group: number | null;
}

const X_RUN = /\{x\*(\d+)\}/g;

/** The lines of exchange `name` as the replay log must show them. */
function expected(name: string): Entry[] {
  const text = readFileSync(join(FIXTURES, 'exchanges', `${name}.txt`), 'utf8');
  const entries: Entry[] = [];
  let group = 0;
  let inGroup = false;
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('#')) continue;
    const step = raw.replace(X_RUN, (_, n: string) => 'x'.repeat(Number(n)));
    const isGroup = step.startsWith('>* ');
    if (isGroup && !inGroup) group++;
    inGroup = isGroup;
    if (isGroup) entries.push({ direction: '>', line: step.slice(3), group });
    else if (step.startsWith('> ')) entries.push({ direction: '>', line: step.slice(2), group: null });
    else if (step.startsWith('<raw ')) {
      // b"..." with JSON-compatible escapes; the controller splits lines and drops one CR before LF.
      const bytes = JSON.parse(step.slice(6)) as string;
      for (const line of bytes.split('\n').slice(0, -1)) entries.push({ direction: '<', line: line.replace(/\r$/, ''), group: null });
    } else if (step.startsWith('<repeat ')) {
      const [, count, line] = /^<repeat (\d+) (.*)$/.exec(step)!;
      for (let i = 0; i < Number(count); i++) entries.push({ direction: '<', line: line!, group: null });
    } else if (step.startsWith('< ')) entries.push({ direction: '<', line: step.slice(2), group: null });
    else throw new Error(`exchange ${name}: bad step ${JSON.stringify(raw)}`);
  }
  return entries;
}

/** The lines of a replay log (`SSS.UUUUUU D line`), without their times. */
export function replayEntries(replay: string): { direction: Direction; line: string }[] {
  return replay
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^\d{3,}\.\d{6} ([<>]) (.*)$/s.exec(line);
      assert.ok(match, `not a replay log line: ${JSON.stringify(line)}`);
      return { direction: match[1] as Direction, line: match[2]! };
    });
}

/**
 * Checks a replay log against exchange `name`, each direction in its own order: what the
 * controller sent is what the exchange expects it to send, what the game server printed is what
 * the exchange prints (the two interleave as the pipes deliver them, which a test cannot fix).
 * `printedUpTo`: how many printed lines the controller read (fewer when one ended the match).
 */
export function assertReplayFollows(replay: string, name: string, printedUpTo?: number): void {
  const want = expected(name);
  const got = replayEntries(replay);
  for (const direction of ['>', '<'] as const) {
    let wanted = want.filter((entry) => entry.direction === direction);
    if (direction === '<' && printedUpTo !== undefined) wanted = wanted.slice(0, printedUpTo);
    const seen = got.filter((entry) => entry.direction === direction).map((entry) => entry.line);
    assert.deepEqual(
      sortGroups(seen, wanted),
      sortGroups(wanted.map((entry) => entry.line), wanted),
      `lines ${direction === '>' ? 'sent to' : 'printed by'} the game server in exchange ${name}`,
    );
  }
}

/** `lines` with the places of each `>*` run of `entries` sorted among themselves (their order is free). */
function sortGroups(lines: readonly string[], entries: readonly Entry[]): string[] {
  const out = [...lines];
  for (const group of new Set(entries.map((entry) => entry.group).filter((g) => g !== null))) {
    const at = entries.flatMap((entry, i) => (entry.group === group ? [i] : []));
    const sorted = at.map((i) => out[i] ?? '').sort();
    at.forEach((i, k) => (out[i] = sorted[k]!));
  }
  return out;
}
