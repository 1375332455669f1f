import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';

/**
 * The program a shell command line starts first, when the shell cannot find it (not on PATH, no
 * such file, or not executable); null when it can, or when the line does not start with a plain
 * word (quotes, a variable, a subshell: the shell alone knows). Checked before a tournament starts,
 * so that a mistyped `--player` is one clear error instead of a string of lost games.
 */
export function missingProgram(command: string): string | null {
  const first = /^\s*([\w./+@%:,-]+)(?:\s|$)/.exec(command)?.[1];
  if (first === undefined || /^\w+=/.test(first)) return null;
  if (first.includes('/')) return isExecutableFile(first) ? null : first;
  // `command -v` finds what the shell would run: a builtin or a file on PATH. (Given a path, some
  // shells answer for a file that is there but cannot run, hence the check above.)
  const found = spawnSync('sh', ['-c', 'command -v -- "$1" >/dev/null', 'sh', first], { stdio: 'ignore' });
  return found.status === 0 ? null : first;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
