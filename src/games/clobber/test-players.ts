import type { BotIO } from '../../match/game.js';
import type { LocalPlayer } from '../../match/local-match.js';
import type { Random } from '../../match/random.js';
import { formatMove, parseMove } from './notation.js';
import { apply, checkMove, legalMoves, startPosition, type Color, type Position } from './rules.js';

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
    let position: Position | null = null;
    let me: Color = 'black';
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      const words = line.split(' ');
      if (words.length === 3) {
        const start = startPosition(Number(words[0]), Number(words[1]));
        position = start.ok ? start.value : null;
        me = words[2] === '1' ? 'black' : 'white';
      } else if (words.length === 4 && position) {
        const parsed = parseMove(line, position);
        position = parsed.ok && checkMove(position, parsed.value).ok ? apply(position, parsed.value) : null;
      } else {
        if (line === 'error') errors.count++;
        position = null;
      }
      if (!position || position.toMove !== me) continue;
      const moves = legalMoves(position);
      if (moves.length === 0) continue;
      const move = random.pick(moves);
      io.write(`${formatMove(position, move)}\n`);
      position = apply(position, move);
    }
  };
}
