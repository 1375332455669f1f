/**
 * The dama stream byte for byte, as the reference server sends it (notes/dama-stream.md): both
 * players' and the spectators' streams for every kind of turn and ending. The expected texts are
 * written out here, not built with the game's own helpers, so a change of one byte fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BotIO } from '../../match/game.js';
import { playLocalMatch, type LocalMatchRecord, type LocalPlayer } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { ok } from '../../util/result.js';
import { ManualClock } from '../../util/clock.js';
import { MAX_INVALID_LINES_PER_TURN, dama, type DamaConfig } from './dama.js';
import type { Position } from './rules.js';
import { setup } from './test-positions.js';

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

/** A match seed under which seat 1 (PlayerB) draws White, as in the note's examples. */
const SEED_B_WHITE = (() => {
  for (let i = 0; ; i++) if (Random.fromSeed(`dama-${i}`).bit() === 1) return `dama-${i}`;
})();

const PROMPT_LINE_2 = 'Es > 6A 5B oppure 6A 4C 2A oppure 6A 4C 2A ...';
const PROMPT = `Inserisci la pedina che vuoi muovere e poi le mosse che vuoi fare\n${PROMPT_LINE_2}\n`;
const OPENING = 'PlayerB\nPlayerA\nAvvio la partita di dama...\n';
const COLOURS = 'Il giocatore PlayerB è i bianchi e il giocatore PlayerA è i neri.\n';
const WAIT = 'Attendi il tuo turno!\n';
const GAME_OVER = 'Game Over ;)\n\n';
const WHITE_LEFT = '\nI bianchi hanno abbandonato la partita.\nI neri vincono la partita!\n\nGame Over ;)\n\n';
const BLACK_LEFT = '\nI neri hanno abbandonato la partita.\nI bianchi vincono la partita!\n\nGame Over ;)\n\n';
const TIMED_OUT = '\nTempo scaduto, hai esaurito il tempo per fare una mossa!\nGame Over ;)\n\n';

/** The note's start board block, as received. */
const START = `
   A  B  C  D  E  F  G  H
1 [ ][n][ ][n][ ][n][ ][n] 1
2 [n][ ][n][ ][n][ ][n][ ] 2
3 [ ][n][ ][n][ ][n][ ][n] 3
4 [ ][ ][ ][ ][ ][ ][ ][ ] 4
5 [ ][ ][ ][ ][ ][ ][ ][ ] 5
6 [b][ ][b][ ][b][ ][b][ ] 6
7 [ ][b][ ][b][ ][b][ ][b] 7
8 [b][ ][b][ ][b][ ][b][ ] 8
   A  B  C  D  E  F  G  H

`;

/** A board block drawn from 8 rows of 8 glyphs (a space is an empty square), independently of the game's drawing code. */
function board(...rows: string[]): string {
  assert.equal(rows.length, 8);
  const columns = '   A  B  C  D  E  F  G  H';
  const lines = rows.map((row, i) => {
    assert.equal(row.length, 8, row);
    return `${i + 1} ${[...row].map((glyph) => `[${glyph}]`).join('')} ${i + 1}`;
  });
  return `\n${columns}\n${lines.join('\n')}\n${columns}\n\n`;
}

const EMPTY_ROW = '        ';

/**
 * A player that answers each prompt with the next scripted line and leaves (disconnects) at the
 * first prompt after the script ends.
 */
function scripted(lines: readonly string[]): LocalPlayer {
  return async (io: BotIO) => {
    let next = 0;
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (line !== PROMPT_LINE_2) continue;
      if (next >= lines.length) return;
      io.write(`${lines[next++]!}\n`);
    }
  };
}

/** A player that reads everything and never answers. */
const silent: LocalPlayer = async (io) => {
  while ((await io.readLine()) !== null);
};

interface Streams {
  readonly white: string;
  readonly black: string;
  readonly spectators: string;
  readonly record: LocalMatchRecord;
}

