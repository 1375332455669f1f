import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GameDefinition } from '../../match/game.js';
import { playLocalMatch, type LocalMatchRecord, type LocalPlayer } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { transcriptName } from '../../match/match.js';
import { CLOCK_RECORD } from '../../match/seat-clocks.js';
import type { LiveSeat, LiveSeats } from '../../protocol/coco/messages.js';
import { ManualClock } from '../../util/clock.js';
import { followGame } from './bot.js';
import { parseCoins, rollValue, scriptedDice, type Coins } from './dice.js';
import { createRoyalUr, royalur } from './royalur.js';
import { applyMove, distinctMoves, initialState, legalMoves, parseToken, passTurn } from './rules.js';

/** The example of the spec, as each side sees it; `>` marks a line the player sends. */
const EXAMPLE = {
  playerA: `PlayerA
PlayerB
0
0 0 1 1
>3
1 1 1 1
0
1 0 1 0
0
0 1 0 0
>3
0 0 0 0
1 0 1 1
>3
0 0 1 1
0
0 0 0 1
>4
1 0 1 0
RETIRE
`,
  playerB: `PlayerA
PlayerB
1
0 0 1 1
3
1 1 1 1
>0
1 0 1 0
>0
0 1 0 0
3
0 0 0 0
1 0 1 1
3
0 0 1 1
>0
0 0 0 1
4
1 0 1 0
>2
`,
  spectators: `PlayerA
PlayerB
0 0 1 1
3
1 1 1 1
0
1 0 1 0
0
0 1 0 0
3
0 0 0 0
1 0 1 1
3
0 0 1 1
0
0 0 0 1
4
1 0 1 0
RETIRE
`,
};

const lines = (text: string) => text.split('\n').slice(0, -1);
const receivedPart = (text: string) => lines(text).filter((l) => !l.startsWith('>')).map((l) => `${l}\n`).join('');
const sentPart = (text: string) => lines(text).filter((l) => l.startsWith('>')).map((l) => `${l.slice(1)}\n`).join('');
const exampleRolls = (): Coins[] => lines(EXAMPLE.spectators).map(parseCoins).filter((c): c is Coins => c !== null);

/** Plays a stream as written in the spec: reads the received lines, sends the `>` lines, then reads to the end. */
function replaying(stream: string): LocalPlayer {
  return async (io) => {
    for (const line of lines(stream)) {
      if (line.startsWith('>')) io.write(`${line.slice(1)}\n`);
      else if ((await io.readLine()) === null) return;
    }
    while ((await io.readLine()) !== null);
  };
}

/** A player that follows the game and moves a uniformly random token among the distinct legal moves. */
function randomMover(seed: string): LocalPlayer {
  const random = Random.fromSeed(seed);
  return (io) => followGame(io, (state, roll) => random.pick(distinctMoves(state, roll)));
}

/** A player that follows the game and, on its `turn`-th move, sends `line` instead and stops. */
function misbehaving(turn: number, line: string | null): LocalPlayer {
  return async (io) => {
    let moves = 0;
    await followGame(io, (state, roll) => {
      if (++moves < turn) return legalMoves(state, roll)[0]!;
      if (line !== null) io.write(`${line}\n`);
      return null;
    });
    if (line === null) return; // disconnects
    while ((await io.readLine()) !== null);
  };
}

const scriptedGame = (rolls: Coins[]) => createRoyalUr({ dice: () => scriptedDice(rolls), order: 'seats' });

test('the spec example streams are reproduced byte for byte', async () => {
  const record = await playLocalMatch({
    game: scriptedGame(exampleRolls()),
    params: { args: { pace: '0' } },
    players: [
      { name: 'PlayerA', play: replaying(EXAMPLE.playerA) },
      { name: 'PlayerB', play: replaying(EXAMPLE.playerB) },
    ],
  });
  assert.equal(record.received[0], receivedPart(EXAMPLE.playerA));
  assert.equal(record.received[1], receivedPart(EXAMPLE.playerB));
  assert.equal(record.sent[0], sentPart(EXAMPLE.playerA));
  assert.equal(record.sent[1], sentPart(EXAMPLE.playerB));
  assert.equal(record.spectatorStream, EXAMPLE.spectators);
  assert.deepEqual(record.outcome.result?.scores, [1, 0]);
  assert.match(record.outcome.result!.reason, /^PlayerA wins: PlayerB sent an invalid move "2" \(it would land on its own token\)$/);
});

