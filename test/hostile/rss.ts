import { readFileSync } from 'node:fs';

/** Resident memory of a process from /proc/PID/status, in KiB: now (VmRSS) and its peak so far (VmHWM). */
export function readMemory(pid: number): { rssKiB: number; peakKiB: number } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null; // the process is gone
  }
  const kib = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssKiB: kib('VmRSS'), peakKiB: kib('VmHWM') };
}

/**
 * Samples a process's resident memory while an attack runs. The kernel's own peak (VmHWM) is read
 * with every sample, so a spike between two samples still counts; the samples show when it was.
 */
export class RssSampler {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 50,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  /** The highest resident memory seen so far, in MiB. */
  get peakMiB(): number {
    this.sample();
    return Math.round(this.peak / 1024);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    const memory = readMemory(this.pid);
    if (memory) this.peak = Math.max(this.peak, memory.rssKiB, memory.peakKiB);
  }
}
