import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT, startServer, type ServerProcess } from './processes.js';

/** Where browser tests keep their screenshots (kept as test artifacts, not committed). */
export const ARTIFACTS = join(ROOT, 'test-artifacts');

/**
 * Every wait of a browser test is for an event (an element, a URL, a condition); this limit only
 * turns a page that never gets there into a failure, so it is wide enough for a very busy machine.
 */
export const PAGE_WAIT_LIMIT_MS = 120_000;

/** How long starting the browser may take before the launch counts as failed (generous: a busy machine is slow). */
const LAUNCH_TIMEOUT_MS = 60_000;

/**
 * Debian's chromium, headless, with the flags this closed network needs (playwright makes a fresh
 * profile). A browser that is missing or cannot start fails here at once with the reason, instead
 * of leaving the caller waiting.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const executablePath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    throw new Error(`no browser at ${executablePath}: install chromium or set CHROMIUM_PATH to a Chromium executable`);
  }
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath,
      headless: true,
      timeout: LAUNCH_TIMEOUT_MS,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    throw new Error(`cannot launch the browser at ${executablePath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    browser,
    close: () => browser.close(),
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A new page of `browser` at `width` x `height`, waiting at most PAGE_WAIT_LIMIT_MS, failing the test if its script throws. */
export async function openPage(browser: Browser, width = 1280, height = 860): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  page.setDefaultTimeout(PAGE_WAIT_LIMIT_MS);
  page.on('pageerror', (error) => assert.fail(`the page threw: ${error.message}`));
  return page;
}

/** A cocod and a browser shared by the tests of one file (`siteAndBrowser`). */
export interface SiteAndBrowser {
  readonly server: ServerProcess;
  readonly browser: Browser;
  /** The web page's address, `http://127.0.0.1:PORT/`. */
  readonly base: string;
}

/**
 * Starts a cocod and a browser before the tests of this file and stops them after, whatever got
 * started: when a step of `before` fails (no browser, a server that does not start), node:test
 * fails the tests and still runs `after`, so that no server or browser process keeps the file (and
 * the suite) from ending. `serverArgs` is called in `before` (it may make a folder the server
 * reads); `prepare` runs once both have started (what the tests need on the server: matches
 * played, a replay recorded), in the same hook: node:test does not wait for one root `before` to
 * end before it runs the next; `cleanup` runs once both are stopped.
 */
export function siteAndBrowser(
  options: { serverArgs?: () => readonly string[]; prepare?: () => Promise<void>; cleanup?: () => void } = {},
): SiteAndBrowser {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  let closeBrowser: (() => Promise<void>) | undefined;
  before(async () => {
    server = await startServer(options.serverArgs?.() ?? []);
    ({ browser, close: closeBrowser } = await launchBrowser());
    await options.prepare?.();
  });
  after(async () => {
    try {
      await closeBrowser?.();
    } finally {
      try {
        await server?.stop();
      } finally {
        options.cleanup?.();
      }
    }
  });
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
    get base() {
      return `http://127.0.0.1:${server!.port}/`;
    },
  };
}

/** Waits, once per animation frame, until `expression` is true (the page's CSP forbids waitForFunction's eval). */
export async function waitUntil(page: Page, expression: string, timeoutMs = PAGE_WAIT_LIMIT_MS): Promise<void> {
  const check = `new Promise((resolve) => {
    const deadline = performance.now() + ${timeoutMs};
    const next = () => (${expression}) ? resolve(true) : performance.now() > deadline ? resolve(false) : requestAnimationFrame(next);
    next();
  })`;
  assert.ok(await page.evaluate(check), `not true within ${timeoutMs} ms: ${expression}`);
}
