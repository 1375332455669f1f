import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { ManualClock } from '../../util/clock.js';
import { transcriptName } from '../../match/match.js';
import { Random } from '../../match/random.js';
import { SochaClientState, renderClientMove } from './bot.js';
import { createHaseUndIgelGame, haseUndIgel } from './hase-und-igel.js';
import {
  renderCloseConnection,
  renderError,
  renderJoined,
  renderLeft,
  renderMemento,
  renderMoveRequest,
  renderObserved,
  renderResult,
  renderWelcome,
  violationMessage,
  type PlayerScore,
} from './messages.js';
import { RoomDirectory } from './room-control.js';
import { MAX_IGNORED_ADMIN_REQUESTS } from './room.js';
import { legalMoves } from './moves.js';
import { playing, scriptedClient, type Responder } from './protocol-kit.js';
import { END_MESSAGES, winCondition } from './game-end.js';
import { initialState, performMove, type GameState, type Move } from './rules.js';
import { TEST_BOARD, TEST_BOARD_CODE, advance, card, move } from './test-kit.js';
import { chooseMove } from './search.js';
import { GOAL_INDEX } from './board.js';
import { renderElement, STREAM_CLOSING } from './xml/xml-writer.js';
import { GAME_TYPE, moveMessageElement } from './messages.js';

const ROOM = 'r1';
const ARGS = { room: ROOM, board: TEST_BOARD_CODE };
const NAMES = ['alice', 'bob'] as const;
const game = createHaseUndIgelGame();

function play(players: [LocalPlayer, LocalPlayer], args: Record<string, string> = {}, g = game, clock?: ManualClock) {
  return playLocalMatch({
    game: g,
    params: { args: { ...ARGS, ...args } },
    players: [
      { name: NAMES[0], play: players[0] },
      { name: NAMES[1], play: players[1] },
    ],
    seed: 'protocol',
    ...(clock && { clock }),
  });
}

const firstLegal = (state: GameState): Move => legalMoves(state)[0]!;
const firstLegalPlayer = scriptedClient(playing(firstLegal));
const opening = (color: 'RED' | 'BLUE') =>
  `<protocol>${renderJoined(ROOM)}${renderWelcome(ROOM, color)}${renderMemento(ROOM, initialState(TEST_BOARD), NAMES)}`;

test('a whole game through the seats: players and spectators receive exactly the server stream', async () => {
  const record = await play([firstLegalPlayer, firstLegalPlayer]);
  // Replay the same game with the rules alone and build the stream the server must have sent.
  let state = initialState(TEST_BOARD);
  const expected = [opening('RED') + renderMoveRequest(ROOM), opening('BLUE')];
  let spectators = `<protocol>${renderObserved(ROOM)}${renderMemento(ROOM, state, NAMES)}`;
  while (!winCondition(state)) {
    const next = performMove(state, firstLegal(state));
    assert.ok(next.ok);
    state = next.value;
    const memento = renderMemento(ROOM, state, NAMES);
    expected[0] += memento;
    expected[1] += memento;
    spectators += memento;
    if (!winCondition(state)) expected[state.turn % 2] += renderMoveRequest(ROOM);
  }
  const over = winCondition(state)!;
  const scores = [0, 1].map((seat) => ({
    cause: 'REGULAR',
    reason: END_MESSAGES[over.reason],
    points: (over.winner === 'RED') === (seat === 0) ? 2 : 0,
    index: state.players[seat]!.index,
    carrots: state.players[seat]!.carrots,
  })) as [PlayerScore, PlayerScore];
  const winner = over.winner === 'RED' ? 0 : 1;
  const ending = renderResult(ROOM, scores, { player: state.players[winner], displayName: NAMES[winner] }) + renderLeft(ROOM);
  assert.equal(record.received[0], expected[0] + ending + STREAM_CLOSING);
  assert.equal(record.received[1], expected[1] + ending + STREAM_CLOSING);
  assert.equal(record.spectatorStream, spectators + ending);
  assert.deepEqual(record.outcome.result?.scores, scores.map((s) => s.points));
  assert.match(record.outcome.result!.reason, over.reason === 'goal' ? /reached the goal/ : /round limit/);
});

