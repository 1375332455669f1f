import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../games/roshambo/roshambo.js';
import { playLocalMatch } from './local-match.js';
import { transcriptName } from './match.js';
import { MatchClock } from './match-clock.js';
import { Random } from './random.js';
import { Seat } from './seat.js';
import type { ByteLog } from '../util/byte-log.js';
import { SeatTranscript, TRANSCRIPT_LIMITS, firstCodeUnits, playerPiecesOf, stampLength } from './seat-transcript.js';

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

/**
 * The transcript as it was written before it kept bytes: each line formatted and encoded when it
 * happened. What a user reads must not have changed, so it is the oracle for the byte records.
 */
class StringTranscript {
  private text = '';
  private bytes = 0;
  private readonly pending = { '<': '', '>': '' };
  private full = false;

  constructor(
    header: string,
    private readonly now: () => number,
  ) {
    this.text = `# ${header}: "<" received from the game, ">" sent by the player; seconds since the match started\n`;
    this.bytes = Buffer.byteLength(this.text);
  }

  fromGame(text: string): void {
    this.add('<', text);
  }

  fromPlayer(text: string): void {
    this.add('>', text);
  }

  lineFromPlayer(line: string): void {
    this.line(`${this.stamp()} > ${line}\n`);
  }

  note(text: string): void {
    this.line(`${this.stamp()} # ${text}\n`);
  }

  finish(): string {
    for (const direction of ['<', '>'] as const) {
      if (this.pending[direction] !== '') this.line(`${this.stamp()} ${direction} ${this.pending[direction]} (no newline)\n`);
      this.pending[direction] = '';
    }
    return this.text;
  }

  private add(direction: '<' | '>', text: string): void {
    if (this.full) return;
    let start = 0;
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.pending[direction] += text;
      if (this.pending[direction].length > TRANSCRIPT_LIMITS.maxPendingChars) {
        this.line(`${this.stamp()} ${direction} ${this.pending[direction]} (the line goes on)\n`);
        this.pending[direction] = '';
      }
      return;
    }
    const time = this.stamp();
    while (newline !== -1) {
      const line = this.pending[direction] + text.slice(start, newline);
      this.pending[direction] = '';
      this.line(`${time} ${direction} ${line}\n`);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    this.pending[direction] = text.slice(start);
  }

  private line(text: string): void {
    if (this.full) return;
    if (this.bytes + Buffer.byteLength(text) > TRANSCRIPT_LIMITS.maxBytes) {
      this.full = true;
      this.text += `# the transcript stops here: it reached ${TRANSCRIPT_LIMITS.maxBytes} bytes\n`;
      return;
    }
    this.text += text;
    this.bytes += Buffer.byteLength(text);
  }

  private stamp(): string {
    return this.now().toFixed(3);
  }
}

type Step =
  | { readonly kind: 'fromGame' | 'fromPlayer' | 'lineFromPlayer' | 'note'; readonly text: string }
  | { readonly kind: 'time'; readonly seconds: number };

/** Plays the same steps into a byte transcript (as bytes, or as strings) and into the oracle. */
function replay(steps: readonly Step[], feed: 'bytes' | 'strings'): { text: string; expected: string } {
  let now = 0;
  const transcript = new SeatTranscript('seat 0, ånna', () => now);
  const oracle = new StringTranscript('seat 0, ånna', () => now);
  for (const step of steps) {
    if (step.kind === 'time') {
      now = step.seconds;
      continue;
    }
    const data = feed === 'bytes' && step.kind !== 'note' ? Buffer.from(step.text) : step.text;
    if (step.kind === 'note') transcript.note(step.text);
    else transcript[step.kind](data);
    oracle[step.kind](step.text);
  }
  return { text: transcript.text(), expected: oracle.finish() };
}

const MIXED_STEPS: readonly Step[] = [
  { kind: 'fromGame', text: 'alice\nbob\n3\n' },
  { kind: 'time', seconds: 0.0125 },
  { kind: 'lineFromPlayer', text: 'ROCK' },
  { kind: 'fromGame', text: 'PAP' },
  { kind: 'fromGame', text: '' },
  { kind: 'time', seconds: 0.25 },
  { kind: 'fromGame', text: 'ER\r\n\n\nSC' },
  { kind: 'fromGame', text: 'ISSORS\r\n' },
  { kind: 'lineFromPlayer', text: '' },
  { kind: 'lineFromPlayer', text: 'cœur ❤ 😀 ok' },
  { kind: 'fromGame', text: 'naïve 😀\nstill 😀 going' },
  { kind: 'time', seconds: 9.9995 },
  { kind: 'fromGame', text: '\n' },
  { kind: 'note', text: 'the seat was closed: timeout' },
  { kind: 'time', seconds: 99.99951 },
  { kind: 'fromPlayer', text: '<move x="1"/>' },
  { kind: 'fromPlayer', text: '<move x="2"/>\n<rest' },
  { kind: 'fromGame', text: 'no end 😀' },
];

