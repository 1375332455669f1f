import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { CLIENT_CLOSING, SochaClientState, renderClientMove } from './bot.js';
import { createHaseUndIgelGame } from './hase-und-igel.js';
import { renderJoined, renderLeft, renderMemento, renderMoveRequest, renderWelcome } from './messages.js';
import { legalMoves } from './moves.js';
import { RoomDirectory, RoomGate } from './room-control.js';
import { initialState, performMove } from './rules.js';
import { TEST_BOARD, TEST_BOARD_CODE } from './test-kit.js';
import { STREAM_CLOSING } from './xml/xml-writer.js';

test('an open gate lets every request through; a paused one only single steps', async () => {
  const gate = new RoomGate(false);
  assert.equal(await gate.pass(), 'go');
  gate.pause(true);
  gate.step();
  assert.equal(await gate.pass(), 'go', 'a step granted before the wait');
  let decided: string | null = null;
  void gate.pass().then((d) => (decided = d));
  await Promise.resolve();
  assert.equal(decided, null);
  gate.step();
  await Promise.resolve();
  assert.equal(decided, 'go');
});

test('resuming releases a waiting request and cancelling ends every wait', async () => {
  const gate = new RoomGate(true);
  const waiting = gate.pass();
  gate.pause(false);
  assert.equal(await waiting, 'go');
  gate.pause(true);
  const cancelled = gate.pass();
  gate.cancel();
  assert.equal(await cancelled, 'cancel');
  assert.equal(await gate.pass(), 'cancel');
});

test('a step while not paused is not saved for later', async () => {
  const gate = new RoomGate(false);
  gate.step();
  gate.pause(true);
  let decided: string | null = null;
  void gate.pass().then((d) => (decided = d));
  await Promise.resolve();
  assert.equal(decided, null);
});

test('the directory opens prepared rooms paused and forgets closed rooms', () => {
  const directory = new RoomDirectory();
  directory.preparePaused('R');
  const r = directory.open('R', false);
  assert.equal(r.isPaused, true);
  assert.equal(directory.open('S', false).isPaused, false);
  directory.close('R', r);
  assert.equal(directory.get('R'), undefined);
  assert.equal(directory.size, 1);
});

test('a second match with an open room id cannot take over or release that room', () => {
  const directory = new RoomDirectory();
  const first = directory.open('R', false);
  const intruder = directory.open('R', false);
  assert.notEqual(intruder, first);
  assert.equal(directory.get('R'), first);
  directory.close('R', intruder);
  assert.equal(directory.get('R'), first);
});

const NAMES = ['alice', 'bob'] as const;

/** A client that answers requests with its first legal move and calls `onLine` for every line it reads. */
function client(onLine: (line: string) => void): LocalPlayer {
  return async (io) => {
    const state = new SochaClientState();
    io.write('<protocol>\n  <joinPrepared reservationCode="code"/>\n');
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      onLine(line);
      const asked = state.push(`${line}\n`);
      if (asked > 0) io.write(renderClientMove(state.roomId!, legalMoves(state.state!)[0]!));
      if (state.finished) {
        io.write(CLIENT_CLOSING);
        return;
      }
    }
  };
}

/** Lets the match run until it waits for something outside it (a step, a timer). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('a paused room sends nothing before its first step, then one move per step, and a cancel ends it', async () => {
  const rooms = new RoomDirectory();
  const game = createHaseUndIgelGame({ rooms });
  let gate: RoomGate | undefined;
  const seen: string[] = [];
  const record = playLocalMatch({
    game,
    params: { args: { room: 'r1', board: TEST_BOARD_CODE, paused: 'true' } },
    players: [
      // BLUE cancels the room when RED's move shows.
      { name: NAMES[0], play: client((line) => seen.push(line)) },
      { name: NAMES[1], play: client((line) => (seen.push(line), line.includes('turn="1"') && gate!.cancel())) },
    ],
  });
  gate = rooms.get('r1');
  assert.ok(gate?.isPaused);
  await settle();
  assert.deepEqual(seen, [], 'no joined, welcome or memento before the first step, as the real server');
  gate.step();
  const { received, outcome } = await record;
  const first = initialState(TEST_BOARD);
  const moved = performMove(first, legalMoves(first)[0]!);
  assert.ok(moved.ok);
  const open = (color: 'RED' | 'BLUE') => `<protocol>${renderJoined('r1')}${renderWelcome('r1', color)}${renderMemento('r1', first, NAMES)}`;
  const rest = renderMemento('r1', moved.value, NAMES) + renderLeft('r1') + STREAM_CLOSING;
  assert.equal(received[0], open('RED') + renderMoveRequest('r1') + rest);
  assert.equal(received[1], open('BLUE') + rest);
  assert.deepEqual(outcome.result, { scores: [0, 0], reason: 'the game was cancelled by an administrator' });
  assert.equal(rooms.get('r1'), undefined, 'the room left the directory');
});

test('a paused room resumed by an administrator plays to its end', async () => {
  const rooms = new RoomDirectory();
  const game = createHaseUndIgelGame({ rooms });
  const record = playLocalMatch({
    game,
    params: { args: { room: 'r2', board: TEST_BOARD_CODE, paused: 'true' } },
    players: [
      { name: NAMES[0], play: client(() => {}) },
      { name: NAMES[1], play: client(() => {}) },
    ],
  });
  rooms.get('r2')!.pause(false);
  const { outcome } = await record;
  assert.match(outcome.result!.reason, /reached the goal|round limit/);
});

test('cancelling a room that waits for a move ends it at once', async () => {
  const rooms = new RoomDirectory();
  const game = createHaseUndIgelGame({ rooms });
  const silent: LocalPlayer = async (io) => {
    io.write('<protocol>\n  <joinPrepared reservationCode="code"/>\n');
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (line.includes('MoveRequest')) rooms.get('r3')!.cancel();
    }
  };
  const { outcome, received } = await playLocalMatch({
    game,
    params: { args: { room: 'r3', board: TEST_BOARD_CODE } },
    players: [
      { name: NAMES[0], play: silent },
      { name: NAMES[1], play: client(() => {}) },
    ],
  });
  assert.equal(outcome.result?.reason, 'the game was cancelled by an administrator');
  assert.ok(received[0]!.endsWith(renderMoveRequest('r3') + renderLeft('r3') + STREAM_CLOSING));
});

test('cancelling a paused room before its first step sends the opening, then left', async () => {
  const rooms = new RoomDirectory();
  const game = createHaseUndIgelGame({ rooms });
  const record = playLocalMatch({
    game,
    params: { args: { room: 'r4', board: TEST_BOARD_CODE, paused: 'true' } },
    players: [
      { name: NAMES[0], play: client(() => {}) },
      { name: NAMES[1], play: client(() => {}) },
    ],
  });
  rooms.get('r4')!.cancel();
  const { received } = await record;
  const first = initialState(TEST_BOARD);
  assert.equal(received[0], `<protocol>${renderJoined('r4')}${renderWelcome('r4', 'RED')}${renderMemento('r4', first, NAMES)}${renderLeft('r4')}${STREAM_CLOSING}`);
});