test('a move that breaks a rule: the offender gets the error and the close, the other player the result', async () => {
  const record = await play([scriptedClient(() => renderClientMove(ROOM, move(advance(11)))), firstLegalPlayer]);
  const message = 'Vorwärtszug um 11 Felder ist nicht möglich';
  assert.equal(
    record.received[0],
    opening('RED') + renderMoveRequest(ROOM) + renderError(ROOM, violationMessage('alice', message), move(advance(11))) + renderCloseConnection() + STREAM_CLOSING,
  );
  // The bytes of 18.2.6: the display name quoted, a line break as a character reference.
  assert.ok(
    record.received[0]!.includes(`<data class="error" message="Ungueltiger Zug von &apos;alice&apos;.&#xa;Vorwärtszug um 11 Felder ist nicht möglich">`),
  );
  const scores: [PlayerScore, PlayerScore] = [
    { cause: 'RULE_VIOLATION', reason: message, points: 0, index: 0, carrots: 68 },
    { cause: 'REGULAR', reason: null, points: 2, index: 0, carrots: 68 },
  ];
  const state = initialState(TEST_BOARD);
  const ending = renderResult(ROOM, scores, { player: state.players[1], displayName: 'bob' }) + renderLeft(ROOM);
  assert.equal(record.received[1], opening('BLUE') + ending + STREAM_CLOSING);
  assert.equal(
    record.spectatorStream,
    `<protocol>${renderObserved(ROOM)}${renderMemento(ROOM, state, NAMES)}${renderError(ROOM, message, null)}${ending}`,
  );
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
  assert.match(record.outcome.result!.reason, /BLUE \(bob\) wins: RED \(alice\) broke a rule: Vorwärtszug um 11/);
});

/** The result a lone remaining player receives when the other one is out for `cause` before any move. */
function earlyEnd(offender: 0 | 1, cause: PlayerScore['cause'], reason: string): string {
  const state = initialState(TEST_BOARD);
  const scores = [0, 1].map((seat) =>
    seat === offender
      ? { cause, reason, points: 0, index: 0, carrots: 68 }
      : { cause: 'REGULAR', reason: null, points: 2, index: 0, carrots: 68 },
  ) as [PlayerScore, PlayerScore];
  const winner = (1 - offender) as 0 | 1;
  return renderResult(ROOM, scores, { player: state.players[winner], displayName: NAMES[winner] }) + renderLeft(ROOM);
}

/** A client that joins, sends `text` once the game has begun (its welcome came), and then reads until the end. */
function sending(text: string): LocalPlayer {
  return async (io) => {
    io.write(`<protocol>\n  <join gameType="${GAME_TYPE}"/>\n`);
    const client = new SochaClientState();
    let sent = false;
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      client.push(`${line}\n`);
      if (!sent && client.color) {
        sent = true;
        io.write(text);
      }
    }
  };
}

const LEFT = 'Der Spieler hat das Spiel verlassen';

test('a move out of turn: its sender gets the error with its move and the close, and loses with LEFT', async () => {
  // Actions in element order, not sorted: the turn is judged before the move is performed.
  const early = '<room roomId="r1"><data class="move"><card order="1" type="EAT_SALAD"/><advance order="0" distance="1"/></data></room>\n';
  const record = await play([scriptedClient(() => null, { close: false }), sending(early)]);
  assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + earlyEnd(1, 'LEFT', LEFT) + STREAM_CLOSING);
  assert.equal(
    record.received[1],
    opening('BLUE') +
      '\n  <room roomId="r1">\n    <data class="error" message="It&apos;s not your turn yet.">\n      <originalRequest class="move">' +
      '\n        <card order="1" type="EAT_SALAD" value="0"/>\n        <advance order="0" distance="1"/>' +
      '\n      </originalRequest>\n    </data>\n  </room>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>',
    'the sender gets no result',
  );
  assert.deepEqual(record.outcome.result?.scores, [2, 0]);
  assert.match(record.outcome.result!.reason, /sent a move out of turn/);
});

