import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, coco, startCoco } from '../support/processes.js';
import { siteAndBrowser, screenshot, openPage } from '../support/browser.js';

/**
 * The pages at the extreme widths people use: a small phone (360, 390 px), a laptop (1280) and a
 * wide desktop (1920). At each, the page has no horizontal overflow (nothing is cut off or needs
 * a sideways scroll). Each page is kept as a screenshot in test-artifacts/ (width-PAGE-WIDTH.png)
 * to be looked at.
 */

let replayId: string;
const WIDTHS = [360, 390, 1280, 1920] as const;

const site = siteAndBrowser({
  prepare: async () => {
    // The lobby: a waiting match of the game with the longest name, under the widest name a match
    // may have (24 characters) and with a password; and one with a server bot.
    for (const args of [
      ['new', 'hase-und-igel', 'W'.repeat(24), '-p', 'pw'],
      ['new', 'roshambo', 'Short', '-b', '1'],
    ]) {
      const created = await coco(site.server.url, args);
      assert.equal(created.code, 0, created.stderr);
    }
    // A replay: a quick roshambo match of a server bot against the example bot.
    const created = await coco(site.server.url, ['new', 'roshambo', 'widths', '-b', '1', '-a', 'rounds=5', '-a', 'pace=0']);
    assert.equal(created.code, 0, created.stderr);
    replayId = created.stdout.trim();
    const played = await startCoco(site.server.url, ['connect', replayId, '-n', 'visitor', '--', 'python3', join(ROOT, 'examples/roshambo/bot.py')]).done;
    assert.equal(played.code, 0, played.stderr);
    await site.server.recorded(replayId);
  },
});

const newPage = (width: number): Promise<Page> => openPage(site.browser, width);

/** How far the page reaches past the window's right edge, in pixels (0 when it fits). */
const OVERFLOW = 'document.scrollingElement.scrollWidth - innerWidth';

/** The innermost elements that reach past the window's right edge, to say what overflows. */
const OVERFLOWING = `[...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5 && ![...e.children].some((c) => c.getBoundingClientRect().right > innerWidth + 0.5))
  .slice(0, 5)
  .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' ' + JSON.stringify((e.textContent ?? '').slice(0, 40)))`;

/** Opens `hash` at each width, waits with `ready`, checks the overflow and keeps a screenshot. */
async function checkWidths(name: string, hash: string, ready: (page: Page) => Promise<void>, extra?: (page: Page, width: number) => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    const page = await newPage(width);
    await page.goto(`${site.base}${hash}`);
    await ready(page);
    const overflow = (await page.evaluate(OVERFLOW)) as number;
    if (overflow > 0) assert.fail(`${name} overflows by ${overflow} px at ${width} px: ${((await page.evaluate(OVERFLOWING)) as string[]).join(', ')}`);
    await extra?.(page, width);
    await screenshot(page, `width-${name}-${width}`);
    await page.close();
  }
}

test(`the lobby fits at ${WIDTHS.join(', ')} px, its table too, without a sideways scroll`, async () => {
  await checkWidths(
    'lobby',
    '#/',
    (page) => page.locator('.lobby-table tbody tr').nth(1).waitFor(),
    async (page, width) => {
      const hidden = (await page.evaluate('(() => { const wrap = document.querySelector(".table-wrap"); return wrap.scrollWidth - wrap.clientWidth; })()')) as number;
      assert.equal(hidden, 0, `the lobby table is cut off at ${width} px`);
      // The narrow layout keeps what a player needs: the name, the game, the seats, the time left.
      const row = await page.locator('.lobby-table tr', { hasText: 'Short' }).innerText();
      for (const part of [/roshambo/, /1\/2 \(1 bot\)/, /Expires in/]) assert.match(row, part, `${width} px`);
    },
  );
});

test(`the list of games and a game's page fit at ${WIDTHS.join(', ')} px`, async () => {
  await checkWidths('games', '#/games', (page) => page.locator('.game-summary', { hasText: 'Rock Paper Scissors' }).waitFor());
  for (const game of ['chess', 'hase-und-igel']) await checkWidths(`game-${game}`, `#/games/${game}`, (page) => page.locator('.markdown h2').first().waitFor());
});

test(`a replay fits at ${WIDTHS.join(', ')} px, with a transcript open`, async () => {
  await checkWidths(
    'replay',
    `#/replay/${replayId}`,
    async (page) => {
      await page.locator('.player-stage svg text').first().waitFor();
      await page.locator('.files-card a', { hasText: 'Transcript of visitor' }).click();
      await page.locator('.transcript-panel pre', { hasText: '# seat' }).waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
    },
  );
});
