import { Random } from '../../src/match/random.js';

/**
 * The faults the chaos run injects, one at a time, each followed by its recovery:
 * - `kill`: kill -9 of a node (its supervisor, the harness, starts a new one);
 * - `pause`: SIGSTOP of a node past its lease, then SIGCONT (it must record nothing and exit);
 * - `redis-restart`: redis-server stopped and started again with its data (append-only file);
 * - `redis-wipe`: redis-server stopped and started again without its data;
 * - `postgres-restart`: PostgreSQL stopped, then started again;
 * - `node-restart`: a node stopped (SIGTERM) and a new one started.
 */
export const FAULT_KINDS = ['kill', 'pause', 'redis-restart', 'redis-wipe', 'postgres-restart', 'node-restart'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  readonly kind: FaultKind;
  /** Which node slot (0..nodes-1) the fault hits; unused by the Redis and PostgreSQL faults. */
  readonly node: number;
  /** Load before the fault, in matches started since the previous one (steady load, not a clock). */
  readonly matchesBefore: number;
}

/**
 * `count` faults drawn from `seed`: the same seed gives the same schedule. Every kind appears once
 * before any repeats (when count allows), so even a short schedule covers each fault.
 */
export function faultSchedule(seed: string, count: number, nodes: number, kinds: readonly FaultKind[] = FAULT_KINDS): Fault[] {
  const random = Random.fromSeed(seed);
  const faults: Fault[] = [];
  let deck: FaultKind[] = [];
  for (let i = 0; i < count; i++) {
    if (deck.length === 0) {
      deck = [...kinds];
      for (let j = deck.length - 1; j > 0; j--) {
        const k = random.int(j + 1);
        [deck[j], deck[k]] = [deck[k]!, deck[j]!];
      }
    }
    faults.push({ kind: deck.shift()!, node: random.int(nodes), matchesBefore: 1 + random.int(3) });
  }
  return faults;
}
