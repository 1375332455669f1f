import { test } from 'node:test';
import assert from 'node:assert/strict';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import { ManualClock } from '../../util/clock.js';
import type { VisEvent } from '../../protocol/vis-event.js';
import { BUILT_IN_GAMES } from '../registry.js';
import { clobber, createClobberGame } from './clobber.js';
import { randomPlayer, sameTickPlayers, scripted } from './test-players.js';

/** The server bot on a small node budget: deterministic and quick. */
const game = createClobberGame({ botLimits: { maxNodes: 300 } });

const ALICE = [
  '>play clobber Alice', '3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2',
  '3 2 0', 'a 1 a 2', '>c 2 b 2', 'c 1 b 1', '>b 2 b 1',
  '3 2 1', '>a 1 c 1', 'error',
];
const BOB = [
  '>play clobber Bob', '3 2 0', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2',
  '3 2 1', '>a 1 a 2', 'c 2 b 2', '>c 1 b 1', 'b 2 b 1',
  '3 2 0', 'end',
];
const SPECTATORS = [
  'players Alice Bob', 'board 3 2', 'games 3',
  'game 1 black Alice white Bob',
  'move Alice a 1 b 1', 'move Bob c 2 c 1', 'move Alice b 1 c 1', 'move Bob a 2 b 2',
  'result 1 winner Bob loser Alice no-move',
  'game 2 black Bob white Alice',
  'move Bob a 1 a 2', 'move Alice c 2 b 2', 'move Bob c 1 b 1', 'move Alice b 2 b 1',
  'result 2 winner Alice loser Bob no-move',
  'game 3 black Alice white Bob',
  'result 3 winner Bob loser Alice illegal-move',
  'score Alice 1 Bob 2',
];

const received = (transcript: readonly string[]) => transcript.filter((l) => !l.startsWith('>')).map((l) => `${l}\n`).join('');
const sent = (transcript: readonly string[]) => transcript.filter((l) => l.startsWith('>')).map((l) => `${l.slice(1)}\n`).join('');
const fenced = (lines: readonly string[]) => `\`\`\`\n${lines.join('\n')}\n\`\`\``;

/** Reads until the stream ends; sends nothing. */
const silent: LocalPlayer = async (io) => {
  while ((await io.readLine()) !== null);
};

function small(games: number, extra: Record<string, string> = {}) {
  return { args: { columns: '3', rows: '2', games: String(games), pace: '0', ...extra } };
}

