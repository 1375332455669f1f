import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BotIO, GameDefinition } from '../../match/game.js';
import type { LocalPlayer } from '../../match/local-match.js';
import { killTaggedProcesses } from '../../util/process-sweep.js';
import type { ExternalMatchReport } from './match-report.js';
import { createExternalGame, type ExternalConfig } from './external-game.js';
import { parseManifest, type GameManifest } from './manifest.js';

/** Helpers shared by the external games' tests (not used at run time). */

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const EXAMPLES = fileURLToPath(new URL('../../../../examples/external/', import.meta.url));

/**
 * A game over the fixture game server in `mode`, with manifest fields overridden; reports are
 * collected. Its ready deadline is a wide 60 s unless a test sets one: a Python interpreter
 * starting on a loaded machine may take longer than the default 3 s, and only the tests of the
 * deadline (on a ManualClock) are about it.
 */
export function fixtureGame(
  mode: string,
  fields: Record<string, unknown> = {},
): { game: GameDefinition<ExternalConfig>; reports: ExternalMatchReport[]; manifest: GameManifest } {
  const parsed = parseManifest(
    {
      name: `fixture-${mode}`,
      command: ['python3', 'fixture_server.py', mode],
      param: '{num_players}',
      min_players: 1,
      max_players: 4,
      default_players: 2,
      ready_deadline: 60,
      ...fields,
    },
    'fixture',
  );
  if (!parsed.ok || parsed.value.kind !== 'game') throw new Error(parsed.ok ? 'not a game manifest' : parsed.error);
  const reports: ExternalMatchReport[] = [];
  const game = createExternalGame(parsed.value, FIXTURES, 'fixture', { onMatchEnd: (report) => reports.push(report) });
  return { game, reports, manifest: parsed.value };
}

/** Reads lines until one equals `wanted` (true) or the stream ends (false). */
export async function readUntil(io: BotIO, wanted: string): Promise<boolean> {
  for (;;) {
    const line = await io.readLine();
    if (line === null) return false;
    if (line === wanted) return true;
  }
}

export async function drain(io: BotIO): Promise<void> {
  while ((await io.readLine()) !== null);
}

/** Says `ready`, waits for `hello`, sends `lines`, then reads to the end. */
export function scripted(lines: readonly string[], first = 'ready'): LocalPlayer {
  return async (io) => {
    io.write(`${first}\n`);
    await readUntil(io, 'hello');
    for (const line of lines) io.write(`${line}\n`);
    await drain(io);
  };
}

/** A player that says `ready` and then only listens. */
export const listener: LocalPlayer = async (io) => {
  io.write('ready\n');
  await drain(io);
};

/** The processes whose parent is this test process (read from /proc, so no helper process is started). */
export function livingChildren(): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && fields[0] !== 'Z') children.push(Number(name));
    } catch {
      // It ended while we looked.
    }
  }
  return children;
}

/** Whether `pid` is a living process (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The living processes whose environment has `variable` with `value` among its comma-separated
 * values, read from /proc here (not through process-sweep.ts, which is what the tests check).
 */
export function processesWithEnv(variable: string, value: string): number[] {
  const prefix = `${variable}=`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const entries = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
      if (entries.some((entry) => entry.startsWith(prefix) && entry.slice(prefix.length).split(',').includes(value))) found.push(Number(name));
    } catch {
      // It ended while we looked, or it is not ours to read.
    }
  }
  return found;
}

/** The processes carrying a ChildProgram's tag. */
export function processesWithTag(tag: string): number[] {
  return processesWithEnv('COCO_PROCESS_TAG', tag);
}

/** Process group and session of `pid` (fields 5 and 6 of /proc/PID/stat). */
export function groupAndSession(pid: number): { group: number; session: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { group: Number(fields[2]), session: Number(fields[3]) };
}

/** The pipes this process holds open (their fds), to see that none is left behind. */
export function openPipes(): number[] {
  const pipes: number[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('pipe:')) pipes.push(Number(fd));
    } catch {
      // Closed while we looked (readdir's own fd, for one).
    }
  }
  return pipes;
}

/**
 * Marks every process this test file starts from now on with `COCO_TEST_RUN=<random>` in its
 * environment (each inherits ours), and returns a cleanup that kills whatever still carries it:
 * call it in `after()` so that a failing test leaves nothing running.
 */
export function markTestProcesses(): () => Promise<void> {
  const mark = randomBytes(16).toString('hex');
  process.env.COCO_TEST_RUN = mark;
  return async () => {
    await killTaggedProcesses(mark, 'COCO_TEST_RUN');
  };
}
