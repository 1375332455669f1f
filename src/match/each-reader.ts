import type { PlayerSeat, ReadOptions } from './seat.js';

/** What a game does with a round of lines, one from each seat (EachReader). */
export interface RoundOfLines {
  /** Seat `index`'s line, or null when the player is gone, as soon as it comes (the game may remove the player here). */
  line(index: number, line: string | null, seat: PlayerSeat): void;
  /** Every seat has answered: the round's lines are all in. The game may `read` the next round here. */
  allRead(): void;
  /** `line` or `allRead` threw (a bug of the game): the reading stops, and the game should fail. */
  failed(error: unknown): void;
}

/**
 * Reads one line from each of `seats` at once, round after round: the reads of a game whose
 * players move together (roshambo's gestures). Each line goes to `round.line` as soon as it comes,
 * and `round.allRead` is called once every seat has answered.
 *
 * Nothing is made per round: no promise, no closure, no array (the seats' callbacks are made
 * once). A game that reads its players through promises pays a promise and a resumption per line,
 * most of what a round costs when a round is a line from each player and a line back.
 *
 * Rounds whose lines are all there already are read one after the other in a loop, not by `read`
 * calling itself through `allRead`: a player that sent many rounds ahead costs no stack.
 */
export class EachReader {
  private readonly takers: ((line: string | null) => void)[];
  /** A round is being read (a seat's line is awaited or being handed over). */
  private reading = false;
  private waitingFor = 0;
  /** Every seat answered while `startRound` was asking them. */
  private ready = false;
  private starting = false;
  /** `allRead` is running (the next `read` is then taken up by the loop in `finishRounds`). */
  private running = false;
  private requested = false;

  constructor(
    private readonly seats: readonly PlayerSeat[],
    private readonly round: RoundOfLines,
    private readonly options?: ReadOptions,
  ) {
    this.takers = seats.map((seat, index) => (line: string | null): void => this.taken(index, line, seat));
  }

  /** Reads the next round: `round.allRead` is called once each seat has answered (before this returns, if they have). */
  read(): void {
    if (this.reading) throw new Error('EachReader: the previous round is still being read');
    if (this.running) {
      this.requested = true;
      return;
    }
    if (this.startRound()) this.finishRounds();
  }

  /** Asks every seat for its line; true when all of them answered at once. */
  private startRound(): boolean {
    this.reading = true;
    this.ready = false;
    this.waitingFor = this.seats.length;
    if (this.waitingFor === 0) return true;
    this.starting = true;
    for (let index = 0; index < this.seats.length; index++) this.seats[index]!.takeLine(this.takers[index]!, this.options);
    this.starting = false;
    return this.ready;
  }

  private taken(index: number, line: string | null, seat: PlayerSeat): void {
    // The round failed on another seat's line; the game has its error.
    if (!this.reading) return;
    try {
      this.round.line(index, line, seat);
    } catch (error) {
      // A line arrives from a socket's handler: the game's fault goes to the game, not there.
      this.reading = false;
      return this.round.failed(error);
    }
    if (--this.waitingFor > 0) return;
    this.ready = true;
    if (!this.starting) this.finishRounds();
  }

  /** Hands the round over, and each next round the game asks for whose lines are all there already. */
  private finishRounds(): void {
    this.running = true;
    try {
      for (;;) {
        this.reading = false;
        this.round.allRead();
        if (!this.requested) return;
        this.requested = false;
        if (!this.startRound()) return;
      }
    } catch (error) {
      this.reading = false;
      this.requested = false;
      this.round.failed(error);
    } finally {
      this.running = false;
    }
  }
}
