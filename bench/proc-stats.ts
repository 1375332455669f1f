/**
 * CPU time and memory of a server made of several processes (`cocod --nodes N`: a primary and its
 * workers), read from /proc: the process the benchmark spawned and all its descendants, found by
 * walking /proc/PID/stat for parent ids. Linux only, like the rest of the benchmark.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of the times in /proc/PID/stat (USER_HZ; 100 on every usual Linux). */
const TICKS_PER_SECOND = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface StatLine {
  readonly ppid: number;
  /** Start time since boot (ticks): tells a reused pid from the process seen before. */
  readonly start: number;
  /** utime + stime: CPU time of the process itself, all its threads, live or gone. */
  readonly own: number;
  /** cutime + cstime: CPU time of its children that exited and that it waited for. */
  readonly reaped: number;
}

function parseStat(text: string): StatLine | null {
  // The command name (field 2) may hold spaces and parentheses: the fields after it start past the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields.length < 20) return null;
  // fields[0] is field 3 of proc(5): ppid is field 4, utime..cstime 14-17, starttime 22.
  return {
    ppid: Number(fields[1]),
    start: Number(fields[19]),
    own: Number(fields[11]) + Number(fields[12]),
    reaped: Number(fields[13]) + Number(fields[14]),
  };
}

/** A pid and the process's start time: together they name one process, even once the pid is reused. */
export interface ProcessId {
  readonly pid: number;
  readonly start: number;
}

/** Whether that very process still exists (a zombie counts until its parent waits for it). */
export function stillRunning(id: ProcessId): boolean {
  return readStat(id.pid)?.start === id.start;
}

function readStat(pid: number): StatLine | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // gone meanwhile
  }
}

/** Every process on the machine, by pid (one read of /proc/N/stat each). */
function allProcesses(): Map<number, StatLine> {
  const found = new Map<number, StatLine>();
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const stat = readStat(Number(name));
    if (stat) found.set(Number(name), stat);
  }
  return found;
}

