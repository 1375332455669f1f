import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, coco, newMatch, startServer, type ServerProcess } from '../support/processes.js';

/** The controller's fake game server and bots (src/games/external/fixtures). */
const FIXTURES = join(ROOT, 'src/games/external/fixtures');
/** A player program that says `ready` and then reads until the end. */
const READY_PLAYER = ['python3', '-c', 'import sys\nprint("ready", flush=True)\nfor _ in sys.stdin: pass'];

let server: ServerProcess;
let gamesDir: string;

/** One registration per misbehaviour of the fixture game server. */
function register(name: string, mode: string, extra: Record<string, unknown> = {}): void {
  const folder = join(gamesDir, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'description.md'), `# ${name}\n\nA misbehaving game server for tests.\n\n## Implementation details\n\nNone.\n\n## Game parameters\n\nNone.\n`);
  writeFileSync(
    join(folder, 'game.json'),
    JSON.stringify({ name, command: ['python3', join(FIXTURES, 'fixture_server.py'), mode], min_players: 1, max_players: 2, default_players: 1, ...extra }),
  );
}

before(async () => {
  gamesDir = mkdtempSync(join(tmpdir(), 'cocod-games-'));
  register('crasher', 'crash');
  register('hanger', 'hang', { max_match_seconds: 1 });
  register('flooder', 'flood', { max_output_bytes: 1 << 20 });
  register('patient', 'echo', { bots: [['python3', join(FIXTURES, 'silent_bot.py')]], max_bots: 1, ready_deadline: 1 });
  server = await startServer(['--games', gamesDir]);
});
after(async () => {
  await server.stop();
  rmSync(gamesDir, { recursive: true, force: true });
});

async function record(id: string): Promise<{ error: string | null; scores: number[] | null; players: string[] }> {
  return (await (await fetch(`http://127.0.0.1:${server.port}/api/history/${id}`)).json()) as { error: string | null; scores: number[] | null; players: string[] };
}

for (const [game, why] of [
  ['crasher', /game server failed: .*(exit|crash)/i],
  ['hanger', /game server failed: .*(time|long|limit)/i],
  ['flooder', /game server failed: the game server printed more than its limit of 1048576 bytes/],
] as const) {
  test(`a game server that ${game === 'crasher' ? 'crashes' : game === 'hanger' ? 'never answers' : 'floods'} ends only its match, with the error recorded and its player let go`, async () => {
    const id = await newMatch(server.url, [game]);
    const player = await coco(server.url, ['connect', id, '-n', 'victim', '--', ...READY_PLAYER]);
    assert.equal(player.code, 0, player.stderr);
    assert.match(player.stdout, /> match ended/);
    const stored = await record(id);
    assert.equal(stored.scores, null);
    assert.match(stored.error ?? '', why);
    assert.match((await coco(server.url, ['list'])).stdout, /- crasher/, 'the server goes on');
  });
}

test('a server bot that never says ready is dropped and the match goes on without it', async () => {
  const id = await newMatch(server.url, ['patient', '-n', '2', '-b', '1']);
  const player = await coco(server.url, ['connect', id, '-n', 'human', '--', 'python3', '-c', 'import sys\nprint("ready", flush=True)\nprint("over", flush=True)\nfor _ in sys.stdin: pass']);
  assert.equal(player.code, 0, player.stderr);
  const stored = await record(id);
  assert.equal(stored.error, null);
  assert.ok(stored.scores, 'the match ended with a result');
  assert.match(server.log(), new RegExp(`match ${id} ended`));
});