test('the spec example is legal under the rules up to PlayerB\'s last move, which lands on its own token', () => {
  // Who moves which token, read off the example: A 3, B 0, B 0 (rosette), A 3, B passes, A 3 captures, B 0, A 4, B 2.
  const stream = lines(EXAMPLE.spectators).slice(2);
  let state = initialState();
  const movers: string[] = [];
  for (let i = 0; i < stream.length; i++) {
    const roll = rollValue(parseCoins(stream[i]!)!);
    if (legalMoves(state, roll).length === 0) {
      movers.push(`${'AB'[state.toMove]} passes`);
      state = passTurn(state);
      continue;
    }
    const answer = stream[++i]!;
    if (answer === 'RETIRE') {
      const invalid = applyMove(state, Number(sentPart(EXAMPLE.playerB).trim().split('\n').at(-1)), roll);
      assert.deepEqual(invalid, { ok: false, error: 'move/own-token' });
      movers.push(`${'AB'[state.toMove]} invalid`);
      break;
    }
    const outcome = applyMove(state, (parseToken(answer) as { value: number }).value, roll);
    assert.ok(outcome.ok, `move ${answer} with ${roll} is legal`);
    movers.push(`${'AB'[state.toMove]} ${answer}${outcome.value.captured !== null ? ' captures' : ''}${outcome.value.extraTurn ? ' again' : ''}`);
    state = outcome.value.state;
  }
  assert.deepEqual(movers, ['A 3', 'B 0 again', 'B 0', 'A 3', 'B passes', 'A 3 captures', 'B 0', 'A 4', 'B invalid']);
  assert.deepEqual(state.positions, [[0, 0, 0, 6, 1, 0, 0], [2, 0, 0, 0, 0, 0, 0]]);
});

test('a mover who disconnects retires: the opponent and the spectators receive RETIRE', async () => {
  const record = await playLocalMatch({
    game: scriptedGame([[0, 1, 1, 0], [1, 0, 0, 0]]),
    params: { args: { pace: '0' } },
    players: [
      { name: 'A', play: misbehaving(1, null) },
      { name: 'B', play: misbehaving(9, 'unused') },
    ],
  });
  assert.equal(record.received[1], 'A\nB\n1\n0 1 1 0\nRETIRE\n');
  assert.equal(record.spectatorStream, 'A\nB\n0 1 1 0\nRETIRE\n');
  assert.deepEqual(record.outcome.result?.scores, [0, 1]);
  assert.equal(record.outcome.result?.reason, 'B wins: A disconnected');
  assert.equal(record.outcome.seats[0]!.closeReason, 'disconnected');
});

