import { err, ok, type Result } from '../../util/result.js';

/**
 * The `param` line template of an external game. Placeholders:
 * - `{num_players}` and `{num_player}` (the spec's spelling): the number of players;
 * - `{timeout}`: the match's player timeout in seconds (a decimal number);
 * - `{arg:NAME}`: the value of the game argument NAME (the client's, or the manifest default).
 * Any other text, braces included, is copied as it is; only brace groups that look like a
 * placeholder (`{word}` or `{word:word}`) must be one of the above, so a typo is a start-up error.
 */
const PLACEHOLDER = /\{([a-z_]+)(?::([A-Za-z0-9_]+))?\}/g;

export interface ParamValues {
  readonly players: number;
  readonly timeout: number;
  readonly args: Readonly<Record<string, string>>;
}

/** The argument names a template uses, or the first placeholder that is not one. */
export function templateArgs(template: string): Result<string[]> {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const [whole, word, name] = match;
    if (word === 'arg' && name !== undefined) names.push(name);
    else if (name !== undefined || !['num_players', 'num_player', 'timeout'].includes(word!)) {
      return err(`unknown placeholder ${whole} (use {num_players}, {num_player}, {timeout} or {arg:NAME})`);
    }
  }
  return ok(names);
}

/** Fills a template validated by `templateArgs`; every argument it names must be in `values.args`. */
export function instantiateParam(template: string, values: ParamValues): string {
  return template.replace(PLACEHOLDER, (whole, word: string, name: string | undefined) => {
    if (word === 'arg' && name !== undefined) return values.args[name] ?? whole;
    if (word === 'timeout') return String(values.timeout);
    if (word === 'num_players' || word === 'num_player') return String(values.players);
    return whole;
  });
}
