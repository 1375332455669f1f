// What a user gets from this repository and from its npm package: runnable bins, documentation
// that stays inside the repository and agrees with the sources, and a package without the tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string>; license: string; files: string[] };

test('the build leaves every bin of package.json executable, and each runs through its #! line', () => {
  for (const [name, file] of Object.entries(pkg.bin)) {
    const path = join(root, file);
    assert.equal(statSync(path).mode & 0o111, 0o111, `${file} (${name}) is executable by everyone`);
    // Run the file itself, not `node file`: that is what npx, npm link and a global install do.
    const run = spawnSync(path, ['--help'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, `${name} --help: ${run.stderr}`);
    assert.match(run.stdout, new RegExp(`^${name}: `));
  }
});

test('`prepare` (what `npx coco` runs when it installs the checkout) leaves an up-to-date build alone, and the build leaves no folder of its own behind', () => {
  const stamp = join(root, 'dist/.built');
  const before = statSync(stamp).mtimeMs;
  const prepare = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(prepare.status, 0, prepare.stderr);
  assert.equal(statSync(stamp).mtimeMs, before, 'dist/ was not built again');
  assert.deepEqual(readdirSync(root).filter((name) => /^dist\./.test(name)), []);
});

test('docs/games holds one page per game, generated from src/games/GAME/description.md and its argument specs (npm run docs)', () => {
  const check = spawnSync(process.execPath, [join(root, 'scripts/game-docs.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  for (const game of readdirSync(join(root, 'src/games'))) {
    if (existsSync(join(root, 'src/games', game, 'description.md'))) assert.ok(existsSync(join(root, 'docs/games', `${game}.md`)), game);
  }
});

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) markdownFiles(path, out);
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

test('README.md, docs/ and examples/ link only to files that exist inside the repository', () => {
  const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs')), ...markdownFiles(join(root, 'examples'))];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    // A path to a sibling checkout or shared folder works on one machine only.
    assert.doesNotMatch(text, /\.\.\/shared|\/work\//, `${where} names a folder outside the repository`);
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^(https?:|mailto:|#)/.test(target)) continue;
      const path = resolve(dirname(file), target.replace(/#.*$/, ''));
      assert.ok(!relative(root, path).startsWith('..'), `${where} links outside the repository: ${target}`);
      assert.ok(existsSync(path), `${where} links to a missing file: ${target}`);
    }
  }
});

test('the page loads one bundled, minified script with its source map, and names the packages bundled in it', () => {
  const index = readFileSync(join(root, 'dist/web/index.html'), 'utf8');
  const scripts = [...index.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(scripts, ['/static/app.js']);
  const bundle = readFileSync(join(root, 'dist/web/app.js'), 'utf8');
  assert.match(bundle, /\n\/\/# sourceMappingURL=app\.js\.map\n?$/);
  // Minified: a few very long lines (template literals keep their own line breaks).
  assert.ok(bundle.length / bundle.split('\n').length > 1000, 'minified');
  // Bundled: no import statement is left for the browser to follow (a statement starts a line,
  // or follows a semicolon, in the minified text).
  assert.ok(!/(^|;)\s*import\s*["'{*]/m.test(bundle), 'no import statement in the bundle');
  const map = JSON.parse(readFileSync(join(root, 'dist/web/app.js.map'), 'utf8')) as { sources: string[]; sourcesContent?: unknown[] };
  assert.ok(map.sources.includes('../../web/app.ts'), 'the map leads back to the page\'s sources');
  assert.equal(map.sourcesContent?.length, map.sources.length, 'and carries them');
  const notices = readFileSync(join(root, 'dist/web/THIRD-PARTY-NOTICES.txt'), 'utf8');
  for (const name of ['markdown-it', 'dompurify']) assert.match(notices, new RegExp(`^${name} \\d`, 'm'), name);
});

test('LICENSE holds the full text of the license package.json names', () => {
  assert.equal(pkg.license, 'MPL-2.0');
  const license = readFileSync(join(root, 'LICENSE'), 'utf8');
  assert.ok(license.startsWith('Mozilla Public License Version 2.0\n'));
  assert.match(license, /Exhibit B - "Incompatible With Secondary Licenses" Notice/);
});

test('npm pack ships the bins, their modules, the web page and the docs, and no tests', () => {
  // --ignore-scripts: packing would otherwise run `prepare`, a build (swapped in whole, but not
  // worth its time here).
  const pack = spawnSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(pack.status, 0, pack.stderr);
  const [manifest] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
  const shipped = new Set(manifest.files.map((f) => f.path));
  const page = ['dist/web/index.html', 'dist/web/app.js', 'dist/web/app.js.map', 'dist/web/app.css', 'dist/web/app.css.map', 'dist/web/style.css', 'dist/web/THIRD-PARTY-NOTICES.txt'];
  for (const file of [...Object.values(pkg.bin), 'LICENSE', 'README.md', 'docs/protocol.md', 'docs/limits.md', 'docs/games/chess.md', ...page, 'examples/roshambo/bot.py']) {
    assert.ok(shipped.has(file), `ships ${file}`);
  }
  for (const path of shipped) {
    // The bundle's source maps go with it (they carry the sources a browser's debugger shows).
    if (path === 'dist/web/app.js.map' || path === 'dist/web/app.css.map') continue;
    assert.doesNotMatch(path, /\.test\.js$|\.map$|\/fixtures\/|^dist\/(test|bench|web-test)\/|^src\/|^web\//, `does not ship ${path}`);
  }
  // The page is one bundled script: nothing else of web/ is shipped as a module.
  assert.deepEqual([...shipped].filter((path) => path.startsWith('dist/web/') && path.endsWith('.js')), ['dist/web/app.js']);
  // Every module the package ships finds the modules it imports in the package too.
  for (const path of shipped) {
    if (!path.endsWith('.js')) continue;
    const source = readFileSync(join(root, path), 'utf8');
    for (const [, specifier] of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = relative(root, resolve(dirname(join(root, path)), specifier!));
      assert.ok(shipped.has(target), `${path} imports ${specifier}, which is not shipped`);
    }
  }
  assert.ok(shipped.size < 400, `ships ${shipped.size} files`);
});
