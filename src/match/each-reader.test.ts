import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { EachReader, type RoundOfLines } from './each-reader.js';
import { MatchClock } from './match-clock.js';
import { Seat, type PlayerSeat, type SeatCloseReason } from './seat.js';

function seats(count: number, clock = new ManualClock()): { seats: Seat[]; closed: SeatCloseReason[][] } {
  const closed: SeatCloseReason[][] = [];
  const made = Array.from({ length: count }, (_, index) => {
    const seat = new Seat({ index, name: `p${index}`, isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(clock) });
    closed.push([]);
    seat.attach({ send: () => {}, close: (reason) => closed[index]!.push(reason) });
    return seat;
  });
  return { seats: made, closed };
}

/** Collects each round's lines in seat order; `onLine` may act on a line as it comes; `next` says whether to read on. */
class Rounds implements RoundOfLines {
  readonly rounds: (string | null)[][] = [];
  readonly errors: unknown[] = [];
  private current: (string | null)[] = [];
  reader!: EachReader;
  constructor(
    private readonly onLine: (line: string | null, seat: PlayerSeat) => void = () => {},
    private readonly next: (rounds: number) => boolean = () => false,
  ) {}
  line(index: number, line: string | null, seat: PlayerSeat): void {
    this.onLine(line, seat);
    this.current[index] = line;
  }
  allRead(): void {
    this.rounds.push(this.current);
    this.current = [];
    if (this.next(this.rounds.length)) this.reader.read();
  }
  failed(error: unknown): void {
    this.errors.push(error);
  }
}

function reading(seatsRead: readonly PlayerSeat[], rounds: Rounds): Rounds {
  rounds.reader = new EachReader(seatsRead, rounds);
  return rounds;
}

test('a round is handed over once every seat has answered, with the lines in seat order, whatever order they came in', () => {
  const { seats: [a, b, c] } = seats(3);
  const rounds = reading([a!, b!, c!], new Rounds());
  rounds.reader.read();
  c!.receive(Buffer.from('third\n'));
  a!.receive(Buffer.from('first\n'));
  assert.deepEqual(rounds.rounds, [], 'not before the last seat answers');
  b!.receive(Buffer.from('second\nnext round\n'));
  assert.deepEqual(rounds.rounds, [['first', 'second', 'third']]);
  a!.receive(Buffer.from('again\n'));
  c!.receiveEnd();
  rounds.reader.read();
  assert.deepEqual(rounds.rounds[1], ['again', 'next round', null], 'buffered lines and a departure answer the next round at once');
});

test('rounds whose lines are already there are read in a loop: ten thousand of them cost no stack', () => {
  const { seats: [a, b] } = seats(2);
  const rounds = reading([a!, b!], new Rounds(undefined, (count) => count < 10_000));
  a!.receive(Buffer.from('x\n'.repeat(10_000)));
  b!.receive(Buffer.from('y\n'.repeat(10_000)));
  rounds.reader.read();
  assert.equal(rounds.rounds.length, 10_000);
  assert.deepEqual(rounds.errors, []);
  assert.throws(() => {
    rounds.reader.read();
    rounds.reader.read();
  }, /previous round is still being read/);
});

test('each line is given as it comes: a game can remove a player before the others answer', () => {
  const { seats: [a, b], closed } = seats(2);
  const rounds = reading([a!, b!], new Rounds((line, seat) => line === 'bad' && seat.close('removed')));
  rounds.reader.read();
  a!.receive(Buffer.from('bad\n'));
  assert.deepEqual(closed[0], ['removed'], 'removed at once, while the other player has not answered');
  b!.receive(Buffer.from('good\n'));
  assert.deepEqual(rounds.rounds, [['bad', 'good']]);
});

test('a seat that does not answer in time ends the round with null for it', async () => {
  const clock = new ManualClock();
  const { seats: [a, b], closed } = seats(2, clock);
  const rounds = reading([a!, b!], new Rounds());
  rounds.reader.read();
  a!.receive(Buffer.from('ROCK\n'));
  await clock.advance(5_000);
  assert.deepEqual(rounds.rounds, [['ROCK', null]]);
  assert.deepEqual(closed, [[], ['timeout']]);
});

test('a game that throws on a line fails the reading for the game, not the connection that delivered the line', () => {
  const { seats: [a, b] } = seats(2);
  const rounds = reading([a!, b!], new Rounds((line) => {
    if (line === 'boom') throw new Error('game bug');
  }));
  rounds.reader.read();
  assert.doesNotThrow(() => a!.receive(Buffer.from('boom\n')));
  assert.match(String(rounds.errors[0]), /game bug/);
  assert.doesNotThrow(() => b!.receive(Buffer.from('late\n')));
  assert.deepEqual(rounds.rounds, []);
});

test('a game that throws when the round is in fails the reading too', () => {
  const { seats: [a] } = seats(1);
  const rounds = new Rounds();
  rounds.reader = new EachReader([a!], { line: () => {}, allRead: () => { throw new Error('bug at the end'); }, failed: (error) => rounds.errors.push(error) });
  rounds.reader.read();
  assert.doesNotThrow(() => a!.receive(Buffer.from('x\n')));
  assert.match(String(rounds.errors[0]), /bug at the end/);
});

test('no seats: the round is in at once', () => {
  const rounds = reading([], new Rounds());
  rounds.reader.read();
  assert.deepEqual(rounds.rounds, [[]]);
});
