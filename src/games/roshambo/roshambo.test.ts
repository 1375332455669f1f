import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { roshambo } from './roshambo.js';
import { RoshamboPredictor } from './bot.js';
import { ManualClock } from '../../util/clock.js';
import { transcriptName } from '../../match/match.js';

/** A player that reads its header, then plays the given gestures, reading the answer after each. */
function scripted(moves: string[]): LocalPlayer {
  return async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    for (const move of moves) {
      io.write(`${move}\n`);
      if ((await io.readLine()) === null) return;
    }
  };
}

test('the spec example streams are reproduced byte for byte', async () => {
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '3', pace: '0' } },
    players: [
      { name: 'Player0', play: scripted(['ROCK', 'PAPER', 'ROCK']) },
      { name: 'Player1', play: scripted(['PAPER', 'PAPER', 'SCISSORS']) },
    ],
  });
  assert.equal(record.received[0], 'Player0\nPlayer1\n3\nPAPER\nPAPER\nSCISSORS\n');
  assert.equal(record.received[1], 'Player1\nPlayer0\n3\nROCK\nPAPER\nROCK\n');
  assert.equal(record.spectatorStream, 'Player0\nPlayer1\n3\nROCK\nPAPER\nPAPER\nPAPER\nROCK\nSCISSORS\n');
  assert.deepEqual(record.outcome.result?.scores, [1, 1]);
  assert.match(record.outcome.result!.reason, /draw/);
});

test('an invalid gesture retires the player and the opponent receives RETIRE', async () => {
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '5', pace: '0' } },
    players: [
      { name: 'A', play: scripted(['ROCK', 'LIZARD']) },
      { name: 'B', play: scripted(['SCISSORS', 'PAPER', 'PAPER']) },
    ],
  });
  assert.equal(record.received[1], 'B\nA\n5\nROCK\nRETIRE\n');
  assert.equal(record.spectatorStream, 'A\nB\n5\nROCK\nSCISSORS\nRETIRE\nPAPER\n');
  // A was a point ahead, and loses by retiring.
  assert.deepEqual(record.outcome.result?.scores, [0, 1]);
  assert.match(record.outcome.result!.reason, /A retired in round 2/);
});

test('a player who disconnects has retired', async () => {
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '5', pace: '0' } },
    players: [
      { name: 'A', play: scripted(['ROCK']) },
      { name: 'B', play: scripted(['ROCK', 'ROCK', 'ROCK']) },
    ],
  });
  assert.equal(record.received[1], 'B\nA\n5\nROCK\nRETIRE\n');
  assert.equal(record.outcome.seats[0]!.closeReason, 'disconnected');
  assert.deepEqual(record.outcome.result?.scores, [0, 1]);
});

test('a player ahead on points who then leaves loses (1-0 to the one who stayed); both leaving at once is 0-0', async () => {
  const ahead = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '5', pace: '0' } },
    players: [
      { name: 'A', play: scripted(['PAPER', 'PAPER', 'PAPER']) },
      { name: 'B', play: scripted(['ROCK', 'ROCK', 'ROCK', 'ROCK']) },
    ],
  });
  assert.deepEqual(ahead.outcome.result?.scores, [0, 1]);
  assert.match(ahead.outcome.result!.reason, /^A retired in round 4$/);
  const both = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '5', pace: '0' } },
    players: [
      { name: 'A', play: scripted(['PAPER']) },
      { name: 'B', play: scripted(['ROCK']) },
    ],
  });
  assert.deepEqual(both.outcome.result?.scores, [0, 0]);
  assert.match(both.outcome.result!.reason, /^A and B retired in round 2$/);
});

test('a silent player is retired when the timeout has passed', async () => {
  // Time moves only when the match waits (ManualClock), so a busy machine cannot retire anyone early.
  const clock = new ManualClock();
  const record = await clock.runUntil(
    playLocalMatch({
      game: roshambo,
      params: { args: { rounds: '2', pace: '0' }, timeout: 30 },
      players: [
        { name: 'Silent', play: async (io) => { while ((await io.readLine()) !== null); } },
        { name: 'B', play: scripted(['ROCK', 'ROCK']) },
      ],
      clock,
    }),
  );
  assert.equal(record.received[1], 'B\nSilent\n2\nRETIRE\n');
  assert.equal(record.outcome.seats[0]!.closeReason, 'timeout');
  assert.match(record.outcome.artifacts[transcriptName(0)]!, /\n30\.000 # the seat was closed: timeout\n/, 'retired at 30 s, not before');
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 30_000);
});

test('every round result goes out a pace after the round started, the first included', async () => {
  const clock = new ManualClock();
  const record = await clock.runUntil(
    playLocalMatch({
      game: roshambo,
      params: { args: { rounds: '3', pace: '1.5' } },
      players: [
        { name: 'A', play: scripted(['ROCK', 'PAPER', 'ROCK']) },
        { name: 'B', play: scripted(['PAPER', 'PAPER', 'SCISSORS']) },
      ],
      clock,
    }),
  );
  assert.equal(record.spectatorStream, 'A\nB\n3\nROCK\nPAPER\nPAPER\nPAPER\nROCK\nSCISSORS\n');
  assert.match(record.outcome.artifacts[transcriptName(0)]!, /\n0\.000 > ROCK\n1\.500 < PAPER\n1\.500 > PAPER\n3\.000 < PAPER\n3\.000 > ROCK\n4\.500 < SCISSORS\n/);
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 4_500, 'three rounds of 1.5 s');
});

