import { readFileSync } from 'node:fs';
import type { ResultLine } from '../../src/tournament/results-file.js';

/**
 * The lines of a `coco tournament` results file as written: JSON, one a line, read as they are
 * rather than through the product's own parser, which the tests check.
 */
export function readResultLines(path: string): ResultLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ResultLine);
}

/**
 * The rows of `coco tournament`'s final table for the players `names`, by name: `cells` cells
 * from the points column on (points, games, W, D, L, ...).
 */
export function tableRows(stdout: string, names: readonly string[], cells: number): Map<string, string[]> {
  const row = new RegExp(`^\\d+\\s+(${names.join('|')})\\s`);
  return new Map(
    stdout
      .split('\n')
      .filter((line) => row.test(line))
      .map((line) => {
        const words = line.trim().split(/\s+/);
        return [words[1]!, words.slice(5, 5 + cells)];
      }),
  );
}