test('a mover who does not answer within the timeout retires', async () => {
  // Time moves only when the match waits (ManualClock), so a busy machine cannot retire anyone early.
  const clock = new ManualClock();
  const record = await clock.runUntil(
    playLocalMatch({
      game: scriptedGame([[0, 1, 1, 0], [1, 0, 0, 0]]),
      params: { args: { pace: '0' }, timeout: 90 },
      players: [
        { name: 'A', play: randomMover('a') },
        { name: 'Silent', play: async (io) => { while ((await io.readLine()) !== null); } },
      ],
      clock,
    }),
  );
  assert.match(record.outcome.artifacts[transcriptName(1)]!, /\n90\.000 # the seat was closed: timeout\n/, 'retired at 90 s, not before');
  assert.equal(record.received[0], 'A\nSilent\n0\n0 1 1 0\n1 0 0 0\nRETIRE\n');
  assert.equal(record.spectatorStream, 'A\nSilent\n0 1 1 0\n0\n1 0 0 0\nRETIRE\n');
  assert.deepEqual(record.outcome.result?.scores, [1, 0]);
  assert.equal(record.outcome.result?.reason, 'A wins: Silent did not move in time');
  assert.equal(record.outcome.seats[1]!.closeReason, 'timeout');
});

/** A match where A thinks 2.5 s over its one move and Silent never answers: its record and its clock as a replay reads it. */
async function thinkerAndSilent(game: GameDefinition<any>): Promise<LocalMatchRecord> {
  const clock = new ManualClock();
  const thinker: LocalPlayer = async (io) => {
    for (let i = 0; i < 4; i++) await io.readLine();
    await new Promise<void>((resolve) => clock.setTimer(2500, resolve));
    io.write('0\n');
    while ((await io.readLine()) !== null);
  };
  return clock.runUntil(
    playLocalMatch({
      game,
      params: { args: { pace: '0' }, timeout: 90, bots: 0 },
      players: [
        { name: 'A', play: thinker },
        { name: 'Silent', play: async (io) => { while ((await io.readLine()) !== null); } },
      ],
      clock,
    }),
  );
}

test('the record keeps each seat\'s turns (clock.json): asked, answered, the timeout; an unanswered turn has no answer', async () => {
  // Drawn as it plays (as a game that is not derived), each turn is placed among the pictures at once.
  const record = await thinkerAndSilent({ ...scriptedGame([[0, 1, 1, 0], [1, 0, 0, 0]]), visFromInput: false });
  const kept = JSON.parse(record.outcome.artifacts[CLOCK_RECORD.artifact]!) as { seats: { turns: (number | null)[][] }[] };
  const times = kept.seats.map((seat) => ({ ...seat, turns: seat.turns.map((turn) => turn.slice(0, 3)) }));
  assert.deepEqual({ ...kept, seats: times }, {
    version: 1,
    ended: 92.5,
    seats: [
      { turns: [[0, 2.5, 90]], dropped: 0 },
      { turns: [[2.5, null, 90]], dropped: 0 },
    ],
  });
  // Where each turn falls among the pictures: A was asked after the first roll was drawn, and its
  // move was drawn after its answer; Silent was asked after that.
  const [a, silent] = kept.seats.map((seat) => seat.turns[0]!);
  const drawnAt = (count: number): number => record.vis[count - 1]!.t;
  assert.ok(a![3]! > 0 && a![4]! === a![3], 'nothing is drawn while A thinks');
  assert.ok(silent![3]! > a![4]!, "A's move is drawn before Silent is asked");
  assert.equal(silent![4], null);
  assert.ok(drawnAt(silent![3]!) >= drawnAt(a![4]!));
  assert.equal(record.clock, record.outcome.artifacts[CLOCK_RECORD.artifact], 'a reader gets it as kept');
});

test('a match of Royal Ur as it is played (its pictures derived from its input) keeps its turns unplaced, and a replay of its record places them where drawing as it played did', async () => {
  const derived = await thinkerAndSilent(scriptedGame([[0, 1, 1, 0], [1, 0, 0, 0]]));
  assert.equal(derived.outcome.artifacts[CLOCK_RECORD.artifact], '{"version":1,"ended":92.5,"seats":[{"turns":[[0,2.5,90]],"dropped":0},{"turns":[[2.5,null,90]],"dropped":0}]}');
  const drawing = await thinkerAndSilent({ ...scriptedGame([[0, 1, 1, 0], [1, 0, 0, 0]]), visFromInput: false });
  assert.equal(derived.visJson, drawing.visJson);
  assert.equal(derived.clock, drawing.outcome.artifacts[CLOCK_RECORD.artifact]);
});

test('a live viewer is told the seats as they change: a turn asked, answered, a seat timed out (VisSeats)', async () => {
  const clock = new ManualClock();
  const told: LiveSeats[] = [];
  const thinker: LocalPlayer = async (io) => {
    for (let i = 0; i < 4; i++) await io.readLine();
    await new Promise<void>((resolve) => clock.setTimer(2500, resolve));
    io.write('0\n');
    while ((await io.readLine()) !== null);
  };
  await clock.runUntil(
    playLocalMatch({
      game: scriptedGame([[0, 1, 1, 0], [1, 0, 0, 0]]),
      params: { args: { pace: '0' }, timeout: 90 },
      players: [
        { name: 'A', play: thinker },
        { name: 'Silent', play: async (io) => { while ((await io.readLine()) !== null); } },
      ],
      clock,
      made: (match) => void match.vis.subscribe({ history: () => {}, event: () => {}, end: () => {}, seats: (seats) => told.push(seats) }),
    }),
  );
  const seat = (name: string, turn: LiveSeat['turn'], closed: string | null = null): LiveSeat => ({ name, turn, closed });
  assert.deepEqual(told.slice(0, 6), [
    { now: 0, seats: [seat('A', null), seat('Silent', null)] },
    { now: 0, seats: [seat('A', [0, null, 90]), seat('Silent', null)] },
    { now: 2.5, seats: [seat('A', [0, 2.5, 90]), seat('Silent', null)] },
    { now: 2.5, seats: [seat('A', [0, 2.5, 90]), seat('Silent', [2.5, null, 90])] },
    { now: 92.5, seats: [seat('A', [0, 2.5, 90]), seat('Silent', [2.5, null, 90], 'timeout')] },
    { now: 92.5, seats: [seat('A', [0, 2.5, 90], 'match-over'), seat('Silent', [2.5, null, 90], 'timeout')] },
  ]);
});

test('a bad token number, an illegal token or garbage retires the mover', async () => {
  const cases = [
    { line: '7', why: 'no such token', turn: 1 },
    { line: 'zero', why: 'not a token number', turn: 1 },
    { line: '', why: 'not a token number', turn: 1 },
    // Four 4s: token 0 goes to 4 (rosette), 8 (rosette), 12; B enters a token with a 1; 12 + 4 is past the end.
    { line: '0', why: 'the roll would take that token past the end', turn: 4 },
  ];
  const allFours: Coins[] = [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 0, 0], [1, 1, 1, 1]];
  for (const { line, why, turn } of cases) {
    const record = await playLocalMatch({
      game: scriptedGame(turn === 1 ? [[1, 1, 0, 0]] : allFours),
      params: { args: { pace: '0' } },
      players: [
        { name: 'A', play: misbehaving(turn, line) },
        { name: 'B', play: misbehaving(99, 'unused') },
      ],
    });
    assert.match(record.received[1]!, /\n[01] [01] [01] [01]\nRETIRE\n$/, line);
    assert.match(record.spectatorStream, /\n[01] [01] [01] [01]\nRETIRE\n$/, line);
    assert.equal(record.outcome.result?.reason, `B wins: A sent an invalid move ${JSON.stringify(line)} (${why})`);
    assert.deepEqual(record.outcome.result?.scores, [0, 1]);
    assert.equal(record.outcome.seats[0]!.closeReason, 'removed');
  }
});

