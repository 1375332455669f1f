import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { COCO, ROOT, coco, startCoco } from '../support/processes.js';
import { siteAndBrowser, screenshot, openPage, waitUntil } from '../support/browser.js';

let gamesDir: string | undefined;

/** A program that says ready and listens: the human player and the server bot of `reporter`. */
const LISTENER = 'import sys\nprint("ready", flush=True)\nfor _ in sys.stdin: pass';

/**
 * The description of the external game: markup that would run a script, in every form a
 * description could try. Each attempt would set `window.hacked`.
 */
const HOSTILE_DESCRIPTION = [
  '# reporter',
  '',
  'A scripted game server for the page tests. <script>window.hacked = "inline script"</script>',
  '',
  '<img src=x onerror="window.hacked = \'onerror\'">',
  '',
  '<div><svg onload="window.hacked = \'svg\'"></svg></div>',
  '',
  '[a link](javascript:window.hacked=\'link\') and <a href="javascript:window.hacked=\'raw link\'">a raw link</a>',
  '',
  '| column <b onmouseover="window.hacked = \'cell\'">x</b> |',
  '|---|',
  '| <iframe src="javascript:window.hacked=\'frame\'"></iframe> |',
  '',
].join('\n');

/**
 * One external game whose server plays a golden exchange (src/games/external/fixtures) with a
 * refused vis event, an error of player 2 and scores of 57.00000000000001 and
 * 0.30000000000000004, for the replay page. Its seats: a human (coco connect) and a server bot,
 * both LISTENER; the ready deadline is wide for a busy machine.
 */
function externalGames(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-web-games-'));
  const folder = join(dir, 'reporter');
  mkdirSync(folder);
  writeFileSync(join(folder, 'description.md'), HOSTILE_DESCRIPTION);
  writeFileSync(
    join(folder, 'game.json'),
    JSON.stringify({
      name: 'reporter',
      command: ['python3', join(ROOT, 'src/games/external/fixtures/script_server.py'), 'web-report'],
      min_players: 2,
      max_players: 2,
      bots: [['python3', '-c', LISTENER]],
      max_bots: 1,
      ready_deadline: 300,
    }),
  );
  return dir;
}

const site = siteAndBrowser({
  serverArgs: () => {
    gamesDir = externalGames();
    return ['--games', gamesDir];
  },
  cleanup: () => {
    if (gamesDir) rmSync(gamesDir, { recursive: true, force: true });
  },
});

/** What the server's Content-Security-Policy blocked on any page, checked by the last test. */
const cspViolations: string[] = [];

async function newPage(): Promise<Page> {
  const page = await openPage(site.browser);
  // Chromium reports a blocked script, style or connection on the console, and the page gets a
  // securitypolicyviolation event; both are noted.
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));",
  });
  page.on('console', (message) => {
    if (/CSP violation|Content Security Policy/i.test(message.text())) cspViolations.push(`${page.url()}: ${message.text()}`);
  });
  return page;
}

