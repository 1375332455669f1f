/** Rock Paper Scissors: the vocabulary and who beats whom. */
export const GESTURES = ['ROCK', 'PAPER', 'SCISSORS'] as const;
export type Gesture = (typeof GESTURES)[number];

const BEATS: Readonly<Record<Gesture, Gesture>> = { ROCK: 'SCISSORS', PAPER: 'ROCK', SCISSORS: 'PAPER' };

export function parseGesture(text: string): Gesture | null {
  const word = text.trim();
  return (GESTURES as readonly string[]).includes(word) ? (word as Gesture) : null;
}

/** 1 if `a` wins over `b`, -1 if it loses, 0 for a tie. */
export function compare(a: Gesture, b: Gesture): 1 | 0 | -1 {
  if (a === b) return 0;
  return BEATS[a] === b ? 1 : -1;
}

/** The gesture that beats `gesture`. */
export function counter(gesture: Gesture): Gesture {
  return GESTURES.find((candidate) => BEATS[candidate] === gesture)!;
}