test('a player with no valid move is skipped: the other player\'s roll follows at once', async () => {
  // A enters token 0 with a 2; B rolls 0 and passes; A moves it on with a 1; B enters token 3; A sends garbage.
  const record = await playLocalMatch({
    game: scriptedGame([[1, 1, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]]),
    params: { args: { pace: '0' } },
    players: [
      { name: 'A', play: replaying('A\nB\n0\n1 1 0 0\n>0\n0 0 0 0\n0 1 0 0\n>0\n0 0 1 0\n3\n1 0 0 0\n>x\n') },
      { name: 'B', play: replaying('A\nB\n1\n1 1 0 0\n0\n0 0 0 0\n0 1 0 0\n0\n0 0 1 0\n>3\n1 0 0 0\nRETIRE\n') },
    ],
  });
  assert.equal(record.spectatorStream, 'A\nB\n1 1 0 0\n0\n0 0 0 0\n0 1 0 0\n0\n0 0 1 0\n3\n1 0 0 0\nRETIRE\n');
  assert.equal(record.received[0], 'A\nB\n0\n1 1 0 0\n0 0 0 0\n0 1 0 0\n0 0 1 0\n3\n1 0 0 0\n');
  assert.equal(record.received[1], 'A\nB\n1\n1 1 0 0\n0\n0 0 0 0\n0 1 0 0\n0\n0 0 1 0\n1 0 0 0\nRETIRE\n');
  assert.deepEqual(record.outcome.result?.scores, [0, 1]);
});

