/**
 * A game's result as finishing places, the one view of a result that standings, swiss pairing and
 * the rating share, whatever the number of seats. Places are competition ranks from the scores
 * (higher is better, as in outcomeOf): 1 plus the number of seats that scored more, so tied seats
 * share the better place (scores 5 3 3 1 are places 1 2 2 4).
 */

/** The finishing places of 3 or more seats (never confused with a 2-player outcome, which has one `-`). */
export type PlacesOutcome = `${number}-${number}-${string}`;
/** A game's result as a results file writes it (PGN's notation for 2 seats, the places for more). */
export type Outcome = '1-0' | '0-1' | '1/2-1/2' | '*' | PlacesOutcome;

/** Each seat's place, from its score. */
export function placesFromScores(scores: readonly number[]): number[] {
  return scores.map((mine) => 1 + scores.filter((other) => other > mine).length);
}

/** Each seat's place as an outcome records it, or null for a game without a result. */
export function placesOf(outcome: Outcome): number[] | null {
  switch (outcome) {
    case '*':
      return null;
    case '1-0':
      return [1, 2];
    case '0-1':
      return [2, 1];
    case '1/2-1/2':
      return [1, 1];
    default:
      return outcome.split('-').map(Number);
  }
}

/**
 * Each seat's points for one game: the opponents it beat, plus half those it tied with, over the
 * k - 1 opponents; a 2-player game gives 1, 0.5 or 0, and every game hands out k/2 points in all.
 */
export function seatPoints(places: readonly number[]): number[] {
  const opponents = places.length - 1;
  return places.map((mine, seat) => {
    let score = 0;
    places.forEach((other, j) => {
      if (j !== seat) score += other > mine ? 1 : other === mine ? 0.5 : 0;
    });
    return score / opponents;
  });
}