/** A match of PlayerA (seat 0, Black) against PlayerB (seat 1, White), pace 0. */
async function match(options: {
  start?: Position;
  white: LocalPlayer;
  black: LocalPlayer;
  clock?: ManualClock;
  timeout?: number;
  pace?: string;
}): Promise<Streams> {
  const run = playLocalMatch({
    game: damaFrom(options.start),
    params: { args: { pace: options.pace ?? '0' }, ...(options.timeout ? { timeout: options.timeout } : {}) },
    seed: SEED_B_WHITE,
    players: [
      { name: 'PlayerA', play: options.black },
      { name: 'PlayerB', play: options.white },
    ],
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const record = await (options.clock ? options.clock.runUntil(run) : run);
  return { white: record.received[1]!, black: record.received[0]!, spectators: record.spectatorStream, record };
}

test('opening and ordinary moves: turn lines, "Attendi il tuo turno!", the upper-case echo with its trailing space, the colour line', async () => {
  const afterWhite = board(' n n n n', 'n n n n ', ' n n n n', EMPTY_ROW, '     b  ', 'b b b   ', ' b b b b', 'b b b b ');
  const afterBlack = board(' n n n n', 'n n n n ', ' n n n  ', '      n ', '     b  ', 'b b b   ', ' b b b b', 'b b b b ');
  // Lower case in, upper case echoed; White leaves at its second turn (a disconnection).
  const { white, black, spectators, record } = await match({ white: scripted(['6g 5f']), black: scripted(['3h 4g']) });
  assert.equal(white, `${OPENING}${START}Sei i Bianchi\nTurno bianco!\n${PROMPT}${afterWhite}${WAIT}3H 4G \n${afterBlack}Turno bianco!\n${PROMPT}`);
  assert.equal(black, `${OPENING}${START}Sei i Neri\n${WAIT}6G 5F \n${afterWhite}Turno nero!\n${PROMPT}${afterBlack}${WAIT}${WHITE_LEFT}`);
  assert.equal(spectators, `${OPENING}${START}${COLOURS}Turno bianco!\n${afterWhite}Turno nero!\n${afterBlack}Turno bianco!\n${GAME_OVER}`);
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'PlayerA (black) wins: PlayerB (white) disconnected' });
});

