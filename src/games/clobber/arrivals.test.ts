import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineQueue } from '../../match/line-queue.js';
import type { PlayerSeat } from '../../match/seat.js';
import { Arrivals, MAX_WAITING_LINES, type Arrival } from './arrivals.js';

/** A seat fed by the test: `send` is a line from the player, `leave` its disconnection. */
class FakeSeat implements PlayerSeat {
  readonly name: string;
  readonly isBot = false;
  closeReason: PlayerSeat['closeReason'] = null;
  private readonly input = new LineQueue();

  constructor(readonly index: number) {
    this.name = `P${index}`;
  }

  get closed(): boolean {
    return this.closeReason !== null;
  }

  send(line: string): void {
    this.input.push(line);
  }

  leave(): void {
    this.input.end();
  }

  readLine(): Promise<string | null> {
    return new Promise((resolve) => this.takeLine(resolve));
  }

  takeLine(taker: (line: string | null) => void): void {
    this.input.take((line) => {
      if (line === null && !this.closeReason) this.closeReason = 'disconnected';
      taker(line);
    });
  }

  write(): void {}

  writeBytes(): void {}

  close(reason: PlayerSeat['closeReason'] = 'removed'): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    this.input.close();
  }
}

/** Lets the pumps run: every pending line passes through a few promise hops. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A timer that never fires unless the test fires it. */
function manualTimer() {
  const pending: (() => void)[] = [];
  return {
    after: (_seconds: number, callback: () => void) => {
      pending.push(callback);
      return () => pending.splice(pending.indexOf(callback), 1);
    },
    fire: () => pending.shift()?.(),
    get armed() {
      return pending.length;
    },
  };
}

function setup() {
  const seats = [new FakeSeat(0), new FakeSeat(1)];
  return { seats, arrivals: new Arrivals(seats), timer: manualTimer() };
}

test('lines from both seats come out in arrival order', async () => {
  const { seats, arrivals, timer } = setup();
  seats[1]!.send('one');
  seats[0]!.send('two');
  seats[1]!.send('three');
  await settle();
  const got: Arrival[] = [];
  for (let i = 0; i < 3; i++) got.push((await arrivals.next(30, timer.after)) as Arrival);
  assert.deepEqual(got.map((a) => [a.seat, a.line]), [[1, 'one'], [0, 'two'], [1, 'three']]);
  assert.ok(got[0]!.seq < got[1]!.seq && got[1]!.seq < got[2]!.seq);
});

test('a line that arrived before its seat was prompted is not in turn, a later one is', async () => {
  const { seats, arrivals, timer } = setup();
  seats[0]!.send('early');
  await settle();
  arrivals.prompted(0);
  seats[0]!.send('late');
  await settle();
  assert.equal(arrivals.inTurn((await arrivals.next(30, timer.after)) as Arrival), false);
  assert.equal(arrivals.inTurn((await arrivals.next(30, timer.after)) as Arrival), true);
});

test('a seat never prompted is never in turn', async () => {
  const { seats, arrivals, timer } = setup();
  arrivals.prompted(0);
  seats[1]!.send('a 2 b 2');
  await settle();
  assert.equal(arrivals.inTurn((await arrivals.next(30, timer.after)) as Arrival), false);
});

test('a first line "play clobber <name>" is dropped, a later one is kept', async () => {
  const { seats, arrivals, timer } = setup();
  seats[0]!.send('play clobber Zed');
  seats[0]!.send('play clobber Zed');
  seats[1]!.send('a 1 b 1');
  await settle();
  const got: Arrival[] = [];
  for (let i = 0; i < 2; i++) got.push((await arrivals.next(30, timer.after)) as Arrival);
  assert.deepEqual(got.map((a) => [a.seat, a.line]).sort(), [[0, 'play clobber Zed'], [1, 'a 1 b 1']]);
});

test('waiting for a line ends with timeout when the timer fires, and a line cancels the timer', async () => {
  const { seats, arrivals, timer } = setup();
  const waiting = arrivals.next(30, timer.after);
  assert.equal(timer.armed, 1);
  timer.fire();
  assert.equal(await waiting, 'timeout');
  const second = arrivals.next(30, timer.after);
  seats[0]!.send('x');
  assert.equal(((await second) as Arrival).line, 'x');
  assert.equal(timer.armed, 0);
});

test('reset drops waiting lines and prompts, but a seat that left stays gone', async () => {
  const { seats, arrivals, timer } = setup();
  seats[0]!.send('stale');
  seats[1]!.send('stale');
  seats[1]!.leave();
  arrivals.prompted(0);
  await settle();
  arrivals.reset();
  seats[0]!.send('fresh');
  await settle();
  const gone = (await arrivals.next(30, timer.after)) as Arrival;
  assert.deepEqual([gone.seat, gone.line], [1, null]);
  assert.deepEqual(await arrivals.next(30, timer.after), gone, 'still gone on the next read');
});

test('a seat with too many lines waiting is closed and reported gone', async () => {
  const { seats, arrivals, timer } = setup();
  for (let i = 0; i <= MAX_WAITING_LINES; i++) seats[1]!.send(`line ${i}`);
  await settle();
  assert.equal(seats[1]!.closeReason, 'removed');
  const lines: (string | null)[] = [];
  for (let i = 0; i <= MAX_WAITING_LINES; i++) lines.push(((await arrivals.next(30, timer.after)) as Arrival).line);
  assert.equal(lines.filter((line) => line !== null).length, MAX_WAITING_LINES);
  assert.equal(lines.at(-1), null);
});
