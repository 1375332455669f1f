import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILT_IN_GAMES } from '../games/registry.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import { ManualClock } from '../util/clock.js';
import type { GameDefinition } from './game.js';
import { playLocalMatch, type LocalMatchOptions, type LocalPlayer } from './local-match.js';
import type { Match } from './match.js';
import { parseVisReplayNote } from './vis-replay.js';

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
 * A short match of server bots of each built-in game replayed on its input. A game that draws as
 * it plays keeps doing so, through the path it always took (its bots may search against the
 * clock, so two of its matches need not be the same: nothing to compare there).
 */
const BOT_MATCHES: Readonly<Record<string, Record<string, string>>> = {
  roshambo: { pace: '0', rounds: '300' },
};

test('every built-in game either draws as it plays or is replayed on its input, and a replay of a match of bots shows what the game drew as it played', async () => {
  for (const game of BUILT_IN_GAMES) {
    const args = BOT_MATCHES[game.name];
    if (args === undefined) {
      assert.notEqual(game.visFromInput, true, `${game.name} is replayed on its input: give it a match here`);
      continue;
    }
    const { derived, drawn } = await bothWays({ game, params: { bots: 2, args }, players: [], seed: `replay-${game.name}` });
    assert.ok(JSON.parse(drawn).length > 10, game.name);
    assert.equal(derived, drawn, game.name);
  }
  assert.equal(roshambo.visFromInput, true);
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
  const whole = seen === '[]' ? `[${events.join(',')}]` : `${seen.slice(0, -1)}${events.length > 0 ? `,${events.join(',')}` : ''}]`;
  const drawn = await playLocalMatch({ ...options(drawingAsItPlays(roshambo)), players: [{ name: 'a', play: scripted(moves) }, { name: 'b', play: scripted([...moves].reverse()) }] });
  assert.deepEqual(JSON.parse(whole), JSON.parse(drawn.visJson));
  // Once watched, the record keeps the events themselves.
  assert.equal(watched.visJson, drawn.visJson);
  assert.equal(parseVisReplayNote(match!.recordVis().toString()), null);
});
