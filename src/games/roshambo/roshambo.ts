import { readFileSync } from 'node:fs';
import type { GameDefinition, MatchContext, MatchResult } from '../../match/game.js';
import { eachReader } from '../../match/each-reader.js';
import type { PlayerSeat } from '../../match/seat.js';
import { ok } from '../../util/result.js';
import { MISSPELT_PACE_WORDS, ROUNDS_WORDS, configureMatch, countArg, paceArg, paceArgSpec } from '../game-params.js';
import { integerArgSpec } from '../arg-spec.js';
import { playRoshamboBot } from './bot.js';
import { compare, parseGesture, type Gesture } from './rules.js';
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

/** What a player is sent for its opponent's gesture (or retirement), as a line. */
function line(gesture: Gesture | null): string {
  return gesture === null ? 'RETIRE\n' : LINES[gesture];
}

const LINES: Readonly<Record<Gesture, string>> = { ROCK: 'ROCK\n', PAPER: 'PAPER\n', SCISSORS: 'SCISSORS\n' };

async function play(ctx: MatchContext, config: RoshamboConfig): Promise<MatchResult> {
  const [first, second] = ctx.seats as [PlayerSeat, PlayerSeat];
  first.write(`${first.name}\n${second.name}\n${config.rounds}\n`);
  second.write(`${second.name}\n${first.name}\n${config.rounds}\n`);
  ctx.spectators.write(`${first.name}\n${second.name}\n${config.rounds}\n`);
  // Drawn when someone wants to see it (GameDefinition.visFromInput): otherwise a round builds no event.
  const vis = ctx.drawing ? new RoshamboVis((event) => ctx.vis(event)) : null;
  vis?.start([first.name, second.name], config.rounds);
  const points: [number, number] = [0, 0];
  // Both players are read at once; each read retires its player as soon as its line is bad.
  const readGestures = eachReader([first, second], gestureOf);
  for (let round = 1; round <= config.rounds; round++) {
    // As the reference: a round starts when the previous result (or the header) went out, and its
    // result goes out no earlier than `pace` after that, the first round's included.
    const roundStart = config.pace > 0 ? ctx.elapsed() : 0;
    const [a, b] = (await readGestures()) as [Gesture | null, Gesture | null];
    if (config.pace > 0) await ctx.sleep(config.pace - (ctx.elapsed() - roundStart));
    first.write(line(b));
    second.write(line(a));
    ctx.spectators.write(line(a) + line(b));
    if (a === null || b === null) {
      const gone = [a === null ? first.name : null, b === null ? second.name : null].filter(Boolean).join(' and ');
      vis?.round(round, [a, b], points, `round ${round}: ${gone} retired`);
      // Leaving loses, whatever the points so far (as a crash or a forfeit does in every other game):
      // otherwise a program ahead on points could crash, or stop answering, and win.
      return { scores: [a === null ? 0 : 1, b === null ? 0 : 1], reason: `${gone} retired in round ${round}` };
    }
    const outcome = compare(a, b);
    if (outcome > 0) points[0]++;
    if (outcome < 0) points[1]++;
    if (vis) {
      const winner = outcome > 0 ? first.name : outcome < 0 ? second.name : null;
      vis.round(round, [a, b], points, `round ${round}: ${a} against ${b}, ${winner ? `${winner} scores` : 'a tie'}`);
    }
  }
  const [p0, p1] = points as [number, number];
  const verdict = p0 === p1 ? 'draw' : `${p0 > p1 ? first.name : second.name} wins`;
  return { scores: points, reason: `${verdict} ${Math.max(p0, p1)}-${Math.min(p0, p1)} after ${config.rounds} rounds` };
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
