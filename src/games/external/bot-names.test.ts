import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roshambo } from '../roshambo/roshambo.js';
import { botProgramNames, withBotPrograms } from './external-game.js';

test('bot programs are named by their last argument that is not an option, without folder and extension; repeats get -2, -3', () => {
  const cwd = '/srv/games/x';
  assert.deepEqual(
    botProgramNames([
      { argv: ['python3', 'bots/greedy.py'], cwd },
      { argv: ['python3', 'bots/greedy.py', '--fast'], cwd },
      { argv: ['./random'], cwd },
      { argv: ['node', 'gesture.mjs', 'ROCK'], cwd },
      { argv: ['python3', 'other/greedy.py'], cwd },
    ]),
    ['greedy', 'greedy-2', 'random', 'ROCK', 'greedy-3'],
  );
});

test('a game with bot programs offers them by name to a tournament\'s seats', () => {
  const game = withBotPrograms(roshambo, [
    { argv: ['python3', 'rock.py'], cwd: '/x' },
    { argv: ['python3', 'paper.py'], cwd: '/x' },
  ]);
  assert.deepEqual(game.botChoices, ['rock', 'paper']);
  assert.equal(roshambo.botChoices, undefined, 'a built-in game has its one bot');
});
