import { DEFAULT_ENGINE_NAME, runQtpEngine } from './qtp-engine.js';
import type { SearchBudget } from './search.js';

/** Thinking time per genmove when `--time` is not given, in seconds. */
export const DEFAULT_ENGINE_SECONDS = 2;
/** The longest thinking time `--time` accepts, in seconds (controllers allow 30 s per move). */
export const MAX_ENGINE_SECONDS = 600;

const USAGE = `usage: coco qtp-engine [--time SECONDS] [--nodes N] [--seed TEXT]

Runs our Quoridor engine on standard input and output, speaking the Quoridor Text Protocol.
  --time SECONDS  thinking time per genmove (default ${DEFAULT_ENGINE_SECONDS})
  --nodes N       stop each search after about N nodes instead (reproducible play)
  --seed TEXT     varies the choice among equally good moves
Other arguments are ignored, as controllers may pass their own (e.g. -seed N).
`;

export interface EngineArgs {
  readonly budget: SearchBudget;
  readonly seed: string;
  readonly help: boolean;
  readonly error: string | null;
}

/** Reads the engine's command-line arguments; unknown ones are skipped. */
export function parseEngineArgs(argv: readonly string[]): EngineArgs {
  let seconds = DEFAULT_ENGINE_SECONDS;
  let nodes: number | undefined;
  let seed = String(Date.now());
  let help = false;
  let error: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--time' || arg === '-time') {
      const parsed = Number(value);
      if (value === undefined || !(parsed > 0) || parsed > MAX_ENGINE_SECONDS) error = `--time needs a number of seconds from 0 to ${MAX_ENGINE_SECONDS}`;
      else seconds = parsed;
      i++;
    } else if (arg === '--nodes') {
      const parsed = Number(value);
      if (value === undefined || !Number.isInteger(parsed) || parsed < 1) error = '--nodes needs a positive integer';
      else nodes = parsed;
      i++;
    } else if ((arg === '--seed' || arg === '-seed') && value !== undefined) {
      seed = value;
      i++;
    }
  }
  const budget: SearchBudget = nodes === undefined ? { timeMs: seconds * 1000 } : { nodes };
  return { budget, seed, help, error };
}

/** `coco qtp-engine [--time SECONDS]`: our engine as a QTP program on stdin/stdout. */
export async function qtpEngineMain(argv: string[]): Promise<void> {
  const args = parseEngineArgs(argv);
  if (args.help || args.error) {
    if (args.error) process.stderr.write(`${args.error}\n`);
    process.stderr.write(USAGE);
    if (args.error) process.exitCode = 2;
    return;
  }
  // A controller that goes away closes our stdout: stop quietly instead of crashing on EPIPE.
  process.stdout.on('error', () => process.stdin.destroy());
  try {
    await runQtpEngine(process.stdin, process.stdout, { name: DEFAULT_ENGINE_NAME, budget: args.budget, seed: args.seed });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}