test('the lobby shows, live, a match created through coco', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/`);
  await page.locator('.live-status').waitFor();
  const id = (await coco(site.server.url, ['new', 'roshambo', 'Made by coco', '-p', 'pw'])).stdout.trim();
  const row = page.locator('.lobby-table tr', { hasText: id });
  await row.waitFor();
  // Seats taken (bots included) over seats, the way `coco lobby` writes them.
  assert.match(await row.innerText(), /Made by coco\s+roshambo\s+0\/2\s/);
  assert.equal(await row.locator('a', { hasText: 'roshambo' }).getAttribute('href'), '#/games/roshambo');
  await screenshot(page, 'lobby');
  await page.close();
});

test("the lobby keeps each row in its place, the same element, while its match's seats fill and empty", async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/`);
  await page.locator('.live-status', { hasText: 'Live' }).waitFor();
  const first = (await coco(site.server.url, ['new', 'roshambo', 'Stable first'])).stdout.trim();
  const second = (await coco(site.server.url, ['new', 'roshambo', 'Stable second', '-b', '1'])).stdout.trim();
  await page.locator('.lobby-table tr', { hasText: second }).waitFor();
  const ids = () => page.locator('.lobby-table tbody tr .col-id').allInnerTexts();
  const before = await ids();
  assert.ok(before.indexOf(first) >= 0 && before.indexOf(first) < before.indexOf(second), `made first, shown first: ${before.join(' ')}`);
  assert.match(await page.locator('.lobby-table tr', { hasText: second }).locator('.col-players').innerText(), /^1\/2 \(1 bot\)$/);
  // Marks the row elements: an update that rebuilt a row would lose its mark.
  await page.evaluate('for (const row of document.querySelectorAll(".lobby-table tbody tr")) row.dataset.mark = row.querySelector(".col-id").textContent');
  const player = startCoco(site.server.url, ['connect', first, '-n', 'sitter', '--', 'python3', '-c', LISTENER]);
  try {
    await player.waitForOutput(/> waiting for players: 1\/2\n/);
    const row = page.locator('.lobby-table tr', { hasText: first });
    await row.locator('.col-players', { hasText: /^1\/2$/ }).waitFor();
    assert.deepEqual(await ids(), before);
    assert.equal(await row.getAttribute('data-mark'), first, 'the same row element, updated in place');
  } finally {
    player.child.kill();
    await player.done;
  }
  await page.locator('.lobby-table tr', { hasText: first }).locator('.col-players', { hasText: /^0\/2$/ }).waitFor();
  assert.deepEqual(await ids(), before);
  await page.close();
});

test('the games page lists every game with one line; each game has its own page; an unknown name says so', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/games`);
  const roshambo = page.locator('.game-item', { hasText: 'roshambo' });
  await roshambo.locator('.game-summary', { hasText: 'Rock Paper Scissors (also called roshambo) is one of the most basic hand games.' }).waitFor();
  const names = await page.locator('.game-link').allInnerTexts();
  for (const game of ['chess', 'clobber', 'dama', 'hase-und-igel', 'quoridor', 'reporter', 'roshambo', 'royalur']) assert.ok(names.includes(game), game);
  await screenshot(page, 'games');

  await roshambo.locator('.game-link').click();
  await page.waitForURL(/#\/games\/roshambo$/);
  await page.getByRole('heading', { name: 'Implementation details' }).waitFor();
  assert.equal(await page.locator('h1').innerText(), 'roshambo (Rock Paper Scissors)');
  assert.match(await page.locator('.game-args').innerText(), /rounds/);
  assert.equal(await page.locator('.page-actions a', { hasText: 'New match' }).getAttribute('href'), '#/new?game=roshambo');
  await screenshot(page, 'game-roshambo');

  // Chess's description has tables: their columns are aligned by class, which the policy allows.
  await page.goto(`${site.base}#/games/chess`);
  await page.locator('.markdown table').first().waitFor();
  await screenshot(page, 'game-chess');

  await page.goto(`${site.base}#/games/no-such-game`);
  await page.getByRole('heading', { name: 'No such game' }).waitFor();
  assert.match(await page.locator('.notice-error').innerText(), /no game called "no-such-game"/);
  await page.close();
});

