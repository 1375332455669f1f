import type { BotIO, BotEnv } from '../../match/game.js';
import type { Random } from '../../match/random.js';
import { GESTURES, counter, parseGesture, type Gesture } from './rules.js';

/**
 * Predicts the opponent's next gesture from what it played after its previous one (a first-order
 * Markov model) and plays the counter, falling back to a uniform choice when it has no evidence.
 * Against a uniformly random opponent it is as good as random; against patterns it wins.
 */
export class RoshamboPredictor {
  private readonly transitions = new Map<Gesture, Map<Gesture, number>>();
  private previous: Gesture | null = null;

  constructor(private readonly random: Random) {}

  observe(opponent: Gesture): void {
    if (this.previous) {
      const row = this.transitions.get(this.previous) ?? new Map<Gesture, number>();
      row.set(opponent, (row.get(opponent) ?? 0) + 1);
      this.transitions.set(this.previous, row);
    }
    this.previous = opponent;
  }

  choose(): Gesture {
    const row = this.previous ? this.transitions.get(this.previous) : undefined;
    if (!row) return this.random.pick(GESTURES);
    const total = [...row.values()].reduce((a, b) => a + b, 0);
    // Sample the prediction in proportion to the evidence, so the bot itself is not predictable.
    let draw = this.random.float() * total;
    for (const [gesture, count] of row) {
      draw -= count;
      if (draw < 0) return counter(gesture);
    }
    return this.random.pick(GESTURES);
  }
}

export async function playRoshamboBot(io: BotIO, env: BotEnv): Promise<void> {
  const header = [await io.readLine(), await io.readLine(), await io.readLine()];
  if (header.includes(null)) return;
  const rounds = Number(header[2]);
  const predictor = new RoshamboPredictor(env.random);
  for (let round = 0; round < rounds; round++) {
    io.write(`${predictor.choose()}\n`);
    const answer = await io.readLine();
    const opponent = answer === null ? null : parseGesture(answer);
    if (!opponent) return;
    predictor.observe(opponent);
  }
}