test('lines given as bytes read the same as the same lines given as text, and as the transcript always read', () => {
  const fromBytes = replay(MIXED_STEPS, 'bytes');
  assert.equal(fromBytes.text, fromBytes.expected);
  assert.equal(replay(MIXED_STEPS, 'strings').text, fromBytes.expected);
  assert.equal(
    fromBytes.text,
    [
      '# seat 0, ånna: "<" received from the game, ">" sent by the player; seconds since the match started',
      '0.000 < alice',
      '0.000 < bob',
      '0.000 < 3',
      '0.013 > ROCK',
      '0.250 < PAPER\r',
      '0.250 < ',
      '0.250 < ',
      '0.250 < SCISSORS\r',
      '0.250 > ',
      '0.250 > cœur ❤ 😀 ok',
      '0.250 < naïve 😀',
      `${(9.9995).toFixed(3)} < still 😀 going`,
      `${(9.9995).toFixed(3)} # the seat was closed: timeout`,
      '100.000 > <move x="1"/><move x="2"/>',
      '100.000 < no end 😀 (no newline)',
      '100.000 > <rest (no newline)',
      '',
    ].join('\n'),
  );
});

test('a line that never ends is cut into pieces by its characters, as counted in a JavaScript string', () => {
  // Each piece is 1000 characters in 2000 UTF-16 units and 4000 bytes of UTF-8.
  const piece = '😀'.repeat(1000);
  const steps: Step[] = [];
  for (let i = 0; i < 20; i++) steps.push({ kind: 'time', seconds: i / 10 }, { kind: 'fromPlayer', text: piece });
  steps.push({ kind: 'fromPlayer', text: 'end\nrest' });
  const { text, expected } = replay(steps, 'bytes');
  assert.equal(text, expected);
  const lines = text.split('\n');
  assert.match(lines[1]!, /^0\.800 > (😀){9000} \(the line goes on\)$/);
  assert.match(lines[3]!, /^1\.900 > (😀){2000}end$/);
});

