import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { siteAndBrowser, screenshot, openPage } from '../support/browser.js';

/**
 * The new-match form's game arguments: a hint and an example from GET /api/games, and a value the
 * game refuses caught on the page with an error in words, before anything is sent.
 */

const site = siteAndBrowser();

const newPage = (): Promise<Page> => openPage(site.browser);

/** The form field (label) of game argument `name`. */
const argField = (page: Page, name: string) => page.locator('label.field', { has: page.locator(`input[name="arg-${name}"]`) });

test('each game argument shows its hint under the field and, as placeholder, the default the hint states', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/new?game=roshambo`);
  const pace = page.locator('input[name=arg-pace]');
  await pace.waitFor();
  assert.equal(await pace.getAttribute('placeholder'), '1');
  assert.equal((await argField(page, 'pace').locator('.field-hint').innerText()).trim(), 'Seconds to wait between moves, 0 to 30. Default: 1.');
  const roundsHint = await argField(page, 'rounds').locator('.field-hint').innerText();
  assert.equal(await page.locator('input[name=arg-rounds]').getAttribute('placeholder'), /Default: (.+)\.$/.exec(roundsHint.trim())?.[1]);
  // The game's number of players, not words.
  assert.match((await page.locator('input[name=players]').getAttribute('placeholder')) ?? '', /^\d+$/);
  // A game whose argument has no fixed default says what happens without a value.
  await page.selectOption('select[name=game]', 'hase-und-igel');
  await page.locator('input[name=arg-hardTimeout]').waitFor();
  assert.match(await argField(page, 'hardTimeout').locator('.field-hint').innerText(), /Default: the match timeout\./);
  await page.close();
});

test('a bad value gets the error in words, with no regex, and nothing is created until it is fixed', async () => {
  const page = await newPage();
  await page.goto(`${site.base}#/new?game=roshambo`);
  await page.locator('input[name=arg-pace]').waitFor();
  await page.fill('input[name=name]', 'Hinted');
  await page.fill('input[name=arg-pace]', '99');
  await page.fill('input[name=arg-rounds]', 'ten');
  await page.click('button[type=submit]');
  const paceError = argField(page, 'pace').locator('.field-error');
  assert.equal((await paceError.innerText()).trim(), 'pace must be a number from 0 to 30 (for example 1.5).');
  assert.equal((await argField(page, 'rounds').locator('.field-error').innerText()).trim(), 'rounds must be a whole number from 1 to 9999 (for example 5).');
  await screenshot(page, 'new-match-arg-errors');
  const form = await page.locator('form').innerText();
  for (const regexText of ['^', '\\d', 'Does not match', 'format:']) assert.ok(!form.includes(regexText), `the form shows "${regexText}"`);
  assert.match(page.url(), /#\/new/, 'still on the form: nothing was sent');

  // A regex would let 8 through as a quoridor size; the range says odd.
  await page.selectOption('select[name=game]', 'quoridor');
  await page.locator('input[name=arg-size]').waitFor();
  await page.fill('input[name=arg-size]', '8');
  await page.click('button[type=submit]');
  assert.equal((await argField(page, 'size').locator('.field-error').innerText()).trim(), 'size must be an odd whole number from 3 to 25 (for example 7).');

  // Fixed, the match is created.
  await page.fill('input[name=arg-size]', '7');
  await page.click('button[type=submit]');
  await page.waitForURL(/#\/match\/[0-9a-v]{13}$/);
  await page.close();
});
