import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, coco, startCoco } from '../support/processes.js';
import { siteAndBrowser, screenshot, openPage } from '../support/browser.js';

/**
 * The ratings pages: a game's leaderboard and a player's rating over time with their matches,
 * after two verified roshambo matches of the example bot against the server bot.
 */

const played: string[] = [];

const site = siteAndBrowser({
  prepare: async () => {
    for (let i = 0; i < 2; i++) {
      const created = await coco(site.server.url, ['new', 'roshambo', `rated ${i}`, '-b', '1', '-v', 'master', '-a', 'rounds=3', '-a', 'pace=0']);
      assert.equal(created.code, 0, created.stderr);
      const id = created.stdout.trim();
      const done = await startCoco(site.server.url, ['connect', id, '-n', 'visitor', '--', 'python3', join(ROOT, 'examples/roshambo/bot.py')]).done;
      assert.equal(done.code, 0, done.stderr);
      await site.server.recorded(id);
      played.push(id);
    }
  },
});

const newPage = (): Promise<Page> => openPage(site.browser);

test("the leaderboard lists the verified matches' players, each linking to their page, with the CSV export", async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/ratings/roshambo`);
  const rows = page.locator('.ratings-table tbody tr');
  await rows.nth(1).waitFor();
  assert.equal(await rows.count(), 2);
  const texts = await rows.allInnerTexts();
  assert.deepEqual(texts.map((text) => text.split('\t')[0]), ['1', '2']);
  assert.deepEqual(texts.map((text) => text.split('\t')[1]).sort(), ['ServerBot', 'visitor']);
  for (const text of texts) assert.match(text, /\t-?\d+\.\d\d\t\d+\.\d\d\t\d+\.\d\d\t2$/);
  assert.equal(await page.locator('a', { hasText: 'visitor' }).getAttribute('href'), '#/ratings/roshambo/visitor');
  assert.equal(await page.locator('a', { hasText: 'CSV' }).getAttribute('href'), '/api/ratings/roshambo.csv');
  await screenshot(page, 'ratings-leaderboard');
  await page.close();
});

test("a player's page charts their rating after each match (uPlot: legend, cursor, click to replay) and lists their matches with replay links", async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/ratings/roshambo`);
  await page.locator('a', { hasText: 'visitor' }).click();
  await page.locator('.rating-chart canvas').waitFor();
  assert.equal(new URL(page.url()).hash, '#/ratings/roshambo/visitor');
  // uPlot's legend names the series; pointing at the last match reads it.
  assert.match(await page.locator('.rating-chart .u-legend').innerText(), /rating \(mu − 3 sigma\)[\s\S]*mu/);
  const over = page.locator('.rating-chart .u-over');
  const box = (await over.boundingBox())!;
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  assert.match(await page.locator('.rating-chart .u-legend').innerText(), /match 2 of 2, \d{4}-\d\d-\d\d/);
  assert.match(await page.locator('.current-rating').innerText(), /^Rating -?\d+\.\d\d \(mu \d+\.\d\d, sigma \d+\.\d\d\)/);
  const links = await page.locator('.player-matches a', { hasText: 'Replay' }).evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')));
  assert.deepEqual(links, [...played].reverse().map((id) => `#/replay/${id}`));
  await screenshot(page, 'ratings-player');
  // A click on the chart replays the match under the cursor: the last one.
  await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
  await page.waitForURL((url) => url.hash === `#/replay/${played[played.length - 1]}`);
  await page.close();
});

test('an unknown game says so', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/ratings/nosuchgame`);
  await page.locator('.notice-error').waitFor();
  assert.match(await page.locator('.notice-error').innerText(), /Cannot load the leaderboard: no game "nosuchgame"/);
  await page.close();
});
