import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Finds and kills every process that carries a tag in its environment, through /proc (Linux).
 *
 * Why: a program we start runs in a process group of its own, and killing the group ends it and
 * the processes it started, except those that left the group (setsid, setpgid: daemonizing
 * helpers, some runtimes and job runners do it). Those live on after the match and keep its pipes
 * open. The environment is inherited across fork, exec and setsid, so a random tag put in the
 * environment of the program marks all its descendants wherever they moved. The variable holds a
 * comma-separated list: a tagged program that starts another tagged one (a server bot that runs
 * `coco connect`, say) adds its tag to the inherited ones, so each sweep still finds the whole
 * tree below its own program. No library does this; a cgroup per program would hold them for
 * certain, but creating cgroups needs privileges (or a delegated systemd scope) that the server
 * may not have.
 *
 * Limits: a process that starts another with a cleaned environment (`env -i`), rewrites its
 * environment block in memory, or makes itself non-dumpable (its environ is then unreadable to
 * us) escapes the tag. This keeps ordinary programs tidy; it is not a sandbox against hostile
 * ones. Without /proc (not Linux) nothing is found and nothing is killed.
 */

/** The environment variable that carries the tag of the processes started for one program. */
export const PROCESS_TAG_VARIABLE = 'COCO_PROCESS_TAG';

/** Scans at most this many times, killing what each scan found, before giving up. */
export const SWEEP_ROUNDS = 20;
/** Files of /proc read at once: enough to be quick, few enough to leave the thread pool to others. */
const SCAN_CONCURRENCY = 8;
/** Longest pause between two scans while only already-killed processes are still exiting. */
const MAX_PAUSE_MS = 50;

/** A new tag: 128 random bits in hex, so that no two programs ever share one. */
export function newProcessTag(): string {
  return randomBytes(16).toString('hex');
}

/** `base` (by default our own environment) with the tag added after the tags it already has. */
export function taggedEnvironment(tag: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  checkTag(tag);
  const inherited = base[PROCESS_TAG_VARIABLE];
  return { ...base, [PROCESS_TAG_VARIABLE]: inherited ? `${inherited},${tag}` : tag };
}

function checkTag(tag: string): void {
  if (!/^[^,\0]+$/.test(tag)) throw new Error(`a process tag must be non-empty text without commas or NUL: ${JSON.stringify(tag)}`);
}

/**
 * The living processes whose environment has `variable` with `tag` among its comma-separated
 * values, never this process itself. Processes whose environment we may not read, and processes
 * that end while we look, are skipped; zombies have no environment left and are not found.
 */
export async function findTaggedProcesses(tag: string, variable = PROCESS_TAG_VARIABLE): Promise<number[]> {
  checkTag(tag);
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const pids = names.filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => pid !== process.pid);
  const prefix = Buffer.from(`${variable}=`);
  const found: number[] = [];
  let next = 0;
  const scanSome = async (): Promise<void> => {
    while (next < pids.length) {
      const pid = pids[next++]!;
      let environ: Buffer;
      try {
        environ = await readFile(`/proc/${pid}/environ`);
      } catch {
        continue; // gone, or not ours to read
      }
      if (valuesOf(environ, prefix).some((value) => value.split(',').includes(tag))) found.push(pid);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SCAN_CONCURRENCY, pids.length) }, scanSome));
  return found.sort((a, b) => a - b);
}

/** The values of the entries that start with `prefix` (`NAME=`) in a NUL-separated environment block. */
function valuesOf(environ: Buffer, prefix: Buffer): string[] {
  const values: string[] = [];
  for (let at = environ.indexOf(prefix); at !== -1; at = environ.indexOf(prefix, at + 1)) {
    if (at !== 0 && environ[at - 1] !== 0) continue; // inside another entry (OTHER_NAME=...)
    const end = environ.indexOf(0, at);
    values.push(environ.toString('latin1', at + prefix.length, end === -1 ? environ.length : end));
  }
  return values;
}

export interface SweepResult {
  /** Processes that were sent SIGKILL. */
  readonly killed: number;
  /** Tagged processes left after the sweep: not ours to kill, or not dying within the rounds. */
  readonly survivors: readonly number[];
}

/**
 * Kills (SIGKILL) every process that carries the tag and waits until they have exited (their files,
 * pipes included, are closed then). Scans again after each kill, since a process may fork between
 * our scan and our kill; a process with SIGKILL pending can no longer fork, so each round finds at
 * most the children forked while the previous one was killing. While only processes already
 * killed are still exiting, the scans are spaced by a short, growing pause. At most SWEEP_ROUNDS
 * scans, so a process stuck in the kernel cannot hold its caller for long.
 */
export async function killTaggedProcesses(tag: string, variable = PROCESS_TAG_VARIABLE): Promise<SweepResult> {
  const killed = new Set<number>();
  const exiting = new Set<number>();
  const refused = new Set<number>();
  let pauseMs = 0;
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const found = (await findTaggedProcesses(tag, variable)).filter((pid) => !refused.has(pid));
    let fresh = false;
    for (const pid of found) {
      if (!killed.has(pid)) fresh = true;
      if (sendKill(pid) === 'refused') {
        refused.add(pid);
        continue;
      }
      killed.add(pid);
      exiting.add(pid);
    }
    for (const pid of [...exiting]) if (await hasExited(pid)) exiting.delete(pid);
    if (exiting.size === 0 && !fresh) return { killed: killed.size, survivors: [...refused] };
    if (!fresh) {
      pauseMs = Math.min(Math.max(1, pauseMs * 2), MAX_PAUSE_MS);
      await delay(pauseMs);
    }
  }
  const left = new Set([...refused, ...exiting, ...(await findTaggedProcesses(tag, variable))]);
  return { killed: killed.size, survivors: [...left].sort((a, b) => a - b) };
}

function sendKill(pid: number): 'sent' | 'refused' {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    // ESRCH: it ended since the scan, which is what we wanted. EPERM: it is not ours.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return 'refused';
  }
  return 'sent';
}

/** Whether `pid` is gone or a zombie (dead, only waiting for its parent to collect its status). */
async function hasExited(pid: number): Promise<boolean> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return true;
  }
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}
