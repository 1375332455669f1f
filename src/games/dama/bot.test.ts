import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BotIO } from '../../match/game.js';
import { WorkerCompute, type Compute } from '../../match/compute.js';
import { LineQueue } from '../../match/line-queue.js';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { Random } from '../../match/random.js';
import type { VisEvent } from '../../protocol/vis-event.js';
import { ok } from '../../util/result.js';
import { parseSquare } from './board.js';
import { BoardTracker, playDamaBot } from './bot.js';
import { dama, type DamaConfig } from './dama.js';
import { formatMove } from './notation.js';
import { applyMove, legalMoves, outcome, startPosition, type Position } from './rules.js';
import { PROMPT_LINES, YOU_ARE, boardBlock } from './stream.js';

/** Any of the game's answers to an invalid line. */
const REFUSED = /Mossa non valida riprova!|non valid[oa]!|Non hai selezionato/;

const withNodeBudget: typeof dama = {
  ...dama,
  configure: (params) => {
    const configured = dama.configure(params);
    if (!configured.ok) return configured;
    const config: DamaConfig = { ...configured.value.config, botBudget: { maxNodes: 1500 } };
    return ok({ ...configured.value, config });
  },
};

/** A user program playing uniformly random legal moves, reading the board from the stream. */
function randomPlayer(seed: string): LocalPlayer {
  return async (io: BotIO) => {
    const random = Random.fromSeed(seed);
    const tracker = new BoardTracker();
    let color: 'white' | 'black' | null = null;
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      if (tracker.feed(line)) continue;
      if (line === YOU_ARE.white) color = 'white';
      if (line === YOU_ARE.black) color = 'black';
      if (line === PROMPT_LINES[1] && color && tracker.board) {
        const moves = legalMoves({ board: tracker.board, turn: color, quietPlies: tracker.quietPlies });
        io.write(`${formatMove(random.pick(moves))}\n`);
      }
    }
  };
}

async function botMatch(seed: string, compute?: WorkerCompute) {
  return playLocalMatch({
    game: withNodeBudget,
    params: { args: { pace: '0' }, bots: 1, players: 2 },
    seed,
    players: [{ name: 'Random', play: randomPlayer(`${seed}-player`) }],
    ...(compute ? { compute } : {}),
  });
}

test('the server bot\'s search runs on a worker thread, as the server runs it', async () => {
  const compute = new WorkerCompute(1);
  try {
    const record = await botMatch('bot-worker', compute);
    assert.equal(record.outcome.error, null);
    assert.deepEqual(record.outcome.result?.scores, [0, 1], record.outcome.result?.reason);
  } finally {
    await compute.close();
  }
});

test('the server bot plays whole matches through the stream and beats a random player with either colour', async () => {
  const colours = new Set<string>();
  for (const seed of ['bot-1', 'bot-2', 'bot-3', 'bot-4']) {
    const record = await botMatch(seed);
    assert.equal(record.outcome.error, null);
    assert.deepEqual(record.outcome.result?.scores, [0, 1], record.outcome.result?.reason);
    assert.match(record.outcome.result!.reason, /^ServerBot\$0 \((white|black)\) wins: Random \((white|black)\) has no (pieces left|legal move)$/);
    assert.doesNotMatch(record.received[0]!, REFUSED, 'the random player only sends legal moves');
    assert.match(record.received[0]!, /\nGame Over ;\)\n\n$/);
    colours.add(/^ServerBot\$0 \((\w+)\)/.exec(record.outcome.result!.reason)![1]!);
  }
  assert.deepEqual([...colours].sort(), ['black', 'white'], 'the colours are drawn, so the bot played both');
});

