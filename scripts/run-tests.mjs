// Runs every compiled test file (`*.test.js` under dist/) with Node's test runner.
// Node 20's runner takes no globs, so the files are listed here; arguments narrow the set
// (`node scripts/run-tests.mjs royalur` runs the files whose path contains "royalur").
//
// A hanging test must fail, never hang the suite. Node 20.20's `--test-timeout=MS`, given to the
// runner of several files, bounds each *file*: a file still running after MS (a test that waits
// forever, or a handle left open after its tests) is stopped with SIGTERM and reported as a failure
// ("cancelled", exit status 1), and the other files go on. That is the runner's own mechanism, so
// it is used rather than a `{ timeout }` on every test (easy to forget in a new file) or a watchdog
// here. Test support stops the servers it started when SIGTERM comes (test/support/processes.ts).
// COCO_TEST_FILE_TIMEOUT_MS overrides the 10 minutes (a file takes seconds to a minute when the
// machine is idle; a fully loaded machine has been seen to take several times that).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../dist', import.meta.url).pathname;
const filters = process.argv.slice(2);
const fileTimeoutMs = Number(process.env['COCO_TEST_FILE_TIMEOUT_MS'] ?? 10 * 60 * 1000);
if (!(fileTimeoutMs > 0)) {
  console.error(`COCO_TEST_FILE_TIMEOUT_MS must be a number of milliseconds, not "${process.env['COCO_TEST_FILE_TIMEOUT_MS']}"`);
  process.exit(1);
}

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
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=3', `--test-timeout=${fileTimeoutMs}`, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