/** VmRSS and VmHWM of a process in KiB (0 once it is gone). */
function memoryKiB(pid: number): { rss: number; hwm: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

export interface TreeUsage {
  /** Server CPU time (user + system, every process and thread) since the monitor started, seconds. */
  readonly cpuSeconds: number;
  /** Sum of VmRSS over the processes alive at the last sample, KiB. */
  readonly rssKiB: number;
  /** The largest such sum seen at a sample, KiB. */
  readonly sampledPeakKiB: number;
  /**
   * Sum over every process seen of its own peak (VmHWM), KiB: exact for one process (it catches
   * peaks between samples); for several, an upper bound of the peak of their sum, as they need
   * not peak at the same moment.
   */
  readonly hwmSumKiB: number;
  /** Processes of the server alive at the last sample. */
  readonly processes: number;
}

/**
 * Follows the process tree under `root`. CPU is counted so that no time is counted twice and as
 * little as possible is lost when a process exits:
 *  - a process alive at two samples adds the growth of its own time (utime + stime);
 *  - a process first seen after the first sample was born during the measurement: all its time
 *    counts;
 *  - when a process of the tree exits and its parent waits for it, the kernel adds its whole time
 *    to the parent's cutime + cstime; what of that growth was already counted while the child was
 *    alive is held as a credit against the parent, so only the child's last moments (since its
 *    last sample) are added, and children too short-lived to be sampled are counted in full;
 *  - a process that exits without a parent of the tree waiting for it loses only the time since
 *    its last sample.
 * Call `sample()` now and then (e.g. every 500 ms) so that processes are seen before they exit.
 */
export class ProcessTreeMonitor {
  private readonly known = new Map<number, StatLine>();
  /** Ticks of exited children already counted, to subtract from their parent's cutime + cstime growth. */
  private readonly credit = new Map<number, number>();
  private readonly hwm = new Map<string, number>();
  private ticks = 0;
  private rss = 0;
  private sampledPeak = 0;
  private alive = 0;
  private first = true;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly root: number) {
    this.sample();
  }

  sample(): TreeUsage {
    const all = allProcesses();
    const tree = new Map<number, StatLine>();
    const rootStat = all.get(this.root);
    if (rootStat) {
      tree.set(this.root, rootStat);
      // Breadth first over the parent links: a child may have a smaller pid than its parent.
      const children = new Map<number, number[]>();
      for (const [pid, stat] of all) {
        const siblings = children.get(stat.ppid);
        if (siblings) siblings.push(pid);
        else children.set(stat.ppid, [pid]);
      }
      const queue = [this.root];
      while (queue.length > 0) {
        for (const child of children.get(queue.shift()!) ?? []) {
          if (tree.has(child)) continue;
          tree.set(child, all.get(child)!);
          queue.push(child);
        }
      }
    }
    // Exited processes first, so that their credit is there before their parent's growth is read.
    const exited = new Map<number, StatLine>();
    for (const [pid, last] of this.known) {
      const now = tree.get(pid);
      if (now && now.start === last.start) continue;
      this.known.delete(pid);
      exited.set(pid, last);
      this.addCredit(last.ppid, last.own + last.reaped);
    }
    // A credit held by an exited process passes to its parent: the parent's cutime + cstime will
    // include the grandchild's time through it (a child that ran a program and exited within one
    // sample interval). Repeated for chains; bounded in case pids were reused in a loop.
    for (let moved = true, rounds = 0; moved && rounds < 64; rounds++) {
      moved = false;
      for (const [pid, last] of exited) {
        const held = this.credit.get(pid);
        if (!held) continue;
        this.credit.delete(pid);
        this.addCredit(last.ppid, held);
        moved = true;
      }
    }
    let rss = 0;
    for (const [pid, stat] of tree) {
      const before = this.known.get(pid);
      if (!before) {
        if (!this.first) this.ticks += stat.own + stat.reaped;
      } else {
        this.ticks += stat.own - before.own;
        const grown = stat.reaped - before.reaped;
        const credit = this.credit.get(pid) ?? 0;
        this.ticks += Math.max(0, grown - credit);
        if (credit > 0) this.credit.set(pid, Math.max(0, credit - grown));
      }
      this.known.set(pid, stat);
      const memory = memoryKiB(pid);
      rss += memory.rss;
      const key = `${pid}:${stat.start}`;
      this.hwm.set(key, Math.max(this.hwm.get(key) ?? 0, memory.hwm));
    }
    this.first = false;
    this.rss = rss;
    this.sampledPeak = Math.max(this.sampledPeak, rss);
    this.alive = tree.size;
    return this.usage();
  }

  private addCredit(pid: number, ticks: number): void {
    this.credit.set(pid, (this.credit.get(pid) ?? 0) + ticks);
  }

  usage(): TreeUsage {
    let hwmSum = 0;
    for (const kib of this.hwm.values()) hwmSum += kib;
    return { cpuSeconds: this.ticks / TICKS_PER_SECOND, rssKiB: this.rss, sampledPeakKiB: this.sampledPeak, hwmSumKiB: hwmSum, processes: this.alive };
  }

  /** The processes of the tree at the last sample (to stop stragglers once the root has exited). */
  members(): ProcessId[] {
    return [...this.known].map(([pid, stat]) => ({ pid, start: stat.start }));
  }

  start(intervalMs = 500): void {
    // unref: sampling never keeps the benchmark alive, e.g. after a run failed before stop().
    this.timer ??= setInterval(() => this.sample(), intervalMs).unref();
  }

  stop(): TreeUsage {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.sample();
  }
}

/** CPU time of the whole machine so far, in clock ticks (/proc/stat). */
export function machineTicks(): { total: number; busy: number; steal: number; cores: number } {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  // user nice system idle iowait irq softirq steal
  const [user, nice, system, idle, iowait, irq, softirq, steal] = lines[0]!.split(/\s+/).slice(1, 9).map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq!;
  return { total: busy + idle! + iowait! + steal!, busy, steal: steal!, cores: lines.filter((line) => /^cpu\d/.test(line)).length };
}

/** How busy all cores were between two readings, and how much time the hypervisor took (steal), in %. */
export function machineLoad(before: ReturnType<typeof machineTicks>, after: ReturnType<typeof machineTicks>): { cores: number; busyPercent: number; stealPercent: number } {
  const total = after.total - before.total || 1;
  return {
    cores: after.cores,
    busyPercent: Math.round((100 * (after.busy - before.busy)) / total),
    stealPercent: Math.round((100 * (after.steal - before.steal)) / total),
  };
}
