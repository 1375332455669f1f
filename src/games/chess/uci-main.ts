/** The `coco uci` command line: options, then `--` and the engine's command. */
import { parseArgs } from 'node:util';
import { runUciBridge } from './uci-bridge.js';

export const UCI_USAGE = `Usage: coco uci [--movetime MS] [--option NAME=VALUE]... -- ENGINE [ARGS...]

Plays the chess stream on stdin/stdout with a UCI engine, e.g.
  coco connect ID -- coco uci --movetime 500 -- stockfish

  --movetime MS        the engine's time per move in milliseconds (default 1000)
  --option NAME=VALUE  a UCI option set before the game (repeatable), e.g. --option "Skill Level=0"
`;

const DEFAULT_MOVETIME_MS = 1000;

/** Runs the command; resolves with its exit status. */
export async function uciMain(argv: readonly string[]): Promise<number> {
  const split = argv.indexOf('--');
  const own = split < 0 ? [...argv] : argv.slice(0, split);
  const engine = split < 0 ? [] : argv.slice(split + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: own,
      options: { movetime: { type: 'string' }, option: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${UCI_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(UCI_USAGE);
    return 0;
  }
  const movetime = values.movetime === undefined ? DEFAULT_MOVETIME_MS : Number(values.movetime);
  const options: Record<string, string> = {};
  for (const option of values.option ?? []) {
    const at = option.indexOf('=');
    if (at <= 0) {
      process.stderr.write(`--option needs NAME=VALUE, not "${option}"\n`);
      return 2;
    }
    options[option.slice(0, at)] = option.slice(at + 1);
  }
  if (!Number.isInteger(movetime) || movetime < 1) {
    process.stderr.write(`--movetime needs a whole number of milliseconds, not "${values.movetime}"\n`);
    return 2;
  }
  if (engine.length === 0) {
    process.stderr.write(`an engine command is needed after --\n${UCI_USAGE}`);
    return 2;
  }
  // The server going away closes our stdout: stop quietly instead of crashing on EPIPE.
  process.stdout.on('error', () => process.stdin.destroy());
  return runUciBridge({
    engine: engine[0]!,
    engineArgs: engine.slice(1),
    movetime,
    options,
    input: process.stdin,
    output: process.stdout,
    log: (line) => process.stderr.write(`coco uci: ${line}\n`),
  });
}
