/**
 * Why the server closed this player's seat, read from the seat's transcript (the artifact
 * `transcript-N.txt` of a finished match): the game's reason says who won, this says what
 * happened to you (`you did not answer in time`), with the last line your program sent when the
 * game removed you for it.
 */

import { closureReason } from '../match/seat-transcript.js';

export { closureReason };

/** What each close reason of the runtime (match/seat.ts) means to the player. */
const CLOSURES: Readonly<Record<string, string>> = {
  timeout: 'you did not answer in time',
  disconnected: 'your program left the match',
  'line/too-long': 'your program sent a line too long',
  'line/invalid-utf8': 'your program sent a line that is not UTF-8',
  flood: 'your program sent more than the game read',
  removed: 'the game removed you',
};

/** The phrase for the seat's closing, or null when it was not closed before the end (or by the shutdown). */
export function seatClosure(transcript: string): string | null {
  const lines = transcript.split('\n');
  const closing = lines.findIndex((line) => /^\S+ # the seat was closed: /.test(line));
  if (closing === -1) return null;
  const reason = closureReason(transcript)!;
  const phrase = CLOSURES[reason];
  if (phrase === undefined) return null;
  if (reason !== 'removed') return phrase;
  const sent = lines
    .slice(0, closing)
    .reverse()
    .find((line) => /^\S+ > /.test(line));
  return sent === undefined ? phrase : `${phrase} after your line "${sent.replace(/^\S+ > /, '')}"`;
}
