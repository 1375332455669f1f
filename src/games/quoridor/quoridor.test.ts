import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerCompute } from '../../match/compute.js';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { makeQuoridorGame, quoridor } from './quoridor.js';
import { QUIT_GRACE_SECONDS } from './manager.js';
import { transcriptName } from '../../match/match.js';
import { ManualClock } from '../../util/clock.js';
import { builtInEngine, fakeEngine, matchStoppedMidGame, type Deviations } from './test-engines.js';

function match(players: [LocalPlayer, LocalPlayer], args: Record<string, string> = {}, timeout?: number, clock?: ManualClock) {
  return playLocalMatch({
    game: quoridor,
    params: { args: { pace: '0', ...args }, ...(timeout === undefined ? {} : { timeout }) },
    players: [
      { name: 'Alice', play: players[0] },
      { name: 'Bob', play: players[1] },
    ],
    ...(clock && { clock }),
  });
}

test('the QTP conversation on a 3x3 board, byte for byte, and the spectator stream', async () => {
  const record = await match([fakeEngine(), fakeEngine()], { size: '3', games: '2' });
  assert.equal(
    record.received[0],
    'name\nboardsize 3\nclear_board\nwalls 0\ngenmove black\nplaymove white B3\nwinner\n' +
      'boardsize 3\nclear_board\nwalls 0\nplaymove black B2\ngenmove white\nwinner\nquit\n',
  );
  assert.equal(
    record.received[1],
    'name\nboardsize 3\nclear_board\nwalls 0\nplaymove black B2\ngenmove white\nwinner\n' +
      'boardsize 3\nclear_board\nwalls 0\ngenmove black\nplaymove white B3\nwinner\nquit\n',
  );
  assert.equal(
    record.spectatorStream,
    'Alice\nBob\nsize 3 walls 0 games 2\n' +
      'game 1 black Alice white Bob\nblack B2\nwhite B3\nresult 1 white Bob (white) reached row 3\n' +
      'game 2 black Bob white Alice\nblack B2\nwhite B3\nresult 2 white Alice (white) reached row 3\n',
  );
  assert.deepEqual(record.outcome.result, { scores: [1, 1], reason: 'tie: Alice won 1, Bob won 1 of 2 games' });
});

test('the controller waits for the answer to quit: the blank line left from the answer to winner is not taken as it', async () => {
  const clock = new ManualClock();
  // A remote engine: its "=" to quit comes 1.5 s after the command, within QUIT_GRACE_SECONDS.
  const slowQuit = () => fakeEngine({ beforeQuitAnswer: () => new Promise((resolve) => clock.setTimer(1500, () => resolve())) });
  const record = await clock.runUntil(match([slowQuit(), slowQuit()], { size: '3', games: '1' }, undefined, clock));
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 1500, 'the match ends with the answers, not before');
  for (const seat of [0, 1]) {
    const transcript = record.outcome.artifacts[transcriptName(seat)]!;
    assert.match(transcript, /< quit\n\S+ > =\n/, `seat ${seat} answered quit before the match ended`);
  }
  const never = fakeEngine({ beforeQuitAnswer: () => new Promise((resolve) => clock.setTimer(10_000, () => resolve())) });
  const stuck = await clock.runUntil(match([never, fakeEngine()], { size: '3', games: '1' }, undefined, clock));
  assert.equal(stuck.outcome.endedAt - stuck.outcome.startedAt, QUIT_GRACE_SECONDS * 1000, 'an engine that never answers is left after the grace');
});

test('a server shutdown mid-match: the stream says the game was interrupted, awards it to nobody and plays no later game', async () => {
  const record = await playLocalMatch(matchStoppedMidGame(quoridor));
  assert.equal(record.outcome.result, null);
  assert.equal(record.outcome.stopped, 'server shutdown');
  assert.match(record.spectatorStream, /^Alice\nBob\nsize 5 walls 3 games 3\ngame 1 black Alice white Bob\n(.+\n)*result 1 interrupted server shutdown\n$/);
  assert.doesNotMatch(record.spectatorStream, /left the game|neither player could start|game 2/);
  assert.ok(record.vis.some((event) => JSON.stringify(event).includes('Game 1: interrupted (server shutdown)')));
});