const hostile: [string, string, RegExp][] = [
  ['unparseable XML', '<room roomId="r1"><data class="move"><advance order="0" distance="1"></room>\n', /xml\/mismatched-tag/],
  ['a DOCTYPE with entity definitions', '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>\n', /xml\/doctype-forbidden/],
  ['an external entity', '<room roomId="&xxe;"/>\n', /xml\/unknown-entity/],
  ['a huge attribute', `<room roomId="${'x'.repeat(40_000)}\n${'y'.repeat(40_000)}"/>\n`, /xml\/token-too-large/],
  ['an element that is not a message', '<authenticate passphrase="x"/>\n', /unexpected message/],
];

for (const [what, text, reason] of hostile) {
  test(`${what} from the player to move ends the game with LEFT for it`, async () => {
    const record = await play([sending(text), firstLegalPlayer]);
    assert.equal(record.received[1], opening('BLUE') + earlyEnd(0, 'LEFT', LEFT) + STREAM_CLOSING);
    assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + STREAM_CLOSING, 'its stream is ended before the close');
    assert.deepEqual(record.outcome.result?.scores, [0, 2]);
    assert.match(record.outcome.result!.reason, reason);
  });
}

test('a move with a number that is not a number ends the game with LEFT for its sender', async () => {
  const text = '<room roomId="r1"><data class="move"><advance order="0" distance="two"/></data></room>\n';
  const record = await play([scriptedClient(() => text), firstLegalPlayer]);
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
  assert.match(record.outcome.result!.reason, /sent XML that could not be read/);
  assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + STREAM_CLOSING);
  const unknownAction = '<room roomId="r1"><data class="move"><jump order="0"/></data></room>\n';
  const unknown = await play([scriptedClient(() => unknownAction), firstLegalPlayer]);
  assert.equal(unknown.received[0], opening('RED') + renderMoveRequest(ROOM) + STREAM_CLOSING, 'an unknown action likewise');
});

test('an element left unterminated when the player disconnects ends the game with LEFT', async () => {
  const record = await play([async (io) => io.write('<protocol>\n<room roomId="r1">\n  <data class="move">\n'), firstLegalPlayer]);
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
  assert.match(record.outcome.result!.reason, /xml\/unterminated/);
});

test('closing the stream or sending close during the game is leaving it; the leaver gets the end of the stream first, as from the real server', async () => {
  for (const text of ['</protocol>\n', '<close/>\n', '<sc.protocol.responses.CloseConnection/>\n']) {
    const record = await play([firstLegalPlayer, sending(text)]);
    assert.deepEqual(record.outcome.result?.scores, [2, 0], text);
    assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + earlyEnd(1, 'LEFT', LEFT) + STREAM_CLOSING);
    assert.equal(record.received[1], opening('BLUE') + STREAM_CLOSING, text);
  }
});

test('a move for a room the player is not in: the player has left (LEFT), its stream ends, and the move is not played anywhere', async () => {
  const elsewhere = renderClientMove('another-room', move(advance(1)));
  const record = await play([scriptedClient(() => elsewhere), firstLegalPlayer]);
  assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + STREAM_CLOSING);
  assert.equal(record.received[1], opening('BLUE') + earlyEnd(0, 'LEFT', LEFT) + STREAM_CLOSING, 'the board as it was: the move was not played');
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
  assert.match(record.outcome.result!.reason, /sent a message for a room it is not in/);
});

