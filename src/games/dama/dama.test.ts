import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BotIO } from '../../match/game.js';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { ok } from '../../util/result.js';
import { ManualClock } from '../../util/clock.js';
import { dama, type DamaConfig } from './dama.js';
import { parseBoard } from './notation.js';
import type { Position } from './rules.js';
import { PROMPT_LINES, moverTurnBlock } from './stream.js';
import { SPEC_CAPTURE_BOARD, START_DRAWING, setup } from './test-positions.js';

/** A dama definition whose matches start from `start` and whose server bot searches a fixed number of nodes. */
function damaFrom(start?: Position, maxNodes = 1500): typeof dama {
  return {
    ...dama,
    configure: (params) => {
      const configured = dama.configure(params);
      if (!configured.ok) return configured;
      const config: DamaConfig = { ...configured.value.config, botBudget: { maxNodes }, ...(start ? { start } : {}) };
      return ok({ ...configured.value, config });
    },
  };
}

/** A match seed under which the first seat draws White (the game draws colours with its first random bit). */
function seedWithWhiteSeat(seat: 0 | 1): string {
  for (let i = 0; ; i++) if (Random.fromSeed(`dama-${i}`).bit() === seat) return `dama-${i}`;
}

/**
 * A player that answers each prompt with the next scripted line and leaves when the script ends.
 * Its transcript interleaves what it received and what it sent, as the spec's streams show them.
 */
function scripted(lines: readonly string[]): { play: LocalPlayer; transcript: () => string } {
  let text = '';
  const play = async (io: BotIO): Promise<void> => {
    let next = 0;
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      text += `${line}\n`;
      if (line !== PROMPT_LINES[1]) continue;
      if (next >= lines.length) return;
      const answer = lines[next++]!;
      io.write(`${answer}\n`);
      text += `${answer}\n`;
    }
  };
  return { play, transcript: () => text };
}

function drawing(text: string): number[] {
  const board = parseBoard(text);
  assert.ok(board.ok);
  return board.value;
}


const AFTER_6E_5D = `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][b][ ][ ][ ][ ] 5
6 [b][ ][b][ ][ ][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`;

const PROMPT = PROMPT_LINES.join('\n');

test('the spec "Move" example: both players\' and the spectators\' streams byte for byte', async () => {
  const a = scripted(['6e 5d']);
  const b = scripted([]);
  const record = await playLocalMatch({
    game: damaFrom(),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'PlayerA', play: a.play },
      { name: 'PlayerB', play: b.play },
    ],
  });
  const opening = `PlayerA\nPlayerB\nAvvio la partita di dama...\n\n${START_DRAWING}\n\n`;
  const specA = `${opening}Sei i Bianchi\nTurno bianco!\nE' il tuo turno.\n\n${PROMPT}\n6e 5d\n\n${AFTER_6E_5D}`;
  const specB = `${opening}Sei i Neri\nTurno bianco!\n\n\n${AFTER_6E_5D}`;
  const specSpectators = `${opening}Turno bianco!\n\n\n${AFTER_6E_5D}`;
  // What follows the spec's excerpt: Black's turn, Black leaves, White is declared the winner.
  assert.equal(a.transcript(), `${specA}\n\nTurno nero!\nI bianchi vincono la partita!\n`);
  assert.equal(b.transcript(), `${specB}\n\n${moverTurnBlock('black')}`);
  assert.equal(record.spectatorStream, `${specSpectators}\n\nTurno nero!\nI bianchi vincono la partita!\n`);
  assert.equal(record.received[0], a.transcript().replace('6e 5d\n', ''));
  assert.deepEqual(record.outcome.result, {
    scores: [1, 0],
    reason: 'PlayerA (white) wins: PlayerB (black) disconnected',
  });
});

/** The spec's capture board (black to move) as reached by White's `5d 4c`, so it is not the first turn. */
function captureGame(beforeWhiteMove: string, blackLines: readonly string[]) {
  const board = drawing(beforeWhiteMove);
  const a = scripted(['5d 4c']);
  const b = scripted(blackLines);
  const run = playLocalMatch({
    game: damaFrom({ board, turn: 'white', quietPlies: 0 }),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'PlayerA', play: a.play },
      { name: 'PlayerB', play: b.play },
    ],
  });
  return { a, b, run };
}

const MULTIPLE_BEFORE = `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][n][ ][n][ ][ ] 3
4 [n][ ][ ][ ][ ][ ][n][ ] 4
5 [ ][ ][ ][b][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][ ][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`;


const MULTIPLE_AFTER = `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][ ][ ][n][ ][ ] 3
4 [n][ ][ ][ ][ ][ ][n][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][ ][ ][b][ ][b][ ] 6
7 [ ][b][ ][n][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`;

