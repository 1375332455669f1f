import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { ManualClock } from '../../util/clock.js';
import { assertReplayFollows, exchangeGame } from './exchange-support.js';
import { REPORT_ARTIFACT } from './match-report.js';
import { drain, listener, livingChildren, markTestProcesses, readUntil } from './test-support.js';

/**
 * The controller against golden exchanges (fixtures/exchanges/*.txt): the game server plays the
 * exchange and checks every line it receives; the replay log is read back against the same file.
 * What the reference controller does is notes/game-server-protocol.md, last section.
 */

afterEach(() => {
  assert.deepEqual(livingChildren(), [], 'a child process outlived its match');
});
after(markTestProcesses());

function assertNoError(record: Awaited<ReturnType<typeof playLocalMatch>>): void {
  assert.equal(record.outcome.error, null, `unexpected match error: ${record.outcome.error}`);
}

test('playererror drops the player at the first error, answers each later one with dropped again, and keeps 10 texts per player', async () => {
  const { game, reports } = exchangeGame('playererror');
  const record = await playLocalMatch({ game, players: [{ name: 'A', play: listener }, { name: 'B', play: listener }] });
  assertNoError(record);
  assert.deepEqual(record.outcome.result, { scores: [0, 1], reason: 'both made mistakes' });
  const report = reports[0]!;
  assertReplayFollows(report.replay, 'playererror');
  assert.deepEqual(report.playerErrors, [
    { player: 1, text: 'first mistake' },
    { player: 1, text: 'second mistake' },
    ...Array.from({ length: 10 }, () => ({ player: 2, text: 'again' })),
  ]);
  assert.deepEqual(report.playerErrorCounts, [2, 11]);
  assert.deepEqual(report.dropped, [1, 2]);
  assert.deepEqual(record.outcome.seats.map((seat) => seat.closeReason), ['removed', 'removed']);
  assert.equal(record.received[0], '', 'nothing is sent to a dropped player');
  // The record keeps the errors (the web page shows them from this artifact).
  const kept = JSON.parse(record.outcome.artifacts[REPORT_ARTIFACT]!) as Record<string, unknown>;
  assert.deepEqual(kept['player_error_counts'], [2, 11]);
  assert.equal((kept['player_errors'] as unknown[]).length, 12);
  assert.deepEqual(kept['dropped'], [1, 2]);
});

test('a malformed or out-of-sequence vis event is refused and recorded, and the match goes on', async () => {
  const { game, reports } = exchangeGame('vis-refused');
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: listener }] });
  assertNoError(record);
  assert.deepEqual(record.outcome.result, { scores: [1], reason: 'drawn anyway' });
  assertReplayFollows(reports[0]!.replay, 'vis-refused');
  assert.deepEqual(record.vis, [
    { t: 0.5, log: { line: 'kept' } },
    { t: 1, create: { id: 5, geom: [{ circle: { r: 0.1 } }] } },
  ]);
  const report = reports[0]!;
  assert.equal(report.visRefusedCount, 4);
  assert.deepEqual(
    report.visRefusals.map((refusal) => refusal.why.split(':')[0]),
    ['vis/bad-color', 'vis/t-decreasing', 'vis/bad-syntax', 'vis/id-reused'],
  );
  assert.equal(report.visRefusals[0]!.line, '{t:1,create:{id:5,geom:[{circle:{f:"red"}}]}}');
  assert.match(report.visRefusals[0]!.why, /"red" is not a colou?r of exactly 8 hex digits/);
  const kept = JSON.parse(record.outcome.artifacts[REPORT_ARTIFACT]!) as Record<string, unknown>;
  assert.equal(kept['vis_refused_count'], 4);
});

test('over takes inf and NaN scores: stored as the extreme finite values, kept as printed', async () => {
  const { game, reports } = exchangeGame('over-inf-nan');
  const record = await playLocalMatch({ game, params: { players: 3 }, players: ['A', 'B', 'C'].map((name) => ({ name, play: listener })) });
  assertNoError(record);
  assertReplayFollows(reports[0]!.replay, 'over-inf-nan');
  assert.deepEqual(record.outcome.result, { scores: [Number.MAX_VALUE, -Number.MAX_VALUE, -15], reason: '' });
  assert.deepEqual(reports[0]!.printedScores, ['inf', 'NaN', '-1.5e1']);
  const kept = JSON.parse(record.outcome.artifacts[REPORT_ARTIFACT]!) as Record<string, unknown>;
  assert.deepEqual(kept['printed_scores'], ['inf', 'NaN', '-1.5e1']);
});