test('a transcript given bytes stops at the same line as it did given text, with the same closing line', () => {
  // Lines of several lengths and times of several digits, so the limit falls on a line whose
  // size counts the stamp's digits and multi-byte characters.
  const random = Random.fromSeed('transcript cap');
  const steps: Step[] = [];
  let seconds = 0;
  for (let bytes = 0; bytes < TRANSCRIPT_LIMITS.maxBytes * 1.2; ) {
    seconds += random.float() * 0.2;
    const line = 'é'.repeat(random.int(300)) + 'x'.repeat(random.int(3));
    steps.push({ kind: 'time', seconds }, random.bit() ? { kind: 'lineFromPlayer', text: line } : { kind: 'fromGame', text: random.bit() ? line : `${line}\n` });
    bytes += Buffer.byteLength(line) + 12;
  }
  steps.push({ kind: 'note', text: 'the match is over' });
  const { text, expected } = replay(steps, 'bytes');
  assert.equal(text, expected);
  assert.ok(Buffer.byteLength(text) <= TRANSCRIPT_LIMITS.maxBytes + 200);
  assert.match(text, /\n# the transcript stops here: it reached \d+ bytes\n$/);
  assert.doesNotMatch(text, /the match is over/);
});

test('random mixes of pieces, lines, line ends, unicode and notes read the same given bytes as given text', () => {
  const random = Random.fromSeed('transcript mixes');
  const words = ['ROCK', 'é', '€', '😀', '', ' ', '\r', '<a/>', 'x'.repeat(40)];
  for (let round = 0; round < 200; round++) {
    const steps: Step[] = [];
    let seconds = random.pick([0, 9.99, 99.99, 999.99]);
    for (let i = random.int(40); i > 0; i--) {
      if (random.bit()) {
        seconds += random.pick([0, 0.0004, 0.0005, 0.001, 0.3]);
        steps.push({ kind: 'time', seconds });
      }
      let text = '';
      for (let w = random.int(6); w > 0; w--) text += random.pick(words) + (random.int(3) === 0 ? '\n' : '');
      const kind = random.pick(['fromGame', 'fromPlayer', 'lineFromPlayer', 'note'] as const);
      steps.push({ kind, text: kind === 'lineFromPlayer' || kind === 'note' ? text.replaceAll('\n', '') : text });
    }
    const fromBytes = replay(steps, 'bytes');
    assert.equal(fromBytes.text, fromBytes.expected, `round ${round}`);
    assert.equal(replay(steps, 'strings').text, fromBytes.expected, `round ${round}`);
  }
});

test('the length of a stamp is known without formatting it, also where rounding carries into a new digit', () => {
  const random = Random.fromSeed('stamp lengths');
  const values = [0, -0, 0.0004, 9.999, 9.9994999, 9.9995, 9.99951, 10, 99.9995, 999.9996, 1e6 - 0.0004, 1e12, 1e21, 1e22, -1, -9.9996, NaN, Infinity];
  for (let power = 1; power <= 1e15; power *= 10) {
    for (let i = 0; i < 50; i++) values.push(power - 0.002 + random.float() * 0.004, power * random.float());
  }
  for (const seconds of values) assert.equal(stampLength(seconds), seconds.toFixed(3).length, `${seconds}`);
});

test('a seat hands its transcript the bytes it received and sent, with the same text as before', async () => {
  let now = 0;
  const transcript = new SeatTranscript('seat 0, p', () => now);
  const oracle = new StringTranscript('seat 0, p', () => now);
  const seat = new Seat({ index: 0, name: 'p', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(), transcript });
  seat.attach({ send: () => {}, close: () => {} });
  const euro = Buffer.from('€uro\r\n\nlast');
  seat.write('hello 😀\n');
  oracle.fromGame('hello 😀\n');
  now = 0.5;
  seat.receive(euro.subarray(0, 2));
  seat.receive(euro.subarray(2));
  oracle.lineFromPlayer('€uro');
  oracle.lineFromPlayer('');
  seat.write('partial');
  oracle.fromGame('partial');
  now = 1;
  seat.receiveEnd();
  oracle.note('the player closed its end (disconnected or exited)');
  oracle.lineFromPlayer('last');
  assert.equal(await seat.readLine(), '€uro');
  assert.equal(await seat.readLine(), '');
  assert.equal(await seat.readLine(), 'last');
  assert.equal(transcript.text(), oracle.finish());
});

test('a text seat writes what the player sent into its transcript as text, characters split across chunks whole', () => {
  const now = 2;
  const transcript = new SeatTranscript('seat 1, q', () => now);
  const seat = new Seat({ index: 1, name: 'q', isBot: false, timeoutSeconds: 5, maxLineBytes: 64, clock: new MatchClock(), framing: 'text', transcript });
  const xml = Buffer.from('<a>€</a>\n<b>😀');
  seat.receive(xml.subarray(0, 4));
  seat.receive(xml.subarray(4, 14));
  seat.receive(xml.subarray(14));
  seat.receiveEnd();
  assert.deepEqual(transcript.text().split('\n').slice(1), [
    '2.000 > <a>€</a>',
    '2.000 # the player closed its end (disconnected or exited)',
    '2.000 > <b>😀 (no newline)',
    '',
  ]);
});

test('until the match ends a full transcript keeps at most 10/9 of its limit, even for empty lines at new times', () => {
  // The worst case of the records: each line empty, with a time of its own (a record of 10 bytes
  // for a text of 9, "0.000 > " and the newline).
  const steps: Step[] = [];
  for (let i = 0; i < TRANSCRIPT_LIMITS.maxBytes / 9 + 1000; i++) steps.push({ kind: 'time', seconds: i * 1e-9 }, { kind: 'lineFromPlayer', text: '' });
  let now = 0;
  const transcript = new SeatTranscript('seat 0, empty', () => now);
  for (const step of steps) {
    if (step.kind === 'time') now = step.seconds;
    else transcript.lineFromPlayer(Buffer.alloc(0));
  }
  // The records are private; their size is what this limit is about.
  const kept = (transcript as unknown as { log: ByteLog }).log.length;
  assert.ok(kept <= (TRANSCRIPT_LIMITS.maxBytes * 10) / 9, `${kept} bytes kept`);
  assert.ok(kept > TRANSCRIPT_LIMITS.maxBytes, 'the worst case was reached');
  const { text, expected } = replay(steps, 'bytes');
  assert.equal(text, expected);
  assert.match(text, /\n0\.000 > \n# the transcript stops here: it reached \d+ bytes\n$/);
});

test('what a player sent as text reads back whole, in the pieces the transcript holds: from the records as it goes, and from the finished text', () => {
  let now = 0;
  const transcript = new SeatTranscript('seat 0, a', () => now);
  const long = 'x'.repeat(TRANSCRIPT_LIMITS.maxPendingChars + 5);
  const sent = ['<join/>\n<room>', 'ä日🙂</room>\n', long, '\n  <a/>', '\r\n', '<tail'];
  for (const text of sent) {
    transcript.fromPlayer(text);
    transcript.fromGame('<memento/>\n');
    now += 0.5;
  }
  const whole = sent.join('');
  const pieces = transcript.playerPieces();
  assert.equal(pieces.join(''), whole, 'so far, the line still waiting for its newline included');
  assert.deepEqual(firstCodeUnits(pieces, 9), ['<join/>\n', '<']);
  assert.equal(firstCodeUnits(pieces, whole.length - 3).join(''), whole.slice(0, -3));
  assert.deepEqual(firstCodeUnits(pieces, 0), []);
  const text = transcript.text();
  assert.match(text, / \(the line goes on\)\n/);
  assert.match(text, /> <tail \(no newline\)\n$/);
  assert.deepEqual(playerPiecesOf(text), pieces, 'the finished text reads as the records did');
});
