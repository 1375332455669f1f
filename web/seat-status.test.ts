import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reasonEvents, seatStatusTimeline, transcriptEvents, SeatStatusTimeline } from './seat-status.js';

const header = '# seat 1, bob: "<" received from the game, ">" sent by the player; seconds since the match started\n';

test("a transcript's notes give the seat's status from their time on: timeout, a bad line, removed", () => {
  const text = `${header}0.000 < ann\n0.000 < bob\n1.250 > ROCK\n4.500 # the seat was closed: timeout\n`;
  assert.deepEqual(transcriptEvents(1, text), [{ seat: 1, t: 4.5, status: 'timeout', why: 'did not answer in time' }]);
  assert.equal(transcriptEvents(0, `${header}2.000 # the seat was closed: line/too-long\n`)[0]!.status, 'error');
  assert.equal(transcriptEvents(0, `${header}2.000 # the seat was closed: line/invalid-utf8\n`)[0]!.status, 'error');
  assert.equal(transcriptEvents(0, `${header}2.000 # the seat was closed: removed\n`)[0]!.status, 'error');
  assert.equal(transcriptEvents(0, `${header}2.000 # the seat was closed: flood\n`)[0]!.status, 'error');
  // The end of the match and a server shutdown are nobody's fault; lines the player sent that look like notes are not notes.
  assert.deepEqual(transcriptEvents(0, `${header}9.000 # the match is over\n9.000 # the seat was closed: shutdown\n3.000 > # the seat was closed: timeout\n`), []);
});

test('a program that closed its end has left; once the game found it gone, it crashed', () => {
  const text = `${header}1.000 > PAPER\n2.000 # the player closed its end (disconnected or exited)\n2.500 # the seat was closed: disconnected\n`;
  const timeline = new SeatStatusTimeline(2, transcriptEvents(1, text));
  assert.deepEqual(timeline.at(1.5).map((s) => s.status), ['ok', 'ok']);
  assert.deepEqual(timeline.at(2.2).map((s) => s.status), ['ok', 'left']);
  assert.deepEqual(timeline.at(2.5).map((s) => s.status), ['ok', 'crashed']);
  assert.match(timeline.at(3)[1]!.why, /while the game waited for it/);
  // Closed its end and never asked again: it left, and stays so at the end.
  const left = new SeatStatusTimeline(2, transcriptEvents(0, `${header}5.000 # the player closed its end (disconnected or exited)\n`));
  assert.deepEqual(left.at(0, true).map((s) => s.status), ['left', 'ok']);
});

test('the first fault is kept: a seat that timed out and then disconnected stays timed out', () => {
  const text = `${header}4.000 # the seat was closed: timeout\n4.100 # the player closed its end (disconnected or exited)\n`;
  assert.deepEqual(new SeatStatusTimeline(1, transcriptEvents(0, text)).at(10).map((s) => s.status), ['timeout']);
});

test("the result's reason gives what a game decides itself, at the end: a name or Player N whole, then the games' phrases", () => {
  assert.deepEqual(reasonEvents(['ann', 'bob'], 'ann wins: bob did not move in time'), [{ seat: 1, t: Infinity, status: 'timeout', why: 'did not move in time' }]);
  assert.deepEqual(reasonEvents(['x', 'y'], 'Player 2 ran out of time').map((e) => [e.seat, e.status]), [[1, 'timeout']]);
  assert.deepEqual(reasonEvents(['x', 'y'], 'Player 1 made an illegal move: 9').map((e) => [e.seat, e.status]), [[0, 'error']]);
  assert.deepEqual(reasonEvents(['ann', 'bob'], 'bob wins: ann sent an illegal move "e2 e5"').map((e) => [e.seat, e.status]), [[0, 'error']]);
  assert.deepEqual(reasonEvents(['ann', 'bob'], 'bob wins: ann disconnected').map((e) => [e.seat, e.status]), [[0, 'crashed']]);
  assert.deepEqual(reasonEvents(['ann', 'bob'], 'ann wins by checkmate'), []);
  assert.deepEqual(reasonEvents(['ann', 'joann'], 'ann wins: joann timed out').map((e) => e.seat), [1], 'ann is not the end of joann');
  const players = Array.from({ length: 12 }, (_, i) => `p${i}`);
  assert.deepEqual(reasonEvents(players, 'Player 12 left').map((e) => e.seat), [11], 'Player 12 is not Player 1');
  // Before the end every seat is ok; at the end the reason counts.
  const timeline = seatStatusTimeline(['ann', 'bob'], 'ann wins: bob did not move in time', [null, null]);
  assert.deepEqual(timeline.at(1e9).map((s) => s.status), ['ok', 'ok']);
  assert.deepEqual(timeline.at(0, true).map((s) => s.status), ['ok', 'timeout']);
  assert.equal(timeline.eventful, true);
  assert.equal(seatStatusTimeline(['ann', 'bob'], 'ann wins by checkmate', [header, header]).eventful, false);
});

test("the notes the server's seats really write are read as their statuses (a change of their words fails here)", async () => {
  const { Seat } = await import('../src/match/seat.js');
  const { SeatTranscript } = await import('../src/match/seat-transcript.js');
  const { MatchClock } = await import('../src/match/match-clock.js');
  let now = 0;
  const seatWith = (index: number) => {
    const transcript = new SeatTranscript(`seat ${index}, p${index}`, () => now);
    const seat = new Seat({ index, name: `p${index}`, isBot: false, timeoutSeconds: 5, maxLineBytes: 8, clock: new MatchClock(), transcript });
    seat.attach({ send: () => {}, close: () => {} });
    return { seat, transcript };
  };
  const timedOut = seatWith(0);
  const tooLong = seatWith(1);
  const gone = seatWith(2);
  const over = seatWith(3);
  now = 1.5;
  timedOut.seat.close('timeout');
  tooLong.seat.receive(Buffer.from('far too long a line\n'));
  gone.seat.receiveEnd();
  assert.equal(await gone.seat.readLine(), null);
  await new Promise((resolve) => setImmediate(resolve));
  over.seat.close('match-over');
  const statuses = [timedOut, tooLong, gone, over].map(({ transcript }, seat) => transcriptEvents(seat, transcript.text()).map((e) => `${e.t} ${e.status}`));
  assert.deepEqual(statuses, [['1.5 timeout'], ['1.5 error'], ['1.5 left', '1.5 crashed'], []]);
});
