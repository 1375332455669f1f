/** Why the loser of a game lost: the closed vocabulary of the spectator stream's `result` lines. */
export const LOSS_CAUSES = ['no-move', 'illegal-move', 'bad-syntax', 'out-of-turn', 'timeout', 'disconnected'] as const;
export type LossCause = (typeof LOSS_CAUSES)[number];

const CAUSE_WORDS: Readonly<Record<LossCause, string>> = {
  'no-move': 'has no legal move',
  'illegal-move': 'made an illegal move',
  'bad-syntax': 'sent something that is not a move',
  'out-of-turn': 'sent a line out of turn',
  timeout: 'ran out of time',
  disconnected: 'left the match',
};

/** The loss in words, for logs: "Bob has no legal move". */
export function describeLoss(loser: string, cause: LossCause): string {
  return `${loser} ${CAUSE_WORDS[cause]}`;
}