test('the example match of description.md is reproduced byte for byte', async () => {
  const record = await match([fakeEngine({ style: { kind: 'forward', walls: 1 }, seed: 'a' }), fakeEngine()], { size: '5', walls: '1', games: '1' });
  const blocks = [...quoridor.description.matchAll(/```\n([\s\S]*?)```/g)].map((block) => block[1]!);
  assert.equal(blocks.length, 3);
  for (const seat of [0, 1]) {
    const lines = blocks[seat]!.split('\n').slice(0, -1);
    const received = lines.filter((line) => !line.startsWith('>')).map((line) => `${line}\n`).join('');
    const sent = lines.filter((line) => line.startsWith('>')).map((line) => `${line.slice(1)}\n`).join('');
    assert.equal(record.received[seat], received);
    assert.equal(record.sent[seat], sent);
  }
  assert.equal(record.spectatorStream, blocks[2]);
});

test('walls are told to the other engine with playwall, upper-case vertex and full-word orientation', async () => {
  const record = await match([fakeEngine({ style: { kind: 'forward', walls: 3 }, seed: 'w' }), fakeEngine()], { size: '5', games: '1' });
  const told = record.received[1]!.split('\n').filter((line) => line.startsWith('playwall'));
  assert.equal(told.length, 3);
  for (const line of told) assert.match(line, /^playwall black [A-D][2-5] (horizontal|vertical)$/);
  assert.equal((record.spectatorStream.match(/^black [A-D][2-5] (horizontal|vertical)$/gm) ?? []).length, 3);
});

const DEVIATIONS: Record<string, Deviations> = {
  '"? false" to unknown commands and known_command': { falseForUnknown: true },
  'a trailing space after = and after the move': { trailingSpace: true },
  'upper-case vertices only': { upperCaseOnly: true },
  'full-word orientations only': { fullWordsOnly: true },
  'other output before the = line': { chatterFirst: true },
  'no blank line after answers': { noBlankLine: true },
  'comments and blank lines before answers': { comments: true },
  'lower-case moves and one-letter orientations': { lowerCaseAnswers: true },
  'CR LF line ends': { crlf: true },
  'a tab after =': { tabs: true },
  'everything at once': {
    trailingSpace: true,
    upperCaseOnly: true,
    fullWordsOnly: true,
    chatterFirst: true,
    noBlankLine: true,
    comments: true,
    lowerCaseAnswers: true,
    crlf: true,
  },
};

for (const [name, deviations] of Object.entries(DEVIATIONS)) {
  test(`the controller plays with an engine that deviates: ${name}`, async () => {
    const refusals: string[] = [];
    const deviant = fakeEngine({ style: { kind: 'forward', walls: 2 }, seed: name, deviations, refusals });
    const other = fakeEngine({ style: { kind: 'forward', walls: 2 }, seed: `${name}!` });
    const record = await match([deviant, other], { size: '7', games: '2' });
    const results = record.spectatorStream.split('\n').filter((line) => line.startsWith('result'));
    assert.equal(results.length, 2);
    for (const line of results) assert.match(line, /reached row/, line);
    assert.deepEqual(
      refusals.filter((text) => text !== 'false'),
      [],
      'the deviant engine never had to refuse a command',
    );
    assert.equal(record.outcome.result!.scores.reduce((a, b) => a + b), 2);
  });
}

test('an illegal move loses that game only', async () => {
  const record = await match([fakeEngine({ genmoveAnswer: (_board, side) => (side === 1 ? '= A9\n\n' : '= E2\n\n') }), fakeEngine()], { games: '1' });
  assert.match(record.spectatorStream, /^result 1 white black played an illegal move: A9$/m);
  assert.deepEqual(record.outcome.result!.scores, [0, 1]);
  // Cheats on its first genmove only, then plays on normally.
  const once = fakeEngine({ genmoveAnswer: (_board, _side, count) => (count === 1 ? '= E5\n\n' : undefined) });
  const second = await match([once, fakeEngine()], { games: '2' });
  assert.match(second.spectatorStream, /^result 1 white black played an illegal move: E5$/m);
  assert.match(second.spectatorStream, /^result 2 \w+ \w+ \(\w+\) reached row \d$/m);
});

