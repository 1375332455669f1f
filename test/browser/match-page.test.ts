import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { COCO, ROOT, coco, startCoco, type RunningCoco } from '../support/processes.js';
import { siteAndBrowser, screenshot, openPage, waitUntil } from '../support/browser.js';

/**
 * The match page as handy as lichess's (issue 29, item 7): on every game's live and replay page at
 * 1280x800 the board and its step controls fit the window; the arrow keys step without clicking the
 * player first, and leave a field's keys alone; a legend says which name plays which seat; the
 * record can be downloaded; on a phone the history table needs no sideways scroll and the header
 * does not cover the title; the nav has the leaderboards. Screenshots go to test-artifacts/
 * (match-page-*.png).
 */

const LAPTOP = { width: 1280, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;

const stockfish = ['/usr/games/stockfish', '/usr/bin/stockfish'].find((path) => existsSync(path)) ?? 'stockfish';
const python = (file: string): string[] => ['python3', join(ROOT, file)];

/** Each game: `coco new` arguments for a quick replay, and the program that takes the seat left to a person. */
const GAMES: Record<string, { args: string[]; fast: string[]; program: string[] }> = {
  roshambo: { args: ['-b', '1'], fast: ['-a', 'rounds=5', '-a', 'pace=0'], program: python('examples/roshambo/bot.py') },
  royalur: { args: ['-b', '1'], fast: ['-a', 'pace=0'], program: python('examples/royalur/bot.py') },
  dama: { args: ['-b', '1'], fast: ['-a', 'pace=0'], program: python('examples/dama/bot.py') },
  chess: { args: ['-b', '1'], fast: ['-a', 'pace=0'], program: [process.execPath, COCO, 'uci', '--movetime', '10', '--option', 'Skill Level=0', '--', stockfish] },
  clobber: { args: ['-b', '1'], fast: ['-a', 'games=2', '-a', 'pace=0'], program: python('examples/clobber/bot.py') },
  quoridor: { args: ['-b', '1'], fast: ['-a', 'games=2', '-a', 'pace=0'], program: python('examples/quoridor/random_engine.py') },
  'hase-und-igel': { args: ['-b', '1'], fast: [], program: python('examples/hase-und-igel/random_client.py') },
  connect4: { args: ['-b', '1'], fast: [], program: python('examples/external/connect4/bot.py') },
  'lowest-unique': { args: ['-n', '3', '-b', '2'], fast: ['-a', 'rounds=3'], program: python('examples/external/lowest-unique/bot.py') },
};

/**
 * The games whose pictures say each seat's colour: a token beside the name (dama, royalur), a chess
 * glyph, names in colours of their own (roshambo, hase-und-igel), a colour word by the name of the
 * game shown (quoridor, clobber: they swap colours between games), a disc dropped as the log names
 * its player (connect4), a disc labelled "Player N" for seat N (lowest-unique: its game server
 * knows no names). Every game's legend gives each seat its colour.
 */
const COLOURED_SEATS = new Set(['chess', 'dama', 'royalur', 'roshambo', 'hase-und-igel', 'quoridor', 'clobber', 'connect4', 'lowest-unique']);

const replays = new Map<string, string>();
let dir: string | undefined;

/** The external examples, with a wide ready deadline: their Python programs start slowly on a busy machine. */
function externalGames(): string {
  dir = mkdtempSync(join(tmpdir(), 'match-page-'));
  const games = join(dir, 'games');
  for (const game of ['connect4', 'lowest-unique']) {
    cpSync(join(ROOT, 'examples/external', game), join(games, game), { recursive: true });
    const manifest = join(games, game, 'game.json');
    writeFileSync(manifest, JSON.stringify({ ...(JSON.parse(readFileSync(manifest, 'utf8')) as object), ready_deadline: 300 }));
  }
  return games;
}

async function startMatch(game: string, fast: boolean): Promise<{ id: string; client: RunningCoco }> {
  const spec = GAMES[game]!;
  const created = await coco(site.server.url, ['new', game, `page ${game.split('-')[0]}`, ...spec.args, ...(fast ? spec.fast : [])]);
  assert.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  return { id, client: startCoco(site.server.url, ['connect', id, '-n', 'visitor', '--', ...spec.program]) };
}

async function playReplay(game: string): Promise<void> {
  const { id, client } = await startMatch(game, true);
  const result = await client.done;
  assert.equal(result.code, 0, `${game}: ${result.stderr}`);
  await site.server.recorded(id);
  replays.set(game, id);
}

const site = siteAndBrowser({
  serverArgs: () => ['--games', externalGames()],
  prepare: async () => {
    // Two at a time: the machine is shared.
    const games = Object.keys(GAMES);
    for (let i = 0; i < games.length; i += 2) await Promise.all(games.slice(i, i + 2).map(playReplay));
  },
  cleanup: () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

/** The parts of the player that must be on screen without scrolling, with where each lies. */
const OFF_SCREEN = `(() => {
  const out = [];
  for (const selector of ['.player-stage', '.player-controls', '.player-first', '.player-prev', '.player-next', '.player-last', '.player-play']) {
    const element = document.querySelector(selector);
    if (!element) { out.push(selector + ' missing'); continue; }
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.top < 0 || box.left < 0 || box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5) {
      out.push(selector + ' at ' + [box.left, box.top, box.right, box.bottom].map(Math.round).join(',') + ' in ' + innerWidth + 'x' + innerHeight);
    }
  }
  return out;
})()`;

const STEP = '(document.querySelector(".player-step")?.textContent ?? "")';

const BOARD_SIZE = '(() => { const b = document.querySelector(".player-stage").getBoundingClientRect(); return Math.round(Math.min(b.width, b.height)); })()';

async function assertBoardFits(page: Page, what: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  const off = (await page.evaluate(OFF_SCREEN)) as string[];
  assert.deepEqual(off, [], `${what}: off the first screen`);
  // Fitting by shrinking to a stamp is not the point: the board takes most of the window's height.
  const size = (await page.evaluate(BOARD_SIZE)) as number;
  assert.ok(size >= 480, `${what}: the board is only ${size} px`);
}

for (const game of Object.keys(GAMES)) {
  test(`the ${game} replay page at 1280x800 shows the whole board and its controls, with the legend and a JSON download`, async () => {
    const id = replays.get(game)!;
    const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
    await page.goto(`${site.base}#/replay/${id}?step=0`);
    await page.locator('.player-stage svg').waitFor();
    await assertBoardFits(page, `${game} replay`);
    // Opened at step 0 ("First move"): move 0 in every game, with the board drawn, not a blank picture.
    await waitUntil(page, `/^move 0 \\/ \\d+$/.test(${STEP}) && document.querySelector('.player-stage svg g[data-z] > g') !== null`);
    // Chess draws its squares before its pieces: the start position has all 32 of them.
    if (game === 'chess') await waitUntil(page, `[...document.querySelectorAll('.player-stage svg text')].filter((t) => /^[\u2654-\u265f]$/.test(t.textContent)).length >= 32`);
    // The legend: seat numbers as the games say them, in the record's seat order.
    const record = (await (await fetch(`${site.base}api/history/${id}`)).json()) as { players: string[] };
    const seats = await page.locator('.player-legend .legend-seat').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-seat')} ${item.querySelector('.legend-name')?.textContent}`));
    assert.deepEqual(seats, record.players.map((name, i) => `${i + 1} ${name}`));
    assert.ok(record.players.includes('visitor'));
    // Each seat in the colour the board draws it in, where the picture says it (seat-colours.ts), each its own.
    await waitUntil(page, `document.querySelectorAll('.player-legend .legend-seat[data-status]').length === ${record.players.length}`);
    const colours = (await page.locator('.player-legend .legend-seat').evaluateAll((items) => items.map((item) => item.getAttribute('data-colour')))) as (string | null)[];
    const coloured = colours.filter((c): c is string => c !== null);
    assert.equal(coloured.length, COLOURED_SEATS.has(game) ? record.players.length : 0, `${game}: seat colours ${colours.join(', ')}`);
    assert.equal(new Set(coloured).size, coloured.length);
    // The download: the record itself, under a name that says the game and the match.
    const download = page.locator('a.record-json');
    assert.equal(await download.getAttribute('download'), `${game}-${id}.json`);
    const saved = (await (await fetch(new URL((await download.getAttribute('href'))!, site.base))).json()) as { id: string };
    assert.equal(saved.id, id);
    await screenshot(page, `match-page-replay-${game}`);
    await page.close();
  });

  test(`the ${game} live page at 1280x800 shows the whole board and its controls`, async () => {
    const { id, client } = await startMatch(game, false);
    try {
      const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
      await page.goto(`${site.base}#/match/${id}`);
      // Running (or already over, for the quick external games): the board is drawn either way.
      await page.locator('.pill-running, .pill-finished').waitFor();
      await page.locator('.player-stage svg *').first().waitFor({ state: 'attached' });
      await assertBoardFits(page, `${game} live`);
      assert.ok((await page.locator('.player-legend .legend-seat').count()) > 0, `${game}: no legend on the live page`);
      await screenshot(page, `match-page-live-${game}`);
      await page.close();
    } finally {
      client.child.kill();
      await client.done;
    }
  });
}

test('the arrow keys step through a replay without clicking the player first, and leave a text field alone', async () => {
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/replay/${replays.get('clobber')!}?step=0`);
  await waitUntil(page, `/^move 0 \\/ \\d+$/.test(${STEP})`);
  assert.equal(await page.evaluate('document.activeElement === document.body'), true, 'nothing has the focus');
  await page.keyboard.press('ArrowRight');
  await waitUntil(page, `/^move 1 \\//.test(${STEP})`);
  await page.keyboard.press('ArrowRight');
  await waitUntil(page, `/^move 2 \\//.test(${STEP})`);
  await page.keyboard.press('ArrowLeft');
  await waitUntil(page, `/^move 1 \\//.test(${STEP})`);
  await page.keyboard.press('End');
  await waitUntil(page, `(() => { const m = /^move (\\d+) \\/ (\\d+)$/.exec(${STEP}); return m !== null && m[1] === m[2]; })()`);
  await page.keyboard.press('Home');
  await waitUntil(page, `/^move 0 \\//.test(${STEP})`);
  // Typing in a field: the arrows move the caret, not the match.
  await page.evaluate(`(() => { const input = document.createElement('input'); input.id = 'typing'; input.value = 'abc'; document.querySelector('.page-head').append(input); })()`);
  await page.locator('#typing').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('x');
  assert.equal(await page.locator('#typing').inputValue(), 'abxc');
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  assert.match((await page.evaluate(STEP)) as string, /^move 0 \//);
  // Leaving the page removes the listener: the history page is not stepped by its keys (and does not throw).
  await page.goto(`${site.base}#/history`);
  await page.locator('.history-table tbody tr').first().waitFor();
  await page.keyboard.press('ArrowRight');
  await screenshot(page, 'match-page-keys-history');
  await page.close();
});

test('on a phone the history table has no sideways scroll, its Replay buttons are on screen, and the header does not cover the title', async () => {
  const page = await openPage(site.browser, PHONE.width, PHONE.height);
  await page.goto(`${site.base}#/history`);
  await page.locator('.history-table tbody tr').nth(3).waitFor();
  const hidden = (await page.evaluate('(() => { const wrap = document.querySelector(".table-wrap"); return wrap.scrollWidth - wrap.clientWidth; })()')) as number;
  assert.equal(hidden, 0, 'the history table scrolls sideways');
  const replayRight = (await page.evaluate('Math.max(...[...document.querySelectorAll(".history-table a.button")].map((a) => a.getBoundingClientRect().right))')) as number;
  assert.ok(replayRight <= PHONE.width, `Replay ends at ${replayRight} px`);
  // Each stacked cell says which column it is.
  assert.ok((await page.locator('.history-table td[data-label="Players and scores"]').count()) > 0);
  // Scrolled down and back up to the title: nothing of the header lies over it.
  await page.evaluate('window.scrollTo(0, 400)');
  await page.locator('.page-head h1').scrollIntoViewIfNeeded();
  const covered = (await page.evaluate(`(() => {
    const title = document.querySelector('.page-head h1').getBoundingClientRect();
    const header = document.querySelector('.site-header').getBoundingClientRect();
    return header.bottom > title.top + 1 && header.top < title.bottom;
  })()`)) as boolean;
  assert.equal(covered, false, 'the header covers the title');
  await page.evaluate('window.scrollTo(0, 0)');
  await screenshot(page, 'match-page-phone-history');
  await page.goto(`${site.base}#/replay/${replays.get('hase-und-igel')!}?step=0`);
  await page.locator('.player-stage svg text').first().waitFor();
  assert.equal((await page.evaluate('document.scrollingElement.scrollWidth - innerWidth')) as number, 0, 'the replay page scrolls sideways');
  await screenshot(page, 'match-page-phone-replay-hase-und-igel');
  await page.close();
});

test('the nav has the leaderboards: one link per game to its leaderboard', async () => {
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(site.base);
  await page.locator('.site-nav a', { hasText: 'Leaderboards' }).click();
  await page.locator('.leaderboard-index a', { hasText: 'connect4' }).click();
  await page.locator('h1', { hasText: 'connect4: leaderboard' }).waitFor();
  assert.equal(await page.locator('.site-nav a.active').innerText(), 'Leaderboards');
  assert.match(page.url(), /#\/ratings\/connect4$/);
  await page.close();
});
