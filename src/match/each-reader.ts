import type { PlayerSeat } from './seat.js';

/**
 * Reads one line from each of `seats` at once, round after round: the reads of a game whose
 * players move together (roshambo's gestures). Each line goes through `parse` as soon as it comes
 * (a game can remove a player for a bad line without waiting for the others); the round's promise
 * settles once every seat has answered, with the parsed lines in seat order.
 *
 * One promise a round, whatever the number of players, and the seats' callbacks are made once:
 * reading every player through its own promise costs a promise and a resumption per line, a good
 * part of a round's work when a round is a line from each player and a line back.
 */
export function eachReader<T>(
  seats: readonly PlayerSeat[],
  parse: (line: string | null, seat: PlayerSeat) => T,
  options?: { timeoutSeconds?: number },
): () => Promise<T[]> {
  let parsed: T[] = [];
  let waitingFor = 0;
  let round: { resolve: (lines: T[]) => void; reject: (error: unknown) => void } | null = null;
  const takers = seats.map((seat, index) => (line: string | null): void => {
    const current = round;
    // The round failed on another seat's line (below); the game has its error.
    if (current === null) return;
    try {
      parsed[index] = parse(line, seat);
    } catch (error) {
      // A line arrives from a socket's handler: the game's fault goes to the game, not there.
      round = null;
      return current.reject(error);
    }
    if (--waitingFor > 0) return;
    round = null;
    current.resolve(parsed);
  });
  return () =>
    new Promise<T[]>((resolve, reject) => {
      if (round) throw new Error('eachReader: the previous round is still being read');
      if (seats.length === 0) return resolve([]);
      parsed = new Array<T>(seats.length);
      waitingFor = seats.length;
      round = { resolve, reject };
      for (let index = 0; index < seats.length; index++) seats[index]!.takeLine(takers[index]!, options);
    });
}
