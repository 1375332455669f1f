import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, startCoco, startServer, type ServerProcess } from '../support/processes.js';

// Named bots as arena anchors: a games folder gives roshambo two bot programs (`bots_for`), a weak
// one (level 0) and a strong one (level 3) of examples/arena/roshambo_level.py, and the operator
// anchors both by name. A level-1 entrant, alone, plays them: it beats the weak one and loses to
// the strong one, so each seat really ran the bot it was asked for.
const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
const dir = mkdtempSync(join(tmpdir(), 'coco-arena-anchors-'));
let server: ServerProcess;
const sweep = markTestProcesses();

before(async () => {
  const bots = join(dir, 'roshambo-bots');
  mkdirSync(bots);
  for (const [name, level] of [['weak', 0], ['strong', 3]] as const) {
    writeFileSync(join(bots, `${name}.py`), `import os\nos.execvp('python3', ['python3', ${JSON.stringify(LEVEL_BOT)}, '${level}'])\n`);
  }
  writeFileSync(join(bots, 'game.json'), JSON.stringify({ bots_for: 'roshambo', bots: [['python3', 'weak.py'], ['python3', 'strong.py']] }));
  server = await startServer(['--games', dir, '--arena-anchors', 'roshambo:weak,roshambo:strong', '--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0']);
});
after(async () => {
  try {
    await server?.stop();
  } finally {
    await sweep();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('named bots anchor the arena as ServerBot$BOT: each plays as the bot named, and the leaderboard sorts them by strength', async () => {
  const view = (await (await fetch(`http://127.0.0.1:${server.port}/api/arena/roshambo`)).json()) as { queue: { name: string; anchor: boolean }[] };
  assert.deepEqual(view.queue.filter((entry) => entry.anchor).map((entry) => entry.name).sort(), ['ServerBot$strong', 'ServerBot$weak']);
  const entrant = startCoco(server.url, ['arena', 'roshambo', '-n', 'level1', '--games', '4', '--', 'python3', LEVEL_BOT, '1']);
  const run = await entrant.done;
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^> game \d \(\w+\): win \d+-\d+ against ServerBot\$weak/m);
  assert.match(run.stdout, /^> game \d \(\w+\): loss \d+-\d+ against ServerBot\$strong/m);
  const board = (await (await fetch(`http://127.0.0.1:${server.port}/api/arena/roshambo`)).json()) as { leaderboard: { player: string }[] };
  assert.deepEqual(board.leaderboard.map((row) => row.player), ['ServerBot$strong', 'level1', 'ServerBot$weak']);
});