test('both half-turns are paced: the move a pace after its roll, the next roll a pace after the move', async () => {
  // The game above at pace 1: a turn with a move takes 2 s, a pass 1 s, and garbage retires at once.
  const clock = new ManualClock();
  const record = await clock.runUntil(
    playLocalMatch({
      game: scriptedGame([[1, 1, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]]),
      params: { args: { pace: '1' } },
      players: [
        { name: 'A', play: replaying('A\nB\n0\n1 1 0 0\n>0\n0 0 0 0\n0 1 0 0\n>0\n0 0 1 0\n3\n1 0 0 0\n>x\n') },
        { name: 'B', play: replaying('A\nB\n1\n1 1 0 0\n0\n0 0 0 0\n0 1 0 0\n0\n0 0 1 0\n>3\n1 0 0 0\nRETIRE\n') },
      ],
      clock,
    }),
  );
  const timeline = record.outcome.artifacts[transcriptName(1)]!.split('\n').filter((line) => /^\d/.test(line));
  assert.deepEqual(timeline, [
    '0.000 < A', '0.000 < B', '0.000 < 1', '0.000 < 1 1 0 0',
    '1.000 < 0',
    '2.000 < 0 0 0 0',
    '3.000 < 0 1 0 0',
    '4.000 < 0',
    '5.000 < 0 0 1 0', '5.000 > 3',
    '7.000 < 1 0 0 0', '7.000 < RETIRE',
    '7.000 # the match is over',
  ]);
});

test('a game played to the end: the last move is relayed, nothing follows, and the winner scores 1', async () => {
  const record = await playLocalMatch({
    game: royalur,
    params: { args: { pace: '0' } },
    seed: 'full-game',
    players: [
      { name: 'Alice', play: randomMover('alice') },
      { name: 'Bob', play: randomMover('bob') },
    ],
  });
  const result = record.outcome.result!;
  assert.deepEqual([...result.scores].sort(), [0, 1]);
  assert.match(result.reason, /^(Alice|Bob) wins: all 7 tokens home \((Alice|Bob) had [0-6]\)$/);
  assert.doesNotMatch(record.spectatorStream, /RETIRE/);
  const spectatorLines = lines(record.spectatorStream);
  const last = spectatorLines.at(-1)!;
  assert.match(last, /^[0-6]$/);
  // The loser received the winning move as its last line; the winner's last line is the roll before it.
  const loserSeat = result.scores[0] === 0 ? 0 : 1;
  assert.equal(lines(record.received[loserSeat]!).at(-1), last);
  assert.equal(lines(record.received[1 - loserSeat]!).at(-1), spectatorLines.at(-2));
  assert.equal(lines(record.received[0]!)[2], spectatorLines[0] === 'Alice' ? '0' : '1');
});

test('who plays first is drawn from the match seed, and each player is told its index', async () => {
  const firsts = new Set<string>();
  for (const seed of ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8']) {
    const record = await playLocalMatch({
      game: royalur,
      params: { args: { pace: '0' } },
      seed,
      players: [
        { name: 'P', play: misbehaving(1, null) },
        { name: 'Q', play: misbehaving(1, null) },
      ],
    });
    const [first, second] = lines(record.spectatorStream);
    firsts.add(first!);
    assert.equal(lines(record.received[0]!).slice(0, 3).join(' '), `${first} ${second} ${first === 'P' ? 0 : 1}`);
    assert.equal(lines(record.received[1]!).slice(0, 3).join(' '), `${first} ${second} ${first === 'Q' ? 0 : 1}`);
  }
  assert.deepEqual([...firsts].sort(), ['P', 'Q']);
});

test('the server bot plays a whole match against a program', async () => {
  const record = await playLocalMatch({
    game: royalur,
    params: { args: { pace: '0' }, bots: 1, players: 2 },
    seed: 'bot-match',
    players: [{ name: 'Human', play: randomMover('human') }],
  });
  assert.match(record.received[0]!, /^(Human\nServerBot\$0\n0|ServerBot\$0\nHuman\n1)\n/);
  assert.match(record.outcome.result!.reason, /wins: all 7 tokens home/);
  assert.equal(record.outcome.error, null);
});

