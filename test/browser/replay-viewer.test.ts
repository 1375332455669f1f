import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { COCO, ROOT, coco, startCoco } from '../support/processes.js';
import { siteAndBrowser, ARTIFACTS, screenshot, openPage, waitUntil } from '../support/browser.js';

/**
 * The match viewer on real replays of every built-in game: each game is played once, quickly,
 * by a server bot against an example player (the lobby refuses matches of server bots only), and
 * the replays are then looked at in the browser.
 */

const WIDTHS = [1280, 390] as const;

/** Replay id of each game's match, filled by `before`. */
const replays = new Map<string, string>();

const stockfish = ['/usr/games/stockfish', '/usr/bin/stockfish'].find((path) => existsSync(path)) ?? 'stockfish';

/** Each game: its `coco new` arguments and the program that plays the seat left to a person. */
const MATCHES: Record<string, { args: string[]; program: string[] }> = {
  roshambo: { args: ['-a', 'rounds=5', '-a', 'pace=0'], program: ['python3', join(ROOT, 'examples/roshambo/bot.py')] },
  royalur: { args: ['-a', 'pace=0'], program: ['python3', join(ROOT, 'examples/royalur/bot.py')] },
  dama: { args: ['-a', 'pace=0'], program: ['python3', join(ROOT, 'examples/dama/bot.py')] },
  chess: { args: ['-a', 'pace=0'], program: [process.execPath, COCO, 'uci', '--movetime', '10', '--option', 'Skill Level=0', '--', stockfish] },
  clobber: { args: ['-a', 'games=2', '-a', 'pace=0'], program: ['python3', join(ROOT, 'examples/clobber/bot.py')] },
  quoridor: { args: ['-a', 'games=2', '-a', 'pace=0'], program: ['python3', join(ROOT, 'examples/quoridor/random_engine.py')] },
  'hase-und-igel': { args: [], program: ['python3', join(ROOT, 'examples/hase-und-igel/random_client.py')] },
};

async function playMatch(game: string): Promise<string> {
  const { args, program } = MATCHES[game]!;
  const created = await coco(site.server.url, ['new', game, `viewer ${game.split("-")[0]}`, '-b', '1', ...args]);
  assert.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  const result = await startCoco(site.server.url, ['connect', id, '-n', 'visitor', '--', ...program]).done;
  assert.equal(result.code, 0, `${game}: ${result.stderr}`);
  await site.server.recorded(id);
  return id;
}

const site = siteAndBrowser({
  prepare: async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const ids = await Promise.all(Object.keys(MATCHES).map(playMatch));
    Object.keys(MATCHES).forEach((game, i) => replays.set(game, ids[i]!));
  },
});

const newPage = (width: number): Promise<Page> => openPage(site.browser, width);

/** The texts of the picture whose box leaves the picture's box (half a pixel of rounding allowed). */
const TEXTS_OUTSIDE = `(() => {
  const svg = document.querySelector('.player-stage svg');
  const frame = svg.getBoundingClientRect();
  const out = [];
  for (const text of svg.querySelectorAll('text')) {
    const box = text.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.left < frame.left - 0.5 || box.top < frame.top - 0.5 || box.right > frame.right + 0.5 || box.bottom > frame.bottom + 0.5) {
      out.push(text.textContent + ' [' + [box.left - frame.left, box.top - frame.top, box.right - frame.left, box.bottom - frame.top].map(Math.round).join(',') + ' in ' + Math.round(frame.width) + 'x' + Math.round(frame.height) + ']');
    }
  }
  return out;
})()`;

const AT_END = '(() => { const s = document.querySelector(".player-slider"); return s !== null && Number(s.max) > 0 && Number(s.value) >= Number(s.max); })()';

