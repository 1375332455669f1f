// Runs every compiled test file (`*.test.js` under dist/) with Node's test runner.
// Node 20's runner takes no globs, so the files are listed here; arguments narrow the set
// (`node scripts/run-tests.mjs royalur` runs the files whose path contains "royalur").
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../dist', import.meta.url).pathname;
const filters = process.argv.slice(2);

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

// Filters match the path below dist/, so a checkout's own folder name never matches them all.
const files = collect(root, []).filter((file) => filters.length === 0 || filters.some((f) => relative(root, file).includes(f)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=3', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
