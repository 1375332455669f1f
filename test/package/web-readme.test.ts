import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/processes.js';

const WEB = join(ROOT, 'web');

test("web/README.md names only files that exist, and every module of the page's own", () => {
  const readme = readFileSync(join(WEB, 'README.md'), 'utf8');
  const named = [...readme.matchAll(/`([\w./*-]+\.(?:ts|json|html|css))`/g)].map((m) => m[1]!).filter((name) => !name.includes('*'));
  const missing = named.filter((name) => !existsSync(join(WEB, name)) && !existsSync(join(ROOT, name)));
  assert.deepEqual(missing, [], 'files the README names that do not exist');
  const modules = readdirSync(WEB).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  const unnamed = modules.filter((name) => !named.includes(name));
  assert.deepEqual(unnamed, [], 'modules of web/ the README does not name');
});
