import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { ManualClock } from '../../util/clock.js';
import { roshambo } from '../roshambo/roshambo.js';
import type { ExternalMatchReport } from './match-report.js';
import { withBotPrograms } from './external-game.js';
import { loadExternalGames } from './registry-loader.js';
import { importReplayLog } from './replay-log.js';
import { EXAMPLES, FIXTURES, drain, livingChildren } from './test-support.js';

afterEach(() => {
  assert.deepEqual(livingChildren(), [], 'a child process outlived its match');
});

const reports: ExternalMatchReport[] = [];
const loaded = await loadExternalGames(EXAMPLES, { onMatchEnd: (report) => reports.push(report) });
if (!loaded.ok) throw new Error(loaded.error);
const [connect4, lowestUnique] = loaded.value as [(typeof loaded.value)[0], (typeof loaded.value)[0]];

function lastReport(): ExternalMatchReport {
  return reports[reports.length - 1]!;
}

/**
 * A clock that stands still unless a test moves it. These matches are played by programs that
 * answer at once, so no deadline is meant to pass; on the system clock, a Python interpreter
 * starting on a loaded machine could miss the examples' 3 s ready deadline.
 */
const still = (): ManualClock => new ManualClock();

test('connect4 is played to the end by its two server bots and its replay log imports to the same drawing', async () => {
  const record = await playLocalMatch({ game: connect4, params: { bots: 2 }, players: [], clock: still() });
  assert.equal(record.outcome.error, null);
  const { scores, reason } = record.outcome.result!;
  assert.equal(scores[0]! + scores[1]!, 1);
  assert.match(reason, /connected four|draw/);
  assert.match(record.spectatorStream, /^board 7 6\n(move [12] \d\n)+end [012]\n$/);
  assert.ok(record.vis.length > 10);
  assert.deepEqual(record.vis.filter((event) => 'transform' in event).length, record.spectatorStream.split('move').length - 1);
  assert.deepEqual(importReplayLog(lastReport().replay), { ok: true, value: record.vis });
});

/** A connect-four player that always drops into column `col`. */
function stubborn(col: number): LocalPlayer {
  return async (io) => {
    io.write('ready\n');
    let me = 0;
    for (;;) {
      const line = await io.readLine();
      if (line === null || line.startsWith('end')) return drain(io);
      const words = line.split(' ');
      if (words[0] === 'you') me = Number(words[1]);
      if ((words[0] === 'board' && me === 1) || (words[0] === 'move' && Number(words[1]) !== me)) io.write(`${col}\n`);
    }
  };
}

test('the connect4 bot beats a player who always plays the same column', async () => {
  const record = await playLocalMatch({ game: connect4, params: { bots: 1 }, players: [{ name: 'Stubborn', play: stubborn(0) }], clock: still() });
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'Player 2 connected four' });
  assert.match(record.received[0]!, /^you 1\nboard 7 6\nmove 1 0\n/);
});

test('a connect4 move into a full column loses the match', async () => {
  const record = await playLocalMatch({
    game: connect4,
    params: { args: { cols: '4', rows: '4' } },
    players: [
      { name: 'A', play: stubborn(0) },
      { name: 'B', play: stubborn(0) },
    ],
  });
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'Player 1 made an illegal move: 0' });
});

test('lowest-unique is played to the end by four server bots and its replay log imports to the same drawing', async () => {
  const record = await playLocalMatch({ game: lowestUnique, params: { bots: 4, args: { rounds: '6' } }, players: [], clock: still() });
  assert.equal(record.outcome.error, null);
  const { scores } = record.outcome.result!;
  assert.equal(scores.length, 4);
  assert.ok(scores.reduce((a, b) => a + b, 0) <= 6);
  assert.match(record.spectatorStream, /^game 4 6 10\nround 1\nresult 1 \d+ \d+ \d+ \d+ [0-4]\n/);
  assert.match(record.spectatorStream, /\nend( \d){4}\n$/);
  assert.equal(record.spectatorStream.match(/^result /gm)!.length, 6);
  assert.deepEqual(importReplayLog(lastReport().replay), { ok: true, value: record.vis });
  assert.deepEqual(lastReport().playerErrors, []);
});

test('lowest-unique closes a round on its timer when a player does not bid, and the controller drops it for the error', async () => {
  // The round timer runs on the match's clock, which the test moves by hand: the bidders are
  // in-process players that bid as soon as a round opens, and time moves past the round's timer
  // only once it is armed, so no bid can come late however busy the machine is.
  const clock = new ManualClock();
  const bidder = (bid: number): LocalPlayer => async (io) => {
    io.write('ready\n');
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) {
      if (line.startsWith('round ')) io.write(`${bid}\n`);
    }
  };
  const silent: LocalPlayer = async (io) => {
    io.write('ready\n');
    let rounds = 0;
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) {
      if (!line.startsWith('round ')) continue;
      // The game server prints the round, then its timer (the timeout, 7 s): wait for this round's one.
      await clock.timerSet(7_000, ++rounds);
      await clock.advance(7_000);
    }
  };
  const record = await playLocalMatch({
    game: lowestUnique,
    params: { players: 3, timeout: 7, args: { rounds: '2' } },
    players: [
      { name: 'Silent', play: silent },
      { name: 'One', play: bidder(1) },
      { name: 'Two', play: bidder(2) },
    ],
    clock,
  });
  assert.equal(record.outcome.error, null);
  assert.equal(record.outcome.result!.scores[0], 0);
  assert.match(record.spectatorStream, /^game 3 2 10\nround 1\nresult 1 0 1 2 2\nround 2\nresult 2 0 1 2 2\n/);
  // The silent player is dropped at its first error, as the reference controller does.
  assert.deepEqual(lastReport().playerErrors, [{ player: 1, text: 'no bid in round 1' }]);
  assert.deepEqual(lastReport().dropped, [1]);
});

test('withBotPrograms makes a local program the server bot of a built-in game', async () => {
  const game = withBotPrograms(roshambo, [{ argv: ['python3', 'rock_bot.py'], cwd: FIXTURES }]);
  const paper: LocalPlayer = async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    for (let round = 0; round < 5; round++) {
      io.write('PAPER\n');
      if ((await io.readLine()) === null) return;
    }
  };
  const record = await playLocalMatch({
    game,
    params: { bots: 1, args: { rounds: '5', pace: '0' } },
    players: [{ name: 'Paper', play: paper }],
  });
  assert.deepEqual(record.outcome.result!.scores, [5, 0]);
  assert.equal(record.received[0], `Paper\n${record.outcome.seats[1]!.name}\n5\n${'ROCK\n'.repeat(5)}`);
});
