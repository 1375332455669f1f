import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePgn } from 'chessops/pgn';
import type { Page } from 'playwright-core';
import { coco, startCoco, type RunningCoco } from '../support/processes.js';
import { CHESS_PLAYER, CHESS_TIMEOUT } from '../support/chess-player.js';
import { siteAndBrowser, screenshot, openPage, waitUntil } from '../support/browser.js';

/**
 * What a finished match's record adds to its page, as lichess and Kaggle's viewer show it (issue
 * 29, item 7): the board flips (button and key f) and stays flipped in this browser; the legend
 * gives each seat its colour on the board and its status at the step shown (ok, timed out,
 * crashed...); a chess side shows the time of its latest move; the record downloads as JSON, and a
 * chess game as PGN, on the replay page and on the live page once the match is over. Screenshots go
 * to test-artifacts/ (match-record-*.png).
 *
 * The players are scripted: a chess player that plays its colour's moves of a fixed list and then
 * stops answering, and a roshambo player that exits after two rounds.
 */

const LAPTOP = { width: 1280, height: 800 } as const;

/** Plays PAPER twice, then exits with status 3: a crash in the middle of a roshambo match. */
const ROSHAMBO_CRASHER = String.raw`
import sys
for _ in range(3): sys.stdin.readline()
for _ in range(2):
    print('PAPER', flush=True)
    sys.stdin.readline()
sys.exit(3)
`;

let dir: string | undefined;
const scripts = { chess: '', crasher: '' };
const replays = new Map<'chess' | 'roshambo', string>();

async function chessMatch(): Promise<{ id: string; clients: RunningCoco[] }> {
  const created = await coco(site.server.url, ['new', 'chess', 'record chess', '-t', String(CHESS_TIMEOUT), '-a', 'pace=0']);
  assert.equal(created.code, 0, created.stderr);
  return { id: created.stdout.trim(), clients: [] };
}

function seatChessPlayers(id: string): RunningCoco[] {
  return ['ann', 'bob'].map((name) => startCoco(site.server.url, ['connect', id, '-n', name, '--', 'python3', scripts.chess]));
}

const site = siteAndBrowser({
  prepare: async () => {
    dir = mkdtempSync(join(tmpdir(), 'match-record-'));
    scripts.chess = join(dir, 'chess_player.py');
    scripts.crasher = join(dir, 'crasher.py');
    writeFileSync(scripts.chess, CHESS_PLAYER);
    writeFileSync(scripts.crasher, ROSHAMBO_CRASHER);
    const chess = await chessMatch();
    const roshambo = await coco(site.server.url, ['new', 'roshambo', 'record roshambo', '-b', '1', '-t', '2', '-a', 'rounds=5', '-a', 'pace=0']);
    assert.equal(roshambo.code, 0, roshambo.stderr);
    const clients = [...seatChessPlayers(chess.id), startCoco(site.server.url, ['connect', roshambo.stdout.trim(), '-n', 'crasher', '--', 'python3', scripts.crasher])];
    await Promise.all(clients.map((client) => client.done));
    await site.server.recorded(chess.id);
    await site.server.recorded(roshambo.stdout.trim());
    replays.set('chess', chess.id);
    replays.set('roshambo', roshambo.stdout.trim());
  },
  cleanup: () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
});

const STEP = '(document.querySelector(".player-step")?.textContent ?? "")';
const AT_END = `(() => { const m = /^move (\\d+) \\/ (\\d+)$/.exec(${STEP}); return m !== null && m[1] === m[2]; })()`;

/** Each legend row as `seat name status`. */
async function legendStatuses(page: Page): Promise<string[]> {
  return page.locator('.player-legend .legend-seat').evaluateAll((items) =>
    items.map((item) => `${item.getAttribute('data-seat')} ${item.querySelector('.legend-name')?.textContent} ${item.getAttribute('data-status')}`),
  );
}

