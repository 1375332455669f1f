import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { MatchClock } from './match-clock.js';
import { SEAT_LIMITS, Seat, type SeatCloseReason, type SeatFraming } from './seat.js';
import { LineSplitter } from '../protocol/line-splitter.js';
import { Random } from './random.js';
import { SeatTranscript } from './seat-transcript.js';

function seat(framing: SeatFraming = 'lines', maxLineBytes = 64): { seat: Seat; closed: SeatCloseReason[]; sent: string[] } {
  const closed: SeatCloseReason[] = [];
  const sent: string[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes, clock: new MatchClock(), framing });
  s.attach({ send: (b) => sent.push(Buffer.from(b).toString()), close: (r) => closed.push(r) });
  return { seat: s, closed, sent };
}

test('a line seat gives whole lines, then null once the player is gone', async () => {
  const { seat: s, closed } = seat();
  s.receive(Buffer.from('ROC'));
  s.receive(Buffer.from('K\nPAPER\n'));
  s.receiveEnd();
  assert.equal(await s.readLine(), 'ROCK');
  assert.equal(await s.readLine(), 'PAPER');
  assert.equal(await s.readLine(), null);
  assert.deepEqual(closed, ['disconnected']);
});

test('a text seat gives text as it arrives, without waiting for a line break', async () => {
  const { seat: s } = seat('text');
  const euro = Buffer.from('<a>€</a>');
  s.receive(euro.subarray(0, 4));
  assert.equal(await s.readLine(), '<a>');
  s.receive(euro.subarray(4));
  assert.equal(await s.readLine(), '€</a>');
});

test('output written before the transport is attached is sent first, and nothing after close', () => {
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock() });
  s.write('early\n');
  const sent: string[] = [];
  s.attach({ send: (b) => sent.push(Buffer.from(b).toString()), close: () => {} });
  s.write('late\n');
  s.close();
  s.write('gone\n');
  assert.deepEqual(sent, ['early\n', 'late\n']);
});

test('a player that floods unread input is closed (lines and text alike)', () => {
  for (const framing of ['lines', 'text'] as const) {
    const { seat: s, closed } = seat(framing, 1 << 20);
    const line = Buffer.from(`${'x'.repeat(1023)}\n`);
    for (let i = 0; i < (2 * SEAT_LIMITS.maxQueuedBytes) / line.length; i++) s.receive(line);
    assert.deepEqual(closed, ['flood'], framing);
  }
});

test('a flood of empty lines fills the unread budget too: each line break counts', () => {
  const { seat: s, closed } = seat('lines', 1 << 20);
  const empties = Buffer.alloc(64 * 1024, 0x0a);
  for (let i = 0; i < (2 * SEAT_LIMITS.maxQueuedBytes) / empties.length; i++) s.receive(empties);
  assert.deepEqual(closed, ['flood']);
});

test('a too long line and invalid UTF-8 close the seat with their reason', () => {
  const long = seat('lines', 8);
  long.seat.receive(Buffer.from('123456789\n'));
  assert.deepEqual(long.closed, ['line/too-long']);
  const bad = seat('text');
  bad.seat.receive(Buffer.from([0xff, 0x0a]));
  assert.deepEqual(bad.closed, ['line/invalid-utf8']);
});

test('the lines a player sent before a bad line are still read, though the seat is closed at once', async () => {
  const { seat: s, closed } = seat('lines', 8);
  s.receive(Buffer.from('ROCK\nPAPER\n123456789\nLATE\n'));
  assert.deepEqual(closed, ['line/too-long'], 'the player is told at once');
  assert.equal(s.closeReason, 'line/too-long');
  assert.equal(await s.readLine(), 'ROCK');
  assert.equal(await s.readLine(), 'PAPER');
  assert.equal(await s.readLine(), null, 'nothing after the bad line');
  assert.equal(s.closeReason, 'line/too-long');
  const removed = seat('lines', 8);
  removed.seat.receive(Buffer.from('ROCK\n123456789\n'));
  removed.seat.close('removed');
  assert.equal(await removed.seat.readLine(), null, 'a game that removes the player reads nothing more');
});

test('a read that waits past the timeout closes the seat with timeout, and not a moment before', async () => {
  const clock = new ManualClock();
  const closed: SeatCloseReason[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(clock) });
  s.attach({ send: () => {}, close: (r) => closed.push(r) });
  let answer: string | null | undefined;
  void s.readLine().then((line) => (answer = line));
  await clock.advance(4_999);
  assert.equal(answer, undefined, 'still waiting just before the timeout');
  assert.deepEqual(closed, []);
  await clock.advance(1);
  assert.equal(answer, null);
  assert.deepEqual(closed, ['timeout']);
});