test('a move that breaks a rule after valid first actions: those actions stay applied, and the scores show them (as on 18.2.6)', async () => {
  // Onto the hare field 1, then a card RED may not play there: the advance counts.
  const broken = move(advance(1), card('HURRY_AHEAD', 1));
  const record = await play([scriptedClient(() => renderClientMove(ROOM, broken)), firstLegalPlayer]);
  const message = 'Das Ausspielen der HURRY_AHEAD Karte ist nicht möglich.';
  assert.ok(record.received[0]!.includes(renderError(ROOM, violationMessage('alice', message), broken)));
  const scores: [PlayerScore, PlayerScore] = [
    { cause: 'RULE_VIOLATION', reason: message, points: 0, index: 1, carrots: 67 },
    { cause: 'REGULAR', reason: null, points: 2, index: 0, carrots: 68 },
  ];
  const ending = renderResult(ROOM, scores, { player: initialState(TEST_BOARD).players[1], displayName: 'bob' }) + renderLeft(ROOM);
  assert.equal(record.received[1], opening('BLUE') + ending + STREAM_CLOSING);
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
});

test("a broken move whose valid first actions reached the goal: the result names the offender as winner and the other's reason is the goal's, as on 18.2.6; the points still go to the other player", async () => {
  // RED plays the server bot's search until it can reach the goal, then adds a card it may not
  // play there (cards only on hare fields).
  const red = scriptedClient((state) => {
    const goal = legalMoves(state).find((m) => m.actions[0]!.type === 'advance' && state.players[0].index + m.actions[0].distance === GOAL_INDEX && m.actions.length === 1);
    const chosen = goal ? move(goal.actions[0]!, card('EAT_SALAD', 1)) : chooseMove(state, { maxDepth: 3, maxNodes: 20000 });
    return renderClientMove(ROOM, chosen);
  });
  const record = await play([red, firstLegalPlayer]);
  const result = record.received[1]!;
  assert.match(record.outcome.result!.reason, /RED \(alice\) broke a rule: Das Ausspielen der EAT_SALAD Karte/, 'RED reached the goal with a broken move');
  assert.match(result, /<score cause="RULE_VIOLATION" reason="Das Ausspielen der EAT_SALAD Karte ist nicht möglich\.">\s*<part>0<\/part>\s*<part>64<\/part>/);
  assert.match(result, /<score cause="REGULAR" reason="Das Spiel ist beendet\.&#xa;Ein Spieler ist im Ziel">\s*<part>2<\/part>/);
  assert.match(result, /<winner class="player" displayName="alice" color="RED" index="64"/);
  assert.deepEqual(record.outcome.result?.scores, [0, 2], 'the platform scores follow the match points');
});

test('a player that disconnects loses with LEFT', async () => {
  const record = await play([firstLegalPlayer, async () => {}]);
  assert.deepEqual(record.outcome.result?.scores, [2, 0]);
  assert.match(record.outcome.result!.reason, /disconnected/);
});

test('join elements after the opening are tolerated, a flood of them is not', async () => {
  const joins = (n: number) => Array.from({ length: n }, () => '<join gameType="swc_2018_hase_und_igel"/>\n').join('');
  const tolerated = await play([scriptedClient(playing(firstLegal), { greeting: joins(3) }), firstLegalPlayer]);
  assert.ok(tolerated.outcome.result!.reason.includes('wins: reached') || tolerated.outcome.result!.reason.includes('round limit'));
  const flood = await play([scriptedClient(playing(firstLegal), { greeting: joins(5) }), firstLegalPlayer]);
  assert.match(flood.outcome.result!.reason, /too many join or administrator messages/);
});

test(`administrator requests from a player are ignored, as by the real server, up to ${MAX_IGNORED_ADMIN_REQUESTS} (MAX_IGNORED_ADMIN_REQUESTS); more are a flood`, async () => {
  const requests = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? '<testMode testMode="true"/>\n' : '<cancel roomId="r1"/>\n')).join('');
  const greeting = (n: number) => `${requests(n)}  <join gameType="${GAME_TYPE}"/>\n`;
  const tolerated = await play([scriptedClient(playing(firstLegal), { greeting: greeting(MAX_IGNORED_ADMIN_REQUESTS) }), firstLegalPlayer]);
  assert.match(tolerated.outcome.result!.reason, /reached the goal|round limit/);
  assert.ok(tolerated.received[0]!.startsWith(opening('RED')), 'the game began as usual: the requests before the join are no join');
  const flood = await play([scriptedClient(playing(firstLegal), { greeting: greeting(MAX_IGNORED_ADMIN_REQUESTS + 1) }), firstLegalPlayer]);
  assert.match(flood.outcome.result!.reason, /RED \(alice\) sent too many join or administrator messages/);
});

