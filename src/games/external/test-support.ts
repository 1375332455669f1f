import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BotIO, GameDefinition } from '../../match/game.js';
import type { LocalPlayer } from '../../match/local-match.js';
import type { ExternalMatchReport } from './match-report.js';
import { createExternalGame, type ExternalConfig } from './external-game.js';
import { parseManifest, type GameManifest } from './manifest.js';

/** Helpers shared by the external games' tests (not used at run time). */

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const EXAMPLES = fileURLToPath(new URL('../../../../examples/external/', import.meta.url));

/** A game over the fixture game server in `mode`, with manifest fields overridden; reports are collected. */
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