test("a man's double capture ending on the far row: echoed as 5D 3B 1D and crowned", async () => {
  const before = board('       n', 'n n     ', EMPTY_ROW, '  n     ', '   b    ', EMPTY_ROW, EMPTY_ROW, 'b       ');
  const after = board('   B   n', 'n       ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, 'b       ');
  const start = setup({ b: ['5d', '8a'], n: ['4c', '2c', '2a', '1h'] }, 'white');
  const { white, black, spectators, record } = await match({ start, white: scripted(['5d 3b 1d']), black: scripted([]) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\nTurno bianco!\n${PROMPT}${after}${WAIT}${BLACK_LEFT}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\n${WAIT}5D 3B 1D \n${after}Turno nero!\n${PROMPT}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno bianco!\n${after}Turno nero!\n${GAME_OVER}`);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'PlayerB (white) wins: PlayerA (black) disconnected' });
});

test("Black moving first, a black man's double capture crowned on row 8 (4E 6G 8E), then a king's triple capture (2G 4E 2C 4A)", async () => {
  const before = board(EMPTY_ROW, '      B ', ' n n n  ', '    n   ', '     b  ', EMPTY_ROW, '     b  ', EMPTY_ROW);
  const afterBlack = board(EMPTY_ROW, '      B ', ' n n n  ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, '    N   ');
  const afterWhite = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, 'B       ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, '    N   ');
  const start = setup({ B: ['2g'], n: ['3b', '3d', '3f', '4e'], b: ['5f', '7f'] }, 'black');
  const { white, black, spectators } = await match({ start, white: scripted(['2G 4E 2C 4A']), black: scripted(['4e 6g 8e']) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\n${WAIT}4E 6G 8E \n${afterBlack}Turno bianco!\n${PROMPT}${afterWhite}${WAIT}${BLACK_LEFT}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\nTurno nero!\n${PROMPT}${afterBlack}${WAIT}2G 4E 2C 4A \n${afterWhite}Turno nero!\n${PROMPT}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno nero!\n${afterBlack}Turno bianco!\n${afterWhite}Turno nero!\n${GAME_OVER}`);
});

const SYNTAX = '\nMossa non valida riprova!\n';
const LINES_TOO_FAR = 'Le righe sono troppo distanti o ti stai muovendo nel verso sbagliato.';
const NOT_DIAGONAL = 'Non ti stai spostando in diagonale o ti sei mosso di troppe colonne.';
const OCCUPIED = 'La posizione scelta è gia occupata.';

test('every invalid line gets its own message from the reference, only to the mover, then the prompt again', async () => {
  const whiteTries: [string, string][] = [
    ['hello', SYNTAX],
    ['', SYNTAX],
    ['6A', SYNTAX],
    ['9A 8B', SYNTAX],
    ['6a5b', SYNTAX],
    ['6A\t5B', SYNTAX],
    ['6À 5B', SYNTAX],
    ['6A 5B xx', SYNTAX],
    ['A6 B5', SYNTAX],
    ['x'.repeat(1000), SYNTAX],
    ['3B 4A', '\nNon hai selezionato una tua pedina!\nRicorda che sei i bianchi.\n'],
    ['5A 4B', '\nNon hai selezionato una tua pedina!\nRicorda che sei i bianchi.\n'],
    ['6A 6B', '\nSpostamento 6A -> 6B non valido!\nPuoi muoverti solo in diagonale.\n'],
    ['6A 5A', `\nSpostamento 6A -> 5A non valido!\n${NOT_DIAGONAL}\n`],
    ['7B 6A', `\nSpostamento 7B -> 6A non valido!\n${OCCUPIED}\n`],
    ['6A 7B', `\nSpostamento 6A -> 7B non valido!\n${LINES_TOO_FAR}\n`],
    ['6A 3D', `\nSpostamento 6A -> 3D non valido!\n${LINES_TOO_FAR}\n`],
    ['6A 5B 4C', `\nSpostamento 6A -> 5B non valido!\n${LINES_TOO_FAR}\n`],
    ['6C 4E', `\nCattura 6C -> 4E non valida!\n${NOT_DIAGONAL}\n`],
    ['7B 5D', `\nCattura 7B -> 5D non valida!\n${NOT_DIAGONAL}\n`],
    ['8A 6C', `\nCattura 8A -> 6C non valida!\n${OCCUPIED}\n`],
  ];
  const blackTries: [string, string][] = [
    ['3D 2C', `\nSpostamento 3D -> 2C non valido!\n${LINES_TOO_FAR}\n`],
    ['1B 3D', `\nCattura 1B -> 3D non valida!\n${OCCUPIED}\n`],
    ['5B 4A', '\nNon hai selezionato una tua pedina!\nRicorda che sei i neri.\n'],
  ];
  // Extra spaces and a CR are accepted, as on the reference.
  const whiteLines = [...whiteTries.map(([line]) => line), '6a  5b \r'];
  const blackLines = [...blackTries.map(([line]) => line), '3h 4g'];
  const answers = (tries: [string, string][]) => tries.map(([, answer]) => `${answer}${PROMPT}`).join('');
  const afterWhite = board(' n n n n', 'n n n n ', ' n n n n', EMPTY_ROW, ' b      ', '  b b b ', ' b b b b', 'b b b b ');
  const afterBlack = board(' n n n n', 'n n n n ', ' n n n  ', '      n ', ' b      ', '  b b b ', ' b b b b', 'b b b b ');
  const { white, black, spectators, record } = await match({ white: scripted(whiteLines), black: scripted(blackLines) });
  assert.equal(
    white,
    `${OPENING}${START}Sei i Bianchi\nTurno bianco!\n${PROMPT}${answers(whiteTries)}${afterWhite}${WAIT}3H 4G \n${afterBlack}Turno bianco!\n${PROMPT}`,
  );
  assert.equal(
    black,
    `${OPENING}${START}Sei i Neri\n${WAIT}6A 5B \n${afterWhite}Turno nero!\n${PROMPT}${answers(blackTries)}${afterBlack}${WAIT}${WHITE_LEFT}`,
  );
  assert.equal(spectators, `${OPENING}${START}${COLOURS}Turno bianco!\n${afterWhite}Turno nero!\n${afterBlack}Turno bianco!\n${GAME_OVER}`);
  assert.equal(record.outcome.seats[1]!.closeReason, 'disconnected', 'the refused lines did not count against White');
});

test("a man may not take a king, a king's wrong rows, and moves the reference allows but the Italian rules refuse", async () => {
  const before = board('       n', EMPTY_ROW, '     n  ', EMPTY_ROW, '   B n  ', '      b ', ' N      ', 'b       ');
  const after = board('       n', '      b ', EMPTY_ROW, EMPTY_ROW, '   B    ', EMPTY_ROW, ' N      ', 'b       ');
  const tries: [string, string][] = [
    ['8A 6C', `\nCattura 8A -> 6C non valida!\n${NOT_DIAGONAL}\n`],
    ['5D 2G', '\nSpostamento 5D -> 2G non valido!\nLe righe sono troppo distanti.\n'],
    ['5D 4C 3B', '\nSpostamento 5D -> 4C non valido!\nLe righe sono troppo distanti.\n'],
    ['5D 5F', '\nSpostamento 5D -> 5F non valido!\nPuoi muoverti solo in diagonale.\n'],
    // A capture is compulsory, and must be completed.
    ['5D 6E', SYNTAX],
    ['6G 4E', SYNTAX],
  ];
  const start = setup({ b: ['8a', '6g'], B: ['5d'], n: ['5f', '3f', '1h'], N: ['7b'] }, 'white');
  const { white, black } = await match({ start, white: scripted([...tries.map(([line]) => line), '6g 4e 2g']), black: scripted([]) });
  const answers = tries.map(([, answer]) => `${answer}${PROMPT}`).join('');
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\nTurno bianco!\n${PROMPT}${answers}${after}${WAIT}${BLACK_LEFT}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\n${WAIT}6G 4E 2G \n${after}Turno nero!\n${PROMPT}`);
});

test('Black has no move left: "Non hai più mosse disponibili." to Black, "I neri non hanno più mosse disponibili." to the others', async () => {
  const before = board('       n', EMPTY_ROW, '     B  ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW);
  const after = board('       n', '      B ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW);
  const result = 'I bianchi vincono la partita!\n\nGame Over ;)\n\n';
  const start = setup({ B: ['3f'], n: ['1h'] }, 'white');
  const { white, black, spectators, record } = await match({ start, white: scripted(['3f 2g']), black: scripted([]) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\nTurno bianco!\n${PROMPT}${after}I neri non hanno più mosse disponibili.\n${result}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\n${WAIT}3F 2G \n${after}Non hai più mosse disponibili.\n${result}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno bianco!\n${after}I neri non hanno più mosse disponibili.\n${result}`);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'PlayerB (white) wins: PlayerA (black) has no legal move' });
});