/** Where a drawn text's centre lies on the screen (the first text that reads `value`). */
function textCentre(page: Page, value: string): Promise<{ x: number; y: number }> {
  return page.evaluate(`(() => {
    const text = [...document.querySelectorAll('.player-stage svg text')].find((t) => t.textContent === ${JSON.stringify(value)});
    const box = text.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  })()`) as Promise<{ x: number; y: number }>;
}

async function whiteSeat(id: string): Promise<{ players: string[]; white: string; black: string }> {
  const record = (await (await fetch(`${site.base}api/history/${id}`)).json()) as { players: string[]; spectator_stream: string };
  const [white = '', black = ''] = record.spectator_stream.split('\n');
  return { players: record.players, white, black };
}

test('the chess board flips with the button and the key f, stays flipped in this browser, and keeps its text upright', async () => {
  const id = replays.get('chess')!;
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/replay/${id}?step=0`);
  await waitUntil(page, `document.querySelectorAll('.player-stage svg text').length > 40 && /^move 0 \\//.test(${STEP})`);
  const before = { a: await textCentre(page, 'a'), h: await textCentre(page, 'h'), one: await textCentre(page, '1'), eight: await textCentre(page, '8') };
  assert.ok(before.a.x < before.h.x && before.one.y > before.eight.y, 'White at the bottom: a on the left, rank 1 below');
  await page.keyboard.press('f');
  await waitUntil(page, `document.querySelector('.vis-svg').classList.contains('flipped')`);
  const after = { a: await textCentre(page, 'a'), h: await textCentre(page, 'h'), one: await textCentre(page, '1'), eight: await textCentre(page, '8') };
  assert.ok(after.a.x > after.h.x, 'flipped: the a-file on the right');
  assert.ok(after.one.y < after.eight.y, 'flipped: rank 1 at the top');
  // The letters still read upright: each text is turned back about its own anchor.
  const upright = (await page.evaluate(`[...document.querySelectorAll('.player-stage svg text')].every((t) => /rotate\\(180\\)/.test(t.getAttribute('transform')))`)) as boolean;
  assert.equal(upright, true);
  assert.equal(await page.locator('.player-flip').getAttribute('aria-pressed'), 'true');
  await screenshot(page, 'match-record-chess-flipped');
  // Remembered in this browser: the replay opens flipped again.
  await page.reload();
  await waitUntil(page, `document.querySelector('.vis-svg')?.classList.contains('flipped') && document.querySelectorAll('.player-stage svg text').length > 40`);
  assert.ok((await textCentre(page, 'a')).x > (await textCentre(page, 'h')).x, 'still flipped after a reload');
  // The button flips it back, and that is remembered too.
  await page.locator('.player-flip').click();
  await waitUntil(page, `!document.querySelector('.vis-svg').classList.contains('flipped')`);
  assert.equal(await page.evaluate(`localStorage.getItem('coco.flip.chess')`), '0');
  assert.ok((await textCentre(page, 'a')).x < (await textCentre(page, 'h')).x);
  // A field keeps its f.
  await page.evaluate(`(() => { const input = document.createElement('input'); input.id = 'typing'; document.querySelector('.page-head').append(input); })()`);
  await page.locator('#typing').focus();
  await page.keyboard.type('f');
  assert.equal(await page.locator('#typing').inputValue(), 'f');
  assert.equal(await page.evaluate(`document.querySelector('.vis-svg').classList.contains('flipped')`), false);
  await page.close();
});

