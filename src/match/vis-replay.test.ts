import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILT_IN_GAMES } from '../games/registry.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import { ManualClock } from '../util/clock.js';
import type { GameDefinition } from './game.js';
import { playLocalMatch, type LocalMatchOptions, type LocalPlayer } from './local-match.js';
import type { Match } from './match.js';
import { parseVisReplayNote, visReplayNoteJson, type VisReplayNote } from './vis-replay.js';
import { deriveRecordDrawing } from './record-vis.js';
import { CLOCK_RECORD } from './seat-clocks.js';
import { dama, type DamaConfig } from '../games/dama/dama.js';
import { royalur } from '../games/royalur/royalur.js';
import { chess, type ChessConfig } from '../games/chess/chess.js';
import { makeQuoridorGame, quoridor } from '../games/quoridor/quoridor.js';
import { fakeEngine, matchStoppedMidGame } from '../games/quoridor/test-engines.js';
import { ok } from '../util/result.js';
import { clobber, createClobberGame } from '../games/clobber/clobber.js';
import { randomPlayer, sameTickPlayers, scripted as clobberScript } from '../games/clobber/test-players.js';
import { Random } from './random.js';
import { createHaseUndIgelGame, haseUndIgel } from '../games/hase-und-igel/hase-und-igel.js';
import { RoomDirectory } from '../games/hase-und-igel/room-control.js';
import { playing, scriptedClient } from '../games/hase-und-igel/protocol-kit.js';
import { legalMoves } from '../games/hase-und-igel/moves.js';
import { SochaClientState, renderClientMove } from '../games/hase-und-igel/bot.js';
import { TEST_BOARD_CODE, advance, move } from '../games/hase-und-igel/test-kit.js';
import { GAME_TYPE } from '../games/hase-und-igel/messages.js';
import type { GameState } from '../games/hase-und-igel/rules.js';

/** The game as it was before its events were derived: it draws every round as it plays. */
function drawingAsItPlays(game: GameDefinition<any>): GameDefinition<any> {
  return { ...game, visFromInput: false };
}

/** A player that reads its header, then sends `moves` (a line each), reading the answer after each. */
function scripted(moves: readonly string[], headerLines = 3): LocalPlayer {
  return async (io) => {
    for (let i = 0; i < headerLines; i++) await io.readLine();
    for (const move of moves) {
      io.write(`${move}\n`);
      if ((await io.readLine()) === null) return;
    }
  };
}

/** The events a replay shows (derived from the record for a game that draws from its input) and as the game drew them while playing. */
async function bothWays(options: LocalMatchOptions): Promise<{ derived: string; drawn: string }> {
  const derived = await playLocalMatch(options);
  const drawn = await playLocalMatch({ ...options, game: drawingAsItPlays(options.game) });
  assert.deepEqual(derived.outcome.result, drawn.outcome.result);
  return { derived: derived.visJson, drawn: drawn.visJson };
}

/**
 * One match of `options.game` drawn as it plays (as every game was drawn before its events were
 * derived), and the events a replay derives from that match's record (its seed, arguments,
 * transcripts and note): what a replay showed, and what it shows now, over the same recorded match.
 * Bots that search against the clock play a different match each time, so both sides are taken
 * from one match.
 */
async function drawnAndDerived(options: LocalMatchOptions): Promise<{ drawn: string; derived: string; note: VisReplayNote; drawnClock: string | null; derivedClock: string | null }> {
  let match: Match<any> | null = null;
  const run = playLocalMatch({
    ...options,
    game: drawingAsItPlays(options.game),
    made: (made) => {
      match = made;
      options.made?.(made);
    },
  });
  const drawn = await (options.clock instanceof ManualClock ? options.clock.runUntil(run) : run);
  const note = match!.replayNote();
  // The clock as the match keeps it when its pictures are derived: each turn's times, unplaced
  // (none when no seat was ever asked to move: a quoridor match whose engines never started).
  const drawnClock = drawn.outcome.artifacts[CLOCK_RECORD.artifact] ?? null;
  const record = {
    args: options.params?.args ?? {},
    players: drawn.outcome.seats.map((seat) => seat.name),
    bots: options.params?.bots ?? 0,
    seed: drawn.outcome.seed,
    artifacts: { ...drawn.outcome.artifacts, ...(drawnClock !== null && { [CLOCK_RECORD.artifact]: unplaced(drawnClock) }) },
  };
  const derived = await deriveRecordDrawing(options.game, record, note);
  return { drawn: drawn.visJson, derived: derived.events.toString('utf8'), note, drawnClock, derivedClock: derived.clock?.toString('utf8') ?? null };
}

/** A clock record with each turn's place among the pictures taken off: `[asked, answered, limit]`. */
function unplaced(clock: string): string {
  const record = JSON.parse(clock) as { seats: { turns: unknown[][] }[] };
  for (const seat of record.seats) seat.turns = seat.turns.map((turn) => turn.slice(0, 3));
  return JSON.stringify(record);
}

/** A player that reads everything and never answers (it times out, or the match ends without it). */
const silent: LocalPlayer = async (io) => {
  while ((await io.readLine()) !== null);
};

