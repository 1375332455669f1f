// Copies the non-TypeScript files that modules read at run time (game descriptions, web assets)
// from src/ to dist/src/ (or the build folder given as argument: scripts/build.mjs), keeping their
// paths, and marks the package's bins executable.
import { chmodSync, cpSync, readdirSync, readFileSync, statSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ASSET = /\.(md|html|css|svg|png|json|py|txt)$/;
const root = new URL('..', import.meta.url).pathname;
const out = process.argv[2] ?? 'dist';

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (ASSET.test(name)) {
      const target = join(root, out, relative(root, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}

walk(join(root, 'src'));
walk(join(root, 'web'));

// tsc writes its output with mode 0644 and the build starts from an empty folder, so the bins named
// in package.json lose the execute bit on every build; `npx coco`, `npm link` and a direct
// `dist/src/cli/coco.js` all run the file itself (through its #! line) and need it.
const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const file of Object.values(bin)) chmodSync(join(root, out, relative('dist', file)), 0o755);
