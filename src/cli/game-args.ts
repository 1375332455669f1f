import { UsageError } from './exit-status.js';

/** Game arguments from `-a KEY=VALUE` words (`coco new`, `coco tournament`); the server checks the values. */
export function parseGameArgs(pairs: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`-a takes KEY=VALUE, not "${pair}"`);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return args;
}
