import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { siteAndBrowser, screenshot, openPage } from '../support/browser.js';

/**
 * The tournament pages: a small server tournament of roshambo's server bots, started with the
 * form on #/tournaments, followed live on its page until it is over, with its running matches
 * linking to the live view and its finished ones to their replays.
 */


const site = siteAndBrowser();

const newPage = (): Promise<Page> => openPage(site.browser, 1280, 900);

test('a server tournament made with the form is followed live to its end: standings, live matches, replays', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/tournaments`);
  await page.locator('.tournament-form').waitFor();
  await page.selectOption('select[name=game]', 'roshambo');
  await page.fill('input[name=rounds]', '1');
  await page.fill('input[name=concurrency]', '2');
  await page.fill('textarea[name=entrants]', 'ann\nbob\ncid');
  // Matches of a few seconds each, so that some are still running when the page shows them.
  await page.fill('textarea[name=args]', 'rounds=20\npace=0.1');
  await page.fill('input[name=password]', 'wrong');
  await page.click('button[type=submit]');
  await page.locator('.form-result .notice-error', { hasText: 'wrong verification password' }).waitFor();
  await page.fill('input[name=password]', 'master');
  await screenshot(page, 'tournament-form');
  await page.click('button[type=submit]');
  await page.waitForURL(/#\/tournaments\/[0-9a-f]+$/);
  const id = /#\/tournaments\/([0-9a-f]+)$/.exec(page.url())![1]!;

  // Live: the running matches link to their live view, at most 2 at once.
  const live = page.locator('.running-matches a', { hasText: 'watch live' });
  await live.first().waitFor();
  assert.ok((await live.count()) <= 2);
  assert.match((await live.first().getAttribute('href'))!, /^#\/match\/[0-9a-z]+$/);
  await screenshot(page, 'tournament-running');

  await page.locator('.tournament-state[data-state=finished]').waitFor();
  assert.match(await page.locator('.tournament-state').innerText(), /6 of 6 matches played, 0 running/);
  const standings = await page.locator('.standings-table tbody tr').allInnerTexts();
  assert.equal(standings.length, 3);
  assert.deepEqual(standings.map((row) => row.split('\t')[1]).sort(), ['ann', 'bob', 'cid']);
  // Elo, its ±95% error, LOS (— for the last), points, games 4 each.
  for (const row of standings) assert.match(row, /^\d\t\w+\t-?\d+\.\d\t\d+\.\d\t(\d+\.\d%|—)\t[\d.]+\t4\t\d\t\d\t\d$/, row);
  const finished = page.locator('.finished-matches tbody tr');
  assert.equal(await finished.count(), 6);
  await screenshot(page, 'tournament-finished');

  // The list shows it finished; a replay link opens the match's replay.
  const replay = finished.first().locator('a', { hasText: 'replay' });
  const replayHref = (await replay.getAttribute('href'))!;
  assert.match(replayHref, /^#\/replay\/[0-9a-z]+$/);
  await replay.click();
  await page.waitForURL(new RegExp(`${replayHref.replace(/[/#]/g, '\\$&')}$`));
  await page.locator('.view-replay h1').waitFor();
  await screenshot(page, 'tournament-replay');
  // Back to the list the way a visitor goes: the navigation bar.
  await page.click('nav.site-nav a[data-nav=tournaments]');
  const row = page.locator('.tournaments-table tbody tr', { hasText: id });
  try {
    await row.waitFor();
  } catch (error) {
    // What the page showed instead is the first thing to look at.
    await screenshot(page, 'tournament-list-failure');
    throw error;
  }
  assert.match(await row.innerText(), /roshambo\tround-robin\tfinished\t3\t6\/6\t0/);
  await page.close();
});

test('a running tournament is stopped from its page with the verification password: a wrong one is refused, the right one stops it and the form goes', async () => {
  // Slow matches: the tournament runs until the page stops it.
  const created = await fetch(`${site.base}api/tournaments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'roshambo', password: 'master', concurrency: 2, entrants: [{ name: 'ann', bot: null }, { name: 'bob', bot: null }], args: { rounds: '100', pace: '0.2' } }),
  });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  const page = await newPage();
  await page.goto(`${site.base}#/tournaments/${id}`);
  await page.locator('.running-matches a', { hasText: 'watch live' }).first().waitFor();
  const form = page.locator('form.tournament-stop');
  await form.waitFor();
  await page.fill('input[name=stop-password]', 'wrong');
  await form.locator('button[type=submit]').click();
  await form.locator('.form-result .notice-error', { hasText: 'wrong verification password: stopping a tournament' }).waitFor();
  await page.fill('input[name=stop-password]', 'master');
  await screenshot(page, 'tournament-stop');
  await form.locator('button[type=submit]').click();
  await page.locator('.tournament-state[data-state=stopped]').waitFor();
  await form.waitFor({ state: 'hidden' });
  assert.match(await page.locator('.tournament .notice').first().innerText(), /the tournament was stopped/);
  // Its running matches end at once, unfinished: the page follows them to the end.
  await page.locator('.finished-matches tbody tr').nth(1).waitFor();
  assert.equal(await page.locator('.running-matches').count(), 0);
  assert.match(await page.locator('.tournament-state').innerText(), /2 of 2 matches played, 0 running/);
  for (const row of await page.locator('.finished-matches tbody tr').allInnerTexts()) assert.match(row, /\*\tann|\*\tbob/);
  await screenshot(page, 'tournament-stopped');
  await page.close();
});
