import { readFileSync } from 'node:fs';
import type { GameDefinition, MatchContext, MatchResult } from '../../match/game.js';
import { EachReader, type RoundOfLines } from '../../match/each-reader.js';
import type { PlayerSeat } from '../../match/seat.js';
import { ok } from '../../util/result.js';
import { MISSPELT_PACE_WORDS, ROUNDS_WORDS, configureMatch, countArg, paceArg, paceArgSpec } from '../game-params.js';
import { integerArgSpec } from '../arg-spec.js';
import { playRoshamboBot } from './bot.js';
import { GESTURES, compare, parseGesture, type Gesture } from './rules.js';
import { RoshamboVis } from './vis.js';

export interface RoshamboConfig {
  readonly rounds: number;
  readonly pace: number;
}

const ARGS = {
  rounds: integerArgSpec({
    description: 'number of rounds (default 10, from 1 to 9999)',
    regex: String.raw`^\+?0*[1-9]\d{0,3}$`,
    meaning: 'number of rounds',
    min: 1,
    max: 9999,
    default: 10,
    example: '5',
  }),
  pace: paceArgSpec(1),
};

/** A seat's answer in a round: a gesture's index in GESTURES, or RETIRED. */
const RETIRED = GESTURES.length;

/** What a player is sent for its opponent's answer, encoded once: the same four lines in every round of every match. */
const LINES: readonly Buffer[] = [...GESTURES.map((gesture) => `${gesture}\n`), 'RETIRE\n'].map((text) => Buffer.from(text));

/** What the spectators are sent for a round: both answers, for each pair of answers (first * 4 + second). */
const SPECTATOR_LINES: readonly Buffer[] = LINES.flatMap((first) => LINES.map((second) => Buffer.concat([first, second])));

function play(ctx: MatchContext, config: RoshamboConfig): Promise<MatchResult> {
  return new Promise((resolve, reject) => new RoshamboMatch(ctx, config, resolve, reject).start());
}

/**
 * One match: its whole state, which each round reads and writes, and nothing made per round (no
 * promise, closure, array or string) unless the match is drawn or paced. Both players are read at
 * once (EachReader); a bad line retires its player as soon as it comes.
 */
class RoshamboMatch implements RoundOfLines {
  private readonly first: PlayerSeat;
  private readonly second: PlayerSeat;
  private readonly reader: EachReader;
  /** Drawn when someone wants to see it (GameDefinition.visFromInput): otherwise a round builds no event. */
  private readonly vis: RoshamboVis | null;
  private round = 0;
  private readonly points: [number, number] = [0, 0];
  /** The round's answers, as indices into GESTURES or RETIRED. */
  private answers: [number, number] = [RETIRED, RETIRED];
  private roundStart = 0;
  /** Made once, for paced rounds. */
  private readonly finishPaced = (): void => this.guarded();