test('the spec "Multiple capture" example: 3d 5b 7d, streams byte for byte', async () => {
  const { a, b, run } = captureGame(MULTIPLE_BEFORE, ['3d 5b 7d']);
  const record = await run;
  const specA = `${SPEC_CAPTURE_BOARD}\n\nTurno nero!\n\n${MULTIPLE_AFTER}`;
  const specB = `${SPEC_CAPTURE_BOARD}\n\nTurno nero!\nE' il tuo turno.\n\n${PROMPT}\n3d 5b 7d\n\n${MULTIPLE_AFTER}`;
  const specSpectators = specA;
  assert.ok(a.transcript().includes(`5d 4c\n\n${specA}\n\nTurno bianco!\n`), a.transcript());
  assert.ok(b.transcript().includes(`Turno bianco!\n\n\n${specB}\n\nTurno bianco!\n`), b.transcript());
  assert.ok(record.spectatorStream.includes(`Turno bianco!\n\n\n${specSpectators}\n\nTurno bianco!\n`));
});

const SINGLE_BEFORE = MULTIPLE_BEFORE.replace('6 [b][ ][b][ ][b]', '6 [b][ ][ ][ ][b]');
const SINGLE_BOARD = SPEC_CAPTURE_BOARD.replace('6 [b][ ][b][ ][b]', '6 [b][ ][ ][ ][b]');
const SINGLE_AFTER = `   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][ ][ ][ ][ ][n][ ][ ] 3
4 [n][ ][ ][ ][ ][ ][n][ ] 4
5 [ ][n][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][ ][ ][b][ ][b][ ] 6
7 [ ][b][ ][ ][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H`;

test('the spec "Single catch" example (on a board without 6C, so 3d 5b is complete): streams byte for byte', async () => {
  const { a, b, run } = captureGame(SINGLE_BEFORE, ['3d 5b']);
  const record = await run;
  const specA = `${SINGLE_BOARD}\n\nTurno nero!\n\n${SINGLE_AFTER}`;
  const specB = `${SINGLE_BOARD}\n\nTurno nero!\nE' il tuo turno.\n\n${PROMPT}\n3d 5b\n\n${SINGLE_AFTER}`;
  assert.ok(a.transcript().includes(`5d 4c\n\n${specA}\n\nTurno bianco!\n`), a.transcript());
  assert.ok(b.transcript().includes(`Turno bianco!\n\n\n${specB}\n\nTurno bianco!\n`), b.transcript());
  assert.ok(record.spectatorStream.includes(`Turno bianco!\n\n\n${specA}\n\nTurno bianco!\n`));
});

test('an incomplete capture (the spec\'s 3d 5b on its own board) is refused and the prompt repeated', async () => {
  const { b, run } = captureGame(MULTIPLE_BEFORE, ['3d 5b', '3d 5b 7d']);
  await run;
  const expected = `${PROMPT}\n3d 5b\nMossa non valida, riprova.\n\n${PROMPT}\n3d 5b 7d\n\n${MULTIPLE_AFTER}\n`;
  assert.ok(b.transcript().includes(expected), b.transcript());
});

test('malformed and illegal lines are refused one by one, in either letter case the move is then accepted', async () => {
  const white = scripted(['hello', '6E 4C', '6e', '9z 5d', '6E 5D']);
  const black = scripted([]);
  const record = await playLocalMatch({
    game: damaFrom(),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'W', play: white.play },
      { name: 'B', play: black.play },
    ],
  });
  assert.equal(white.transcript().split('Mossa non valida, riprova.\n\n').length - 1, 4);
  assert.ok(white.transcript().includes(`6E 5D\n\n${AFTER_6E_5D}\n`));
  assert.equal(record.spectatorStream.includes('Mossa non valida'), false, 'only the mover is told');
  assert.deepEqual(record.outcome.result?.scores, [1, 0]);
});

test('the 10th invalid line in one turn loses the game', async () => {
  const white = scripted(Array(10).fill('6e 6e'));
  const black = scripted([]);
  const record = await playLocalMatch({
    game: damaFrom(),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(1),
    players: [
      { name: 'B', play: black.play },
      { name: 'W', play: white.play },
    ],
  });
  assert.equal(white.transcript().split('Mossa non valida, riprova.').length - 1, 9);
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'B (black) wins: W (white) sent 10 invalid moves in one turn' });
  assert.match(black.transcript(), /I neri vincono la partita!\n$/);
});

test('a line longer than 1024 bytes loses the game', async () => {
  const record = await playLocalMatch({
    game: damaFrom(),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'Long', play: scripted(['6e 5d'.padEnd(2000, ' ')]).play },
      { name: 'Other', play: scripted([]).play },
    ],
  });
  assert.equal(dama.maxLineBytes, 1024);
  assert.equal(record.outcome.seats[0]!.closeReason, 'line/too-long');
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'Other (black) wins: Long (white) sent a line too long' });
});

