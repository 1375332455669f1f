import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { eachReader } from './each-reader.js';
import { MatchClock } from './match-clock.js';
import { Seat, type SeatCloseReason } from './seat.js';

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

test('a round settles once every seat has answered, with the lines in seat order, whatever order they came in', async () => {
  const { seats: [a, b, c] } = seats(3);
  const read = eachReader([a!, b!, c!], (line) => line);
  let round: (string | null)[] | undefined;
  void read().then((lines) => (round = lines));
  c!.receive(Buffer.from('third\n'));
  a!.receive(Buffer.from('first\n'));
  await Promise.resolve();
  assert.equal(round, undefined, 'not before the last seat answers');
  b!.receive(Buffer.from('second\nnext round\n'));
  await Promise.resolve();
  assert.deepEqual(round, ['first', 'second', 'third']);
  a!.receive(Buffer.from('again\n'));
  c!.receiveEnd();
  assert.deepEqual(await read(), ['again', 'next round', null], 'buffered lines and a departure answer the next round');
});

test('each line is parsed as it comes: a game can remove a player before the others answer', async () => {
  const { seats: [a, b], closed } = seats(2);
  const read = eachReader([a!, b!], (line, seat) => {
    if (line === 'bad') seat.close('removed');
    return line === 'bad' ? null : line;
  });
  const round = read();
  a!.receive(Buffer.from('bad\n'));
  assert.deepEqual(closed[0], ['removed'], 'removed at once, while the other player has not answered');
  b!.receive(Buffer.from('good\n'));
  assert.deepEqual(await round, [null, 'good']);
});

test('a seat that does not answer in time ends the round with null for it', async () => {
  const clock = new ManualClock();
  const { seats: [a, b], closed } = seats(2, clock);
  const read = eachReader([a!, b!], (line) => line);
  const round = read();
  a!.receive(Buffer.from('ROCK\n'));
  await clock.advance(5_000);
  assert.deepEqual(await round, ['ROCK', null]);
  assert.deepEqual(closed, [[], ['timeout']]);
});

test('a parse that throws fails the round for the game, not the connection that delivered the line', async () => {
  const { seats: [a, b] } = seats(2);
  const read = eachReader([a!, b!], (line) => {
    if (line === 'boom') throw new Error('game bug');
    return line;
  });
  const round = read();
  assert.doesNotThrow(() => a!.receive(Buffer.from('boom\n')));
  await assert.rejects(round, /game bug/);
  assert.doesNotThrow(() => b!.receive(Buffer.from('late\n')));
});

test('no seats: the round is empty at once', async () => {
  assert.deepEqual(await eachReader([], (line) => line)(), []);
});
