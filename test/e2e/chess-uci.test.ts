import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Chess } from 'chessops/chess';
import { COCO, coco, newMatch, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { readCommand } from '../../src/games/chess/notation.js';
import { ChessGame } from '../../src/games/chess/rules.js';

/** Debian installs stockfish in /usr/games, which is not on every PATH (scripts/setup-test-deps.sh). */
const STOCKFISH = ['/usr/games/stockfish', '/usr/bin/stockfish'].find((path) => existsSync(path)) ?? 'stockfish';

let server: ServerProcess;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

test('two stockfish engines play a whole chess match through cocod, coco connect and coco uci', async () => {
  const id = await newMatch(server.url, ['chess', 'engines', '-a', 'pace=0', '-t', '30']);
  const engine = (name: string) =>
    startCoco(server.url, ['connect', id, '-n', name, '--', process.execPath, COCO, 'uci', '--movetime', '20', '--option', 'Skill Level=0', '--', STOCKFISH]);
  const white = engine('fish1');
  await white.waitForOutput(/> joined/);
  const black = engine('fish2');
  const [first, second] = await Promise.all([white.done, black.done]);
  for (const finished of [first, second]) {
    assert.equal(finished.code, 0, finished.stderr);
    assert.match(finished.stdout, /> match ended/);
  }
  await server.recorded(id);
  const history = await coco(server.url, ['history', id]);
  const lines = history.stdout.split('\n').filter(Boolean);
  // Replays the spectator stream with the rules: every move legal, and the last line the rules' verdict.
  const game = new ChessGame(Chess.default());
  const moves = lines.slice(2, -1);
  assert.ok(moves.length >= 2, history.stdout);
  for (const line of moves) {
    assert.match(line, /^OK (<[a-z0-9]+> ?)+$/);
    const command = readCommand(game.position, line.slice(3).split(' ').map((word) => word.slice(1, -1)).join(' '));
    assert.ok(command.ok && command.value.kind === 'move', line);
    game.play(command.value.move);
  }
  const ending = game.ending();
  assert.ok(ending, 'the game ended by the rules');
  assert.equal(lines.at(-1), ending.kind === 'checkmate' ? `WINNER <${ending.winner.toUpperCase()}>` : `DRAW <${ending.why}>`);
});