test('the visualizer shows the board, 14 tokens, each roll and each move, in logical time', async () => {
  const record = await playLocalMatch({
    game: scriptedGame(exampleRolls()),
    params: { args: { pace: '0' } },
    players: [
      { name: 'PlayerA', play: replaying(EXAMPLE.playerA) },
      { name: 'PlayerB', play: replaying(EXAMPLE.playerB) },
    ],
  });
  const vis = record.vis;
  const creates = vis.flatMap((e) => ('create' in e ? [e.create] : []));
  const ids = creates.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'object ids are never reused');
  const atStart = vis.filter((e) => e.t === 0 && 'create' in e);
  assert.equal(atStart.length, 1 + 2 + 14, 'board, two sides, 14 tokens');
  const board = creates[0]!;
  assert.equal(board.geom.filter((s) => 'poly' in s && s.poly.vs.length === 4).length, 20, '20 cells');
  assert.equal(board.geom.filter((s) => 'poly' in s && s.poly.vs.length === 16).length, 5, '5 rosettes');
  for (let i = 1; i < vis.length; i++) assert.ok(vis[i]!.t >= vis[i - 1]!.t, 'time never decreases');
  for (const shape of creates.flatMap((c) => c.geom)) {
    const body = Object.values(shape)[0] as { f?: string; s?: string };
    for (const colour of [body.f, body.s]) if (colour !== undefined) assert.match(colour, /^[0-9a-f]{8}$/);
  }
  const logs = vis.flatMap((e) => ('log' in e ? [e.log.line] : []));
  assert.deepEqual(logs.slice(1), [
    'PlayerA rolls 0 0 1 1 (2)',
    'PlayerA moves token 3 from start to cell 2',
    'PlayerB rolls 1 1 1 1 (4)',
    'PlayerB moves token 0 from start to cell 4; rosette: rolls again',
    'PlayerB rolls 1 0 1 0 (2)',
    'PlayerB moves token 0 from cell 4 to cell 6',
    'PlayerA rolls 0 1 0 0 (1)',
    'PlayerA moves token 3 from cell 2 to cell 3',
    'PlayerB rolls 0 0 0 0 (0)',
    'PlayerB cannot move',
    'PlayerA rolls 1 0 1 1 (3)',
    "PlayerA moves token 3 from cell 3 to cell 6, sending PlayerB's token 0 back to start",
    'PlayerB rolls 0 0 1 1 (2)',
    'PlayerB moves token 0 from start to cell 2',
    'PlayerA rolls 0 0 0 1 (1)',
    'PlayerA moves token 4 from start to cell 1',
    'PlayerB rolls 1 0 1 0 (2)',
    'PlayerB retires: sent an invalid move "2" (it would land on its own token)',
    'PlayerA wins: PlayerB sent an invalid move "2" (it would land on its own token)',
  ]);
  // Dice: one object per roll, the previous one destroyed.
  assert.equal(vis.filter((e) => 'destroy' in e).length, exampleRolls().length - 1);
  // Token moves: one step per cell (2+4+2+1+3+2+1 cells) plus one capture slide.
  assert.equal(vis.filter((e) => 'transform' in e).length, 15 + 1);
  // PlayerA's token 3 ends on the shared cell 6 (middle row, column 1); PlayerB's token 0 on its cell 2.
  const position = (id: number) => {
    const created = creates.find((c) => c.id === id)!;
    const moved = vis.flatMap((e) => ('transform' in e && e.transform.id === id ? [e.transform.mv!] : []));
    return moved.reduce((p, mv) => [p[0] + mv[0], p[1] + mv[1]], [...created.p!]).map((v) => Math.round(v * 1000) / 1000);
  };
  const tokenId = (player: number, token: number) => creates.filter((c) => c.z === 5)[player * 7 + token]!.id;
  assert.deepEqual(position(tokenId(0, 3)), [0.25, 0.5]);
  assert.deepEqual(position(tokenId(1, 0)), [0.35, 0.6]);
  assert.deepEqual(position(tokenId(0, 4)), [0.45, 0.4]);
});

test('parameters are validated with clear messages', () => {
  const configure = (args: Record<string, string>, players: number | null = null, bots = 0) =>
    royalur.configure({ players, bots, timeout: null, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.deepEqual(defaults.value.config, { pace: 1.5 });
  assert.equal(defaults.value.timeout, 90);
  assert.equal(defaults.value.players, 2);
  const paced = configure({ pace: '0' });
  assert.ok(paced.ok);
  assert.equal(paced.value.config.pace, 0);
  const refusal = (error: string) => ({ ok: false, error: `Cannot create game: ${error}` });
  assert.deepEqual(configure({ pace: '31' }), refusal('Invalid pace'));
  assert.deepEqual(configure({ pace: 'fast' }), refusal('Invaid pace: invalid float literal'));
  assert.deepEqual(configure({}, 3), refusal('Cannot create game with 3 players'));
  assert.deepEqual(configure({ rounds: '3' }), refusal('Unknown argument "rounds" (known: pace)'));
  assert.match(royalur.description, /^# royalur \(Royal Game of Ur\)/);
  assert.match(royalur.description, /## Implementation details[\s\S]*## Game parameters/);
});
