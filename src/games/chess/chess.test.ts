import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BotIO } from '../../match/game.js';
import { playLocalMatch, type LocalMatchRecord, type LocalPlayer } from '../../match/local-match.js';
import { transcriptName } from '../../match/match.js';
import type { LiveSeats } from '../../protocol/coco/messages.js';
import { VisValidator } from '../../protocol/vis-validate.js';
import { ManualClock } from '../../util/clock.js';
import { chess } from './chess.js';

/**
 * What one colour does after its colour line, as the reference's streams are written: `>` lines are
 * sent, the others are read and must be exactly what arrives. After the script, the player reads to
 * the end (or leaves, with `!` as the last line).
 */
interface Scripts {
  readonly white: string;
  readonly black: string;
}

const lines = (text: string): string[] => text.split('\n').filter((line, i, all) => i < all.length - 1 || line !== '');

function byColour(scripts: Scripts): LocalPlayer {
  return async (io: BotIO) => {
    for (let i = 0; i < 2; i++) await io.readLine();
    const colour = (await io.readLine()) === '0' ? 'white' : 'black';
    for (const line of lines(scripts[colour])) {
      if (line === '!') return;
      if (line.startsWith('>')) io.write(`${line.slice(1)}\n`);
      else {
        const got = await io.readLine();
        if (got === null) return;
        assert.equal(got, line, `${colour} expected ${line}`);
      }
    }
    while ((await io.readLine()) !== null);
  };
}

async function playScripts(scripts: Scripts, args: Record<string, string> = { pace: '0' }, clock?: ManualClock): Promise<{ record: LocalMatchRecord; white: string; black: string; whiteSeat: number }> {
  const match = playLocalMatch({
    game: chess,
    params: { args, timeout: 3 },
    players: [
      { name: 'PlayerA', play: byColour(scripts) },
      { name: 'PlayerB', play: byColour(scripts) },
    ],
    seed: 'chess-test',
    ...(clock ? { clock } : {}),
  });
  const record = await (clock ? clock.runUntil(match) : match);
  const whiteSeat = record.spectatorStream.startsWith('PlayerA\n') ? 0 : 1;
  const names = whiteSeat === 0 ? ['PlayerA', 'PlayerB'] : ['PlayerB', 'PlayerA'];
  return { record, white: names[0]!, black: names[1]!, whiteSeat };
}

/** The stream a colour receives: the names, its colour line, then the script's read lines. */
function received(white: string, black: string, colour: 'white' | 'black', script: string): string {
  const body = lines(script).filter((line) => !line.startsWith('>') && line !== '!');
  return [white, black, colour === 'white' ? '0' : '1', ...body].map((line) => `${line}\n`).join('');
}

async function expectStreams(scripts: Scripts, spectators: string, args?: Record<string, string>, clock?: ManualClock): Promise<LocalMatchRecord> {
  const { record, white, black, whiteSeat } = await playScripts(scripts, args, clock);
  assert.equal(record.received[whiteSeat], received(white, black, 'white', scripts.white), 'white stream');
  assert.equal(record.received[1 - whiteSeat], received(white, black, 'black', scripts.black), 'black stream');
  assert.equal(record.spectatorStream, `${white}\n${black}\n${spectators}`, 'spectator stream');
  return record;
}

const FOOLS_MATE: Scripts = {
  white: '>f2 f3\nOK <f2> <f3>\nOK <e7> <e5>\n>g2 g4\nOK <g2> <g4>\nOK <d8> <h4>\nWINNER <BLACK>\n',
  black: 'OK <f2> <f3>\n>e7 e5\nOK <e7> <e5>\nOK <g2> <g4>\n>d8 h4\nOK <d8> <h4>\nWINNER <BLACK>\n',
};

test('fool\'s mate: the three streams of the reference, byte for byte', async () => {
  const record = await expectStreams(FOOLS_MATE, 'OK <f2> <f3>\nOK <e7> <e5>\nOK <g2> <g4>\nOK <d8> <h4>\nWINNER <BLACK>\n');
  assert.match(record.outcome.result!.reason, /wins by checkmate$/);
  assert.equal(record.outcome.result!.scores.reduce((a, b) => a + b), 1);
});

test('the result goes out a pace after the last move, and OK lines are a pace apart with instant players', async () => {
  const clock = new ManualClock();
  const record = await expectStreams(FOOLS_MATE, 'OK <f2> <f3>\nOK <e7> <e5>\nOK <g2> <g4>\nOK <d8> <h4>\nWINNER <BLACK>\n', { pace: '1' }, clock);
  const times = record.outcome.artifacts[transcriptName(0)]!.split('\n').filter((line) => / < (OK|WINNER)/.test(line)).map((line) => line.split(' ')[0]);
  assert.deepEqual(times, ['0.000', '1.000', '2.000', '3.000', '4.000']);
});

