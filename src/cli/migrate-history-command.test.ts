import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMigrateHistory, progressLine } from './migrate-history-command.js';

test('migrate-history takes --from, --to (or COCOD_POSTGRES) and --batch; wrong values are refused without echoing a URL', () => {
  assert.deepEqual(parseMigrateHistory(['--from', 'h.sqlite', '--to', 'postgres://db/h'], {}), { ok: true, value: { from: 'h.sqlite', to: 'postgres://db/h', batch: 200 } });
  assert.deepEqual(parseMigrateHistory(['--from', 'h.sqlite', '--batch', '7'], { COCOD_POSTGRES: 'postgresql://db/h' }), { ok: true, value: { from: 'h.sqlite', to: 'postgresql://db/h', batch: 7 } });
  assert.deepEqual(parseMigrateHistory(['--help'], {}), { ok: true, value: null });
  assert.deepEqual(parseMigrateHistory(['--to', 'postgres://db/h'], {}), { ok: false, error: 'migrate-history needs --from FILE.sqlite' });
  assert.deepEqual(parseMigrateHistory(['--from', 'h.sqlite', '--to', 'mysql://root:pw@db/h'], {}), { ok: false, error: 'invalid --to URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)' });
  for (const batch of ['0', '-1', '1.5', 'x']) {
    const refused = parseMigrateHistory(['--from', 'h.sqlite', '--to', 'postgres://db/h', '--batch', batch], {});
    assert.equal(refused.ok, false, batch);
  }
  assert.equal(parseMigrateHistory(['--from', 'h', '--bogus'], {}).ok, false);
});

test('progress reads as matches looked at, copied and already there', () => {
  assert.equal(progressLine({ total: 1234, done: 200, copied: 150, skipped: 50 }), '200 of 1234 matches: 150 copied, 50 already there');
});