test('a player slower than the pace adds no wait of its own, and a retired round is paced too', async () => {
  const clock = new ManualClock();
  const slow = (moves: string[]): LocalPlayer => async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    for (const move of moves) {
      await new Promise<void>((resolve) => clock.setTimer(2000, resolve));
      io.write(`${move}\n`);
      if ((await io.readLine()) === null) return;
    }
  };
  const record = await clock.runUntil(
    playLocalMatch({
      game: roshambo,
      params: { args: { rounds: '3', pace: '1' } },
      players: [
        { name: 'A', play: slow(['ROCK', 'LIZARD']) },
        { name: 'B', play: scripted(['PAPER', 'PAPER', 'PAPER']) },
      ],
      clock,
    }),
  );
  assert.equal(record.received[1], 'B\nA\n3\nROCK\nRETIRE\n');
  assert.equal(record.spectatorStream, 'A\nB\n3\nROCK\nPAPER\nRETIRE\nPAPER\n');
  assert.match(record.outcome.artifacts[transcriptName(1)]!, /\n2\.000 < ROCK\n2\.000 > PAPER\n4\.000 < RETIRE\n/);
});

test('the server bot plays a full match and both seats get their names', async () => {
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '20', pace: '0' }, bots: 1, players: 2 },
    players: [{ name: 'Human', play: scripted(Array(20).fill('PAPER')) }],
  });
  assert.match(record.received[0]!, /^Human\nServerBot\$0\n20\n/);
  assert.equal(record.received[0]!.split('\n').length, 3 + 20 + 1);
  assert.equal(record.outcome.result!.scores.length, 2);
});

test('the bot exploits an opponent that always plays the same gesture', () => {
  const bot = new RoshamboPredictor(Random.fromSeed(7));
  let wins = 0;
  for (let i = 0; i < 200; i++) {
    const choice = bot.choose();
    if (choice === 'PAPER') wins++;
    bot.observe('ROCK');
  }
  assert.ok(wins > 190, `won ${wins} of 200`);
});

test('parameters are validated with clear messages', () => {
  const configure = (args: Record<string, string>, players: number | null = null, bots = 0) =>
    roshambo.configure({ players, bots, timeout: null, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.deepEqual(defaults.value.config, { rounds: 10, pace: 1 });
  assert.equal(defaults.value.timeout, 30);
  // The reference's words, its misspelt "Invaid" included: they are what its users' scripts see.
  const refusal = (error: string) => ({ ok: false, error: `Cannot create game: ${error}` });
  assert.deepEqual(configure({ rounds: '0' }), refusal('Invalid number of rounds'));
  assert.deepEqual(configure({ rounds: '10000' }), refusal('Invalid number of rounds'));
  assert.deepEqual(configure({ rounds: 'abc' }), refusal('Invaid number of rounds: invalid digit found in string'));
  assert.deepEqual(configure({ rounds: '' }), refusal('Invaid number of rounds: cannot parse integer from empty string'));
  assert.deepEqual(configure({ rounds: ' 5' }), refusal('Invaid number of rounds: invalid digit found in string'));
  assert.deepEqual(configure({ pace: '31' }), refusal('Invalid pace'));
  assert.deepEqual(configure({ pace: '-1' }), refusal('Invalid pace'));
  assert.deepEqual(configure({ pace: 'NaN' }), refusal('Invalid pace'));
  assert.deepEqual(configure({ pace: 'abc' }), refusal('Invaid pace: invalid float literal'));
  const accepted = configure({ rounds: '+7', pace: '1e1' });
  assert.ok(accepted.ok);
  assert.deepEqual(accepted.value.config, { rounds: 7, pace: 10 });
  assert.deepEqual(configure({}, 3), refusal('Cannot create game with 3 players'));
  assert.deepEqual(configure({ pace: 'abc' }, 3), refusal('Cannot create game with 3 players'), 'the seat count is checked first');
  assert.deepEqual(configure({ colour: 'red' }), refusal('Unknown argument "colour" (known: rounds, pace)'));
});

test('a match draws both gestures of every round and the score, with a log line per round', async () => {
  const record = await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '3', pace: '0' } },
    players: [
      { name: 'Player0', play: scripted(['ROCK', 'PAPER', 'ROCK']) },
      { name: 'Player1', play: scripted(['PAPER', 'PAPER', 'SCISSORS']) },
    ],
  });
  const logs = record.vis.flatMap((e) => ('log' in e ? [e.log.line] : []));
  assert.deepEqual(logs, [
    'Player0 against Player1, 3 rounds',
    'round 1: ROCK against PAPER, Player1 scores',
    'round 2: PAPER against PAPER, a tie',
    'round 3: ROCK against SCISSORS, Player0 scores',
  ]);
  const texts = record.vis.flatMap((e) => ('create' in e ? e.create.geom.flatMap((g) => ('text' in g ? [g.text.v] : [])) : []));
  assert.equal(texts.filter((v) => v.includes(' : ')).at(-1), '1 : 1');
  assert.equal(texts.filter((v) => v === 'ROCK').length, 2);
});
