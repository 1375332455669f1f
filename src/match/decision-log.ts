/**
 * What a game drawn from its input (GameDefinition.visFromInput) decided from things its record
 * does not hold otherwise: which seat's line came first, whether a line or a timer did. The played
 * match notes each decision (MatchContext.note), the record keeps them with the replay's note
 * (match/vis-replay.ts), and a replay of the game recalls them in order (MatchContext.recall):
 * from the record, all at once, or as a live viewer's replay follows the match, each as it is
 * made.
 *
 * A game notes at most one decision per line it takes or game it ends, so the log is bounded by
 * the match's transcripts.
 */
/**
 * The next decision a replay recalls (MatchContext.recall), for a game that cannot go on without
 * it: past the last one the replayed game did something the played one did not, which `game`'s
 * error says.
 */
export async function recallDecision(recall: () => Promise<number | null>, game: string): Promise<number> {
  const decision = await recall();
  if (decision === null) throw new Error(`${game}: the match noted no more decisions`);
  return decision;
}

export class DecisionLog {
  private readonly decisions: number[];
  private read = 0;
  private ended = false;
  private waiter: ((decision: number | null) => void) | null = null;

  constructor(decisions: readonly number[] = []) {
    this.decisions = [...decisions];
  }

  /** Every decision noted so far, in order. */
  get all(): readonly number[] {
    return this.decisions;
  }

  /** The played game decided `decision` (a small non-negative integer whose meaning is the game's). */
  note(decision: number): void {
    if (this.ended) return;
    this.decisions.push(decision);
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter(this.decisions[this.read++]!);
    }
  }

  /** No more decisions: a recall waiting or to come past the last gets null. */
  end(): void {
    this.ended = true;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter(null);
    }
  }

  /** The next decision not recalled yet, waiting for the played game to make it; null once the log has ended. One reader. */
  recall(): Promise<number | null> {
    if (this.waiter) throw new Error('DecisionLog has one reader; a recall is already waiting');
    if (this.read < this.decisions.length) return Promise.resolve(this.decisions[this.read++]!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}