test('the pace holds a move back until pace seconds after the previous one; thinking time counts towards it', async () => {
  const clock = new ManualClock();
  /** `scripted`, but thinking `seconds` on the match's clock before each move it sends. */
  const thinking = (seconds: number, transcript: readonly string[]): LocalPlayer => async (io) => {
    for (const step of transcript) {
      if (!step.startsWith('>')) {
        if ((await io.readLine()) === null) return;
        continue;
      }
      await new Promise<void>((resolve) => clock.setTimer(seconds * 1000, resolve));
      io.write(`${step.slice(1)}\n`);
    }
    while ((await io.readLine()) !== null);
  };
  const record = await clock.runUntil(
    playLocalMatch({
      game,
      params: small(1, { pace: '2' }),
      players: [
        { name: 'Alice', play: thinking(0, ['3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2']) },
        { name: 'Bob', play: thinking(3, ['3 2 0', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2']) },
      ],
      clock,
    }),
  );
  assert.match(record.spectatorStream, /result 1 winner Bob loser Alice no-move\n/);
  // Alice answers at once, so her moves wait out the pace (shown at 2 s and 7 s); Bob thinks 3 s,
  // longer than the pace, so his are shown as they come (5 s and 10 s).
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 10_000);
});

test('the description example streams are reproduced byte for byte', async () => {
  const record = await playLocalMatch({
    game,
    params: small(3),
    players: [
      { name: 'Alice', play: scripted(ALICE) },
      { name: 'Bob', play: scripted(BOB) },
    ],
  });
  assert.equal(record.received[0], received(ALICE));
  assert.equal(record.received[1], received(BOB));
  assert.equal(record.sent[0], sent(ALICE));
  assert.equal(record.spectatorStream, SPECTATORS.map((l) => `${l}\n`).join(''));
  assert.deepEqual(record.outcome.result, { scores: [1, 2], reason: 'Bob wins 2-1' });
  for (const block of [ALICE, BOB, SPECTATORS]) assert.ok(clobber.description.includes(fenced(block)), 'description.md shows this stream');
});

test('a line from the player who is not to move is out of turn: it gets error, the mover gets end', async () => {
  const record = await playLocalMatch({
    game,
    params: small(1),
    players: [
      { name: 'Black', play: silent },
      { name: 'White', play: scripted(['3 2 0', '>a 2 b 2']) },
    ],
  });
  assert.equal(record.received[0], '3 2 1\nend\n');
  assert.equal(record.received[1], '3 2 0\nerror\n');
  assert.match(record.spectatorStream, /\nresult 1 winner Black loser White out-of-turn\n/);
  assert.deepEqual(record.outcome.result?.scores, [1, 0]);
});

test('a line sent before the move it would answer arrived is out of turn', async () => {
  // Both lines reach the server in the same tick: black's move first, white's line right after,
  // before the server has forwarded black's move to white.
  const record = await playLocalMatch({ game, params: small(1), players: sameTickPlayers() });
  assert.equal(record.received[0], '3 2 1\nend\n');
  assert.equal(record.received[1], '3 2 0\na 1 b 1\nerror\n');
  assert.match(record.spectatorStream, /\nmove Black a 1 b 1\nresult 1 winner Black loser White out-of-turn\n/);
});

test('a second line right after a move is out of turn', async () => {
  const record = await playLocalMatch({
    game,
    params: small(1),
    players: [
      { name: 'Black', play: scripted(['3 2 1', '>a 1 b 1', '>b 2 c 2']) },
      { name: 'White', play: silent },
    ],
  });
  assert.equal(record.received[0], '3 2 1\nerror\n');
  assert.equal(record.received[1], '3 2 0\na 1 b 1\nend\n');
  assert.match(record.spectatorStream, /result 1 winner White loser Black out-of-turn/);
});

test('the play line is ignored even when it arrives while it is not the player\'s turn', async () => {
  const record = await playLocalMatch({
    game,
    params: small(1),
    players: [
      { name: 'Black', play: scripted(['3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2']) },
      { name: 'White', play: scripted(['3 2 0', '>play clobber White', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2']) },
    ],
  });
  assert.match(record.spectatorStream, /result 1 winner White loser Black no-move/);
  assert.ok(!record.received.some((stream) => /error|end/.test(stream!)));
});

test('a play line that is not the first line is not a move', async () => {
  const record = await playLocalMatch({
    game,
    params: small(1),
    players: [
      { name: 'Black', play: scripted(['>play clobber Black', '3 2 1', '>play clobber Black']) },
      { name: 'White', play: silent },
    ],
  });
  assert.equal(record.received[0], '3 2 1\nerror\n');
  assert.match(record.spectatorStream, /result 1 winner White loser Black bad-syntax/);
});

test('an illegal move loses the game, and the next game starts with colours swapped', async () => {
  const record = await playLocalMatch({
    game,
    params: small(2),
    players: [
      { name: 'A', play: scripted(['3 2 1', '>b 1 c 1', 'error', '3 2 0', 'end']) },
      { name: 'B', play: scripted(['3 2 0', 'end', '3 2 1', '>']) },
    ],
  });
  assert.equal(record.received[0], '3 2 1\nerror\n3 2 0\nend\n');
  assert.equal(record.received[1], '3 2 0\nend\n3 2 1\nerror\n');
  assert.match(record.spectatorStream, /result 1 winner B loser A illegal-move\ngame 2 black B white A\nresult 2 winner A loser B bad-syntax\n/);
  assert.deepEqual(record.outcome.result, { scores: [1, 1], reason: 'draw 1-1' });
});

test('garbage, squares off the board and moving the opponent\'s stone each lose the game', async () => {
  const cases: [string, string][] = [
    ['hello', 'bad-syntax'],
    ['a1 b1', 'bad-syntax'],
    ['a 1 a 3', 'illegal-move'],
    ['b 1 a 1', 'illegal-move'],
    ['a 1 b 2', 'illegal-move'],
  ];
  for (const [line, cause] of cases) {
    const record = await playLocalMatch({
      game,
      params: small(1),
      players: [
        { name: 'Black', play: scripted(['3 2 1', `>${line}`]) },
        { name: 'White', play: silent },
      ],
    });
    assert.equal(record.received[0], '3 2 1\nerror\n', line);
    assert.equal(record.received[1], '3 2 0\nend\n', line);
    assert.match(record.spectatorStream, new RegExp(`result 1 winner White loser Black ${cause}\\n`), line);
  }
});

test('a player silent past the timeout loses the game but stays for the next one', async () => {
  // Time moves only when the match waits (ManualClock), so a busy machine cannot time anyone out early.
  const clock = new ManualClock();
  const record = await clock.runUntil(
    playLocalMatch({
      game,
      params: { ...small(2), timeout: 30 },
      players: [
        { name: 'Slow', play: scripted(['3 2 1', 'error', '3 2 0', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2']) },
        { name: 'Fast', play: scripted(['3 2 0', 'end', '3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2']) },
      ],
      clock,
    }),
  );
  assert.equal(record.outcome.endedAt - record.outcome.startedAt, 30_000, 'the silent turn lasted the whole timeout, the rest took no time');
  assert.equal(record.received[0], '3 2 1\nerror\n3 2 0\na 1 b 1\nb 1 c 1\n');
  assert.match(record.spectatorStream, /result 1 winner Fast loser Slow timeout\n/);
  assert.match(record.spectatorStream, /result 2 winner Slow loser Fast no-move\n/);
  assert.deepEqual(record.outcome.result?.scores, [1, 1]);
  assert.equal(record.outcome.seats[0]!.closeReason, null, 'the seat was not closed for the timeout');
});

test('a player who leaves loses the game at hand and every remaining game', async () => {
  const record = await playLocalMatch({
    game,
    params: small(3),
    players: [
      { name: 'Stays', play: silent },
      { name: 'Leaves', play: async (io) => void (await io.readLine()) },
    ],
  });
  assert.equal(record.received[0], '3 2 1\nend\n');
  assert.match(record.spectatorStream, /result 1 winner Stays loser Leaves disconnected\ngame 2 black Leaves white Stays\nresult 2 winner Stays loser Leaves disconnected\ngame 3 black Stays white Leaves\nresult 3 winner Stays loser Leaves disconnected\nscore Stays 3 Leaves 0\n$/);
  assert.deepEqual(record.outcome.result, { scores: [3, 0], reason: 'Stays wins 3-0 (Leaves left in game 1; the remaining games went to Stays)' });
  assert.equal(record.outcome.seats[1]!.closeReason, 'disconnected');
});

test('a player who leaves between games loses the next game and the rest', async () => {
  const record = await playLocalMatch({
    game,
    params: small(2),
    players: [
      { name: 'A', play: scripted(['3 2 1', '>a 1 b 1', 'c 2 c 1', '>b 1 c 1', 'a 2 b 2']) },
      // Wins game 1 with its last move, then quits without waiting for game 2.
      { name: 'B', play: scripted(['3 2 0', 'a 1 b 1', '>c 2 c 1', 'b 1 c 1', '>a 2 b 2'], { thenLeave: true }) },
    ],
  });
  assert.match(record.spectatorStream, /result 1 winner B loser A no-move\ngame 2 black B white A\nresult 2 winner A loser B disconnected\n/);
  assert.deepEqual(record.outcome.result?.scores, [1, 1]);
});

test('the server bot plays whole matches against a random player without an error', async () => {
  const errors = { count: 0 };
  const record = await playLocalMatch({
    game,
    params: { args: { columns: '6', rows: '5', games: '4', pace: '0' }, bots: 1, players: 2 },
    players: [{ name: 'Random', play: randomPlayer(Random.fromSeed('bot-match'), errors) }],
    seed: 'bot-match',
  });
  assert.equal(errors.count, 0);
  assert.match(record.received[0]!, /^6 5 1\n/);
  assert.match(record.spectatorStream, /^players Random ServerBot\$0\n/);
  assert.doesNotMatch(record.spectatorStream, /illegal-move|bad-syntax|out-of-turn|timeout|disconnected/);
  const [random, bot] = record.outcome.result!.scores as [number, number];
  assert.equal(random + bot, 4);
  assert.ok(bot >= 3, `the bot won ${bot} of 4`);
});

test('visualizer events draw the board, every stone, each move and the score', async () => {
  const record = await playLocalMatch({
    game,
    params: small(3),
    players: [
      { name: 'Alice', play: scripted(ALICE) },
      { name: 'Bob', play: scripted(BOB) },
    ],
  });
  const events: readonly VisEvent[] = record.vis;
  let lastT = 0;
  const created = new Set<number>();
  const alive = new Set<number>();
  const colours: string[] = [];
  for (const event of events) {
    assert.ok(event.t >= lastT, 'time never goes back');
    lastT = event.t;
    if ('create' in event) {
      assert.ok(!created.has(event.create.id), `id ${event.create.id} reused`);
      created.add(event.create.id);
      alive.add(event.create.id);
      for (const shape of event.create.geom) {
        for (const body of Object.values(shape) as { f?: string; s?: string; p?: readonly number[] }[]) {
          if (body.f) colours.push(body.f);
          if (body.s) colours.push(body.s);
        }
      }
      const [x, y] = event.create.p ?? [0, 0];
      assert.ok(x! >= 0 && x! <= 1 && y! >= 0 && y! <= 1, 'objects sit in the unit square');
    }
    if ('destroy' in event) assert.ok(alive.delete(event.destroy.id), `destroyed ${event.destroy.id} that was not alive`);
    if ('transform' in event) assert.ok(alive.has(event.transform.id), `transformed ${event.transform.id} that was not alive`);
  }
  assert.ok(colours.every((c) => /^[0-9a-f]{8}$/.test(c)));
  const circles = events.filter((e) => 'create' in e && e.create.geom.some((s) => 'circle' in s));
  assert.equal(circles.length, 3 * 6, 'six stones in each of the three games');
  const slides = events.filter((e) => 'transform' in e && e.transform.mv);
  assert.equal(slides.length, 8, 'one slide per move');
  const shrinks = events.filter((e) => 'transform' in e && e.transform.scale);
  assert.equal(shrinks.length, 8, 'each captured stone shrinks');
  const logs = events.filter((e) => 'log' in e).map((e) => ('log' in e ? e.log.line : ''));
  assert.ok(logs.includes('Alice (black): a 1 b 1'));
  assert.ok(logs.includes('game 3: Bob wins, Alice made an illegal move'));
  assert.ok(logs.some((line) => line.startsWith('final score: Alice 1, Bob 2')));
  const texts = events.flatMap((e) => ('create' in e ? e.create.geom.flatMap((s) => ('text' in s ? [s.text.v] : [])) : []));
  assert.ok(texts.includes('game 2 of 3'));
  assert.ok(texts.includes('Alice 1 - 1 Bob'));
});

test('parameters are validated with clear messages', () => {
  const configure = (args: Record<string, string>, players: number | null = null, bots = 0) =>
    clobber.configure({ players, bots, timeout: null, args });
  const defaults = configure({});
  assert.ok(defaults.ok);
  assert.deepEqual(defaults.value.config, { columns: 10, rows: 10, games: 2, pace: 0.5, bot: { maxMillis: 1000 } });
  assert.equal(defaults.value.timeout, 30);
  const short = clobber.configure({ players: null, bots: 1, timeout: 1, args: {} });
  assert.ok(short.ok);
  assert.deepEqual(short.value.config.bot, { maxMillis: 250 }, 'the bot keeps well inside a short timeout');
  assert.deepEqual(configure({ columns: '27' }), { ok: false, error: 'Cannot create game: Argument "columns" must be an integer from 2 to 26, not 27' });
  assert.deepEqual(configure({ rows: '1' }), { ok: false, error: 'Cannot create game: Argument "rows" must be an integer from 2 to 26, not 1' });
  assert.deepEqual(configure({ games: '0' }), { ok: false, error: 'Cannot create game: Argument "games" must be an integer from 1 to 999, not 0' });
  assert.deepEqual(configure({ pace: 'fast' }), { ok: false, error: 'Cannot create game: Invalid pace: invalid float literal' });
  assert.deepEqual(configure({}, 3), { ok: false, error: 'Cannot create game: Cannot create game with 3 players' });
  assert.deepEqual(configure({ size: '8' }), { ok: false, error: 'Cannot create game: Unknown argument "size" (known: columns, rows, games, pace)' });
});

test('clobber is registered as a built-in game', () => {
  assert.ok(BUILT_IN_GAMES.includes(clobber));
  assert.equal(clobber.name, 'clobber');
});
