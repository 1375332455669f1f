import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VisEvent } from '../src/protocol/vis-event.js';
import type { Shape } from '../src/protocol/vis-shape.js';
import { namesPlayer, SeatColourTimeline, seatColours } from './seat-colours.js';

const create = (id: number, geom: Shape[]): VisEvent => ({ t: 0, create: { id, geom } });
const text = (v: string, y = 0, s = '222222ff'): Shape => ({ text: { v, p: [0.5, y], s } });
const circle = (f: string, y: number): Shape => ({ circle: { p: [0.1, y], r: 0.02, f } });
const css = (colours: ReturnType<typeof seatColours>): (string | null)[] => colours.map((c) => (c ? `${c.css}${c.word ? ` ${c.word}` : ''}` : null));

test('a name is matched whole or shortened with "…", never inside a longer word', () => {
  assert.equal(namesPlayer('♔ ann', 'ann'), true);
  assert.equal(namesPlayer('joanna (black)', 'ann'), false);
  assert.equal(namesPlayer('a_very_lo… (white)', 'a_very_long_name'), true);
  assert.equal(namesPlayer('an…', 'ann'), false, 'too short to say');
  assert.equal(namesPlayer('anything', ''), false);
});

test("the token beside a name, nearest to it, is its seat's colour (dama, royalur)", () => {
  const events = [create(1, [circle('f8f8f0ff', 0.9), text('ann (bianco)', 0.9), circle('222222ff', 0.1), text('bob (nero)', 0.1)])];
  assert.deepEqual(css(seatColours(['bob', 'ann'], events)), ['#222222', '#f8f8f0']);
});

test('a chess glyph leading the name says White or Black', () => {
  const events = [create(1, [text('a', 0.9), text('♚ bob', 0.05), text('♔ ann', 0.95)])];
  assert.deepEqual(css(seatColours(['bob', 'ann'], events)), ['#1e1e1e Black', '#f4f4f4 White']);
});

test("a colour word names the colour, unless the seat later plays the other one (quoridor's games swap)", () => {
  const first = [create(1, [text('ann (black): 10 walls left')]), create(2, [text('bob (white): 10 walls left')])];
  assert.deepEqual(css(seatColours(['ann', 'bob'], first)), ['#1e1e1e Black', '#f4f4f4 White']);
  const swapped = [...first, create(3, [text('ann (white): 10 walls left')]), create(4, [text('bob (black): 10 walls left')])];
  assert.deepEqual(css(seatColours(['ann', 'bob'], swapped)), [null, null]);
});

test("names in colours of their own are the seats' colours (roshambo); one colour for all says nothing", () => {
  assert.deepEqual(css(seatColours(['ann', 'bob'], [create(1, [text('ann', 0.2, '2563ebff')]), create(2, [text('bob', 0.2, 'dc2626ff')])])), ['#2563eb', '#dc2626']);
  assert.deepEqual(css(seatColours(['ann', 'bob'], [create(1, [text('ann')]), create(2, [text('bob')])])), [null, null]);
  // A text naming every player is not one seat's tag.
  assert.deepEqual(css(seatColours(['ann', 'bob'], [create(1, [text('ann against bob', 0.5, '2563ebff'), circle('ff0000ff', 0.5)])])), [null, null]);
  // An external game's discs with no names: no colour rather than a guess.
  assert.deepEqual(css(seatColours(['p1', 'p2'], [create(1, [circle('e03030ff', 0.5)]), { t: 1, log: { line: 'Player 1 plays column 3' } }])), [null, null]);
});