test('White has no move left (its man before a king): the mirrored texts', async () => {
  const before = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, '  N     ', EMPTY_ROW, 'b       ');
  const after = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ' N      ', 'b       ');
  const result = 'I neri vincono la partita!\n\nGame Over ;)\n\n';
  const start = setup({ b: ['8a'], N: ['6c'] }, 'black');
  const { white, black, spectators, record } = await match({ start, white: scripted([]), black: scripted(['6c 7b']) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\n${WAIT}6C 7B \n${after}Non hai più mosse disponibili.\n${result}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\nTurno nero!\n${PROMPT}${after}I bianchi non hanno più mosse disponibili.\n${result}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno nero!\n${after}I bianchi non hanno più mosse disponibili.\n${result}`);
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'PlayerA (black) wins: PlayerB (white) has no legal move' });
});

test('Black loses its last piece: "Non hai più pedine disponibili." to Black only', async () => {
  const before = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, '     n  ', '    b   ', EMPTY_ROW, EMPTY_ROW);
  const after = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, '      b ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW);
  const result = 'I bianchi vincono la partita!\n\nGame Over ;)\n\n';
  const start = setup({ b: ['6e'], n: ['5f'] }, 'white');
  const { white, black, spectators, record } = await match({ start, white: scripted(['6e 4g']), black: scripted([]) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\nTurno bianco!\n${PROMPT}${after}${result}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\n${WAIT}6E 4G \n${after}Non hai più pedine disponibili.\n${result}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno bianco!\n${after}${result}`);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'PlayerB (white) wins: PlayerA (black) has no pieces left' });
});

