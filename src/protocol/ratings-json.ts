/** One leaderboard row as `GET /api/ratings/GAME` gives it (imports nothing: coco and the web page share it). */
export interface RatingRow {
  readonly rank: number;
  readonly player: string;
  /** mu - 3 sigma: what the board shows and sorts by. */
  readonly rating: number;
  readonly mu: number;
  readonly sigma: number;
  readonly games: number;
}
