import type { Random } from '../../src/match/random.js';
import type { LobbyWatch } from './lobby-watch.js';
import type { Net } from './net.js';
import type { HostileServer } from './server.js';

/** The front doors of the server, as the reports group the attacks. */
export const DOORS = ['coco WebSocket', 'seat streams', 'HTTP', 'clobber port', 'socha port'] as const;
export type Door = (typeof DOORS)[number];

/** What an attack gets to work with. */
export interface AttackContext {
  readonly server: HostileServer;
  /** Every connection goes through here, so the harness closes them all at the end. */
  readonly net: Net;
  /** The attack's only source of randomness (seeded: the same seed sends the same inputs). */
  readonly random: Random;
  /** 1 in `npm test`; larger in the fuzz run. Counts are `scale`d by it. */
  readonly budget: number;
  /** The legitimate match running beside the attack (for attacks that watch it). */
  readonly legitId: string;
  readonly watch: LobbyWatch;
  /** `base` times the budget, at least 1, at most `max`. */
  scale(base: number, max?: number): number;
  /** Counts inputs sent (messages, requests, connections: whatever the attack's unit is). */
  tried(count?: number): void;
  /** An invariant of this attack's own (besides the ones every attack is checked against). */
  check(name: string, ok: boolean, detail?: string): void;
  /** Something seen, for the report (not an invariant). */
  note(text: string): void;
}

export interface Attack {
  /** A stable name, used in test names, in the fuzz report and to pick attacks (FUZZ_ONLY). */
  readonly name: string;
  readonly door: Door;
  /** What it does, in a line. */
  readonly summary: string;
  /**
   * The attack ends the server itself (a signal under load): the harness then checks neither that
   * the server is alive nor the legitimate match's result nor a newcomer, only memory and the log;
   * the attack checks how the server ended.
   */
  readonly stopsServer?: boolean;
  /**
   * Sends the attack and returns when every input was sent and answered (or refused). Connections
   * it leaves open stay open while the invariants are checked; the harness closes them after.
   */
  run(context: AttackContext): Promise<void>;
}