test('a line that comes in time cancels the timeout; a read may set its own timeout', async () => {
  const clock = new ManualClock();
  const closed: SeatCloseReason[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(clock) });
  s.attach({ send: () => {}, close: (r) => closed.push(r) });
  const first = s.readLine();
  await clock.advance(4_000);
  s.receive(Buffer.from('ROCK\n'));
  assert.equal(await first, 'ROCK');
  await clock.advance(2_000);
  assert.deepEqual(closed, [], 'the answered read has no deadline any more');
  const patient = s.readLine({ timeoutSeconds: 60 });
  await clock.advance(59_000);
  s.receive(Buffer.from('PAPER\n'));
  assert.equal(await patient, 'PAPER');
  const hasty = s.readLine({ timeoutSeconds: 1 });
  await clock.advance(999);
  assert.deepEqual(closed, []);
  await clock.advance(1);
  assert.equal(await hasty, null, 'a shorter deadline than the last one holds');
  assert.deepEqual(closed, ['timeout']);
  assert.equal(clock.pending, 0, 'a closed seat leaves no timer');
});

test('a read waits its whole timeout, however long the reads before it took', async () => {
  const clock = new ManualClock();
  const closed: SeatCloseReason[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(clock) });
  s.attach({ send: () => {}, close: (r) => closed.push(r) });
  for (const wait of [4_000, 10, 4_999]) {
    const read = s.readLine();
    await clock.advance(wait);
    s.receive(Buffer.from('ROCK\n'));
    assert.equal(await read, 'ROCK');
  }
  const last = s.readLine();
  await clock.advance(4_999);
  assert.deepEqual(closed, [], 'not before 5 s');
  await clock.advance(1);
  assert.equal(await last, null);
  assert.deepEqual(closed, ['timeout']);
});

test('takeLine gives a line that is there before it returns, and a later one when it comes, with the same timeout', async () => {
  const clock = new ManualClock();
  const closed: SeatCloseReason[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(clock) });
  s.attach({ send: () => {}, close: (r) => closed.push(r) });
  const taken: (string | null)[] = [];
  const take = (line: string | null): void => void taken.push(line);
  s.receive(Buffer.from('ROCK\n'));
  s.takeLine(take);
  assert.deepEqual(taken, ['ROCK'], 'a buffered line is taken at once, without a turn of the event loop');
  s.takeLine(take);
  assert.deepEqual(taken, ['ROCK']);
  s.receive(Buffer.from('PAPER\n'));
  assert.deepEqual(taken, ['ROCK', 'PAPER'], 'a line that comes is handed over as it is split off');
  s.takeLine(take);
  await clock.advance(4_999);
  assert.deepEqual(closed, []);
  await clock.advance(1);
  assert.deepEqual(taken, ['ROCK', 'PAPER', null], 'a read that waits past the timeout gets the end');
  assert.deepEqual(closed, ['timeout']);
  s.takeLine(take);
  assert.deepEqual(taken, ['ROCK', 'PAPER', null, null], 'a closed seat answers at once');
  assert.equal(clock.pending, 0);
});

test('a seat whose game answers bad lines keeps sending until the game closes it, then tells the transport', async () => {
  const closed: SeatCloseReason[] = [];
  const sent: string[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(), outputAfterBadLine: true });
  s.attach({ send: (b) => sent.push(Buffer.from(b).toString()), close: (r) => closed.push(r) });
  s.receive(Buffer.from([0xff, 0xfe, 0x0a]));
  assert.equal(s.closeReason, 'line/invalid-utf8');
  assert.equal(await s.readLine(), null);
  assert.deepEqual(closed, [], 'not yet: the game has its answer to send');
  s.write('WINNER <BLACK>\n');
  s.close('match-over');
  s.write('gone\n');
  assert.deepEqual(sent, ['WINNER <BLACK>\n']);
  assert.deepEqual(closed, ['line/invalid-utf8']);
});

/**
 * A seat cuts lines itself (seat.ts); LineSplitter (protocol/line-splitter.ts) states the rules.
 * Random streams of short lines, CRs, non-ASCII, bad bytes and long lines, cut into random chunks
 * (Buffers and plain byte views with an offset), must give the same lines, transcript and error.
 */
