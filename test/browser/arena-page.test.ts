import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startCoco, type RunningCoco } from '../support/processes.js';
import { openPage, screenshot, siteAndBrowser, waitUntil } from '../support/browser.js';

/**
 * The arena page (`#/arena/GAME`, `#/arena/GAME/PLAYER`) with real entrants: two roshambo players
 * of known strength (examples/arena/roshambo_level.py) play two games and leave, so the
 * leaderboard and the chart are known; then two entrants whose programs wait for a gate file
 * (they hold their game live for as long as the test needs, within the game's 30 s per move) and
 * a third, left alone in the queue, give the page a live game and a queue to show.
 */
const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
const dir = mkdtempSync(join(tmpdir(), 'coco-arena-page-'));
const GATE = join(dir, 'gate');
/** Waits for the gate file, then plays as level 0 (the header lines stay unread for it). */
const GATED = ['python3', '-c', `import os, time\nwhile not os.path.exists(${JSON.stringify(GATE)}): time.sleep(0.02)\nos.execvp('python3', ['python3', ${JSON.stringify(LEVEL_BOT)}, '0'])`];
const running: RunningCoco[] = [];

const site = siteAndBrowser({
  serverArgs: () => ['--arena-arg', 'roshambo:rounds=3', '--arena-arg', 'roshambo:pace=0'],
  prepare: async () => {
    const players = [1, 2].map((level) => startCoco(site.server.url, ['arena', 'roshambo', '-n', `level${level}`, '--games', '2', '--', 'python3', LEVEL_BOT, String(level)]));
    for (const finished of await Promise.all(players.map((player) => player.done))) assert.equal(finished.code, 0, finished.stdout + finished.stderr);
  },
  cleanup: () => {
    for (const entrant of running) entrant.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  },
});

function arena(name: string, program: readonly string[]): RunningCoco {
  const entrant = startCoco(site.server.url, ['arena', 'roshambo', '-n', name, '--', ...program]);
  running.push(entrant);
  return entrant;
}

test('the arena page: the live game with a button to watch it, the queue, and the leaderboard in order of strength', async () => {
  const gateA = arena('gateA', GATED);
  const gateB = arena('gateB', GATED);
  await Promise.all([gateA, gateB].map((entrant) => entrant.waitForOutput(/^> game 1 \(\w+\) against gate[AB]/m)));
  const loner = arena('loner', GATED);
  await loner.waitForOutput(/^> queued as loner/);
  const page = await openPage(site.browser);
  await page.goto(`${site.base}#/arena/roshambo`);
  // Read again every few seconds: wait for the state the entrants are in now.
  await waitUntil(page, `[...document.querySelectorAll('.arena-queue li')].some((li) => li.textContent.startsWith('loner'))`);
  const watch = page.locator('a.button', { hasText: 'Watch the top-rated game' });
  assert.match(await watch.innerText(), /^Watch the top-rated game: gate[AB] vs gate[AB]$/);
  const queue = await page.locator('.arena-queue li').allInnerTexts();
  assert.deepEqual(queue.map((line) => line.split(' ')[0]).sort(), ['gateA', 'gateB', 'loner']);
  assert.ok(queue.some((line) => /^gateA \(-?\d+\.\d\d\) playing 1 of 1$/.test(line)), queue.join('\n'));
  assert.ok(queue.some((line) => /^loner \(-?\d+\.\d\d\) playing 0 of 1$/.test(line)), queue.join('\n'));
  const rows = await page.locator('.arena-board tbody tr').allInnerTexts();
  assert.deepEqual(rows.map((row) => row.split('\t').slice(0, 2)), [['1', 'level2'], ['2', 'level1']]);
  assert.match(rows[0]!, /\t2\t2\t0\t0\t/, 'level2: 2 games, 2 won');
  assert.equal(await page.locator('a.button', { hasText: 'CSV' }).getAttribute('href'), '/api/arena/roshambo.csv');
  await screenshot(page, 'arena-page');
  // The button opens the live game's match page.
  const id = (await watch.getAttribute('href'))!.replace('#/match/', '');
  await watch.click();
  await page.waitForURL((url) => url.hash === `#/match/${id}`);
  await page.close();
  writeFileSync(GATE, '');
  await gateA.waitForOutput(new RegExp(`^> game 1 \\(${id}\\): `, 'm'));
  for (const entrant of [gateA, gateB, loner]) entrant.child.kill('SIGINT');
  for (const finished of await Promise.all([gateA, gateB, loner].map((entrant) => entrant.done))) assert.equal(finished.code, 0, finished.stdout + finished.stderr);
});

test("a player's arena page charts its rating after each game (click a point to replay it) and lists its games", async () => {
  const page = await openPage(site.browser);
  await page.goto(`${site.base}#/arena/roshambo`);
  await page.locator('.arena-board a', { hasText: 'level2' }).click();
  assert.equal(new URL(page.url()).hash, '#/arena/roshambo/level2');
  await page.locator('.rating-chart canvas').waitFor();
  assert.match(await page.locator('.current-rating').innerText(), /^Rank 1, rating -?\d+\.\d\d: 2 games, 2 won, 0 drawn, 0 lost; last seen /);
  const replays = await page.locator('a', { hasText: 'Replay' }).evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
  assert.equal(replays.length, 2);
  await screenshot(page, 'arena-player');
  // The newest game is the chart's last point: a click there replays it.
  const over = page.locator('.rating-chart .u-over');
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  await page.waitForURL((url) => url.hash === replays[0]);
  await page.close();
});
