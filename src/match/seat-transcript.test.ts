import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { playLocalMatch } from './local-match.js';
import { transcriptName } from './match.js';
import { SeatTranscript, TRANSCRIPT_LIMITS } from './seat-transcript.js';

test('a transcript writes each complete line with its time and direction, unfinished lines at the end', () => {
  let now = 0;
  const transcript = new SeatTranscript('seat 1, bob', () => now);
  transcript.fromGame('alice\nbob\n3\n');
  now = 0.25;
  transcript.lineFromPlayer('ROCK');
  transcript.fromGame('PAP');
  now = 1.5;
  transcript.fromGame('ER\nSCI');
  transcript.fromPlayer('<move/>');
  transcript.note('the seat was closed: timeout');
  assert.equal(
    transcript.text(),
    [
      '# seat 1, bob: "<" received from the game, ">" sent by the player; seconds since the match started',
      '0.000 < alice',
      '0.000 < bob',
      '0.000 < 3',
      '0.250 > ROCK',
      '1.500 < PAPER',
      '1.500 # the seat was closed: timeout',
      '1.500 < SCI (no newline)',
      '1.500 > <move/> (no newline)',
      '',
    ].join('\n'),
  );
});

test('a transcript stops at its limit and says so', () => {
  const transcript = new SeatTranscript('seat 0, flood', () => 0);
  const line = `${'x'.repeat(1000)}\n`;
  for (let i = 0; i < (TRANSCRIPT_LIMITS.maxBytes / line.length) * 2; i++) transcript.fromPlayer(line);
  const text = transcript.text();
  assert.ok(Buffer.byteLength(text) <= TRANSCRIPT_LIMITS.maxBytes + 200);
  assert.match(text, /# the transcript stops here: it reached \d+ bytes\n$/);
});

test('text that never ends its line is written in bounded pieces and the whole stays under the limit', () => {
  const transcript = new SeatTranscript('seat 0, comments', () => 0);
  const piece = '<!-- no newline, ever -->'.repeat(40);
  // 32 MiB without a line break, as a hostile XML client sends it.
  for (let sent = 0; sent < 32 << 20; sent += piece.length) transcript.fromPlayer(piece);
  const text = transcript.text();
  assert.ok(Buffer.byteLength(text) <= TRANSCRIPT_LIMITS.maxBytes + 200, `${Buffer.byteLength(text)} bytes`);
  const lines = text.split('\n');
  assert.ok(lines.every((line) => line.length < TRANSCRIPT_LIMITS.maxPendingChars + piece.length + 100));
  assert.match(lines[1]!, /^0\.000 > (<!-- no newline, ever -->)+ \(the line goes on\)$/);
  assert.match(text, /# the transcript stops here/);
});

test('a match keeps a transcript per seat with what the player received and sent', async () => {
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '2', pace: '0' } },
    players: [
      {
        name: 'alice',
        play: async (io) => {
          for (let i = 0; i < 3; i++) await io.readLine();
          io.write('ROCK\n');
          await io.readLine();
          io.write('ROCK\n');
          await io.readLine();
        },
      },
      {
        name: 'bob',
        play: async (io) => {
          for (let i = 0; i < 3; i++) await io.readLine();
          io.write('PAPER\n');
          await io.readLine();
          io.write('LIZARD\n');
          // The game, waiting for bob's gesture, removes him as the bad one arrives: before his end closes.
          io.end();
        },
      },
    ],
  });
  const seatOf = (name: string): number => record.outcome.seats.findIndex((seat) => seat.name === name);
  const lines = (name: string): string[] =>
    record.outcome.artifacts[transcriptName(seatOf(name))]!
      .split('\n')
      .slice(1, -1)
      .map((line) => line.replace(/^\d+\.\d{3} /, ''));
  assert.deepEqual(lines('alice'), ['< alice', '< bob', '< 2', '> ROCK', '< PAPER', '> ROCK', '< RETIRE', '# the match is over']);
  assert.deepEqual(lines('bob'), ['< bob', '< alice', '< 2', '> PAPER', '< ROCK', '> LIZARD', '# the seat was closed: removed']);
});