test('an invalid line loses at once: the offender gets nothing more, the others RETIRE and no WINNER', async () => {
  const invalid = [
    'e2-e4', 'E2 E4', 'e2  e4', 'hello', 'e2 e9', 'draw', 'e2\te4', '', 'x'.repeat(9000), // syntax
    'e2 e5', 'e7 e5', 'e1 g1', 'promote e2 e4 queen', 'promote e2 e3 king', 'castle e1 g1 h1 f1', 'enpassant e2 e3', // illegal
  ];
  for (const line of invalid) {
    const { record, white, black, whiteSeat } = await playScripts({ white: `>${line}\n`, black: 'RETIRE\n' });
    assert.equal(record.received[whiteSeat], `${white}\n${black}\n0\n`, JSON.stringify(line));
    assert.equal(record.received[1 - whiteSeat], `${white}\n${black}\n1\nRETIRE\n`, JSON.stringify(line));
    assert.equal(record.spectatorStream, `${white}\n${black}\nRETIRE\n`);
    assert.equal(record.outcome.result!.scores[1 - whiteSeat], 1);
    assert.match(record.outcome.result!.reason, /sent an (unreadable line|illegal move)/);
  }
});

/** The three streams' lines while `moves` are played in turn from the start: each mover's sends and everyone's echoes. */
function echoed(moves: readonly string[]): { white: string[]; black: string[]; spectators: string[] } {
  const streams = { white: [] as string[], black: [] as string[], spectators: [] as string[] };
  moves.forEach((move, i) => {
    const echo = `OK ${move.split(' ').map((w) => `<${w}>`).join(' ')}`;
    (i % 2 === 0 ? streams.white : streams.black).push(`>${move}`);
    for (const stream of Object.values(streams)) stream.push(echo);
  });
  return streams;
}

const text = (streamLines: readonly string[]): string => `${streamLines.join('\n')}\n`;

test('moves the reference wrongly accepts are illegal here: a pawn jump, castling onto a piece, promotion off the last rank', async () => {
  const games: [string[], string][] = [
    [['b1 c3', 'a7 a6'], 'c2 c4'],
    [['g1 f3', 'a7 a6'], 'castle e1 g1 h1 f1'],
    [['e2 e4', 'a7 a6', 'e4 e5', 'd7 d5'], 'e5 d6'], // en passant must be written as such
    [['e2 e4', 'a7 a6', 'e4 e5', 'd7 d5', 'a2 a3', 'a6 a5'], 'enpassant e5 d6'], // one move too late
  ];
  for (const [opening, last] of games) {
    const { white, black } = echoed(opening);
    white.push(`>${last}`);
    black.push('RETIRE');
    const { record, whiteSeat } = await playScripts({ white: text(white), black: text(black) });
    assert.ok(record.received[1 - whiteSeat]!.endsWith('RETIRE\n'), last);
    assert.match(record.outcome.result!.reason, /sent an illegal move/, last);
  }
});

test('castling, en passant and promotion in the stream\'s forms are echoed word for word', async () => {
  const moves = [
    'e2 e4', 'd7 d5', 'e4 e5', 'f7 f5', 'enpassant e5 f6', 'g8 h6', 'f6 g7', 'b8 c6', 'promote g7 h8 queen', 'c8 e6',
    'g1 f3', 'd8 d7', 'f1 e2', 'castle e8 c8 a8 d8', 'castle e1 g1 h1 f1', 'a7 a6',
  ];
  const { white, black, spectators } = echoed(moves);
  white.push('>RETIRE', 'WINNER <BLACK>');
  black.push('RETIRE', 'WINNER <BLACK>');
  spectators.push('RETIRE', 'WINNER <BLACK>');
  const record = await expectStreams({ white: text(white), black: text(black) }, text(spectators));
  assert.match(record.outcome.result!.reason, /retired$/);
});

test('RETIRE: RETIRE to the opponent and the spectators, WINNER to everyone', async () => {
  await expectStreams({ white: '>RETIRE\nWINNER <BLACK>\n', black: 'RETIRE\nWINNER <BLACK>\n' }, 'RETIRE\nWINNER <BLACK>\n');
});