test("a game's description cannot run a script: its markup is shown as text or removed", async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/games/reporter`);
  const markdown = page.locator('.markdown');
  await markdown.locator('table').waitFor();
  // Let anything that was going to run (an image's error, an svg's load) have happened.
  await page.evaluate('new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 0))');
  assert.equal(await page.evaluate('String(window.hacked)'), 'undefined');
  const dangerous = (await page.evaluate(`[...document.querySelectorAll('.markdown *')]
    .filter((e) => ['SCRIPT', 'IMG', 'IFRAME', 'svg'].includes(e.tagName) || [...e.attributes].some((a) => /^on/i.test(a.name) || /javascript:/i.test(a.value)))
    .map((e) => e.outerHTML)`)) as string[];
  assert.deepEqual(dangerous, []);
  const text = await markdown.innerText();
  assert.match(text, /<script>window\.hacked = "inline script"<\/script>/, 'the markup is shown as text');
  assert.match(text, /onerror=/);
  await page.close();
});

test('a new user creates a royalur match from the form, joins it with coco, watches it live and replays it', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/new?game=royalur`);
  await page.selectOption('select[name=game]', 'royalur');
  await page.fill('input[name=name]', 'From the form');
  await page.fill('input[name=bots]', '1');
  await page.locator('input[name=arg-pace]').waitFor();
  await page.fill('input[name=arg-pace]', '0.05');
  await screenshot(page, 'new-match-form');
  await page.click('button[type=submit]');
  await page.waitForURL(/#\/match\/[0-9a-v]{13}$/);
  const id = /#\/match\/([0-9a-v]{13})$/.exec(page.url())![1]!;
  const command = page.locator('.waiting-panel .command');
  await command.waitFor();
  assert.match(await command.innerText(), new RegExp(`coco -s ws://127.0.0.1:${site.server.port}/ connect ${id} -- ./your-program`));
  await screenshot(page, 'match-waiting');

  const player = startCoco(site.server.url, ['connect', id, '-n', 'human', '--', 'python3', join(ROOT, 'examples/royalur/bot.py')]);
  // The board is drawn and the log grows while the match runs.
  await page.locator('.player-stage svg circle').first().waitFor();
  await page.locator('.log-lines li').nth(3).waitFor();
  const early = await page.locator('.log-lines li').count();
  await page.locator('.log-lines li').nth(early + 4).waitFor();
  await screenshot(page, 'match-live');
  assert.equal((await player.done).code, 0);
  await page.locator('.result-panel').waitFor();
  assert.match(await page.locator('.result-panel').innerText(), /human|ServerBot\$0/);
  // The live view plays on to the last move, although the end of the match (spectator connection)
  // may overtake the last visualizer events (their own connection).
  const atEnd = '(() => { const s = document.querySelector(".player-slider"); return s !== null && Number(s.max) > 0 && Number(s.value) >= Number(s.max); })()';
  await waitUntil(page, atEnd);
  assert.match(await page.locator('.log-lines li').last().innerText(), / wins: /, 'the live view reaches the final position');
  await screenshot(page, 'match-result');

  await page.goto(`${site.base}#/replay/${id}`);
  await page.locator('.player-slider').waitFor();
  // A replay starts playing by itself; at 16x it reaches the end of the match quickly.
  await page.selectOption('.player-speed', '16');
  await waitUntil(page, atEnd);
  const lastLine = await page.locator('.log-lines li').last().innerText();
  assert.match(lastLine, / wins: /, 'the replay reaches the final position');
  await screenshot(page, 'replay-end');
  // Each seat's transcript is offered for download, named after its player.
  const transcriptLink = page.locator('.files-card a', { hasText: 'Transcript of human' });
  const transcript = await (await fetch(new URL((await transcriptLink.getAttribute('href'))!, site.base))).text();
  assert.match(transcript, /^# seat \d, human: /);
  assert.match(transcript, /\n\d+\.\d{3} > \S/, 'what the bot sent');

  await page.goto(`${site.base}#/history?game=royalur`);
  await page.locator(`a[href="#/replay/${id}"]`).waitFor();
  await screenshot(page, 'history');
  await page.close();
});

