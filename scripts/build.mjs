// Builds the project into a folder of its own, then swaps it in for dist/ at the end.
//
// A build that emptied dist/ first would pull the files from under whatever runs from it: a
// server started with `npm start`, a running `npm test`, and `npx coco`, whose first use in a
// checkout installs the checkout as a package and so runs its `prepare` (this build). Built
// aside, dist/ changes in one rename, and only once the new build is whole; a failed build
// leaves the old dist/ as it was.
//
// `--if-stale` (the package's `prepare`) builds only when a source is newer than the last build:
// `npx coco`'s install of the checkout then costs nothing when dist/ is up to date.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const next = `dist.build-${process.pid}`;
/** Written last into a finished build: its time is the build's. */
const STAMP = '.built';
/** What a build is made of. */
const SOURCES = ['src', 'web', 'test', 'bench', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.web.json', 'tsconfig.web-test.json'];

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
removeAbandonedBuilds();
try {
  step('tsc', ['-p', 'tsconfig.json', '--outDir', next]);
  step('tsc', ['-p', 'tsconfig.web.json']);
  step('tsc', ['-p', 'tsconfig.web-test.json', '--outDir', join(next, 'web-test')]);
  step(process.execPath, ['scripts/bundle-web.mjs', next]);
  step(process.execPath, ['scripts/copy-assets.mjs', next]);
  writeFileSync(join(root, next, STAMP), '');
} catch (error) {
  rmSync(join(root, next), { recursive: true, force: true });
  console.error(error.message);
  process.exit(1);
}
swapIn(next);

function step(command, args) {
  // tsc comes from the package's own node_modules/.bin, as npm scripts find it.
  const bin = command === 'tsc' ? join(root, 'node_modules', '.bin', 'tsc') : command;
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`build failed: ${command} ${args.join(' ')} (exit ${result.status ?? result.signal})`);
}

/** dist/ becomes `folder`; the previous build is removed after, never before. */
function swapIn(folder) {
  const dist = join(root, 'dist');
  const old = `${dist}.old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(join(root, folder), dist);
  rmSync(old, { recursive: true, force: true });
}

function isStale() {
  let built;
  try {
    built = statSync(join(root, 'dist', STAMP)).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((source) => newestChange(join(root, source)) > built);
}

/** The newest modification time of a file or of anything in a folder (0 when absent). */
function newestChange(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, name)));
  return newest;
}

/** Folders of builds whose process is gone (stopped half-way): they would only pile up. */
function removeAbandonedBuilds() {
  for (const name of readdirSync(root)) {
    const match = /^dist\.(?:build|old)-(\d+)$/.exec(name);
    if (match && !isAlive(Number(match[1]))) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