/** Shows the replay paused at the start (Home) or the end (End) of the match. */
async function showAt(page: Page, key: 'Home' | 'End'): Promise<void> {
  await page.locator('.player').focus();
  await page.keyboard.press('k');
  await page.keyboard.press(key);
  if (key === 'End') await waitUntil(page, AT_END);
  else await waitUntil(page, `/^move 0 \\//.test(${STEP_TEXT})`);
  // Two frames: the one that renders the new time, and one after it.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

for (const game of Object.keys(MATCHES)) {
  test(`every text of the ${game} replay lies inside the picture at ${WIDTHS.join(' and ')} px`, async () => {
    const id = replays.get(game)!;
    for (const width of WIDTHS) {
      const page = await newPage(width);
      await page.goto(`${site.base}#/replay/${id}`);
      await page.locator('.player-stage svg text').first().waitFor();
      for (const key of ['Home', 'End'] as const) {
        await showAt(page, key);
        const outside = (await page.evaluate(TEXTS_OUTSIDE)) as string[];
        assert.deepEqual(outside, [], `${game} at ${width} px, ${key}: texts outside the picture`);
      }
      // Games whose board alone would not say who is who show it in the picture; hase und igel explains its symbols.
      const texts = await page.locator('.player-stage svg text').allTextContents();
      if (game === 'dama') for (const name of ['visitor (', 'ServerBot$0 (']) assert.ok(texts.some((text) => text.startsWith(name)), `${name} in ${texts.join('|')}`);
      if (game === 'hase-und-igel') for (const word of ['Fields', 'hedgehog', 'salad']) assert.ok(texts.includes(word), word);
      await page.locator('.player-card').screenshot({ path: join(ARTIFACTS, `layout-${game}-${width}.png`) });
      await page.close();
    }
  });
}

const STEP_TEXT = '(document.querySelector(".player-step")?.textContent ?? "")';

/** Waits until the step counter reads `move STEP / TOTAL` and the STEP-th log line is the highlighted one. */
async function waitForStep(page: Page, step: number): Promise<void> {
  const current = step === 0 ? 'document.querySelector(".log-lines li.is-current") === null' : `document.querySelector(".log-lines li.is-current")?.dataset.index === "${step - 1}"`;
  await waitUntil(page, `/^move ${step} \\/ \\d+$/.test(${STEP_TEXT}) && ${current}`);
}

test('a replay steps move by move with buttons, keys and log lines, and keeps its step in the URL', async () => {
  const id = replays.get('royalur')!;
  for (const width of WIDTHS) {
    const page = await newPage(width);
    await page.goto(`${site.base}#/replay/${id}?step=5`);
    // Opened at the step of the URL, paused there.
    await waitForStep(page, 5);
    assert.equal(await page.locator('.player-play').getAttribute('aria-label'), 'play');
    const total = Number(/\/ (\d+)$/.exec((await page.locator('.player-step').innerText()).trim())![1]);
    assert.ok(total > 20, `royalur has many moves: ${total}`);
    // The two lines of a turn share a time: stepping still names them one by one.
    await page.locator('.player').focus();
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 6);
    await waitUntil(page, 'location.hash.endsWith("?step=6")');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await waitForStep(page, 4);
    await page.click('.player-next');
    await waitForStep(page, 5);
    await page.click('.player-prev');
    await waitForStep(page, 4);
    // A click on a log line shows its moment.
    await page.click('.log-lines li[data-index="1"]');
    await waitForStep(page, 2);
    await waitUntil(page, 'location.hash.endsWith("?step=2")');
    await page.click('.player-last');
    await waitForStep(page, total);
    await waitUntil(page, AT_END);
    assert.match(await page.locator('.log-lines li.is-current').innerText(), / wins: /);
    await page.keyboard.press('Home');
    await waitForStep(page, 0);
    await page.keyboard.press('End');
    await waitForStep(page, total);
    await page.click('.player-first');
    await waitForStep(page, 0);
    await page.click('.player-next');
    await page.click('.player-next');
    await page.click('.player-next');
    await waitUntil(page, `location.hash.endsWith("?step=" + ${STEP_TEXT}.split(" ")[1])`);
    await page.locator('.player-card').screenshot({ path: join(ARTIFACTS, `replay-steps-${width}.png`) });
    // The URL opens the replay where it was left.
    const url = page.url();
    const step = Number(/step=(\d+)$/.exec(url)![1]);
    await page.goto(`${site.base}#/`);
    await page.goto(url);
    await waitForStep(page, step);
    await page.close();
  }
});

