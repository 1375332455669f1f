import { parseMove } from './notation.js';
import { apply, checkMove, startPosition, type Color, type Position } from './rules.js';

/**
 * The position as a player of the 2006 stream sees it, followed line by line: `m n b` starts a
 * game, a move line is the opponent's move, anything else (`error`, `end`) ends the game at hand.
 * Shared by the server bot and the tests' players, which must read the stream the same way.
 */
export class ClobberStreamTracker {
  position: Position | null = null;
  me: Color = 'black';

  /** Takes one line from the server. */
  follow(line: string): void {
    const words = line.trim().split(/\s+/);
    if (words.length === 3) {
      const start = startPosition(Number(words[0]), Number(words[1]));
      this.position = start.ok ? start.value : null;
      this.me = words[2] === '1' ? 'black' : 'white';
    } else if (words.length === 4 && this.position) {
      const parsed = parseMove(line, this.position);
      this.position = parsed.ok && checkMove(this.position, parsed.value).ok ? apply(this.position, parsed.value) : null;
    } else {
      this.position = null;
    }
  }

  /** The position when it is this player's turn, else null. */
  get toPlay(): Position | null {
    return this.position && this.position.toMove === this.me ? this.position : null;
  }
}