test('an external game names seat N "Player N" (its game server knows no names): the disc in the object of that text is its colour, and a drawn name comes first', () => {
  const row = (id: number, n: number, f: string): VisEvent => create(id, [circle(f, 0.1 * n), text(`Player ${n}`, 0.1 * n - 0.035)]);
  const events = [create(1, [text('Lowest unique number')]), row(201, 1, 'e6194bff'), row(202, 2, '3cb44bff'), row(203, 3, '4363d8ff')];
  assert.deepEqual(css(seatColours(['ann', 'bob', 'ServerBot$0'], events)), ['#e6194b', '#3cb44b', '#4363d8']);
  // A seat whose name is drawn takes what its name says; "Player 10" is not "Player 1".
  const named = [create(1, [circle('111111ff', 0.5), text('bob', 0.5)]), row(201, 1, 'e6194bff'), row(202, 2, '3cb44bff'), create(9, [circle('999999ff', 0.9), text('Player 10', 0.9)])];
  assert.deepEqual(css(seatColours(['ann', 'bob'], named)), ['#e6194b', '#111111']);
  assert.deepEqual(css(seatColours(['ann'], [create(9, [circle('999999ff', 0.9), text('Player 10', 0.9)])])), [null]);
});

const at = (t: number, event: VisEvent): VisEvent => ({ ...event, t });

test("quoridor's and clobber's colours swap between games: the legend gives each seat its colour of the game shown", () => {
  const quoridor = [
    at(0, create(1, [text('ann (black): 10 walls left')])),
    at(0, create(2, [text('bob (white): 10 walls left')])),
    at(30, create(3, [text('ann (white): 10 walls left')])),
    at(30, create(4, [text('bob (black): 10 walls left')])),
  ];
  const timeline = new SeatColourTimeline(['ann', 'bob'], quoridor);
  assert.deepEqual(css(timeline.at(10)), ['#1e1e1e Black', '#f4f4f4 White']);
  assert.deepEqual(css(timeline.at(31)), ['#f4f4f4 White', '#1e1e1e Black']);
  assert.deepEqual(css(timeline.at(Infinity)), ['#f4f4f4 White', '#1e1e1e Black']);
  const clobber = [
    at(0, create(1, [text('game 1 of 2')])),
    at(0, create(2, [text('black: ann   white: bob')])),
    at(0, create(3, [text('ann 0 - 0 bob')])),
    at(40, create(4, [text('black: bob   white: ann')])),
  ];
  const games = new SeatColourTimeline(['ann', 'bob'], clobber);
  assert.deepEqual(css(games.at(0)), ['#1e1e1e Black', '#f4f4f4 White']);
  assert.deepEqual(css(games.at(45)), ['#f4f4f4 White', '#1e1e1e Black']);
});

test('before the first text that says a colour, the seat shows the colour it says first', () => {
  const events = [at(5, create(1, [text('black: ann   white: bob')]))];
  assert.deepEqual(css(new SeatColourTimeline(['ann', 'bob'], events).at(0)), ['#1e1e1e Black', '#f4f4f4 White']);
});

test('an external game: the disc dropped at the very time a log names its one player ("Player 1 plays column 3") is that seat\'s colour', () => {
  const disc = (t: number, id: number, f: string): VisEvent => ({ t, create: { id, p: [0.5, 0.1], geom: [{ circle: { r: 0.03, f } }] } });
  const events: VisEvent[] = [
    at(0, create(1, [circle('ffffffff', 0.5), circle('ffffffff', 0.6)])),
    disc(0.6, 2, 'e03030ff'),
    { t: 0.6, log: { line: 'Player 1 plays column 3' } },
    disc(1.2, 3, 'f0d020ff'),
    { t: 1.2, log: { line: 'Player 2 plays column 4' } },
  ];
  assert.deepEqual(css(new SeatColourTimeline(['ann', 'bob'], events).at(Infinity)), ['#e03030', '#f0d020']);
  // Several pieces at once (a round of every player's tokens) say nothing of one seat.
  const round: VisEvent[] = [disc(2, 5, 'e03030ff'), disc(2, 6, 'f0d020ff'), { t: 2, log: { line: 'Player 1 wins round 1' } }];
  assert.deepEqual(css(new SeatColourTimeline(['ann', 'bob'], round).at(Infinity)), [null, null]);
});

test('what the whole match says stands: a chess glyph is not overridden by a later colour word', () => {
  const events = [create(1, [text('♔ ann', 0.95)]), at(3, create(2, [text('black: ann')]))];
  assert.deepEqual(css(new SeatColourTimeline(['ann'], events).at(5)), ['#f4f4f4 White']);
});
