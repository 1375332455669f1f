import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_LIMITS, LIMIT_SPECS, limitsTable } from './server-limits.js';

test('docs/limits.md lists every limit with its default, as the code defines them', () => {
  const docs = readFileSync(new URL('../../../docs/limits.md', import.meta.url), 'utf8');
  assert.ok(docs.includes(limitsTable()), 'docs/limits.md holds the table limitsTable() renders: regenerate it');
  for (const [name, spec] of Object.entries(LIMIT_SPECS)) {
    assert.ok(docs.includes(`| \`${name}\` | ${spec.default} |`), name);
    assert.equal(DEFAULT_LIMITS[name as keyof typeof LIMIT_SPECS], spec.default);
  }
});