test('"?" to genmove, resign and garbage lose the game', async () => {
  const answers = ['? no idea\n\n', '= resign\n\n', '= hello\n\n', '= Z1\n\n', '=\n\n', '= E8 diagonal\n\n'];
  const reasons = ['answered "? no idea"', 'resigned', 'answered garbage: "= hello"', 'answered garbage: "= Z1"', 'answered garbage: "= "', 'answered garbage: "= E8 diagonal"'];
  for (let i = 0; i < answers.length; i++) {
    const record = await match([fakeEngine({ genmoveAnswer: () => answers[i]! }), fakeEngine()], { games: '1' });
    assert.match(record.spectatorStream, new RegExp(`^result 1 white black ${reasons[i]!.replace(/[?"]/g, '.')}$`, 'm'));
    assert.deepEqual(record.outcome.result!.scores, [0, 1]);
  }
});

test('a silent engine times out: it loses that game and every later one', async () => {
  const silent = fakeEngine({ genmoveAnswer: () => null });
  // Time moves only when the match waits (ManualClock), so a busy machine cannot time anyone out early.
  const clock = new ManualClock();
  const record = await clock.runUntil(match([silent, fakeEngine()], { games: '3' }, 30, clock));
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 30_000, 'one wait of the whole timeout, then no more waiting for the closed seat');
  assert.equal(record.outcome.seats[0]!.closeReason, 'timeout');
  assert.deepEqual(record.outcome.result!.scores, [0, 3]);
  assert.match(record.spectatorStream, /^result 1 white black timed out$/m);
  assert.match(record.spectatorStream, /^result 2 black white timed out$/m);
  assert.match(record.spectatorStream, /^result 3 white black timed out$/m);
});

test('an engine that leaves loses the remaining games', async () => {
  const leaver: LocalPlayer = async (io) => {
    await io.readLine();
    io.write('= leaver\n\n');
  };
  const record = await match([fakeEngine(), leaver], { games: '2' });
  assert.deepEqual(record.outcome.result!.scores, [2, 0]);
  assert.equal(record.outcome.seats[1]!.closeReason, 'disconnected');
  assert.match(record.spectatorStream, /^result 1 black white left the game$/m);
});

test('an engine refusing the board size loses the game', async () => {
  const refusing: LocalPlayer = async (io) => {
    for (let line = await io.readLine(); line !== null; line = await io.readLine()) io.write(line.startsWith('boardsize') ? '? unacceptable size\n\n' : '=\n\n');
  };
  const refused = await match([refusing, fakeEngine()], { size: '5', games: '1' });
  assert.match(refused.spectatorStream, /^result 1 white black refused board size 5: \? unacceptable size$/m);
});

test('a game that reaches the move limit is a draw', async () => {
  const record = await match([fakeEngine({ style: { kind: 'shuffle' } }), fakeEngine({ style: { kind: 'shuffle' } })], { size: '3', games: '1' });
  assert.match(record.spectatorStream, /^result 1 draw the move limit of 150 moves was reached$/m);
  assert.equal(record.spectatorStream.split('\n').filter((line) => /^(black|white) /.test(line)).length, 150);
  assert.deepEqual(record.outcome.result, { scores: [0, 0], reason: 'tie: Alice won 0, Bob won 0 of 1 game, 1 drawn' });
});

test('our engine against itself: a full match with both colours', async () => {
  const record = await match([builtInEngine({ nodes: 200 }, 'a'), builtInEngine({ nodes: 200 }, 'b')], { games: '2' });
  const results = record.spectatorStream.split('\n').filter((line) => line.startsWith('result'));
  assert.equal(results.length, 2);
  for (const line of results) assert.match(line, /reached row|move limit/, line);
  assert.ok(!/\?/.test(record.sent[0]!) && !/\?/.test(record.sent[1]!), 'no command was refused');
});

