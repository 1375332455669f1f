import { TestScores } from './test-scores.js';

/**
 * Administrative control of a running room: pause, single steps and cancellation, as the
 * Software-Challenge admin commands `pause`, `step` and `cancel` ask for. The game holds a gate per
 * room and passes it before every move request; a front door reaches the gate through the directory.
 */
export type GateDecision = 'go' | 'cancel';

export class RoomGate {
  private paused: boolean;
  private steps = 0;
  private cancelled = false;
  private waiter: ((decision: GateDecision) => void) | null = null;
  private readonly cancelListeners: (() => void)[] = [];

  constructor(paused = false) {
    this.paused = paused;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Resolves when the next move may be requested: at once unless paused; 'cancel' once cancelled. */
  pass(): Promise<GateDecision> {
    if (this.cancelled) return Promise.resolve('cancel');
    if (!this.paused) return Promise.resolve('go');
    if (this.steps > 0) {
      this.steps--;
      return Promise.resolve('go');
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  pause(paused: boolean): void {
    this.paused = paused;
    if (!paused) this.wake('go');
  }

  /** Lets exactly one move through while paused (ignored when not paused). */
  step(): void {
    if (!this.paused) return;
    if (this.waiter) this.wake('go');
    else this.steps++;
  }

  /** Cancelling also ends a game that is waiting for a move, not only one that is paused. */
  onCancel(listener: () => void): void {
    this.cancelListeners.push(listener);
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.wake('cancel');
    for (const listener of this.cancelListeners) listener();
  }

  private wake(decision: GateDecision): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.(decision);
  }
}

/**
 * The gates of the running rooms, by room id; the game registers and releases them. It also holds
 * what an administrator sets for the whole server: test mode and its score tally (test-scores.ts).
 */
export class RoomDirectory {
  readonly testScores = new TestScores();
  private readonly gates = new Map<string, RoomGate>();
  /** Rooms prepared to start paused (an admin's `shouldBePaused`), consumed when the room opens. */
  private readonly startPaused = new Set<string>();

  /** Marks a room that has not started yet to start paused. */
  preparePaused(roomId: string): void {
    this.startPaused.add(roomId);
  }

  /**
   * The gate of a starting room. A room id already open belongs to another match (a coco user may
   * pick any `room` argument): that match keeps the admin control, this one gets a gate of its own
   * that no admin reaches.
   */
  open(roomId: string, paused: boolean): RoomGate {
    if (this.gates.has(roomId)) return new RoomGate(paused);
    const gate = new RoomGate(paused || this.startPaused.delete(roomId));
    this.gates.set(roomId, gate);
    return gate;
  }

  get(roomId: string): RoomGate | undefined {
    return this.gates.get(roomId);
  }

  /** Releases the room id, if `gate` is the one registered under it. */
  close(roomId: string, gate: RoomGate): void {
    if (this.gates.get(roomId) === gate) this.gates.delete(roomId);
  }

  get size(): number {
    return this.gates.size;
  }
}