test('the timeout runs for the whole turn: invalid moves do not restart it', async () => {
  // The match and the player share a clock the test moves by hand: every wait is exact.
  const clock = new ManualClock();
  let refusals = 0;
  const slow: LocalPlayer = async (io) => {
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (line === 'Mossa non valida, riprova.') refusals++;
      if (line !== PROMPT_LINES[1]) continue;
      // Each retry comes 10 s after the prompt, well within the 25 s timeout, but together they outlast it.
      clock.setTimer(10_000, () => io.write('1a 2b\n'));
    }
  };
  const record = await clock.runUntil(
    playLocalMatch({
      game: damaFrom(),
      params: { args: { pace: '0' }, timeout: 25 },
      seed: seedWithWhiteSeat(0),
      players: [
        { name: 'Slow', play: slow },
        { name: 'Other', play: scripted([]).play },
      ],
      clock,
    }),
  );
  assert.equal(record.outcome.seats[0]!.closeReason, 'timeout');
  assert.equal(refusals, 2, 'refused at 10 s and 20 s; the turn ended at 25 s, before a third retry');
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 25_000);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'Other (black) wins: Slow (white) did not move in time' });
});

test('kings are drawn as [B] and [N], and taking the last piece wins with the closing line', async () => {
  const start = setup({ B: ['6e'], n: ['5f'], N: ['1b'] }, 'white');
  const white = scripted(['6e 4g']);
  const black = scripted(['1b 2a']);
  const record = await playLocalMatch({
    game: damaFrom(start),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'W', play: white.play },
      { name: 'B', play: black.play },
    ],
  });
  assert.ok(record.spectatorStream.includes('1 [ ][N][ ][ ][ ][ ][ ][ ] 1\n'));
  assert.ok(record.spectatorStream.includes('6 [ ][ ][ ][ ][B][ ][ ][ ] 6\n'));
  // Black still has its king, so the game goes on: Black moves, then White has no more script.
  assert.match(record.spectatorStream, /Turno nero!\n\n {3}A/);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'B (black) wins: W (white) disconnected' });
});

test('a side left without pieces loses: the result gives [1, 0] and everyone gets the winner line', async () => {
  const start = setup({ b: ['6e'], n: ['5f'] }, 'white');
  const white = scripted(['6e 4g']);
  const black = scripted([]);
  const record = await playLocalMatch({
    game: damaFrom(start),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'W', play: white.play },
      { name: 'B', play: black.play },
    ],
  });
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'W (white) wins: B (black) has no pieces left' });
  for (const stream of [white.transcript(), black.transcript(), record.spectatorStream]) {
    assert.match(stream, /   A {2}B {2}C {2}D {2}E {2}F {2}G {2}H\n\nI bianchi vincono la partita!\n$/);
  }
});

test('the quiet-move limit draws the game with [0.5, 0.5] and "Partita patta!"', async () => {
  const start = setup({ B: ['8a'], N: ['1h'] }, 'white', 79);
  const record = await playLocalMatch({
    game: damaFrom(start),
    params: { args: { pace: '0' } },
    seed: seedWithWhiteSeat(0),
    players: [
      { name: 'W', play: scripted(['8a 7b']).play },
      { name: 'B', play: scripted([]).play },
    ],
  });
  assert.deepEqual(record.outcome.result, {
    scores: [0.5, 0.5],
    reason: 'draw: 40 moves by each side without a capture or a man move',
  });
  assert.match(record.spectatorStream, /Partita patta!\n$/);
});

test('parameters: 2 players, pace 1.5 by default (0 to 30), timeout 90 s, at most one server bot', () => {
  const configure = (args: Record<string, string>, players: number | null = null, bots = 0) =>
    dama.configure({ players, bots, timeout: null, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.equal(defaults.value.config.pace, 1.5);
  assert.deepEqual(defaults.value.config.botBudget, { maxMillis: 1000 });
  assert.equal(defaults.value.timeout, 90);
  assert.equal(defaults.value.players, 2);
  assert.ok(configure({ pace: '0' }).ok);
  assert.ok(configure({ pace: '30' }).ok);
  assert.deepEqual(configure({ pace: '31' }), { ok: false, error: 'Cannot create game: Invalid pace' });
  assert.deepEqual(configure({}, 3), { ok: false, error: 'Cannot create game: Cannot create game with 3 players' });
  assert.deepEqual(configure({ rounds: '3' }), { ok: false, error: 'Cannot create game: Unknown argument "rounds" (known: pace)' });
  const short = dama.configure({ players: null, bots: 1, timeout: 2, args: {} });
  assert.ok(short.ok);
  assert.deepEqual(short.value.config.botBudget, { maxMillis: 500 }, 'the bot never thinks longer than a quarter of the timeout');
  assert.match(dama.description, /^# dama/);
  assert.match(dama.description, /## Implementation details/);
  assert.match(dama.description, /## Game parameters/);
});
