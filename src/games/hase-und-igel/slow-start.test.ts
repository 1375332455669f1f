import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { transcriptName } from '../../match/match.js';
import { ManualClock } from '../../util/clock.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';
import { renderJoined, renderMemento, renderMoveRequest, renderWelcome } from './messages.js';
import { legalMoves } from './moves.js';
import { playing, scriptedClient } from './protocol-kit.js';
import { JOIN_WAIT_SECONDS } from './room.js';
import { initialState, type GameState, type Move } from './rules.js';
import { TEST_BOARD, TEST_BOARD_CODE } from './test-kit.js';

const ROOM = 'r1';
const NAMES = ['neural', 'simple'] as const;
const game = createHaseUndIgelGame();
const firstLegal = (state: GameState): Move => legalMoves(state)[0]!;

function play(clock: ManualClock, players: [LocalPlayer, LocalPlayer]) {
  return clock.runUntil(
    playLocalMatch({
      game,
      // The default limits: soft 2 s, hard 10 s (the match timeout).
      params: { args: { room: ROOM, board: TEST_BOARD_CODE } },
      players: [
        { name: NAMES[0], play: players[0] },
        { name: NAMES[1], play: players[1] },
      ],
      seed: 'slow-start',
      clock,
    }),
  );
}

/** A client whose program takes `seconds` to start (the neural client: 20 s) before it connects and joins. */
function startingIn(clock: ManualClock, seconds: number, then: LocalPlayer): LocalPlayer {
  return (io, sendBytes) => new Promise<void>((resolve) => clock.setTimer(seconds * 1000, resolve)).then(() => then(io, sendBytes));
}

/** The lines of a seat's transcript as [seconds, direction, text]. */
function transcriptLines(text: string): [number, string, string][] {
  return text
    .split('\n')
    .map((line) => /^(\d+\.\d{3}) ([<>]) ?(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => [Number(match[1]), match[2]!, match[3]!]);
}

test('a client that takes 20 s to send its join keeps its first move: the game starts at its join', async () => {
  const clock = new ManualClock();
  const record = await play(clock, [startingIn(clock, 20, scriptedClient(playing(firstLegal))), scriptedClient(playing(firstLegal))]);
  assert.equal(record.outcome.error, null);
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/, record.outcome.result!.reason);
  const red = transcriptLines(record.outcome.artifacts[transcriptName(0)]!);
  const firstSent = red.find(([, direction]) => direction === '>')!;
  const firstReceived = red.find(([, direction]) => direction === '<')!;
  assert.deepEqual(firstSent, [20, '>', '<protocol>'], 'RED connected 20 s after the match began');
  assert.ok(firstReceived[0] >= 20, `RED received nothing before it joined (first at ${firstReceived[0]} s)`);
  const request = red.find(([, , text]) => text.includes('MoveRequest'))!;
  assert.equal(request[0], 20, 'the first move request (and its clock) began at the join');
});

test('before a player has joined it receives nothing; its join is answered with joined, then the game starts', async () => {
  const clock = new ManualClock();
  // RED joins at once and waits; BLUE (the neural client) joins 20 s later.
  const record = await play(clock, [scriptedClient(playing(firstLegal)), startingIn(clock, 20, scriptedClient(playing(firstLegal)))]);
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
  const start = renderMemento(ROOM, initialState(TEST_BOARD), NAMES);
  const joined = `<protocol>${renderJoined(ROOM)}`;
  assert.ok(record.received[0]!.startsWith(joined + renderWelcome(ROOM, 'RED') + start + renderMoveRequest(ROOM)));
  assert.ok(record.received[1]!.startsWith(joined + renderWelcome(ROOM, 'BLUE') + start));
  const red = transcriptLines(record.outcome.artifacts[transcriptName(0)]!);
  const blue = transcriptLines(record.outcome.artifacts[transcriptName(1)]!);
  // RED's join is answered at once, as the real server does; the game's start waits for BLUE's.
  assert.deepEqual(
    red.filter(([seconds]) => seconds === 0).map(([, direction, text]) => `${direction} ${text}`),
    ['> <protocol>', `>   <join gameType="swc_2018_hase_und_igel"/>`, '< <protocol>'],
  );
  assert.equal(red.find(([, , text]) => text.includes('welcomeMessage'))![0], 20);
  const blueOrder = blue.map(([, direction, text]) => `${direction} ${text.trim()}`);
  const joinAt = blueOrder.indexOf('> <join gameType="swc_2018_hase_und_igel"/>');
  assert.ok(joinAt >= 0 && blueOrder.findIndex((line) => line.startsWith('<')) > joinAt, 'BLUE received nothing before its join');
  assert.ok(blueOrder.indexOf('< <joined roomId="r1"/>') < blueOrder.findIndex((line) => line.includes('welcomeMessage')), 'joined before the welcome');
});

test(`a player that never joins: after ${JOIN_WAIT_SECONDS} s the game starts anyway, and it loses by the time limit`, async () => {
  const clock = new ManualClock();
  const silent: LocalPlayer = async (io) => {
    io.write('<protocol>\n');
    while ((await io.readLine()) !== null);
  };
  const record = await play(clock, [silent, scriptedClient(playing(firstLegal))]);
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
  assert.match(record.outcome.result!.reason, /BLUE \(simple\) wins: RED \(neural\)/);
  const red = transcriptLines(record.outcome.artifacts[transcriptName(0)]!);
  assert.equal(red.find(([, , text]) => text.includes('MoveRequest'))![0], JOIN_WAIT_SECONDS, 'asked for its move when the wait was over');
  assert.equal(red.find(([, , text]) => text.includes('class="result"'))![0], JOIN_WAIT_SECONDS + 10, 'and lost at the hard limit after that');
});

test('the server bot joins like a client, so a game against it starts without waiting', async () => {
  // The system clock: the bot's search is real work, which a manual clock would jump past.
  const record = await playLocalMatch({
    game,
    params: { bots: 1, args: { room: ROOM, board: TEST_BOARD_CODE, softTimeout: '300', hardTimeout: '3600' } },
    players: [{ name: 'alice', play: scriptedClient(playing(firstLegal)) }],
    seed: 'slow-start-bot',
  });
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
  const bot = transcriptLines(record.outcome.artifacts[transcriptName(1)]!).map(([, direction, text]) => `${direction} ${text.trim()}`);
  assert.deepEqual(bot.slice(0, 3), ['> <protocol>', '> <join gameType="swc_2018_hase_und_igel"/>', '< <protocol>']);
  assert.ok(bot.findIndex((line) => line.includes('welcomeMessage')) > 2);
});
