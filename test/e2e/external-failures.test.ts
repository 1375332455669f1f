import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CocoClient } from '../../src/client/coco-client.js';
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

/**
 * Wide enough for a Python player to start and say `ready` on a busy machine: these games fail
 * after `start`, and a player dropped for being slow would test something else.
 */
const WIDE_READY_DEADLINE = 300;
/**
 * The deadline the silent bot of `patient` must pass. Its human player is this test's own client,
 * which says `ready` as soon as the match starts: no interpreter start-up races this deadline.
 */
const PATIENT_READY_DEADLINE = 3;

before(async () => {
  gamesDir = mkdtempSync(join(tmpdir(), 'cocod-games-'));
  register('crasher', 'crash', { ready_deadline: WIDE_READY_DEADLINE });
  register('hanger', 'hang', { max_match_seconds: 1, ready_deadline: WIDE_READY_DEADLINE });
  register('flooder', 'flood', { max_output_bytes: 1 << 20, ready_deadline: WIDE_READY_DEADLINE });
  register('patient', 'echo', { bots: [['python3', join(FIXTURES, 'silent_bot.py')]], max_bots: 1, ready_deadline: PATIENT_READY_DEADLINE });
  server = await startServer(['--games', gamesDir]);
});
after(async () => {
  // Each step runs even if one before it failed, so that no server outlives the file.
  try {
    await server?.stop();
  } finally {
    if (gamesDir) rmSync(gamesDir, { recursive: true, force: true });
  }
});

/** The stored record of match `id`, once the server says it is stored. */
async function record(id: string): Promise<{ error: string | null; scores: number[] | null; players: string[] }> {
  await server.recorded(id);
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
  const human = await CocoClient.connect(server.url);
  const joined = await human.request({ type: 'LobbyJoinMatch', id, name: 'human', password: null }, 'LobbyJoinedMatch');
  assert.ok('Ok' in joined.info);
  for (let item = await human.next(); item !== null; item = await human.next()) {
    if (item.kind !== 'reply') continue;
    // Ready at once; `over` reaches the game server after `start`, once the bot was dropped.
    if (item.reply.type === 'MatchStarted') human.sendBytes(Buffer.from('ready\nover\n'));
    if (item.reply.type === 'MatchEnded') break;
  }
  human.close();
  const stored = await record(id);
  assert.equal(stored.error, null);
  assert.deepEqual([...stored.players].sort(), ['ServerBot$0', 'human']);
  const seat = stored.players.indexOf('human');
  assert.deepEqual(stored.scores, seat === 0 ? [1, 0] : [0, 1], 'the human who said over won: it was not dropped with the bot');
});