/** Plays in the page until `changes` step changes have been seen, and returns the step counter's texts, the first included. */
const STEP_TEXTS = (changes: number) => `new Promise((resolve) => {
  const text = () => document.querySelector(".player-step")?.textContent ?? "";
  const seen = [text()];
  const next = () => {
    const shown = text();
    if (shown !== seen[seen.length - 1]) seen.push(shown);
    if (seen.length > ${changes}) resolve(seen); else requestAnimationFrame(next);
  };
  requestAnimationFrame(next);
})`;

test('per-move playback shows one move per second (times the speed) whatever the match time; real time follows the clock', async () => {
  // Chess: one log line per move, the engines' thinking time between them.
  const id = replays.get('chess')!;
  const page = await newPage(1280);
  await page.goto(`${site.base}#/replay/${id}?step=1`);
  await waitForStep(page, 1);
  await page.selectOption('.player-mode', 'move');
  await page.selectOption('.player-speed', '1');
  await page.click('.player-play');
  // Per move: every move is shown, one after the other (how long each lasts is web/steps.test.ts's,
  // on an injected clock: a wall-clock check here fails on a busy machine).
  const texts = (await page.evaluate(STEP_TEXTS(4))) as string[];
  const steps = texts.map((text) => Number(/(\d+) \//.exec(text)?.[1]));
  assert.deepEqual(steps, [steps[0]!, steps[0]! + 1, steps[0]! + 2, steps[0]! + 3, steps[0]! + 4], texts.join(' | '));
  await page.click('.player-play');
  await screenshot(page, 'replay-per-move');
  // Real time: the clock advances by the speed, and a step lasts as long as it did in the match.
  await page.selectOption('.player-mode', 'time');
  await page.selectOption('.player-speed', '1');
  const before = Number(await page.locator('.player-slider').inputValue());
  await page.click('.player-play');
  // How fast the clock runs is web/steps.test.ts's (on an injected clock); here, that it runs.
  await waitUntil(page, `Number(document.querySelector(".player-slider").value) >= ${before + 0.5}`);
  await page.close();
});

test("a seat's transcript opens as text beside the board on a wide screen, under it on a narrow one", async () => {
  const id = replays.get('royalur')!;
  for (const width of [1280, 390]) {
    const page = await newPage(width);
    await page.goto(`${site.base}#/replay/${id}`);
    await page.locator('.files-card a', { hasText: 'Transcript of visitor' }).click();
    const panel = page.locator('.transcript-panel');
    await waitUntil(page, '/^# seat \\d, visitor: /.test(document.querySelector(".transcript-panel pre")?.textContent ?? "")');
    assert.match(await panel.locator('h2').innerText(), /Transcript of visitor/);
    assert.ok(page.url().startsWith(`${site.base}#/replay/${id}`), `the page stays on the replay: ${page.url()}`);
    const board = (await page.locator('.player-card').boundingBox())!;
    const box = (await panel.boundingBox())!;
    if (width >= 1100) assert.ok(box.x >= board.x + board.width - 0.5 && box.y < board.y + board.height, `beside the board at ${width} px: ${JSON.stringify({ board, box })}`);
    else assert.ok(box.y >= board.y + board.height - 0.5, `under the board at ${width} px: ${JSON.stringify({ board, box })}`);
    assert.ok((await page.evaluate('document.scrollingElement.scrollWidth <= innerWidth')) as boolean, `no horizontal overflow at ${width} px`);
    await screenshot(page, `replay-transcript-${width}`);
    await panel.locator('.transcript-close').click();
    await panel.waitFor({ state: 'hidden' });
    await page.close();
  }
});
