/**
 * Tells an external game's controller that the program behind a server-bot seat has ended, so
 * that the game server gets `dropped p` as it would for a player who disconnected.
 *
 * Why this exists: a server bot reaches its seat through BotIO, which can write but cannot say
 * "my output ended", so the controller would otherwise wait for a dead bot until the game server's
 * own timers (or the stall watchdog) end the wait. `configure` makes one BotExits per match and
 * both `play` and `playBot` receive that match's config. A shared `BotIO.end()` would make this
 * unnecessary (see README.md).
 */
export class BotExits {
  private readonly early = new Set<number>();
  private listener: ((seat: number) => void) | null = null;

  /** The bot playing seat `seat` (0-based) has stopped talking. */
  report(seat: number): void {
    if (this.listener) this.listener(seat);
    else this.early.add(seat);
  }

  /** Receives reports, including those made before; returns the function that stops listening. */
  listen(listener: (seat: number) => void): () => void {
    this.listener = listener;
    for (const seat of this.early) listener(seat);
    this.early.clear();
    return () => {
      if (this.listener === listener) this.listener = null;
    };
  }
}