test("the chess legend gives each seat its colour on the board, its status at each step, and its latest move's time", async () => {
  const id = replays.get('chess')!;
  const { players, white, black } = await whiteSeat(id);
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/replay/${id}?step=0`);
  await waitUntil(page, `document.querySelectorAll('.player-legend .legend-seat[data-status]').length === 2`);
  const colours = await page.locator('.player-legend .legend-seat').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-colour')} ${item.querySelector('.legend-colour-word')?.textContent?.trim()}`));
  assert.deepEqual(colours, players.map((name) => (name === white ? '#f4f4f4 White' : '#1e1e1e Black')));
  // At the start everyone is ok; at the end Black, who stopped answering, has timed out.
  assert.deepEqual(await legendStatuses(page), players.map((name, i) => `${i + 1} ${name} ok`));
  await page.keyboard.press('End');
  await waitUntil(page, AT_END);
  await waitUntil(page, `document.querySelector('.legend-seat[data-status="timeout"]') !== null`);
  assert.deepEqual(await legendStatuses(page), players.map((name, i) => `${i + 1} ${name} ${name === black ? 'timeout' : 'ok'}`));
  // Its seat was closed for the timeout as it ran out (its transcript says so, in the words the live page uses).
  assert.match((await page.locator('.legend-seat[data-status="timeout"] .legend-status').getAttribute('title'))!, /did not answer in time/);
  // The time of each side's latest move (the record keeps no timeout, so no limit is claimed).
  const notes = await page.locator('.player-legend .legend-note').allInnerTexts();
  assert.equal(notes.length, 2);
  for (const note of notes) assert.match(note, /^\d+\.(\.\.)? \S+: \d+\.\d s$/);
  await screenshot(page, 'match-record-chess-legend');
  await page.close();
});

test('a program that exits in the middle of a roshambo match (coco stays connected, as the reference client does) is shown timed out from then on, and its seat has its colour', async () => {
  const id = replays.get('roshambo')!;
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/replay/${id}?step=0`);
  await waitUntil(page, `document.querySelectorAll('.player-legend .legend-seat[data-status]').length === 2`);
  const record = (await (await fetch(`${site.base}api/history/${id}`)).json()) as { players: string[] };
  const crasher = record.players.indexOf('crasher');
  assert.notEqual(crasher, -1);
  assert.deepEqual(await legendStatuses(page), record.players.map((name, i) => `${i + 1} ${name} ok`));
  await page.keyboard.press('End');
  await waitUntil(page, AT_END);
  await waitUntil(page, `document.querySelector('.legend-seat[data-status="timeout"]') !== null`);
  assert.deepEqual(await legendStatuses(page), record.players.map((name, i) => `${i + 1} ${name} ${i === crasher ? 'timeout' : 'ok'}`));
  // Roshambo writes each name in its seat's colour: the legend's badges are those colours.
  const colours = (await page.locator('.player-legend .legend-seat').evaluateAll((items) => items.map((item) => item.getAttribute('data-colour')))) as (string | null)[];
  assert.deepEqual(colours, ['#2563eb', '#dc2626']);
  await screenshot(page, 'match-record-roshambo-timed-out');
  await page.close();
});

/** Clicks a download link as a person would, and reads the file the browser saved (checking its name). */
async function downloaded(page: Page, selector: string, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  assert.equal(download.suggestedFilename(), name);
  return readFileSync((await download.path())!, 'utf8');
}

test('the replay page downloads a chess game as JSON and as a PGN that chessops reads back with its players, moves and result', async () => {
  const id = replays.get('chess')!;
  const { white, black } = await whiteSeat(id);
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/replay/${id}`);
  const pgnLink = page.locator('.page-head a.record-pgn');
  await pgnLink.waitFor();
  const [game, ...more] = parsePgn(await downloaded(page, '.page-head a.record-pgn', `chess-${id}.pgn`));
  assert.equal(more.length, 0);
  assert.equal(game!.headers.get('White'), white);
  assert.equal(game!.headers.get('Black'), black);
  assert.equal(game!.headers.get('Result'), '1-0');
  assert.deepEqual([...game!.moves.mainline()].map((node) => node.san), ['f3', 'e5', 'g4']);
  assert.equal((JSON.parse(await downloaded(page, '.page-head a.record-json', `chess-${id}.json`)) as { id: string }).id, id);
  // A game other than chess has no PGN.
  const roshambo = replays.get('roshambo')!;
  await page.goto(`${site.base}#/replay/${roshambo}`);
  // The roshambo page's own link (a hash change keeps the chess page until the new one is drawn).
  await page.locator(`.page-head a.record-json[download="roshambo-${roshambo}.json"]`).waitFor();
  assert.equal(await page.locator('a.record-pgn').count(), 0);
  await page.close();
});