test('our engine beats a random engine in both colours', async () => {
  const record = await match([fakeEngine({ style: { kind: 'random' }, seed: 'r' }), builtInEngine({ nodes: 200 })], { games: '2' });
  assert.deepEqual(record.outcome.result!.scores, [0, 2]);
});

test('the server bot plays through the same QTP conversation, searching on a worker thread', async () => {
  const game = makeQuoridorGame({ botBudget: { nodes: 200 } });
  const compute = new WorkerCompute(1);
  const record = await playLocalMatch({
    game,
    params: { args: { pace: '0', size: '7' }, bots: 1, players: 2 },
    players: [{ name: 'Human', play: fakeEngine({ style: { kind: 'random' }, seed: 'h' }) }],
    compute,
  }).finally(() => compute.close());
  assert.equal(record.outcome.error, null);
  assert.deepEqual(record.outcome.result!.scores, [0, 2]);
  assert.match(record.spectatorStream, /^Human\nServerBot\$0\nsize 7 walls 6 games 2\n/);
});

test('visualizer events: board, pawns, walls flying in, wall counts, logs; ids unique, times ordered', async () => {
  const record = await match([fakeEngine({ style: { kind: 'forward', walls: 2 }, seed: 'v' }), fakeEngine()], { size: '5', games: '1' });
  const created = new Set<number>();
  let last = 0;
  for (const event of record.vis) {
    assert.ok(event.t >= last);
    last = event.t;
    if ('create' in event) {
      assert.ok(!created.has(event.create.id), `id ${event.create.id} reused`);
      created.add(event.create.id);
      for (const color of JSON.stringify(event.create).match(/"[fs]":"[^"]*"/g) ?? []) assert.match(color, /"[fs]":"[0-9a-f]{8}"/);
    }
    if ('transform' in event) assert.ok(created.has(event.transform.id));
    if ('destroy' in event) assert.ok(created.has(event.destroy.id));
  }
  const logs = record.vis.flatMap((event) => ('log' in event ? [event.log.line] : []));
  assert.ok(logs.some((line) => /^Alice \(black\): [A-D]\d (horizontal|vertical)$/.test(line)));
  assert.ok(logs.some((line) => /wins/.test(line)));
  const texts = JSON.stringify(record.vis);
  assert.match(texts, /Alice \(black\): 1 wall left/);
  const moves = record.spectatorStream.split('\n').filter((line) => /^(black|white) /.test(line)).length;
  assert.equal(record.vis.filter((event) => 'transform' in event).length, moves, 'one animation per move');
});

test('parameters are validated with clear messages', () => {
  const configure = (args: Record<string, string>, players: number | null = null) => quoridor.configure({ players, bots: 0, timeout: null, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.deepEqual(defaults.value.config, { size: 9, walls: 10, games: 2, pace: 0.5 });
  assert.equal(defaults.value.timeout, 30);
  assert.deepEqual((configure({ size: '5' }) as { value: { config: unknown } }).value.config, { size: 5, walls: 3, games: 2, pace: 0.5 });
  assert.deepEqual(configure({ size: '8' }), { ok: false, error: 'Cannot create game: Argument "size" must be odd, not 8' });
  assert.deepEqual(configure({ size: '27' }), { ok: false, error: 'Cannot create game: Argument "size" must be an integer from 3 to 25, not 27' });
  assert.deepEqual(configure({ walls: '-1' }), { ok: false, error: 'Cannot create game: Argument "walls" must be an integer from 0 to 100, not "-1"' });
  assert.deepEqual(configure({ games: '0' }), { ok: false, error: 'Cannot create game: Argument "games" must be an integer from 1 to 100, not 0' });
  assert.deepEqual(configure({}, 3), { ok: false, error: 'Cannot create game: Cannot create game with 3 players' });
  assert.deepEqual(configure({ colour: 'red' }), { ok: false, error: 'Cannot create game: Unknown argument "colour" (known: size, walls, games, pace)' });
});
