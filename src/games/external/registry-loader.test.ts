import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roshambo } from '../roshambo/roshambo.js';
import { applyBotsFor, loadExternalCatalog, loadExternalGames } from './registry-loader.js';
import { EXAMPLES } from './test-support.js';

/** A fresh games directory with the given entries: folder name to files (name to content). */
function gamesDir(entries: Record<string, Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'external-games-'));
  for (const [folder, files] of Object.entries(entries)) {
    mkdirSync(join(dir, folder));
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, folder, name), content);
  }
  return dir;
}

const GOOD = JSON.stringify({ name: 'good', command: ['python3', 'server.py'], min_players: 2, max_players: 2 });

async function loadError(entries: Record<string, Record<string, string>>): Promise<string> {
  const dir = gamesDir(entries);
  try {
    const loaded = await loadExternalGames(dir);
    assert.ok(!loaded.ok, 'expected a load error');
    return loaded.error;
  } finally {
    rmSync(dir, { recursive: true });
  }
}

test('the example games load with their manifests and descriptions', async () => {
  const loaded = await loadExternalGames(EXAMPLES);
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.error);
  const [connect4, lowest] = loaded.value;
  assert.equal(connect4!.name, 'connect4');
  assert.equal(lowest!.name, 'lowest-unique');
  assert.match(connect4!.description, /^# connect4/);
  assert.match(lowest!.description, /## Implementation details/);
  assert.equal(connect4!.maxLineBytes, 1024);
  assert.deepEqual(Object.keys(lowest!.args), ['rounds', 'max']);
  const settings = lowest!.configure({ players: null, bots: 4, timeout: null, args: {} });
  assert.ok(settings.ok);
  assert.equal(settings.value.players, 4);
  assert.equal(settings.value.timeout, 5);
});

test('hidden folders and plain files in the directory are ignored', async () => {
  const dir = gamesDir({ good: { 'game.json': GOOD, 'description.md': '# good' }, '.git': {} });
  writeFileSync(join(dir, 'README.md'), 'notes');
  const loaded = await loadExternalGames(dir);
  rmSync(dir, { recursive: true });
  assert.ok(loaded.ok);
  assert.deepEqual(loaded.value.map((game) => game.name), ['good']);
});

test('bad entries are start-up errors naming the entry and the field', async () => {
  assert.match(await loadError({ empty: {} }), /entry "empty" \(.*empty\/game\.json\): missing or unreadable game\.json/);
  assert.match(await loadError({ broken: { 'game.json': '{name:' } }), /entry "broken" .*: not valid JSON/);
  assert.match(await loadError({ nodesc: { 'game.json': GOOD } }), /entry "nodesc" .*: field "description": cannot read description\.md/);
  assert.match(
    await loadError({ badcmd: { 'game.json': GOOD.replace('python3', 'no-such-program-xyz'), 'description.md': '' } }),
    /entry "badcmd" .*: field "command": program no-such-program-xyz is not found in PATH/,
  );
  assert.match(
    await loadError({ badpath: { 'game.json': GOOD.replace('"python3"', '"./server"'), 'description.md': '' } }),
    /entry "badpath" .*: field "command": program \.\/server does not exist or is not executable/,
  );
  assert.match(
    await loadError({ badbot: { 'game.json': JSON.stringify({ ...JSON.parse(GOOD), bots: [['./bot']] }), 'description.md': '' } }),
    /entry "badbot" .*: field "bots\[0\]": program \.\/bot does not exist/,
  );
  assert.match(await loadError({ typo: { 'game.json': JSON.stringify({ ...JSON.parse(GOOD), min_player: 1 }) } }), /entry "typo" .*: unknown field "min_player"/);
  assert.match(
    await loadError({ a: { 'game.json': GOOD, 'description.md': '' }, b: { 'game.json': GOOD, 'description.md': '' } }),
    /entry "b": field "name": "good" is also the name of entry "a"/,
  );
  const missing = await loadExternalGames('/nonexistent/external-games');
  assert.ok(!missing.ok);
  assert.match(missing.error, /external games directory \/nonexistent\/external-games: cannot read it/);
});

test('bots_for entries name bot programs for another game, and applying them checks the game exists', async () => {
  const dir = gamesDir({
    good: { 'game.json': GOOD, 'description.md': '' },
    'rps-bots': { 'game.json': JSON.stringify({ bots_for: 'roshambo', bot: ['python3', 'bot.py'] }) },
  });
  const catalog = await loadExternalCatalog(dir);
  rmSync(dir, { recursive: true });
  assert.ok(catalog.ok);
  assert.deepEqual(catalog.value.games.map((g) => g.name), ['good']);
  assert.deepEqual(catalog.value.botsFor, [{ game: 'roshambo', folder: join(dir, 'rps-bots'), bots: [{ argv: ['python3', 'bot.py'], cwd: join(dir, 'rps-bots') }] }]);
  const applied = applyBotsFor([roshambo], catalog.value.botsFor);
  assert.ok(applied.ok);
  assert.notEqual(applied.value[0], roshambo);
  assert.equal(applied.value[0]!.name, 'roshambo');
  assert.equal(applied.value[0]!.description, roshambo.description);
  const unknown = applyBotsFor([], catalog.value.botsFor);
  assert.ok(!unknown.ok);
  assert.match(unknown.error, /field "bots_for": no game named "roshambo"/);
  const twice = applyBotsFor([roshambo], [...catalog.value.botsFor, ...catalog.value.botsFor]);
  assert.ok(!twice.ok);
  assert.match(twice.error, /already has bot programs/);
});