test('a chess match between two UCI engines replays as a board with the moves in SAN', async () => {
  const id = (await coco(site.server.url, ['new', 'chess', 'engines', '-a', 'pace=0'])).stdout.trim();
  const stockfish = ['/usr/games/stockfish', '/usr/bin/stockfish'].find((path) => existsSync(path)) ?? 'stockfish';
  const engine = (name: string) => startCoco(site.server.url, ['connect', id, '-n', name, '--', process.execPath, COCO, 'uci', '--movetime', '20', '--option', 'Skill Level=0', '--', stockfish]);
  const first = engine('fish1');
  await first.waitForOutput(/> joined/);
  const results = await Promise.all([first.done, engine('fish2').done]);
  for (const result of results) assert.equal(result.code, 0, result.stderr);
  await site.server.recorded(id);
  const page = await newPage();
  await page.goto(`${site.base}#/replay/${id}`);
  await page.locator('.player-slider').waitFor();
  // The End key jumps to the final position, however long the game was.
  await page.locator('.player-slider').focus();
  await page.keyboard.press('End');
  const atEnd = '(() => { const s = document.querySelector(".player-slider"); return s !== null && Number(s.max) > 0 && Number(s.value) >= Number(s.max); })()';
  await waitUntil(page, atEnd);
  const log = await page.locator('.log-lines li').allInnerTexts();
  assert.match(log[0]!, /White: fish\d, Black: fish\d$/);
  assert.match(log[1]!, / 1\. [A-Za-z][a-z0-9+#=]+$/, 'the first move in SAN');
  assert.match(log.at(-1)!, /wins by checkmate|draw: /);
  await screenshot(page, 'chess-replay-end');
  await page.close();
});

test('a replay log of the reference format is shown with the visualizer', async () => {
  const log = [
    '000.000100 > vis inline',
    '000.000200 > param 2',
    '000.010000 < vis {t:0,create:{id:1,p:[0.5,0.5],geom:[{circle:{r:0.2,f:"3366ccff"}}]}}',
    '000.020000 < vis {t:0.5,log:{line:"imported from a log"}}',
    '000.030000 < vis {t:1,transform:{id:1,d:0.5,mv:[0.1,0]}}',
    '000.040000 < over 1 0 done',
  ].join('\n');
  const page = await newPage();
  await page.goto(`${site.base}#/import`);
  await page.fill('textarea[name=log]', log);
  await page.click('button[type=submit]');
  await page.locator('.player-stage svg circle').first().waitFor();
  await page.locator('.log-lines li', { hasText: 'imported from a log' }).waitFor();
  await screenshot(page, 'imported-log');
  const refused = await fetch(`${site.base}api/replay-log`, { method: 'POST', body: '000.000000 < vis {t:0,create:{id:1,geom:[{circle:{f:"red"}}]}}' });
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as { error: string }).error, /vis\/bad-color/);
  await page.close();
});

test("an external match's replay shows its score rounded and the game server's report (player errors, refused drawings)", async () => {
  const created = await coco(site.server.url, ['new', 'reporter', 'Reported', '-b', '1']);
  const id = created.stdout.trim();
  assert.equal(created.code, 0, created.stderr);
  const human = await coco(site.server.url, ['connect', id, '-n', 'human', '--', 'python3', '-c', LISTENER]);
  assert.equal(human.code, 0, human.stderr);
  await site.server.recorded(id);
  const page = await newPage();
  await page.goto(`${site.base}#/replay/${id}`);
  const card = page.locator('.game-report-card');
  await card.waitFor();
  const report = await card.innerText();
  assert.match(report, /Player errors/);
  // Seats may be dealt in any order: the game server's player 2 is the second row of the result.
  const seat2 = (await page.locator('.result-table tbody tr').nth(1).locator('td').first().innerText()).trim();
  assert.ok(['human', 'ServerBot$0'].includes(seat2), seat2);
  assert.ok(report.includes(`${seat2} (dropped)`), report);
  assert.match(report, /not your turn/);
  assert.match(report, /Refused visualizer events \(1\)/);
  assert.match(report, /vis\/bad-color/);
  assert.deepEqual((await page.locator('.result-table td.num').allInnerTexts()).map((text) => text.trim()), ['57', '0.3']);
  await screenshot(page, 'replay-external-report');
  await page.close();
});

test('the page is served with its security headers and nothing on it breaks the Content-Security-Policy', async () => {
  const page = await newPage();
  const response = await page.goto(`${site.base}#/demo`);
  const headers = response!.headers();
  assert.match(headers['content-security-policy'] ?? '', /default-src 'self'/);
  assert.equal(headers['x-content-type-options'], 'nosniff');
  await page.locator('.player-stage svg').first().waitFor();
  await page.goto(`${site.base}#/history`);
  await page.locator('main h1, main h2').first().waitFor();
  await page.close();
  // Every page opened by the tests above counts too: they ran first, in this file's order.
  assert.deepEqual(cspViolations, []);
});