// The time limits are judged on the match's clock; these tests move it by hand (ManualClock), so
// a busy machine cannot make a move late, nor a silent player last longer than its limit.

test('a silent player loses by the hard time limit and still gets the result', async () => {
  const clock = new ManualClock();
  const record = await clock.runUntil(play([scriptedClient(() => null), firstLegalPlayer], {}, game, clock));
  const reason = 'Der Spieler hat innerhalb von 10 Sekunden nach Aufforderung keinen Zug gesendet';
  assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + earlyEnd(0, 'HARD_TIMEOUT', reason) + STREAM_CLOSING);
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
  assert.match(record.outcome.artifacts[transcriptName(0)]!, /\n10\.000 < +<data class="result">/, 'the result came at the hard limit (the match timeout, 10 s)');
});

/** A responder that thinks for `seconds` on the match's clock, then answers with the first legal move. */
function answeringAfter(clock: ManualClock, seconds: number): Responder {
  return async (state, _n, roomId) => {
    await new Promise<void>((resolve) => clock.setTimer(seconds * 1000, resolve));
    return renderClientMove(roomId, firstLegal(state));
  };
}

test('a move after the soft time limit is discarded and loses with SOFT_TIMEOUT', async () => {
  const clock = new ManualClock();
  const record = await clock.runUntil(play([scriptedClient(answeringAfter(clock, 2.001)), firstLegalPlayer], {}, game, clock));
  // 18.2.6's text, with the space (18.1.0 wrote "2Sekunden").
  const reason = 'Der Spieler hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet';
  assert.equal(record.received[0], opening('RED') + renderMoveRequest(ROOM) + earlyEnd(0, 'SOFT_TIMEOUT', reason) + STREAM_CLOSING);
  assert.deepEqual(record.outcome.result?.scores, [0, 2]);
});

test('a move just inside the soft time limit is accepted', async () => {
  const clock = new ManualClock();
  const inTime = answeringAfter(clock, 2);
  const record = await clock.runUntil(play([scriptedClient(inTime), scriptedClient(inTime)], {}, game, clock));
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
});

test('a seat that cannot time out (canTimeout false) may be late, past the hard limit too', async () => {
  const clock = new ManualClock();
  const record = await clock.runUntil(play([scriptedClient(answeringAfter(clock, 100)), firstLegalPlayer], { canTimeout: 'false,true' }, game, clock));
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
});

test('the game ends with the result: no wait for the players to close, and each stream ends after <left>', async () => {
  // The real server ends a game with its result; when a client hears the stream's end is the
  // front door's business (the Software-Challenge port holds it until the client closes).
  const clock = new ManualClock();
  const ended = await clock.runUntil(play([scriptedClient(playing(firstLegal), { close: false }), firstLegalPlayer], {}, game, clock));
  for (const received of ended.received) assert.ok(received.endsWith(renderLeft(ROOM) + STREAM_CLOSING));
  assert.equal(ended.outcome.endedAt - ended.outcome.startedAt, 0, 'no grace period: the game itself took no time on the manual clock');
});

test('random legal play through the seats always ends regularly', async () => {
  const random = Random.fromSeed('random-play');
  const randomPlayer = () => scriptedClient(playing((state) => random.pick(legalMoves(state))));
  for (let i = 0; i < 3; i++) {
    const record = await play([randomPlayer(), randomPlayer()], { room: `room-${i}` });
    assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
    assert.equal(record.outcome.error, null);
  }
});