test('the live chess page offers the downloads once the match has ended, with the seats, colours and statuses of the record', async () => {
  const { id } = await chessMatch();
  const page = await openPage(site.browser, LAPTOP.width, LAPTOP.height);
  await page.goto(`${site.base}#/match/${id}`);
  await page.locator('.pill-waiting').waitFor();
  assert.equal(await page.locator('a.record-json, a.record-pgn').count(), 0, 'nothing to download before the end');
  const clients = seatChessPlayers(id);
  try {
    // While it runs (Black then stays silent for the timeout), each side's time is by its name.
    await waitUntil(page, `document.querySelectorAll('.player-legend .legend-note').length === 2 && [...document.querySelectorAll('.legend-note')].every((n) => /per move left/.test(n.textContent)) && document.querySelector('.pill-running') !== null`);
    const during = await page.locator('.player-legend .legend-note').allInnerTexts();
    for (const note of during) assert.match(note, new RegExp(`^\\d+\\.(\\.\\.)? \\S+: \\d+\\.\\d s, \\d+\\.\\d s of ${CHESS_TIMEOUT} s per move left$`));
    await screenshot(page, 'match-record-live-chess-running');
    await page.locator('.pill-finished').waitFor();
    await page.locator('.page-head a.record-pgn').waitFor();
    assert.equal((JSON.parse(await downloaded(page, '.page-head a.record-json', `chess-${id}.json`)) as { id: string }).id, id);
    const { white, black } = await whiteSeat(id);
    const [game] = parsePgn(await downloaded(page, '.page-head a.record-pgn', `chess-${id}.pgn`));
    assert.deepEqual([game!.headers.get('White'), game!.headers.get('Black'), game!.headers.get('Result')], [white, black, '1-0']);
    // The live page knows the match's timeout: each side's time says how much of it was left.
    await waitUntil(page, AT_END);
    await waitUntil(page, `document.querySelector('.legend-seat[data-status="timeout"]') !== null`);
    const notes = await page.locator('.player-legend .legend-note').allInnerTexts();
    for (const note of notes) assert.match(note, new RegExp(`^\\d+\\.(\\.\\.)? \\S+: \\d+\\.\\d s, \\d+\\.\\d s of ${CHESS_TIMEOUT} s per move left$`));
    assert.equal(await page.locator('.legend-seat[data-colour]').count(), 2);
    await screenshot(page, 'match-record-live-chess-ended');
  } finally {
    for (const client of clients) client.child.kill();
    await Promise.all(clients.map((client) => client.done));
    await page.close();
  }
});

test('on a phone the legend with its colours, statuses and times, and the Flip button, fit without a sideways scroll', async () => {
  const page = await openPage(site.browser, 390, 844);
  await page.goto(`${site.base}#/replay/${replays.get('chess')!}`);
  await page.locator('.page-head a.record-pgn').waitFor();
  await page.keyboard.press('End');
  await waitUntil(page, `document.querySelector('.legend-seat[data-status="timeout"]') !== null && document.querySelectorAll('.legend-note').length === 2`);
  assert.equal((await page.evaluate('document.scrollingElement.scrollWidth - innerWidth')) as number, 0, 'the replay page scrolls sideways');
  const flip = (await page.evaluate(`(() => { const b = document.querySelector('.player-flip').getBoundingClientRect(); return b.width > 0 && b.right <= innerWidth; })()`)) as boolean;
  assert.equal(flip, true, 'the Flip button is on screen');
  await screenshot(page, 'match-record-phone-chess');
  await page.close();
});