test('a draw offer accepted ends the game drawn; the accepting player gets nothing more', async () => {
  const record = await expectStreams(
    { white: '>e2 e4\nOK <e2> <e4>\nDRAW <PROPOSED>\n>DRAW\n', black: 'OK <e2> <e4>\n>DRAW\nDRAW <PROPOSED>\nDRAW <ACCEPTED>\n' },
    'OK <e2> <e4>\nDRAW <PROPOSED>\nDRAW <ACCEPTED>\n',
  );
  assert.deepEqual(record.outcome.result!.scores, [0.5, 0.5]);
});

test('any other answer refuses the offer and is thrown away, even a legal move; the proposer moves again', async () => {
  await expectStreams(
    {
      white: '>DRAW\nDRAW <PROPOSED>\nDRAW <REFUSED>\n>e2 e4\nOK <e2> <e4>\nOK <e7> <e5>\n>RETIRE\nWINNER <BLACK>\n',
      black: 'DRAW <PROPOSED>\n>e7 e5\nOK <e2> <e4>\n>e7 e5\nOK <e7> <e5>\nRETIRE\nWINNER <BLACK>\n',
    },
    'DRAW <PROPOSED>\nDRAW <REFUSED>\nOK <e2> <e4>\nOK <e7> <e5>\nRETIRE\nWINNER <BLACK>\n',
  );
  await expectStreams(
    { white: '>DRAW\nDRAW <PROPOSED>\nDRAW <REFUSED>\n>RETIRE\nWINNER <BLACK>\n', black: 'DRAW <PROPOSED>\n>RETIRE\nRETIRE\nWINNER <BLACK>\n' },
    'DRAW <PROPOSED>\nDRAW <REFUSED>\nRETIRE\nWINNER <BLACK>\n',
  );
});

test('a player who runs out of time loses: it gets WINNER, the others RETIRE then WINNER', async () => {
  const clock = new ManualClock();
  const record = await expectStreams({ white: 'WINNER <BLACK>\n', black: 'RETIRE\nWINNER <BLACK>\n' }, 'RETIRE\nWINNER <BLACK>\n', { pace: '0' }, clock);
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 3000, 'the 3 s timeout, not before');
  assert.match(record.outcome.result!.reason, /did not move in time$/);
});

test('a player who runs out of its own clock is seen timed out at once: its seat closes for the timeout when it runs out, after its WINNER line (VisSeats)', async () => {
  const clock = new ManualClock();
  const told: LiveSeats[] = [];
  // White never moves; its seat closes at 3 s, when the game's timer fires, not only as the match ends.
  const record = await clock.runUntil(
    playLocalMatch({
      game: chess,
      params: { args: { pace: '0' }, timeout: 3 },
      players: ['PlayerA', 'PlayerB'].map((name) => ({ name, play: async (io: BotIO) => { while ((await io.readLine()) !== null); } })),
      seed: 'chess-test',
      clock,
      made: (match) => void match.vis.subscribe({ history: () => {}, event: () => {}, end: () => {}, seats: (seats) => told.push(seats) }),
    }),
  );
  const whiteSeat = record.spectatorStream.startsWith('PlayerA\n') ? 0 : 1;
  const white = ['PlayerA', 'PlayerB'][whiteSeat]!;
  const black = ['PlayerA', 'PlayerB'][1 - whiteSeat]!;
  assert.equal(record.received[whiteSeat], `${white}\n${black}\n0\nWINNER <BLACK>\n`, 'told the result before its seat closed');
  assert.equal(record.outcome.seats[whiteSeat]!.closeReason, 'timeout');
  assert.equal(record.outcome.seats[1 - whiteSeat]!.closeReason, null, 'Black was still seated when the game ended');
  // The first change a viewer is told after White was asked: White closed for the timeout, at 3 s, Black still open.
  const first = told.find((seats) => seats.seats.some((seat) => seat.closed !== null))!;
  assert.equal(first.now, 3);
  assert.deepEqual(first.seats.map((seat) => seat.closed), whiteSeat === 0 ? ['timeout', null] : [null, 'timeout']);
  assert.deepEqual(first.seats[whiteSeat]!.turn, [0, null, 3]);
  assert.match(record.outcome.artifacts[transcriptName(whiteSeat)]!, /the seat was closed: timeout/);
});

