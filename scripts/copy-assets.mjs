// Copies the non-TypeScript files that modules read at run time (game descriptions, web assets)
// from src/ to dist/src/, keeping their paths.
import { cpSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ASSET = /\.(md|html|css|svg|png|json|py|txt)$/;
const root = new URL('..', import.meta.url).pathname;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (ASSET.test(name)) {
      const target = join(root, 'dist', relative(root, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}

walk(join(root, 'src'));
walk(join(root, 'web'));
