// Bundles the web page (web/app.ts and everything it imports, libraries included) into one
// minified script, dist/web/app.js, with its source map beside it. One file loads in one request
// and needs no import map for the libraries; the map, which carries the sources, keeps the
// browser's stack traces and debugger readable. Type checking is tsc's job (tsconfig.web.json,
// noEmit), run by the build before this.
//
// The licences of the packages that end up in the bundle are written beside it
// (THIRD-PARTY-NOTICES.txt): minifying drops their comments, and their licences ask that the
// notice travel with the code.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
// The build folder may be given (scripts/build.mjs builds aside, then swaps it in for dist/).
const outdir = join(root, process.argv[2] ?? 'dist', 'web');

const result = await build({
  absWorkingDir: root,
  entryPoints: ['web/app.ts'],
  outfile: join(outdir, 'app.js'),
  tsconfig: 'tsconfig.web.json',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  metafile: true,
  // node_modules may be a symbolic link (a worktree sharing another checkout's); the paths in the
  // source map and the notices stay inside this checkout either way.
  preserveSymlinks: true,
  logLevel: 'warning',
});

/** The folder of the package an input file belongs to (the last node_modules/NAME or node_modules/@SCOPE/NAME). */
function packageDir(input) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  const names = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return join(root, ...parts.slice(0, at + 1 + names));
}

const packages = [...new Set(Object.keys(result.metafile.inputs).map(packageDir).filter((dir) => dir !== null))].sort();
const manifests = packages.map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
const notices = manifests.map(({ dir, pkg }) => {
  const licenseFile = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license'].map((name) => join(dir, name)).find((path) => existsSync(path));
  const text = licenseFile ? readFileSync(licenseFile, 'utf8').trim() : `(no licence file; package.json says ${pkg.license})`;
  return `${pkg.name} ${pkg.version} (${pkg.license})\n${'-'.repeat(60)}\n${text}\n`;
});
writeFileSync(
  join(outdir, 'THIRD-PARTY-NOTICES.txt'),
  `The page's script (app.js) includes these packages:\n\n${notices.join('\n')}`,
);
console.log(`bundled ${relative(root, join(outdir, 'app.js'))} with ${manifests.map(({ pkg }) => `${pkg.name}@${pkg.version}`).join(', ') || 'no packages'}`);