test('the game is registered with sensible defaults and validates its arguments', () => {
  const configure = (args: Record<string, string>, timeout: number | null = null) => haseUndIgel.configure({ players: null, bots: 0, timeout, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.equal(defaults.value.timeout, 10);
  assert.deepEqual(defaults.value.config, {
    softTimeout: 2,
    hardTimeout: 10,
    canTimeout: [true, true],
    room: null,
    board: null,
    seed: null,
    displayNames: [null, null],
    paused: false,
    pace: 0,
  });
  const withTimeout = configure({}, 30);
  assert.ok(withTimeout.ok && withTimeout.value.config.hardTimeout === 30);
  assert.equal(configure({ softTimeout: '0' }).ok, false);
  assert.equal(configure({ canTimeout: 'yes' }).ok, false);
  assert.equal(configure({ board: 'S' }).ok, false);
  assert.equal(configure({ room: 'bad room' }).ok, false);
  assert.equal(configure({ paused: 'maybe' }).ok, false);
  assert.equal(configure({ colour: 'red' }).ok, false);
  assert.equal(configure({ redName: 'a\nb' }).ok, false);
  assert.equal(configure({ blueName: 'x'.repeat(65) }).ok, false);
  assert.equal(haseUndIgel.configure({ players: 3, bots: 0, timeout: null, args: {} }).ok, false);
  assert.equal(haseUndIgel.name, 'hase-und-igel');
  assert.match(haseUndIgel.description, /## Implementation details/);
});

/**
 * A client that writes as the Java clients do (XStream): a line break before each element and none
 * after the last one.
 */
function xstreamClient(): LocalPlayer {
  return async (io) => {
    const write = (text: string) => io.write(text);
    const client = new SochaClientState();
    write('<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>');
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      const asked = client.push(`${line}\n`);
      if (asked > 0) write(`\n  ${renderElement(moveMessageElement(client.roomId!, firstLegal(client.state!)), 1)}`);
      if (client.finished) {
        write('\n  <sc.protocol.responses.CloseConnection/>\n</protocol>');
        return;
      }
    }
  };
}

test('a client that ends its messages without a line break (as XStream writes) plays a whole game', async () => {
  const record = await play([xstreamClient(), firstLegalPlayer], { hardTimeout: '5' });
  assert.match(record.outcome.result!.reason, /reached the goal|round limit/);
  assert.equal(record.outcome.seats[0]!.closeReason, null);
});

test('display names given as arguments are the names in the XML; the seats keep their player names', async () => {
  const record = await play([firstLegalPlayer, firstLegalPlayer], { redName: 'Team Rocket', blueName: 'Unknown' });
  assert.ok(record.received[0]!.includes('<red displayName="Team Rocket" color="RED"'));
  assert.ok(record.received[1]!.includes('<blue displayName="Unknown" color="BLUE"'));
  assert.deepEqual(
    record.outcome.seats.map((seat) => seat.name),
    ['alice', 'bob'],
  );
});

test('in test mode every result is added to the display names\' tallies before it is sent', async () => {
  const rooms = new RoomDirectory();
  const counted = createHaseUndIgelGame({ rooms });
  await play([firstLegalPlayer, firstLegalPlayer], {}, counted);
  assert.equal(rooms.testScores.scoreOf('alice'), null, 'not counted before test mode');
  rooms.testScores.testMode = true;
  const first = await play([firstLegalPlayer, firstLegalPlayer], {}, counted);
  const second = await play([firstLegalPlayer, firstLegalPlayer], { redName: 'bob', blueName: 'alice' }, counted);
  const points = (record: typeof first, seat: number) => record.outcome.result!.scores[seat]!;
  const alice = rooms.testScores.scoreOf('alice')!;
  assert.equal(alice.games, 2);
  assert.equal(alice.values[0], points(first, 0) + points(second, 1));
  assert.equal(rooms.testScores.scoreOf('nobody'), null);
});