function checkVis(events: readonly VisEvent[]): { creates: number; moves: number; destroys: number; kingsCrowned: number; logs: string[] } {
  const alive = new Set<number>();
  const used = new Set<number>();
  let last = 0;
  let moves = 0;
  let destroys = 0;
  let kingsCrowned = 0;
  const logs: string[] = [];
  for (const event of events) {
    assert.ok(event.t >= last, 'times never decrease');
    last = event.t;
    if ('create' in event) {
      assert.equal(used.has(event.create.id), false, `id ${event.create.id} is never reused`);
      used.add(event.create.id);
      alive.add(event.create.id);
      for (const shape of event.create.geom) {
        const body = Object.values(shape)[0] as { f?: string; s?: string };
        for (const colour of [body.f, body.s]) if (colour !== undefined) assert.match(colour, /^[0-9a-f]{8}$/);
      }
      if (event.t > 0 && event.create.geom.length === 2 && 'circle' in event.create.geom[1]!) kingsCrowned++;
    } else if ('transform' in event) {
      assert.ok(alive.has(event.transform.id), 'only live objects move');
      assert.ok(event.transform.mv, 'moves are relative translations');
      moves++;
    } else if ('destroy' in event) {
      assert.ok(alive.delete(event.destroy.id), 'only live objects are destroyed');
      destroys++;
    } else {
      logs.push(event.log.line);
    }
  }
  return { creates: used.size, moves, destroys, kingsCrowned, logs };
}

test('the visualizer draws the board and pieces, animates each move, destroys captures and shows promotions', async () => {
  const record = await botMatch('bot-vis');
  const summary = checkVis(record.vis);
  const moveLines = summary.logs.filter((line) => /^\d+\. /.test(line));
  assert.ok(moveLines.length > 10);
  assert.match(moveLines[0]!, /^1\. \S+ \((bianco|nero)\): 6[aceg] 5[bdfh]$/);
  assert.ok(summary.moves >= moveLines.length, 'every move is animated');
  assert.ok(summary.destroys > 0, 'captured pieces are destroyed');
  assert.ok(summary.kingsCrowned > 0, 'a promotion replaces the man by a king');
  assert.equal(summary.logs.at(-1), record.outcome.result!.reason);
  // Board and labels, then 24 pieces, at time 0.
  assert.equal(record.vis.filter((event) => event.t === 0 && 'create' in event).length, 4 + 24);
});

test('a player can follow the game from the stream alone: the tracker rebuilds board and draw counter', () => {
  const random = Random.fromSeed('tracker');
  const tracker = new BoardTracker();
  let position: Position = startPosition();
  const feed = (text: string) => text.split('\n').forEach((line) => tracker.feed(line));
  feed(boardBlock(position.board));
  for (let ply = 0; ply < 200 && !outcome(position); ply++) {
    assert.deepEqual(tracker.board, position.board);
    assert.equal(tracker.quietPlies, position.quietPlies);
    position = applyMove(position, random.pick(legalMoves(position)));
    feed(`Turno bianco!\n${boardBlock(position.board)}`);
  }
});

test('the server bot searches at the start of a turn, and after a refused line plays another legal move without searching', async () => {
  let searches = 0;
  const compute: Compute = {
    // A "search" that always proposes the same move, refused by the test's game below.
    run: async <T>(): Promise<T> => {
      searches++;
      return { path: [parseSquare('6a'), parseSquare('5b')] } as T;
    },
    runTimed: async <T>(): Promise<T> => {
      searches++;
      return { path: [parseSquare('6a'), parseSquare('5b')] } as T;
    },
    close: async () => {},
  };
  const incoming = new LineQueue();
  const sent: string[] = [];
  const io: BotIO = { readLine: () => incoming.next(), write: (text) => sent.push(text), end: () => {} };
  const feed = (text: string) => text.split('\n').slice(0, -1).forEach((line) => incoming.push(line));
  const until = async (count: number) => {
    while (sent.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  const bot = playDamaBot(io, { maxNodes: 10 }, { seat: 1, random: Random.fromSeed('bot-refused'), compute, timeout: 30, choice: null });
  const start = boardBlock(startPosition().board);
  const prompt = `${PROMPT_LINES.join('\n')}\n`;
  feed(`W\nB\nAvvio la partita di dama...\n${start}Sei i Bianchi\nTurno bianco!\n${prompt}`);
  await until(1);
  assert.deepEqual([sent[0], searches], ['6a 5b\n', 1]);
  feed(`\nSpostamento 6A -> 5B non valido!\nLa posizione scelta è gia occupata.\n${prompt}`);
  await until(2);
  assert.equal(searches, 1, 'no search after a refusal');
  assert.ok(legalMoves(startPosition()).some((move) => `${formatMove(move)}\n` === sent[1]), sent[1]);
  feed(`Attendi il tuo turno!\n3H 4G \n${start}Turno bianco!\n${prompt}`);
  await until(3);
  assert.equal(searches, 2, 'a new turn is searched again');
  incoming.end();
  await bot;
});