/** A player that sends `bytes` when it has read `after` lines, then reads on without answering. */
function sendsAfter(after: number, bytes: Uint8Array): LocalPlayer {
  return async (io, sendBytes) => {
    for (let read = 0; (await io.readLine()) !== null; ) if (++read === after) sendBytes(bytes);
  };
}

/** The dama server bot on a node budget, so that its matches do not depend on the machine's speed. */
const damaOnNodes: GameDefinition<DamaConfig> = {
  ...dama,
  configure: (params) => {
    const configured = dama.configure(params);
    return configured.ok ? ok({ ...configured.value, config: { ...configured.value.config, botBudget: { maxNodes: 300 } } }) : configured;
  },
};

/** The chess server bot on a node budget, likewise. */
const chessOnNodes: GameDefinition<ChessConfig> = {
  ...chess,
  configure: (params) => {
    const configured = chess.configure(params);
    return configured.ok ? ok({ ...configured.value, config: { ...configured.value.config, botBudget: { maxNodes: 300 } } }) : configured;
  },
};

/**
 * A chess player that sends the lines of its colour (colours are drawn): White its first at once,
 * then each side its next line each time it reads one, so a line may wait for its turn.
 */
function chessLines(white: readonly string[], black: readonly string[]): LocalPlayer {
  return async (io) => {
    for (let i = 0; i < 2; i++) await io.readLine();
    const isWhite = (await io.readLine()) === '0';
    const lines = [...(isWhite ? white : black)];
    if (isWhite && lines.length > 0) io.write(`${lines.shift()}\n`);
    while ((await io.readLine()) !== null) if (lines.length > 0) io.write(`${lines.shift()}\n`);
  };
}

/** The quoridor server bot on a node budget, likewise. */
const quoridorOnNodes = makeQuoridorGame({ botBudget: { nodes: 200 } });

/** The clobber server bot on a node budget, likewise. */
const clobberOnNodes = createClobberGame({ botLimits: { maxNodes: 300 } });

/** Clobber on a 3 x 2 board, `games` games, at `pace`. */
function smallClobber(games: number, pace = '0'): NonNullable<LocalMatchOptions['params']> {
  return { args: { columns: '3', rows: '2', games: String(games), pace } };
}

/** A clobber player that sends `count` lines at once when it has read `after` lines, then reads on. */
function clobberFlood(after: number, count: number): LocalPlayer {
  return async (io) => {
    for (let i = 0; i < after; i++) await io.readLine();
    for (let i = 0; i < count; i++) io.write(`a ${i} b ${i}\n`);
    while ((await io.readLine()) !== null);
  };
}

/** Hase und Igel on the test board, in room `room`, whose administrator commands reach `haseRooms`. */
const haseRooms = new RoomDirectory();
const haseWithRooms = createHaseUndIgelGame({ rooms: haseRooms });
function haseParams(room: string, extra: Record<string, string> = {}): NonNullable<LocalMatchOptions['params']> {
  return { args: { room, board: TEST_BOARD_CODE, ...extra } };
}
const firstLegalHase = (state: GameState) => legalMoves(state)[0]!;
const haseFirstLegal = (): LocalPlayer => scriptedClient(playing(firstLegalHase));

/** A Software-Challenge client that thinks `seconds` on the match's clock before each move (its first legal one). */
function haseThinking(clock: ManualClock, seconds: number): LocalPlayer {
  return scriptedClient(async (state, _request, roomId) => {
    await new Promise<void>((resolve) => clock.setTimer(seconds * 1000, resolve));
    return renderClientMove(roomId, firstLegalHase(state));
  });
}

/** A Software-Challenge client that answers its `at`-th move request with `text`, its others with its first legal move. */
function haseAnswering(at: number, text: (roomId: string) => string): LocalPlayer {
  return scriptedClient((state, request, roomId) => (request === at ? text(roomId) : renderClientMove(roomId, firstLegalHase(state))));
}

/**
 * A client that writes as the Java clients do (XStream): a line break before each element, none
 * after the last. `asked` is told of each move request (1, 2, ...) before it answers.
 */
function haseXStream(asked: (request: number) => void | Promise<void> = () => {}): LocalPlayer {
  return async (io) => {
    const client = new SochaClientState();
    io.write(`<protocol>\n  <join gameType="${GAME_TYPE}"/>`);
    let requests = 0;
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (client.push(`${line}\n`) > 0) {
        await asked(++requests);
        io.write(`\n  ${renderClientMove(client.roomId!, firstLegalHase(client.state!)).trim()}`);
      }
      if (client.finished) return io.write('\n  <sc.protocol.responses.CloseConnection/>\n</protocol>');
    }
  };
}

/**
 * An administrator at work, seen from BLUE's seat: when BLUE is first asked to move it pauses the
 * room, then steps it twice and resumes it, a second apart on the match's clock.
 */
function haseAdministrated(clock: ManualClock, room: string): LocalPlayer {
  return scriptedClient((state, request, roomId) => {
    if (request === 1) {
      const gate = haseRooms.get(room)!;
      gate.pause(true);
      clock.setTimer(1000, () => gate.step());
      clock.setTimer(2000, () => gate.step());
      clock.setTimer(3000, () => gate.pause(false));
    }
    return renderClientMove(roomId, firstLegalHase(state));
  });
}

/** A client that plays seeded random legal moves. */
function haseRandom(seed: string): LocalPlayer {
  const random = Random.fromSeed(seed);
  return scriptedClient(playing((state) => random.pick(legalMoves(state))));
}