test('invalid UTF-8 (FF FE) as a move is a timeout at once: the sender gets WINNER, the others RETIRE then WINNER, as the reference', async () => {
  // White sends the bytes FF FE and a line break as its first move, then reads to the end.
  const player: LocalPlayer = async (io, sendBytes) => {
    for (let i = 0; i < 2; i++) await io.readLine();
    if ((await io.readLine()) === '0') sendBytes(Uint8Array.of(0xff, 0xfe, 0x0a));
    while ((await io.readLine()) !== null);
  };
  const record = await playLocalMatch({
    game: chess,
    params: { args: { pace: '0' }, timeout: 3 },
    players: [
      { name: 'PlayerA', play: player },
      { name: 'PlayerB', play: player },
    ],
    seed: 'chess-test',
  });
  const whiteSeat = record.spectatorStream.startsWith('PlayerA\n') ? 0 : 1;
  const names = whiteSeat === 0 ? 'PlayerA\nPlayerB\n' : 'PlayerB\nPlayerA\n';
  assert.equal(record.received[whiteSeat], `${names}0\nWINNER <BLACK>\n`);
  assert.equal(record.received[1 - whiteSeat], `${names}1\nRETIRE\nWINNER <BLACK>\n`);
  assert.equal(record.spectatorStream, `${names}RETIRE\nWINNER <BLACK>\n`);
  assert.equal(record.outcome.endedAt - record.outcome.startedAt < 3000, true, 'at once, not after the timeout');
  assert.equal(record.outcome.seats[whiteSeat]!.closeReason, 'line/invalid-utf8');
  assert.deepEqual(record.outcome.result!.scores[1 - whiteSeat], 1);
  assert.match(record.outcome.result!.reason, /sent bytes that are not UTF-8$/);
});

test('a player who disconnects on its turn loses with RETIRE and no WINNER', async () => {
  await expectStreams({ white: '>e2 e4\nOK <e2> <e4>\nOK <e7> <e5>\n!\n', black: 'OK <e2> <e4>\n>e7 e5\nOK <e7> <e5>\nRETIRE\n' }, 'OK <e2> <e4>\nOK <e7> <e5>\nRETIRE\n');
});

test('stalemate is a draw, not a loss: Sam Loyd\'s ten-move stalemate', async () => {
  const moves = 'e2 e3, a7 a5, d1 h5, a8 a6, h5 a5, h7 h5, h2 h4, a6 h6, a5 c7, f7 f6, c7 d7, e8 f7, d7 b7, d8 d3, b7 b8, d3 h7, b8 c8, f7 g6, c8 e6'.split(', ');
  const streams = echoed(moves);
  for (const stream of Object.values(streams)) stream.push('DRAW <STALEMATE>');
  const record = await expectStreams({ white: text(streams.white), black: text(streams.black) }, text(streams.spectators));
  assert.deepEqual(record.outcome.result!.scores, [0.5, 0.5]);
  assert.equal(record.outcome.result!.reason, 'draw: stalemate');
});

test('the third occurrence of a position is a draw by repetition', async () => {
  const moves = ['g1 f3', 'g8 f6', 'f3 g1', 'f6 g8', 'g1 f3', 'g8 f6', 'f3 g1', 'f6 g8'];
  const streams = echoed(moves);
  for (const stream of Object.values(streams)) stream.push('DRAW <REPETITION>');
  await expectStreams({ white: text(streams.white), black: text(streams.black) }, text(streams.spectators));
});

test('the visualizer records valid events: a board, every move in SAN, the result', async () => {
  const { record } = await playScripts(FOOLS_MATE);
  const validator = new VisValidator();
  for (const event of record.vis) assert.deepEqual(validator.event(event).ok, true, JSON.stringify(event));
  const pieces = record.vis.filter((event) => 'create' in event && event.create.z === 2);
  assert.equal(pieces.length, 32, 'the 32 pieces, nothing captured');
  const log = record.vis.flatMap((event) => ('log' in event ? [event.log.line] : []));
  assert.deepEqual(log.slice(1), ['1. f3', '1... e5', '2. g4', '2... Qh4#', `${log.at(-1)}`]);
  assert.match(log.at(-1)!, /wins by checkmate/);
  const checks = record.vis.filter((event) => 'create' in event && event.create.geom.some((shape) => 'circle' in shape));
  assert.equal(checks.length, 1, 'the mated king is ringed');
});

test('arguments: pace from 0 to 30 in the reference\'s words; 2 players, 90 s, one bot', () => {
  const configure = (args: Record<string, string>, players: number | null = null) => chess.configure({ players, bots: 0, timeout: null, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.equal(defaults.value.config.pace, 1.5);
  assert.equal(defaults.value.timeout, 90);
  assert.deepEqual(configure({ pace: '31' }), { ok: false, error: 'Cannot create game: Invalid pace' });
  assert.deepEqual(configure({ pace: 'abc' }), { ok: false, error: 'Cannot create game: Invalid pace: invalid float literal' });
  assert.deepEqual(configure({}, 3), { ok: false, error: 'Cannot create game: Cannot create game with 3 players' });
  const ten = configure({ pace: '1e1' });
  assert.ok(ten.ok);
  assert.equal(ten.value.config.pace, 10);
});