test('a seat cuts lines exactly as LineSplitter does, however the bytes are chunked', () => {
  const random = Random.fromSeed('seat-lines');
  const pieces = ['ROCK', 'é€😀', '\r', '\n', '\r\n', 'x'.repeat(20), '\uFEFFBOM', ''];
  for (let trial = 0; trial < 400; trial++) {
    const stream: number[] = [];
    const parts = 1 + random.int(12);
    for (let i = 0; i < parts; i++) {
      const choice = random.int(pieces.length + 2);
      if (choice < pieces.length) stream.push(...Buffer.from(pieces[choice]!));
      else if (choice === pieces.length) stream.push(0xff);
      else stream.push(0x0a);
    }
    const bytes = Buffer.from(stream);
    const maxLineBytes = 8 + random.int(40);
    const expected: string[] = [];
    let expectedError: string | null = null;
    const expectedTranscript = new SeatTranscript('seat 0, p', () => 0);
    const splitter = new LineSplitter(maxLineBytes, {
      line: (text, lineBytes) => {
        expected.push(text);
        expectedTranscript.lineFromPlayer(lineBytes);
      },
      error: (code) => (expectedError = code),
    });
    const transcript = new SeatTranscript('seat 0, p', () => 0);
    const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes, clock: new MatchClock(), transcript });
    const got: string[] = [];
    const takeAll = (line: string | null): void => {
      if (line === null) return;
      got.push(line);
      s.takeLine(takeAll, { timeoutSeconds: Infinity });
    };
    s.takeLine(takeAll, { timeoutSeconds: Infinity });
    let at = 0;
    while (at < bytes.length) {
      const end = Math.min(bytes.length, at + 1 + random.int(10));
      const piece = bytes.subarray(at, end);
      splitter.push(piece);
      // A byte view that is not a Buffer, in the middle of a larger buffer.
      const view = random.bit() === 0 ? piece : inLargerArray(piece);
      s.receive(view);
      at = end;
    }
    splitter.end();
    s.receiveEnd();
    const context = `trial ${trial}: ${JSON.stringify(bytes.toString('latin1'))}, max ${maxLineBytes}`;
    assert.deepEqual(got, expected, context);
    assert.equal(s.closeReason, expectedError, context);
    // The seat's transcript also notes why the seat closed; its lines are the splitter's bytes.
    const linesOf = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('0.000 > '));
    assert.deepEqual(linesOf(transcript.text()), linesOf(expectedTranscript.text()), context);
    assert.equal(linesOf(transcript.text()).length, expected.length, context);
  }
});

/** The bytes as a plain Uint8Array (not a Buffer) that starts one byte into its ArrayBuffer, after a newline. */
function inLargerArray(bytes: Uint8Array): Uint8Array {
  const whole = new Uint8Array(bytes.length + 1);
  whole[0] = 0x0a;
  whole.set(bytes, 1);
  return whole.subarray(1);
}

test('lines read give back their room in the unread budget: a long exchange of lines is no flood', () => {
  const { seat: s, closed } = seat('lines', 1 << 20);
  const line = Buffer.from(`${'x'.repeat(1023)}\n`);
  let read = 0;
  for (let i = 0; i < (4 * SEAT_LIMITS.maxQueuedBytes) / line.length; i++) {
    s.receive(line);
    s.receive(line);
    s.takeLine(() => void read++);
    s.takeLine(() => void read++);
  }
  assert.deepEqual(closed, []);
  assert.equal(read, (8 * SEAT_LIMITS.maxQueuedBytes) / line.length);
});

test("a read's last words (beforeTimeOut) reach the player when it times out, before the seat closes, and never when a line comes in time", async () => {
  const clock = new ManualClock();
  const events: string[] = [];
  const s = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(clock) });
  s.attach({ send: (b) => void events.push(`sent ${Buffer.from(b).toString().trim()}`), close: (r) => void events.push(`closed ${r}`) });
  const options = { timeoutSeconds: 2, beforeTimeOut: () => s.write('TIMED OUT\n') };
  const first = s.readLine(options);
  await clock.advance(1_999);
  s.receive(Buffer.from('ROCK\n'));
  assert.equal(await first, 'ROCK');
  await clock.advance(5_000);
  assert.deepEqual(events, [], 'an answered read says nothing');
  const second = s.readLine(options);
  await clock.advance(1_999);
  assert.deepEqual(events, []);
  await clock.advance(1);
  assert.equal(await second, null);
  assert.deepEqual(events, ['sent TIMED OUT', 'closed timeout']);
});
