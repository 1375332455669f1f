import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { coco, startCoco } from '../support/processes.js';
import { CHESS_PLAYER, CHESS_TIMEOUT } from '../support/chess-player.js';
import { siteAndBrowser, screenshot, openPage, waitUntil } from '../support/browser.js';

/**
 * Clocks and live seats on the match page, as lichess and Kaggle's viewer show them (issue 29,
 * item 7): a replay shows each seat's time left at every step (the record's clock.json), the seat
 * to move highlighted; a live match shows the seats in order before its record exists (VisSeats),
 * the clock of the seat to move ticking and each seat's status as the server sees it. Screenshots go
 * to test-artifacts/ (match-clocks-*.png). Every wait is for a state of the page, never for time.
 */

const LAPTOP = { width: 1280, height: 800 } as const;
const PHONE = { width: 390, height: 844 } as const;

let dir: string | undefined;
let chessScript = '';
let chessId = '';
/** What each chess player's `coco connect` printed, by name. */
const chessOutputs = new Map<string, string>();

const site = siteAndBrowser({
  prepare: async () => {
    dir = mkdtempSync(join(tmpdir(), 'match-clocks-'));
    chessScript = join(dir, 'chess_player.py');
    writeFileSync(chessScript, CHESS_PLAYER);
    const created = await coco(site.server.url, ['new', 'chess', 'clocks chess', '-t', String(CHESS_TIMEOUT), '-a', 'pace=0']);
    assert.equal(created.code, 0, created.stderr);
    chessId = created.stdout.trim();
    const clients = ['ann', 'bob'].map((name) => startCoco(site.server.url, ['connect', chessId, '-n', name, '--', 'python3', chessScript]));
    const finished = await Promise.all(clients.map((client) => client.done));
    finished.forEach((result, i) => chessOutputs.set(['ann', 'bob'][i]!, `${result.stdout}${result.stderr}`));
    await site.server.recorded(chessId);
  },
  cleanup: () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

const STEP = '(document.querySelector(".player-step")?.textContent ?? "")';
const AT_END = `(() => { const m = /^move (\\d+) \\/ (\\d+)$/.exec(${STEP}); return m !== null && m[1] === m[2]; })()`;

/** Each legend row as `seat name clock running?`. */
function legendClocks(page: Page): Promise<string[]> {
  return page.locator('.player-legend .legend-seat').evaluateAll((items) =>
    items.map((item) => {
      const clock = item.querySelector('.legend-clock');
      return `${item.getAttribute('data-seat')} ${item.querySelector('.legend-name')?.textContent} ${clock?.textContent} ${clock?.classList.contains('running') ? 'running' : 'stopped'}`;
    }),
  );
}

async function chessSides(id: string): Promise<{ players: string[]; white: string; black: string }> {
  const record = (await (await fetch(`${site.base}api/history/${id}`)).json()) as { players: string[]; spectator_stream: string; artifacts: string[] };
  assert.ok(record.artifacts.includes('clock.json'), 'the record keeps the clocks');
  const [white = '', black = ''] = record.spectator_stream.split('\n');
  return { players: record.players, white, black };
}

test('a chess replay shows each side\'s time left at every step: the side to move highlighted, the side that ran out at 0.0', async () => {
  const { players, white, black } = await chessSides(chessId);
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/replay/${chessId}?step=0`);
  await waitUntil(page, `document.querySelectorAll('.player-legend .legend-clock').length === 2`);
  // Step 1, the colours said: White is to move, with its whole limit; Black has not been asked.
  await page.keyboard.press('ArrowRight');
  await waitUntil(page, `/^move 1 \\//.test(${STEP}) && document.querySelector('.legend-clock.running') !== null`);
  const atStart = await legendClocks(page);
  players.forEach((name, i) => assert.equal(atStart[i], `${i + 1} ${name} ${name === white ? `${CHESS_TIMEOUT}.0 running` : '– stopped'}`));
  // After White's first move Black is to move, with its whole limit; White has what it had left.
  await page.keyboard.press('ArrowRight');
  await waitUntil(page, `/^move 2 \\//.test(${STEP}) && document.querySelector('.legend-clock.running') !== null`);
  const afterFirst = await legendClocks(page);
  players.forEach((name, i) => {
    const row = afterFirst[i]!;
    if (name === black) assert.equal(row, `${i + 1} ${name} ${CHESS_TIMEOUT}.0 running`);
    else assert.match(row, new RegExp(`^${i + 1} ${name} \\d+\\.\\d stopped$`));
  });
  await screenshot(page, 'match-clocks-chess-step-2');
  await page.keyboard.press('End');
  await waitUntil(page, AT_END);
  await waitUntil(page, `document.querySelector('.legend-clock.flagged') !== null`);
  const atEnd = await legendClocks(page);
  players.forEach((name, i) => {
    if (name === black) assert.equal(atEnd[i], `${i + 1} ${name} 0.0 stopped`, 'Black ran out of time');
    else assert.match(atEnd[i]!, new RegExp(`^${i + 1} ${white} \\d+\\.\\d stopped$`));
  });
  await screenshot(page, 'match-clocks-chess-end');
  await page.close();
  // Black's seat was closed for the timeout as it ran out (not only at the match's end): its coco says so.
  assert.match(chessOutputs.get(black)!, /you lost 0-1 \(.*; you did not answer in time\)/);
  assert.doesNotMatch(chessOutputs.get(white)!, /did not answer in time/);
});

test('a live match shows its seats in order before the record, the clock of the seat to move ticking, and a seat whose client went away as crashed', async () => {
  const created = await coco(site.server.url, ['new', 'roshambo', 'clocks live', '-b', '1', '-t', '120', '-a', 'rounds=3', '-a', 'pace=0']);
  assert.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  // A program that never answers: its seat stays to move until its client goes.
  const silent = startCoco(site.server.url, ['connect', id, '-n', 'silent', '--', 'python3', '-c', 'import time; time.sleep(300)']);
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  try {
    await page.goto(`${site.base}#/match/${id}`);
    await waitUntil(page, `document.querySelectorAll('.player-legend .legend-seat[data-seat]').length === 2 && document.querySelector('.legend-clock.running') !== null`);
    assert.equal(await page.locator('.pill').first().textContent(), 'Running', 'live: no record yet');
    const seats = await page.locator('.player-legend .legend-seat').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-seat')} ${item.querySelector('.legend-name')?.textContent}`));
    assert.deepEqual(seats.map((s) => s.split(' ')[1]).sort(), ['ServerBot$0', 'silent'].sort(), 'both seats, numbered');
    const running = await page.locator('.legend-seat:has(.legend-clock.running) .legend-name').allTextContents();
    assert.deepEqual(running, ['silent'], 'the bot answered at once; the silent seat is to move');
    const first = await page.locator('.legend-clock.running').textContent();
    await waitUntil(page, `document.querySelector('.legend-clock.running')?.textContent !== ${JSON.stringify(first)}`);
    assert.ok(Number((await page.locator('.legend-clock.running').textContent())!.replace(/^(\d+):(\d\d)$/, (_, m: string, s: string) => String(Number(m) * 60 + Number(s)))) <= 120);
    await screenshot(page, 'match-clocks-live');
    const phone = await openPage(site.browser, PHONE.width, PHONE.height);
    await phone.goto(`${site.base}#/match/${id}`);
    await waitUntil(phone, `document.querySelector('.legend-clock.running') !== null`);
    await screenshot(phone, 'match-clocks-live-phone');
    await phone.close();
    silent.child.kill('SIGTERM');
    await waitUntil(page, `document.querySelector('.legend-seat[data-status="crashed"]') !== null`);
    assert.equal(await page.locator('.legend-seat[data-status="crashed"] .legend-name').textContent(), 'silent');
    await screenshot(page, 'match-clocks-live-crashed');
  } finally {
    silent.child.kill('SIGTERM');
    await silent.done;
    await page.close();
  }
});

test('a roshambo replay (its pictures derived from its input) shows each seat\'s time left at every step: both to move each round, the seat that never answered at 0.0', async () => {
  const created = await coco(site.server.url, ['new', 'roshambo', 'clocks roshambo', '-b', '1', '-t', '5', '-a', 'rounds=3', '-a', 'pace=0']);
  assert.equal(created.code, 0, created.stderr);
  const id = created.stdout.trim();
  // Never answers: it runs out of its 5 s in round 1, and the match ends.
  const silent = startCoco(site.server.url, ['connect', id, '-n', 'silent', '--', 'python3', '-c', 'import time; time.sleep(300)']);
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  try {
    await site.server.recorded(id);
    const record = (await (await fetch(`${site.base}api/history/${id}`)).json()) as { players: string[]; artifacts: string[] };
    assert.ok(record.artifacts.includes('clock.json'), 'the record keeps the clocks');
    const clock = (await (await fetch(`${site.base}api/history/${id}/artifacts/clock.json`)).json()) as { seats: { turns: unknown[][] }[] };
    assert.deepEqual(clock.seats.map((seat) => seat.turns.map((turn) => turn.length)), [[5], [5]], 'one turn a seat, placed among the derived pictures');
    await page.goto(`${site.base}#/replay/${id}?step=0`);
    await waitUntil(page, `document.querySelectorAll('.player-legend .legend-clock').length === 2`);
    // Step 1, the start drawn (its names, its score, its log line): both seats are to move, each with its whole 5 s.
    await page.keyboard.press('ArrowRight');
    await waitUntil(page, `/^move 1 \\//.test(${STEP}) && document.querySelectorAll('.player-legend .legend-clock.running').length === 2`);
    assert.deepEqual(await legendClocks(page), record.players.map((name, i) => `${i + 1} ${name} 5.0 running`));
    await screenshot(page, 'match-clocks-roshambo-start');
    await page.keyboard.press('End');
    await waitUntil(page, AT_END);
    await waitUntil(page, `document.querySelector('.legend-clock.flagged') !== null`);
    const atEnd = await legendClocks(page);
    record.players.forEach((name, i) => {
      if (name === 'silent') assert.equal(atEnd[i], `${i + 1} silent 0.0 stopped`, 'it ran out of time');
      else assert.match(atEnd[i]!, new RegExp(`^${i + 1} ${name.replace(/\$/g, '\\$')} [1-5]\\.\\d stopped$`), 'the bot answered within its time');
    });
    await screenshot(page, 'match-clocks-roshambo-end');
  } finally {
    silent.child.kill('SIGTERM');
    await silent.done;
    await page.close();
  }
});
