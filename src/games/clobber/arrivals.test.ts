import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineQueue } from '../../match/line-queue.js';
import type { PlayerSeat } from '../../match/seat.js';
import { Arrivals, MAX_WAITING_LINES, RecalledArrivals, type Arrival } from './arrivals.js';
import { DecisionLog } from '../../match/decision-log.js';
import { ReplaySeat } from '../../match/replay-seat.js';

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
  const decisions = new DecisionLog();
  return { seats, arrivals: new Arrivals(seats, (decision) => decisions.note(decision)), timer: manualTimer(), decisions };
}

/** The lines taken from `seat`, in order. */
function readOf(arrivals: Arrival[], seat: number): string[] {
  return arrivals.filter((arrival) => arrival.seat === seat && arrival.line !== null).map((arrival) => arrival.line!);
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
});

test('a line that arrived before its seat was prompted is not in turn, a later one is', async () => {
  const { seats, arrivals, timer } = setup();
  seats[0]!.send('early');
  await settle();
  arrivals.prompted(0);
  seats[0]!.send('late');
  await settle();
  assert.equal(((await arrivals.next(30, timer.after)) as Arrival & { inTurn: boolean }).inTurn, false);
  assert.equal(((await arrivals.next(30, timer.after)) as Arrival & { inTurn: boolean }).inTurn, true);
});

test('a seat never prompted is never in turn', async () => {
  const { seats, arrivals, timer } = setup();
  arrivals.prompted(0);
  seats[1]!.send('a 2 b 2');
  await settle();
  assert.equal(((await arrivals.next(30, timer.after)) as Arrival & { inTurn: boolean }).inTurn, false);
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
  await arrivals.reset();
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

test('a replay given the lines of the seats and the decisions the played arrivals noted takes the same arrivals, timeouts, resets and seats gone', async () => {
  const { seats, arrivals, timer, decisions } = setup();
  const played: (Arrival | 'timeout')[] = [];
  const take = async () => played.push(await arrivals.next(30, timer.after));
  seats[0]!.send('play clobber Zed');
  seats[1]!.send('b 1 c 1');
  seats[0]!.send('a 1 b 1');
  await settle();
  arrivals.prompted(0);
  seats[0]!.send('a 2 b 2');
  await settle();
  for (let i = 0; i < 3; i++) await take();
  const waiting = take();
  timer.fire();
  await waiting;
  seats[1]!.send('stale');
  seats[1]!.send('stale too');
  seats[0]!.send('stale');
  await settle();
  await arrivals.reset();
  arrivals.prompted(1);
  seats[1]!.send('d 4 d 3');
  seats[0]!.leave();
  await settle();
  for (let i = 0; i < 3; i++) await take();
  decisions.end();

  const replaySeats = [0, 1].map((index) => new ReplaySeat(index, `P${index}`, false));
  const sent = [['play clobber Zed', 'a 1 b 1', 'a 2 b 2', 'stale'], ['b 1 c 1', 'stale', 'stale too', 'd 4 d 3']];
  sent.forEach((lines, index) => {
    for (const line of lines) replaySeats[index]!.push(line);
    replaySeats[index]!.end();
  });
  const replay = new RecalledArrivals(replaySeats, () => decisions.recall());
  const replayed: (Arrival | 'timeout')[] = [];
  for (let i = 0; i < 4; i++) replayed.push(await replay.next());
  await replay.reset();
  for (let i = 0; i < 3; i++) replayed.push(await replay.next());
  assert.deepEqual(replayed, played);
  assert.deepEqual(played.map((arrival) => (arrival === 'timeout' ? arrival : [arrival.seat, arrival.line, 'inTurn' in arrival && arrival.inTurn])), [
    [1, 'b 1 c 1', false],
    [0, 'a 1 b 1', false],
    [0, 'a 2 b 2', true],
    'timeout',
    [1, 'd 4 d 3', true],
    [0, null, false],
    [0, null, false],
  ]);
  assert.deepEqual(readOf(replayed.filter((arrival) => arrival !== 'timeout'), 1), ['b 1 c 1', 'd 4 d 3']);
  assert.equal(await decisions.recall(), null, 'every decision recalled');
});
