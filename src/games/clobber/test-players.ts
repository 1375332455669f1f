import type { BotIO } from '../../match/game.js';
import type { LocalMatchOptions, LocalPlayer } from '../../match/local-match.js';
import type { Random } from '../../match/random.js';
import { formatMove } from './notation.js';
import { apply, legalMoves } from './rules.js';
import { ClobberStreamTracker } from './stream-tracker.js';

/**
 * Players for tests, driven through the same line stream as real programs.
 */

/**
 * Follows a transcript in the description's format: lines starting with `>` are sent, the others
 * are read (their content is checked by comparing the whole received stream afterwards). After the
 * transcript it reads until the server closes the stream, or leaves at once with `thenLeave`.
 */
export function scripted(transcript: readonly string[], options: { thenLeave?: boolean } = {}): LocalPlayer {
  return async (io) => {
    for (const step of transcript) {
      if (step.startsWith('>')) io.write(`${step.slice(1)}\n`);
      else if ((await io.readLine()) === null) return;
    }
    if (options.thenLeave) return;
    while ((await io.readLine()) !== null);
  };
}

/** A uniformly random legal mover speaking the 2006 stream; counts the `error`s it receives. */
export function randomPlayer(random: Random, errors: { count: number } = { count: 0 }): LocalPlayer {
  return async (io: BotIO) => {
    const stream = new ClobberStreamTracker();
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (line === 'error') errors.count++;
      stream.follow(line);
      const position = stream.toPlay;
      if (!position) continue;
      const moves = legalMoves(position);
      if (moves.length === 0) continue;
      const move = random.pick(moves);
      io.write(`${formatMove(position, move)}\n`);
      stream.position = apply(position, move);
    }
  };
}

/**
 * Black and White whose lines reach the server in one tick on the 3 x 2 board: Black's move and
 * White's line right after it, before the server has forwarded the move. White's line is out of
 * turn only by its arrival.
 */
export function sameTickPlayers(): LocalMatchOptions['players'] {
  let whiteIo: BotIO | null = null;
  return [
    {
      name: 'Black',
      play: async (io) => {
        await io.readLine();
        io.write('a 1 b 1\n');
        whiteIo!.write('a 2 b 2\n');
        while ((await io.readLine()) !== null);
      },
    },
    {
      name: 'White',
      play: async (io) => {
        whiteIo = io;
        while ((await io.readLine()) !== null);
      },
    },
  ];
}