test('White loses its last piece: the mirrored texts', async () => {
  const before = board(EMPTY_ROW, EMPTY_ROW, '   n    ', '  b     ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW);
  const after = board(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ' n      ', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW);
  const result = 'I neri vincono la partita!\n\nGame Over ;)\n\n';
  const start = setup({ b: ['4c'], n: ['3d'] }, 'black');
  const { white, black, spectators } = await match({ start, white: scripted([]), black: scripted(['3d 5b']) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\n${WAIT}3D 5B \n${after}Non hai più pedine disponibili.\n${result}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\nTurno nero!\n${PROMPT}${after}${result}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno nero!\n${after}${result}`);
});

test('40 quiet moves each draw the game: "Partita patta!" then the end marker, to everyone', async () => {
  const before = board('       N', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, 'B       ');
  const after = board('       N', EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, ' B      ', EMPTY_ROW);
  const result = 'Partita patta!\n\nGame Over ;)\n\n';
  const start = setup({ B: ['8a'], N: ['1h'] }, 'white', 79);
  const { white, black, spectators, record } = await match({ start, white: scripted(['8a 7b']), black: scripted([]) });
  assert.equal(white, `${OPENING}${before}Sei i Bianchi\nTurno bianco!\n${PROMPT}${after}${result}`);
  assert.equal(black, `${OPENING}${before}Sei i Neri\n${WAIT}8A 7B \n${after}${result}`);
  assert.equal(spectators, `${OPENING}${before}${COLOURS}Turno bianco!\n${after}${result}`);
  assert.deepEqual(record.outcome.result, { scores: [0.5, 0.5], reason: 'draw: 40 moves by each side without a capture or a man move' });
});

test('the mover times out: "Tempo scaduto" to it, the abandonment to the opponent, the bare end marker to the spectators', async () => {
  const clock = new ManualClock();
  const { white, black, spectators, record } = await match({ white: silent, black: silent, clock, timeout: 5 });
  assert.equal(white, `${OPENING}${START}Sei i Bianchi\nTurno bianco!\n${PROMPT}${TIMED_OUT}`);
  assert.equal(black, `${OPENING}${START}Sei i Neri\n${WAIT}${WHITE_LEFT}`);
  assert.equal(spectators, `${OPENING}${START}${COLOURS}Turno bianco!\n${GAME_OVER}`);
  assert.equal(record.outcome.seats[1]!.closeReason, 'timeout');
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 5000);
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'PlayerA (black) wins: PlayerB (white) did not move in time' });
});

test('the inactivity timeout starts again with every line, invalid ones included', async () => {
  const clock = new ManualClock();
  // White answers 4 s after each prompt (the timeout is 5 s): three invalid lines, then a move.
  const lines = ['6A 6B', 'hello', '3B 4A', '6g 5f'];
  const slowWhite: LocalPlayer = async (io) => {
    let next = 0;
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) {
      const answer = lines[next];
      if (line === PROMPT_LINE_2 && answer !== undefined) {
        next++;
        clock.setTimer(4000, () => io.write(`${answer}\n`));
      }
    }
  };
  const { white, black, record } = await match({ white: slowWhite, black: silent, clock, timeout: 5 });
  assert.ok(white.endsWith(`${WAIT}${BLACK_LEFT}`), white);
  assert.ok(black.endsWith(`Turno nero!\n${PROMPT}${TIMED_OUT}`), black);
  assert.equal(record.outcome.seats[0]!.closeReason, 'timeout');
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 4 * 4000 + 5000, "White's 16 s turn, then Black's 5 s");
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'PlayerB (white) wins: PlayerA (black) did not move in time' });
});

test('the waiting player disconnects: its turn starts, and the opponent is told at once', async () => {
  const afterWhite = board(' n n n n', 'n n n n ', ' n n n n', EMPTY_ROW, '     b  ', 'b b b   ', ' b b b b', 'b b b b ');
  // Black leaves while White is thinking.
  const leaving: LocalPlayer = async (io) => {
    while ((await io.readLine()) !== 'Attendi il tuo turno!');
  };
  const { white, spectators, record } = await match({ white: scripted(['6g 5f']), black: leaving });
  assert.equal(white, `${OPENING}${START}Sei i Bianchi\nTurno bianco!\n${PROMPT}${afterWhite}${WAIT}${BLACK_LEFT}`);
  assert.equal(spectators, `${OPENING}${START}${COLOURS}Turno bianco!\n${afterWhite}Turno nero!\n${GAME_OVER}`);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'PlayerB (white) wins: PlayerA (black) disconnected' });
});

test(`the ${MAX_INVALID_LINES_PER_TURN}th invalid line in one turn ends the game as the mover's fault`, async () => {
  assert.equal(MAX_INVALID_LINES_PER_TURN, 100);
  assert.match(dama.description, /100 invalid lines/);
  const refusal = `\nSpostamento 6A -> 6B non valido!\nPuoi muoverti solo in diagonale.\n${PROMPT}`;
  const { white, black, spectators, record } = await match({ white: scripted(Array(120).fill('6A 6B')), black: silent });
  const limit = '\nHai inviato 100 mosse non valide in questo turno, hai perso la partita!\nGame Over ;)\n\n';
  assert.equal(white, `${OPENING}${START}Sei i Bianchi\nTurno bianco!\n${PROMPT}${refusal.repeat(99)}${limit}`);
  assert.equal(black, `${OPENING}${START}Sei i Neri\n${WAIT}${WHITE_LEFT}`);
  assert.equal(spectators, `${OPENING}${START}${COLOURS}Turno bianco!\n${GAME_OVER}`);
  assert.equal(record.outcome.seats[1]!.closeReason, 'removed');
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'PlayerA (black) wins: PlayerB (white) sent 100 invalid lines in one turn' });
});

test('a line longer than 1024 bytes loses the game (the opponent is told as for an abandonment)', async () => {
  const { black, spectators, record } = await match({ white: scripted(['6e 5d'.padEnd(2000, ' ')]), black: silent });
  assert.equal(dama.maxLineBytes, 1024);
  assert.equal(record.outcome.seats[1]!.closeReason, 'line/too-long');
  assert.equal(black, `${OPENING}${START}Sei i Neri\n${WAIT}${WHITE_LEFT}`);
  assert.ok(spectators.endsWith(`Turno bianco!\n${GAME_OVER}`));
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'PlayerA (black) wins: PlayerB (white) sent a line too long' });
});

