import { readFileSync } from 'node:fs';

/**
 * The package's version, from its package.json (three folders up from dist/src/cli/, where the
 * compiled commands run, both in a checkout and in an installed package).
 */
export function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