/** The manual clocks of the hase und igel cases whose players think on them. */
const haseClocks = { soft: new ManualClock(), inTime: new ManualClock(), untimed: new ManualClock(), administrated: new ManualClock() };

/** A client that cancels its room through the administrator's gate when it is first asked to move. */
function haseCancelling(room: string): LocalPlayer {
  return scriptedClient((): null => {
    haseRooms.get(room)!.cancel();
    return null;
  });
}

interface ReplayCase {
  readonly name: string;
  readonly options: LocalMatchOptions;
  /** The reason the match must end with, so that the case shows what it is meant to. */
  readonly reason?: RegExp;
}

/**
 * For each built-in game whose events are derived from its seats' input, recorded matches whose
 * replay must show what the game drew as it played: whole matches of bots, and each way a player
 * leaves (a timeout, a bad line, invalid UTF-8, going away), since the drawing tells why.
 */
const REPLAY_CASES: Readonly<Record<string, readonly ReplayCase[]>> = {
  roshambo: [
    { name: 'bots', options: { game: roshambo, params: { bots: 2, args: { pace: '0', rounds: '300' } }, players: [], seed: 'replay-roshambo' } },
    { name: 'timeout', options: { game: roshambo, clock: new ManualClock(), params: { timeout: 30, args: { pace: '0', rounds: '3' } }, players: [{ name: 'a', play: silent }, { name: 'b', play: scripted(['ROCK']) }] }, reason: /round 1: a retired/ },
  ],
  royalur: [
    { name: 'bots', options: { game: royalur, params: { bots: 2, args: { pace: '0' } }, players: [], seed: 'replay-royalur' }, reason: /tokens home/ },
    { name: 'other bots', options: { game: royalur, params: { bots: 2, args: { pace: '0' } }, players: [], seed: 'replay-royalur-2' }, reason: /tokens home/ },
    { name: 'timeout', options: { game: royalur, clock: new ManualClock(), params: { timeout: 20, args: { pace: '0' } }, players: [{ name: 'a', play: silent }, { name: 'b', play: silent }] }, reason: /did not move in time|timed out|time/ },
    { name: 'invalid move', options: { game: royalur, params: { args: { pace: '0' } }, players: [{ name: 'a', play: scripted(['X', 'X'], 3) }, { name: 'b', play: scripted(['X', 'X'], 3) }] }, reason: /invalid move/ },
    { name: 'gone', options: { game: royalur, params: { args: { pace: '0' } }, players: [{ name: 'a', play: scripted([], 3) }, { name: 'b', play: scripted([], 3) }] } },
    { name: 'a server bot against a player gone', options: { game: royalur, params: { bots: 1, args: { pace: '0' } }, players: [{ name: 'a', play: scripted([], 3) }], seed: 'replay-royalur-3' } },
  ],
  dama: [
    { name: 'bots', options: { game: damaOnNodes, params: { bots: 2, args: { pace: '0' } }, players: [], seed: 'replay-dama' } },
    { name: 'other bots', options: { game: damaOnNodes, params: { bots: 2, args: { pace: '0' } }, players: [], seed: 'replay-dama-2' } },
    { name: 'timeout', options: { game: dama, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0' } }, players: [{ name: 'a', play: silent }, { name: 'b', play: silent }] }, reason: /did not move in time/ },
    { name: 'invalid UTF-8', options: { game: dama, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0' } }, players: [{ name: 'a', play: sendsAfter(14, Uint8Array.of(0xff, 0xfe, 0x0a)) }, { name: 'b', play: sendsAfter(14, Uint8Array.of(0xff, 0xfe, 0x0a)) }] }, reason: /invalid UTF-8/ },
    { name: 'invalid lines', options: { game: dama, params: { args: { pace: '0' } }, players: [{ name: 'a', play: scripted(Array(120).fill('6A 6B'), 0) }, { name: 'b', play: scripted(Array(120).fill('6A 6B'), 0) }] }, reason: /invalid lines/ },
    { name: 'a server bot against a player gone', options: { game: damaOnNodes, params: { bots: 1, args: { pace: '0' } }, players: [{ name: 'a', play: scripted([], 0) }], seed: 'replay-dama-3' } },
  ],
  quoridor: [
    { name: 'engines', options: { game: quoridor, params: { args: { pace: '0', size: '5', games: '2' } }, players: [{ name: 'a', play: fakeEngine({ style: { kind: 'forward', walls: 3 }, seed: 'a' }) }, { name: 'b', play: fakeEngine({ style: { kind: 'random' }, seed: 'b' }) }] }, reason: /wins/ },
    { name: 'bots', options: { game: quoridorOnNodes, params: { bots: 2, args: { pace: '0', size: '5', games: '2' } }, players: [], seed: 'replay-quoridor' } },
    { name: 'engines that chatter, comment and refuse', options: { game: quoridor, params: { args: { pace: '0.75', size: '5', games: '1' } }, clock: new ManualClock(), players: [{ name: 'a', play: fakeEngine({ deviations: { falseForUnknown: true, chatterFirst: true, comments: true, noBlankLine: true }, seed: 'c' }) }, { name: 'b', play: fakeEngine({ deviations: { trailingSpace: true, tabs: true, crlf: true }, seed: 'd' }) }] } },
    { name: 'timeout', options: { game: quoridor, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0', size: '5', games: '2' } }, players: [{ name: 'a', play: silent }, { name: 'b', play: silent }] }, reason: /neither player could start/ },
    { name: 'a timeout mid-game', options: { game: quoridor, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0', size: '5', games: '2' } }, players: [{ name: 'a', play: fakeEngine({ genmoveAnswer: (_board, _side, count) => (count === 2 ? null : undefined) }) }, { name: 'b', play: fakeEngine() }] }, reason: /timed out/ },
    { name: 'garbage and an illegal move', options: { game: quoridor, params: { args: { pace: '0', size: '5', games: '2' } }, players: [{ name: 'a', play: fakeEngine({ genmoveAnswer: (_board, _side, count) => (count === 1 ? '= Z9\n\n' : undefined) }) }, { name: 'b', play: fakeEngine({ genmoveAnswer: (_board, _side, count) => (count === 1 ? '= A1\n\n' : undefined) }) }] }, reason: /garbage|illegal/ },
    { name: 'gone', options: { game: quoridor, params: { args: { pace: '0', size: '5', games: '2' } }, players: [{ name: 'a', play: scripted([], 1) }, { name: 'b', play: fakeEngine() }] }, reason: /left the game/ },
    { name: 'a server shutdown mid-match', options: matchStoppedMidGame(quoridor), reason: /Game 1: interrupted \(server shutdown\)/ },
  ],
  clobber: [
    { name: 'random players', options: { game: clobber, params: { args: { columns: '6', rows: '5', games: '4', pace: '0' } }, players: [{ name: 'a', play: randomPlayer(Random.fromSeed('replay-clobber-a')) }, { name: 'b', play: randomPlayer(Random.fromSeed('replay-clobber-b')) }] }, reason: /has no legal move/ },
    { name: 'a server bot', options: { game: clobberOnNodes, params: { bots: 1, args: { columns: '5', rows: '4', games: '2', pace: '0' } }, players: [{ name: 'a', play: randomPlayer(Random.fromSeed('replay-clobber-c')) }], seed: 'replay-clobber' } },
    { name: 'a timeout, then a game played, paced', options: { game: clobber, clock: new ManualClock(), params: { ...smallClobber(2, '0.75'), timeout: 30 }, players: [{ name: 'a', play: clobberScript(['3 2 1', 'error', '3 2 0', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2']) }, { name: 'b', play: clobberScript(['3 2 0', 'end', '3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2']) }] }, reason: /ran out of time/ },
    { name: 'out of turn', options: { game: clobber, params: smallClobber(1), players: [{ name: 'a', play: silent }, { name: 'b', play: clobberScript(['3 2 0', '>a 2 b 2']) }] }, reason: /out of turn/ },
    { name: 'out of turn by arrival alone', options: { game: clobber, params: smallClobber(1), players: sameTickPlayers() }, reason: /b 1[^]*out of turn/ },
    { name: 'an illegal move, play lines, garbage', options: { game: clobber, params: smallClobber(3), players: [{ name: 'a', play: clobberScript(['>play clobber a', '3 2 1', '>b 1 c 1', 'error', '3 2 0', 'end', '3 2 1', '>play clobber a', 'error']) }, { name: 'b', play: clobberScript(['3 2 0', 'end', '3 2 1', '>play clobber b', '>zz', 'error', '3 2 0', 'end']) }] }, reason: /illegal move[^]*not a move[^]*not a move/ },
    // The flood comes in the pause between games: no game reads it, so the seat is cut.
    { name: 'a flood between games, cut, and gone for the next game', options: { game: clobber, clock: new ManualClock(), params: { ...smallClobber(2, '1'), timeout: 5 }, players: [{ name: 'a', play: silent }, { name: 'b', play: clobberFlood(2, 70) }] }, reason: /ran out of time[^]*left the match/ },
    { name: 'gone between games', options: { game: clobber, params: smallClobber(2), players: [{ name: 'a', play: clobberScript(['3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2']) }, { name: 'b', play: clobberScript(['3 2 0', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2'], { thenLeave: true }) }] }, reason: /left the match/ },
  ],
  'hase-und-igel': [
    { name: 'random legal play', options: { game: haseUndIgel, params: haseParams('h1'), players: [{ name: 'a', play: haseRandom('replay-hase-a') }, { name: 'b', play: haseRandom('replay-hase-b') }] }, reason: /reached the goal|round limit/ },
    { name: 'bots', options: { game: haseUndIgel, params: { bots: 2, args: {} }, players: [], seed: 'replay-hase' }, reason: /reached the goal|round limit/ },
    { name: 'a move past the soft time limit', options: { game: haseUndIgel, clock: haseClocks.soft, params: haseParams('h2'), players: [{ name: 'a', play: haseThinking(haseClocks.soft, 2.001) }, { name: 'b', play: haseFirstLegal() }] }, reason: /soft time limit|too late|SOFT|late/i },
    { name: 'moves just inside the soft time limit', options: { game: haseUndIgel, clock: haseClocks.inTime, params: haseParams('h3'), players: [{ name: 'a', play: haseThinking(haseClocks.inTime, 2) }, { name: 'b', play: haseThinking(haseClocks.inTime, 2) }] }, reason: /reached the goal|round limit/ },
    { name: 'a silent player (the hard time limit)', options: { game: haseUndIgel, clock: new ManualClock(), params: haseParams('h4'), players: [{ name: 'a', play: scriptedClient(() => null) }, { name: 'b', play: haseFirstLegal() }] } },
    { name: 'a late seat that cannot time out', options: { game: haseUndIgel, clock: haseClocks.untimed, params: haseParams('h5', { canTimeout: 'false,true' }), players: [{ name: 'a', play: haseThinking(haseClocks.untimed, 100) }, { name: 'b', play: haseFirstLegal() }] }, reason: /reached the goal|round limit/ },
    { name: 'a move out of turn, sent with the join', options: { game: haseUndIgel, params: haseParams('h6'), players: [{ name: 'a', play: haseFirstLegal() }, { name: 'b', play: scriptedClient(() => null, { greeting: `  <join gameType="${GAME_TYPE}"/>\n${renderClientMove('h6', move(advance(1)))}` }) }] } },
    { name: 'a move that breaks a rule', options: { game: haseUndIgel, params: haseParams('h7'), players: [{ name: 'a', play: haseFirstLegal() }, { name: 'b', play: haseAnswering(3, (roomId) => renderClientMove(roomId, move(advance(60)))) }] } },
    { name: 'unreadable XML', options: { game: haseUndIgel, params: haseParams('h8'), players: [{ name: 'a', play: haseAnswering(2, () => '<room roomId="h8"><data class="move"><<</data></room>\n') }, { name: 'b', play: haseFirstLegal() }] } },
    { name: 'a player that closes its stream', options: { game: haseUndIgel, params: haseParams('h9'), players: [{ name: 'a', play: haseFirstLegal() }, { name: 'b', play: haseAnswering(4, () => '</protocol>') }] } },
    { name: 'a client without line breaks (XStream)', options: { game: haseUndIgel, params: haseParams('h10', { hardTimeout: '5' }), players: [{ name: 'a', play: haseXStream() }, { name: 'b', play: haseFirstLegal() }] }, reason: /reached the goal|round limit/ },
    { name: 'paced, paused, stepped and resumed by an administrator', options: { game: haseWithRooms, clock: haseClocks.administrated, params: haseParams('h11', { pace: '0.5' }), players: [{ name: 'a', play: haseFirstLegal() }, { name: 'b', play: haseAdministrated(haseClocks.administrated, 'h11') }] }, reason: /reached the goal|round limit/ },
    { name: 'cancelled by an administrator while waiting for a move', options: { game: haseWithRooms, params: haseParams('h12'), players: [{ name: 'a', play: haseCancelling('h12') }, { name: 'b', play: haseFirstLegal() }] }, reason: /cancelled/ },
    { name: 'a player that never joins', options: { game: haseUndIgel, clock: new ManualClock(), params: haseParams('h13'), players: [{ name: 'a', play: silent }, { name: 'b', play: haseFirstLegal() }] } },
  ],
  chess: [
    { name: 'bots', options: { game: chessOnNodes, params: { bots: 2, args: { pace: '0' } }, players: [], seed: 'replay-chess' } },
    { name: 'other bots', options: { game: chessOnNodes, params: { bots: 2, args: { pace: '0' } }, players: [], seed: 'replay-chess-2' } },
    { name: 'timeout', options: { game: chess, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0' } }, players: [{ name: 'a', play: silent }, { name: 'b', play: silent }] }, reason: /did not move in time/ },
    { name: 'a draw offer not answered in time', options: { game: chess, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0' } }, players: [{ name: 'a', play: chessLines(['DRAW'], []) }, { name: 'b', play: chessLines(['DRAW'], []) }] }, reason: /DRAW|did not move in time/ },
    { name: 'invalid UTF-8', options: { game: chess, clock: new ManualClock(), params: { timeout: 5, args: { pace: '0' } }, players: [{ name: 'a', play: sendsAfter(3, Uint8Array.of(0xff, 0xfe, 0x0a)) }, { name: 'b', play: sendsAfter(3, Uint8Array.of(0xff, 0xfe, 0x0a)) }] }, reason: /not UTF-8/ },
    { name: 'an illegal move', options: { game: chess, params: { args: { pace: '0' } }, players: [{ name: 'a', play: chessLines(['e2 e5'], []) }, { name: 'b', play: chessLines(['e2 e5'], []) }] }, reason: /illegal move/ },
    { name: 'a draw refused, then a retirement, paced', options: { game: chess, clock: new ManualClock(), params: { args: { pace: '2.5' } }, players: [{ name: 'a', play: chessLines(['DRAW', 'e2 e4', 'RETIRE'], ['e7 e5', 'e7 e5']) }, { name: 'b', play: chessLines(['DRAW', 'e2 e4', 'RETIRE'], ['e7 e5', 'e7 e5']) }] }, reason: /refuses the draw[^]*retired/ },
    { name: 'a draw agreed', options: { game: chess, params: { args: { pace: '0' } }, players: [{ name: 'a', play: chessLines(['e2 e4', 'DRAW'], ['e7 e5', 'DRAW']) }, { name: 'b', play: chessLines(['e2 e4', 'DRAW'], ['e7 e5', 'DRAW']) }] }, reason: /draw agreed/ },
    { name: 'gone', options: { game: chess, params: { args: { pace: '0' } }, players: [{ name: 'a', play: scripted([], 3) }, { name: 'b', play: scripted([], 3) }] }, reason: /disconnected/ },
    { name: 'a server bot against a player gone', options: { game: chessOnNodes, params: { bots: 1, args: { pace: '0' } }, players: [{ name: 'a', play: scripted([], 3) }], seed: 'replay-chess-3' } },
  ],
};

test('every built-in game either draws as it plays or is replayed on its input, and a replay of its recorded matches shows what the game drew as it played, its clock turns placed among the pictures where they were', async () => {
  const derivedGames = BUILT_IN_GAMES.filter((game) => game.visFromInput === true).map((game) => game.name);
  assert.deepEqual(derivedGames.sort(), Object.keys(REPLAY_CASES).sort(), 'the games replayed on their input, each with its cases here');
  for (const [game, cases] of Object.entries(REPLAY_CASES)) {
    for (const { name, options, reason } of cases) {
      const { drawn, derived, drawnClock, derivedClock } = await drawnAndDerived(options);
      assert.ok(JSON.parse(drawn).length > 5, `${game}, ${name}: something drawn`);
      assert.equal(derived, drawn, `${game}, ${name}`);
      if (drawnClock !== null) assert.ok(JSON.parse(drawnClock).seats.some((seat: { turns: unknown[] }) => seat.turns.length > 0), `${game}, ${name}: some seat had a turn`);
      else assert.match(name, /timeout|gone/, `${game}, ${name}: a clock unless no seat was ever asked to move (engines that never started)`);
      assert.equal(derivedClock, drawnClock, `${game}, ${name}: the clock`);
      if (reason) assert.match(drawn, reason, `${game}, ${name}`);
    }
  }
});

test('a record notes why a seat was closed when its game read the end of its input, unless the player went away', async () => {
  const { note } = await drawnAndDerived(REPLAY_CASES['dama']!.find((replay) => replay.name === 'timeout')!.options);
  assert.deepEqual(note.ends, ['timeout', null]);
  const gone = await drawnAndDerived(REPLAY_CASES['royalur']!.find((replay) => replay.name === 'gone')!.options);
  assert.equal(gone.note.ends, undefined);
  assert.deepEqual(parseVisReplayNote(visReplayNoteJson(note)), note);
  // Clobber notes what it decided by arrival and by timer: a timeout, each reset's dropped lines, a seat gone.
  const flood = await drawnAndDerived(REPLAY_CASES['clobber']!.find((replay) => replay.name.startsWith('a flood'))!.options);
  assert.deepEqual(flood.note.decisions, [0, 0, 0, 0, 64, 6]);
  assert.deepEqual(parseVisReplayNote(visReplayNoteJson(flood.note)), flood.note);
  assert.equal(parseVisReplayNote(visReplayNoteJson({ ...flood.note, decisions: [1, -1] })), null, 'a decision is a count');
});

test('a roshambo record keeps the note its events are derived from, not the events', async () => {
  let made: Match<any> | null = null;
  await playLocalMatch({
    game: roshambo,
    params: { args: { rounds: '3', pace: '0' } },
    players: [
      { name: 'a', play: scripted(['ROCK', 'PAPER', 'ROCK']) },
      { name: 'b', play: scripted(['PAPER', 'PAPER']) },
    ],
    made: (match) => (made = match),
  });
  assert.deepEqual(parseVisReplayNote(made!.recordVis().toString()), { timeout: 30, taken: [3, 2] });
});

test('roshambo replays show what it drew: retirements, bad gestures, a player gone, a server bot', async () => {
  const cases: { name: string; options: LocalMatchOptions }[] = [
    { name: 'full match', options: { game: roshambo, params: { args: { rounds: '7', pace: '0' } }, players: [{ name: 'a', play: scripted(['ROCK', 'PAPER', 'SCISSORS', 'ROCK', 'ROCK', 'PAPER', 'PAPER']) }, { name: 'b', play: scripted(['PAPER', 'PAPER', 'ROCK', 'ROCK', 'SCISSORS', 'SCISSORS', 'PAPER']) }] } },
    { name: 'bad gesture', options: { game: roshambo, params: { args: { rounds: '5', pace: '0' } }, players: [{ name: 'a', play: scripted(['ROCK', 'LIZARD']) }, { name: 'b', play: scripted(['PAPER', 'PAPER', 'PAPER']) }] } },
    { name: 'gone', options: { game: roshambo, params: { args: { rounds: '5', pace: '0' } }, players: [{ name: 'a', play: scripted(['ROCK']) }, { name: 'b', play: scripted(['SCISSORS', 'PAPER']) }] } },
    { name: 'both gone', options: { game: roshambo, params: { args: { rounds: '5', pace: '0' } }, players: [{ name: 'a', play: scripted([]) }, { name: 'b', play: scripted([]) }] } },
    { name: 'server bot', options: { game: roshambo, params: { bots: 1, args: { rounds: '40', pace: '0' } }, players: [{ name: 'a', play: scripted(Array.from({ length: 40 }, (_, i) => ['ROCK', 'PAPER', 'SCISSORS'][i % 3]!)) }], seed: 'with-a-bot' } },
    { name: 'unicode names, padded gestures', options: { game: roshambo, params: { args: { rounds: '2', pace: '0' } }, players: [{ name: 'ä日🙂', play: scripted(['  ROCK  ', 'PAPER\r']) }, { name: 'b', play: scripted(['PAPER', 'ROCK']) }] } },
  ];
  for (const { name, options } of cases) {
    const { derived, drawn } = await bothWays(options);
    assert.equal(derived, drawn, name);
  }
});

test('a roshambo player that times out retires in the replay as it did in the match, and paced rounds replay as they were drawn', async () => {
  const silentAfterOne: LocalPlayer = async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    io.write('ROCK\n');
    while ((await io.readLine()) !== null);
  };
  for (const [name, params, first] of [
    ['timeout', { timeout: 30, args: { rounds: '4', pace: '0' } }, silentAfterOne],
    ['pace', { args: { rounds: '3', pace: '1.5' } }, scripted(['ROCK', 'PAPER', 'ROCK'])],
  ] as const) {
    const play = async (game: GameDefinition<any>): Promise<string> => {
      // Time moves only when the match waits (ManualClock).
      const clock = new ManualClock();
      const record = await clock.runUntil(playLocalMatch({ game, clock, params, players: [{ name: 'a', play: first }, { name: 'b', play: scripted(['PAPER', 'PAPER', 'PAPER', 'PAPER']) }] }));
      if (name === 'timeout') assert.match(record.outcome.result!.reason, /a retired in round 2/);
      return record.visJson;
    };
    assert.equal(await play(roshambo), await play(drawingAsItPlays(roshambo)), name);
  }
});

test('a viewer who comes in the middle of a roshambo match gets the events so far and then each new one: the whole drawing', async () => {
  const moves = Array.from({ length: 30 }, (_, i) => ['ROCK', 'PAPER', 'SCISSORS'][(i * 7) % 3]!);
  let match: Match<any> | null = null;
  let seen = '';
  const events: string[] = [];
  let ended = false;
  const watcher: LocalPlayer = async (io) => {
    for (let i = 0; i < 3; i++) await io.readLine();
    for (let round = 0; round < moves.length; round++) {
      if (round === 12) {
        const { historyJson, live } = match!.vis.subscribe({ history: () => {}, event: (event) => events.push(JSON.stringify(event)), end: () => (ended = true) });
        assert.ok(live);
        seen = historyJson.toString('utf8');
      }
      io.write(`${moves[round]}\n`);
      if ((await io.readLine()) === null) return;
    }
  };
  const options = (game: GameDefinition<any>): LocalMatchOptions => ({ game, params: { args: { rounds: '30', pace: '0' } }, players: [{ name: 'a', play: watcher }, { name: 'b', play: scripted([...moves].reverse()) }], made: (made) => (match = made) });
  const watched = await playLocalMatch(options(roshambo));
  assert.ok(ended);
  // Once watched, the record keeps the events and the clock placed among them by the viewer's replay.
  const placed = JSON.parse(watched.outcome.artifacts[CLOCK_RECORD.artifact]!) as { seats: { turns: number[][] }[] };
  assert.deepEqual(
    placed.seats.map((seat) => seat.turns.map((turn) => turn.slice(3))),
    // The start draws 5 events (two names, "vs", the score, a log line), each round 3 (the score replaced, a log line).
    [0, 1].map(() => moves.map((_, round) => [5 + 3 * round, 5 + 3 * round])),
    'each round asks both seats once the last is drawn, and draws their gestures after both answered',
  );
  assert.equal(watched.clock, watched.outcome.artifacts[CLOCK_RECORD.artifact]);
  const whole = seen === '[]' ? `[${events.join(',')}]` : `${seen.slice(0, -1)}${events.length > 0 ? `,${events.join(',')}` : ''}]`;
  const drawn = await playLocalMatch({ ...options(drawingAsItPlays(roshambo)), players: [{ name: 'a', play: scripted(moves) }, { name: 'b', play: scripted([...moves].reverse()) }] });
  assert.deepEqual(JSON.parse(whole), JSON.parse(drawn.visJson));
  // Once watched, the record keeps the events themselves.
  assert.equal(watched.visJson, drawn.visJson);
  assert.equal(parseVisReplayNote(match!.recordVis().toString()), null);
});

test('a viewer watching a dama, chess, quoridor, clobber or hase und igel match live sees a player who times out drawn as timed out, as the game drew it', async () => {
  const stalls: LocalPlayer = fakeEngine({ genmoveAnswer: (_board, _side, count) => (count === 2 ? null : undefined) });
  const cases: { game: GameDefinition<any>; args: Record<string, string>; players: LocalPlayer[]; reason: RegExp }[] = [
    { game: dama, args: { pace: '0' }, players: [silent, silent], reason: /did not move in time/ },
    { game: chess, args: { pace: '0' }, players: [silent, silent], reason: /did not move in time/ },
    { game: quoridor, args: { pace: '0', size: '5', games: '2' }, players: [stalls, fakeEngine()], reason: /timed out/ },
    // Clobber's timeout is its own timer's, not the seat's: the live replay recalls it.
    { game: clobber, args: { pace: '0', columns: '3', rows: '2', games: '2' }, players: [silent, sendsAfter(1, new TextEncoder().encode('a 1 b 1\n'))], reason: /out of turn[^]*ran out of time/ },
    // Hase und igel's limits are its own timer's and its clock's: the live replay recalls them.
    { game: haseUndIgel, args: { board: TEST_BOARD_CODE }, players: [haseAnswering(3, () => ''), haseFirstLegal()], reason: /hard time limit/ },
  ];
  const watchedFromTheStart = async (game: GameDefinition<any>, { args, players, reason }: (typeof cases)[number]): Promise<string[]> => {
    const clock = new ManualClock();
    let history = '';
    const events: string[] = [];
    const record = await clock.runUntil(
      playLocalMatch({
        game,
        clock,
        params: { timeout: 5, args },
        players: players.map((play, index) => ({ name: 'ab'[index]!, play })),
        made: (match) => {
          const { historyJson } = match.vis.subscribe({ history: () => {}, event: (event) => events.push(JSON.stringify(event)), end: () => {} });
          history = historyJson.toString('utf8');
        },
      }),
    );
    // The match's result, or for quoridor's series the game's line in the drawing.
    assert.match(`${record.outcome.result!.reason}\n${record.visJson}`, reason);
    const whole = JSON.parse(`[${[history.slice(1, -1), ...events].filter((part) => part !== '').join(',')}]`) as unknown[];
    // What the viewer saw is what the record keeps.
    assert.deepEqual(whole, JSON.parse(record.visJson));
    return [record.visJson, record.outcome.artifacts[CLOCK_RECORD.artifact]!];
  };
  // Its clock too: the live replay placed the turns where the game drawing as it played did.
  for (const watched of cases) {
    assert.deepEqual(await watchedFromTheStart(watched.game, watched), await watchedFromTheStart(drawingAsItPlays(watched.game), watched), watched.game.name);
  }
});

test('a viewer who comes in the middle of a hase und igel match, which reads text as it comes, gets the events so far and then each new one: the whole drawing', async () => {
  let match: Match<any> | null = null;
  let watching = true;
  let history = '';
  const events: string[] = [];
  // RED writes as XStream: what it sent so far ends in a message still waiting for a line break.
  const options = (game: GameDefinition<any>): LocalMatchOptions => ({
    game,
    params: haseParams('hv'),
    players: [
      {
        name: 'a',
        play: haseXStream(async (request) => {
          if (request !== 6 || !watching) return;
          // As the page's gateway does: the replay catches up with the match first (Match.drawn).
          await match!.drawn();
          history = match!.vis.subscribe({ history: () => {}, event: (event) => events.push(JSON.stringify(event)), end: () => {} }).historyJson.toString('utf8');
        }),
      },
      { name: 'b', play: haseFirstLegal() },
    ],
    made: (made) => (match = made),
  });
  const watched = await playLocalMatch(options(haseUndIgel));
  watching = false;
  const drawn = await playLocalMatch(options(drawingAsItPlays(haseUndIgel)));
  assert.match(drawn.outcome.result!.reason, /reached the goal|round limit/);
  assert.ok(history.includes('"9. RED a:') && !history.includes('"11. RED a:'), 'the viewer came in the middle, after five moves of each');
  const whole = JSON.parse(`[${[history.slice(1, -1), ...events].filter((part) => part !== '').join(',')}]`) as unknown[];
  assert.deepEqual(whole, JSON.parse(drawn.visJson));
  assert.equal(watched.visJson, drawn.visJson, 'once watched, the record keeps the events');
  // The two matches ran on the real clock: their turns' times differ, their places among the pictures do not.
  const places = (clock: string | null) => (JSON.parse(clock!) as { seats: { turns: number[][] }[] }).seats.map((seat) => seat.turns.map((turn) => turn.slice(3)));
  assert.deepEqual(places(watched.clock), places(drawn.clock));
});

test("a drawing derived past the visualizer feed's limit on events is what the match's own feed would have kept, and the replay stops there", async () => {
  let drawnTurns = 0;
  // One seat, 60 lines, 5,000 events a line when drawing: 250,000 events (DEFAULT_VIS_LIMITS.maxEvents) by the 50th.
  const flooding: GameDefinition<null> = {
    name: 'flooding',
    description: '',
    args: {},
    maxLineBytes: 100,
    visFromInput: true,
    configure: () => ok({ players: 1, bots: 0, timeout: 30, args: {}, config: null }),
    play: async (ctx) => {
      let turn = 0;
      while ((await ctx.seats[0]!.readLine()) !== null) {
        turn++;
        if (!ctx.drawing) continue;
        drawnTurns++;
        for (let i = 0; i < 5_000; i++) ctx.vis({ t: turn, log: { line: `${turn}.${i}` } });
      }
      return { scores: [turn], reason: `${turn} lines` };
    },
    playBot: async () => {},
  };
  const lines: LocalPlayer = async (io) => {
    for (let i = 0; i < 60; i++) io.write('x\n');
  };
  const played = await playLocalMatch({ game: flooding, players: [{ name: 'a', play: lines }] });
  assert.equal(played.outcome.result!.reason, '60 lines');
  const events = JSON.parse(played.visJson) as { log: { line: string } }[];
  assert.equal(events.length, 250_000);
  assert.equal(events.at(-1)!.log.line, '50.4999');
  assert.equal(drawnTurns, 51, 'the replay stopped at the first line whose events were refused');
});