test('invalid UTF-8 (FF FE) as a move is a timeout at once, as the reference: "Tempo scaduto" to the sender, the abandonment to the opponent', async () => {
  const clock = new ManualClock();
  const sendsBadBytes: LocalPlayer = async (io, sendBytes) => {
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (line === PROMPT_LINE_2) sendBytes(Uint8Array.of(0xff, 0xfe, 0x0a));
    }
  };
  const { white, black, spectators, record } = await match({ white: sendsBadBytes, black: silent, clock, timeout: 5 });
  assert.equal(white, `${OPENING}${START}Sei i Bianchi\nTurno bianco!\n${PROMPT}${TIMED_OUT}`);
  assert.equal(black, `${OPENING}${START}Sei i Neri\n${WAIT}${WHITE_LEFT}`);
  assert.equal(spectators, `${OPENING}${START}${COLOURS}Turno bianco!\n${GAME_OVER}`);
  assert.equal(record.outcome.seats[1]!.closeReason, 'line/invalid-utf8');
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 0, 'at once, not after the timeout');
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'PlayerA (black) wins: PlayerB (white) sent invalid UTF-8' });
});

test('the pace runs from the start of each turn: a slow mover adds no wait, and the result waits for it too', async () => {
  const clock = new ManualClock();
  const heard: { white: [number, string][]; black: [number, string][] } = { white: [], black: [] };
  /** Answers each prompt with the next [delay in ms, line], writing down when each line arrived. */
  const timed = (log: [number, string][], answers: [number, string][]): LocalPlayer => async (io) => {
    let next = 0;
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) {
      log.push([clock.monotonic(), line]);
      const answer = answers[next];
      if (line !== PROMPT_LINE_2 || !answer) continue;
      next++;
      if (answer[0] === 0) io.write(`${answer[1]}\n`);
      else clock.setTimer(answer[0], () => io.write(`${answer[1]}\n`));
    }
  };
  const start = setup({ b: ['6e'], n: ['3f'] }, 'white');
  const { record } = await match({
    start,
    pace: '1',
    clock,
    white: timed(heard.white, [[600, '6e 5d'], [0, '5d 3f']]),
    black: timed(heard.black, [[1500, '3f 4e']]),
  });
  const zero = heard.white[0]![0];
  const when = (log: [number, string][], wanted: RegExp) => log.filter(([, line]) => wanted.test(line)).map(([t, line]) => [t - zero, line]);
  assert.deepEqual(when(heard.white, /^(Turno|Attendi|I bianchi|Game Over)/), [
    [0, 'Turno bianco!'], // no wait before the first turn
    [1000, 'Attendi il tuo turno!'], // White moved after 0.6 s: the turn still lasts the pace
    [2500, 'Turno bianco!'], // Black took 1.5 s: no extra wait
    [3500, 'I bianchi vincono la partita!'], // the result waits for the pace after the last move
    [3500, 'Game Over ;)'],
  ]);
  assert.deepEqual(when(heard.black, /^(Turno|6E|5D|Non hai)/), [
    [600, '6E 5D '],
    [1000, 'Turno nero!'],
    [2500, '5D 3F '],
    [3500, 'Non hai più pedine disponibili.'],
  ]);
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 3500);
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