test('over with scores and no reason ends the match with an empty reason', async () => {
  const { game, reports } = exchangeGame('over-no-reason');
  const record = await playLocalMatch({ game, players: [{ name: 'A', play: listener }, { name: 'B', play: listener }] });
  assertNoError(record);
  assertReplayFollows(reports[0]!.replay, 'over-no-reason');
  assert.deepEqual(record.outcome.result, { scores: [1, 2], reason: '' });
});

test('start-up: a player not saying ready is dropped before start, a silent one at 3 s, and early lines follow start', async () => {
  const { game, reports } = exchangeGame('start-up', { ready_deadline: 3 });
  const clock = new ManualClock();
  const early: LocalPlayer = async (io) => {
    io.write('ready\nearly\n');
    await drain(io);
  };
  const hello: LocalPlayer = async (io) => {
    io.write('hello\n');
    await drain(io);
  };
  const playing = playLocalMatch({
    game,
    players: [
      { name: 'Hello', play: hello },
      { name: 'Early', play: early },
      { name: 'Mute', play: drain },
    ],
    clock,
  });
  // Only Mute's first read waits (the others' lines are there): its deadline is 3 s, the default.
  await clock.timerSet(3_000);
  await clock.advance(2_999);
  await clock.advance(1);
  const record = await playing;
  assertNoError(record);
  assert.deepEqual(record.outcome.result, { scores: [0, 1, 0], reason: 'started' });
  assertReplayFollows(reports[0]!.replay, 'start-up');
  assert.deepEqual(record.outcome.seats.map((seat) => seat.closeReason), ['removed', null, 'timeout']);
});

test('a bot program that does not read its input is dropped instead of buffered for', async () => {
  const { game, reports } = exchangeGame('deaf-bot', { bots: [['python3', 'deaf_bot.py']], max_bots: 1 });
  const record = await playLocalMatch({ game, params: { bots: 1 }, players: [{ name: 'A', play: listener }] });
  assertNoError(record);
  assert.deepEqual(record.outcome.result, { scores: [1, 0], reason: 'the deaf bot was dropped' });
  assertReplayFollows(reports[0]!.replay, 'deaf-bot');
  assert.deepEqual(reports[0]!.dropped, [2]);
  assert.equal(record.outcome.seats[1]!.closeReason, 'disconnected');
});

test('a game server may wait ten minutes without a timer: no stall deadline fails the match', async () => {
  const { game, reports } = exchangeGame('long-wait');
  const clock = new ManualClock();
  const patient: LocalPlayer = async (io) => {
    io.write('ready\n');
    await readUntil(io, 'waiting');
    await clock.advance(10 * 60 * 1000);
    io.write('go\n');
    await drain(io);
  };
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: patient }], clock });
  assertNoError(record);
  assert.deepEqual(record.outcome.result, { scores: [1], reason: 'waited' });
  assertReplayFollows(reports[0]!.replay, 'long-wait');
});

test("a game server that waits for ever is ended by the match's time limit (max_match_seconds, 3600 s)", async () => {
  const { game, reports } = exchangeGame('wait-forever');
  const clock = new ManualClock();
  let endedEarly: boolean | null = null;
  const patient: LocalPlayer = async (io) => {
    io.write('ready\n');
    await readUntil(io, 'waiting');
    await clock.advance(3_600_000 - 1);
    endedEarly = reports.length > 0;
    await clock.advance(1);
    await drain(io);
  };
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: patient }], clock });
  assert.equal(endedEarly, false, 'the match still ran just before its limit');
  assert.match(record.outcome.error!, /^game server failed: the match lasted longer than its limit of 3600 s/);
  assertReplayFollows(reports[0]!.replay, 'wait-forever');
});

test('a player line of 1024 bytes passes, a trailing CR counts, and 1025 bytes drop the player', async () => {
  const { game, reports } = exchangeGame('player-line-limit');
  const player: LocalPlayer = async (io) => {
    io.write('ready\n');
    await readUntil(io, 'go');
    io.write(`${'x'.repeat(1024)}\n${'x'.repeat(1023)}\r\n${'x'.repeat(1024)}\r\n`);
    await drain(io);
  };
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: player }] });
  assertNoError(record);
  assertReplayFollows(reports[0]!.replay, 'player-line-limit');
  assert.equal(record.outcome.seats[0]!.closeReason, 'line/too-long');
});

test('a game server line of 1024 bytes passes, a trailing CR counts, and 1025 bytes fail the match', async () => {
  const { game, reports } = exchangeGame('server-line-limit');
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: listener }] });
  assert.match(record.outcome.error!, /^game server failed: the game server printed a line over 1024 bytes/);
  assertReplayFollows(reports[0]!.replay, 'server-line-limit', 2);
  assert.equal(record.received[0], `${'x'.repeat(1016)}\n${'x'.repeat(1015)}\n`);
});