  constructor(
    private readonly ctx: MatchContext,
    private readonly config: RoshamboConfig,
    private readonly resolve: (result: MatchResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    [this.first, this.second] = ctx.seats as [PlayerSeat, PlayerSeat];
    this.reader = new EachReader([this.first, this.second], this);
    this.vis = ctx.drawing ? new RoshamboVis((event) => ctx.vis(event)) : null;
  }

  start(): void {
    const { first, second, config, ctx } = this;
    first.write(`${first.name}\n${second.name}\n${config.rounds}\n`);
    second.write(`${second.name}\n${first.name}\n${config.rounds}\n`);
    ctx.spectators.write(`${first.name}\n${second.name}\n${config.rounds}\n`);
    this.vis?.start([first.name, second.name], config.rounds);
    this.nextRound();
  }

  private nextRound(): void {
    this.round++;
    // As the reference: a round starts when the previous result (or the header) went out, and its
    // result goes out no earlier than `pace` after that, the first round's included.
    if (this.config.pace > 0) this.roundStart = this.ctx.elapsed();
    // Both answer at once: both clocks run, each for the match's timeout (EachReader's reads).
    this.ctx.toMove?.(this.first.index, this.ctx.timeout);
    this.ctx.toMove?.(this.second.index, this.ctx.timeout);
    this.reader.read();
  }

  line(index: number, text: string | null, seat: PlayerSeat): void {
    this.answers[index] = answerOf(text, seat);
  }

  allRead(): void {
    if (this.config.pace <= 0) return this.finishRound();
    this.ctx.sleep(this.config.pace - (this.ctx.elapsed() - this.roundStart)).then(this.finishPaced, this.reject);
  }

  failed(error: unknown): void {
    this.reject(error);
  }

  private guarded(): void {
    try {
      this.finishRound();
    } catch (error) {
      this.reject(error);
    }
  }

  private finishRound(): void {
    const { first, second, round, points } = this;
    const a = this.answers[0];
    const b = this.answers[1];
    first.writeBytes(LINES[b]!);
    second.writeBytes(LINES[a]!);
    this.ctx.spectators.write(SPECTATOR_LINES[a * LINES.length + b]!);
    if (a === RETIRED || b === RETIRED) {
      const gone = [a === RETIRED ? first.name : null, b === RETIRED ? second.name : null].filter(Boolean).join(' and ');
      this.vis?.round(round, [gestureAt(a), gestureAt(b)], points, `round ${round}: ${gone} retired`);
      // Leaving loses, whatever the points so far (as a crash or a forfeit does in every other game):
      // otherwise a program ahead on points could crash, or stop answering, and win.
      return this.resolve({ scores: [a === RETIRED ? 0 : 1, b === RETIRED ? 0 : 1], reason: `${gone} retired in round ${round}` });
    }
    const outcome = compare(GESTURES[a]!, GESTURES[b]!);
    if (outcome > 0) points[0]++;
    if (outcome < 0) points[1]++;
    if (this.vis) {
      const winner = outcome > 0 ? first.name : outcome < 0 ? second.name : null;
      this.vis.round(round, [GESTURES[a]!, GESTURES[b]!], points, `round ${round}: ${GESTURES[a]} against ${GESTURES[b]}, ${winner ? `${winner} scores` : 'a tie'}`);
    }
    if (round < this.config.rounds) return this.nextRound();
    const [p0, p1] = points;
    const verdict = p0 === p1 ? 'draw' : `${p0 > p1 ? first.name : second.name} wins`;
    this.resolve({ scores: [p0, p1], reason: `${verdict} ${Math.max(p0, p1)}-${Math.min(p0, p1)} after ${this.config.rounds} rounds` });
  }
}

function gestureAt(answer: number): Gesture | null {
  return answer === RETIRED ? null : GESTURES[answer]!;
}

/** A player's answer: its gesture; anything else (or nothing) retires the player. */
function answerOf(text: string | null, seat: PlayerSeat): number {
  const gesture = gestureOf(text, seat);
  return gesture === null ? RETIRED : GESTURES.indexOf(gesture);
}

/** A player's gesture; anything else (or nothing) retires the player. */
function gestureOf(text: string | null, seat: PlayerSeat): Gesture | null {
  if (text === null) return null;
  const gesture = parseGesture(text);
  if (!gesture) seat.close('removed');
  return gesture;
}

export const roshambo: GameDefinition<RoshamboConfig> = {
  name: 'roshambo',
  description: readFileSync(new URL('./description.md', import.meta.url), 'utf8'),
  args: ARGS,
  maxLineBytes: 1024,
  // Its pictures follow from the gestures alone, and every event carries its round's time.
  visFromInput: true,
  configure: (params) =>
    configureMatch(params, { minPlayers: 2, maxPlayers: 2, defaultPlayers: 2, maxBots: 1, defaultTimeout: 30 }, ARGS, (args) => {
      const rounds = countArg(args, 'rounds', 10, { min: 1, max: 9999 }, ROUNDS_WORDS);
      if (!rounds.ok) return rounds;
      const pace = paceArg(args, 1, MISSPELT_PACE_WORDS);
      if (!pace.ok) return pace;
      return ok({ rounds: rounds.value, pace: pace.value });
    }),
  play,
  playBot: (io, _config, env) => playRoshamboBot(io, env),
};
