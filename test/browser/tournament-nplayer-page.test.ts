import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/processes.js';
import { siteAndBrowser, screenshot, openPage } from '../support/browser.js';

/**
 * The tournament page of a game of more than 2 players: a server tournament of lowest-unique's
 * bot program at tables of 3 shows each entrant's mean place beside W/D/L, and its finished
 * matches by their seats and places.
 */

let dir: string;

const site = siteAndBrowser({
  serverArgs: () => {
    dir = mkdtempSync(join(tmpdir(), 'tournament-n-page-'));
    // The example but for a wide ready deadline: its bot is a Python program, slow to start on a busy machine.
    const games = join(dir, 'games');
    cpSync(join(ROOT, 'examples/external/lowest-unique'), join(games, 'lowest-unique'), { recursive: true });
    const manifest = join(games, 'lowest-unique', 'game.json');
    writeFileSync(manifest, JSON.stringify({ ...(JSON.parse(readFileSync(manifest, 'utf8')) as object), ready_deadline: 300 }));
    return ['--games', games];
  },
  cleanup: () => rmSync(dir, { recursive: true, force: true }),
});

test('a server tournament at tables of 3 shows the mean place of each entrant and the places of each match', async () => {
  const created = await fetch(`${site.base}api/tournaments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'lowest-unique', players: 3, concurrency: 4, args: { rounds: '2' }, timeout: 60, entrants: ['ann', 'bob', 'cid', 'dan'].map((name) => ({ name, bot: null })), password: 'master' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { id } = (await created.json()) as { id: string };
  const page = await openPage(site.browser, 1280, 900);
  await page.goto(`${site.base}#/tournaments/${id}`);
  await page.locator('.tournament-state[data-state=finished]').waitFor({ timeout: 120_000 });
  assert.match(await page.locator('.tournament-state').innerText(), /12 of 12 matches played, 0 running · round-robin, 1 round, 4 at once, 3 players a match/);
  // Read as written (the page's style sets headers in capitals).
  assert.deepEqual(await page.locator('.standings-table thead th').allTextContents(), ['#', 'Entrant', 'Elo', '±95%', 'LOS', 'Points', 'Games', 'W', 'D', 'L', 'Place']);
  const rows = await page.locator('.standings-table tbody tr').allInnerTexts();
  assert.equal(rows.length, 4);
  // 9 games each (3 tables of 3 rotations); points to 2 decimals where they are not halves; the mean place from 1 to 3.
  for (const row of rows) assert.match(row, /^\d\t\w+\t-?\d+\.\d\t\d+\.\d\t(\d+\.\d%|—)\t\d+(\.\d+)?\t9\t\d\t\d\t\d\t[123]\.\d\d$/, row);
  const finished = page.locator('.finished-matches tbody tr');
  assert.equal(await finished.count(), 12);
  assert.deepEqual(await page.locator('.finished-matches thead th').allTextContents(), ['#', 'Seats in order', 'Places', 'Reason', 'Replay']);
  assert.match(await finished.first().innerText(), /^\d+\t\w+, \w+, \w+\t[123]-[123]-[123]\t/);
  await screenshot(page, 'tournament-n-players');
  await page.close();
});
