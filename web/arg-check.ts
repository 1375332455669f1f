import { argValueFits } from '../src/games/arg-value.js';
import type { ArgJson } from '../src/protocol/games-json.js';

/**
 * The new-match form's words for a game argument and its own check of a value, before the
 * server's: the server's own `argValueFits` (src/games/arg-value.ts), so that a value the form
 * lets through is one the game accepts, a hase-und-igel board it could not deal aside.
 */

/** What an empty field plays: the default value, or in words what happens without one ("the match timeout"). */
function fallbackOf(arg: ArgJson): string | null {
  return arg.default === null || arg.default === '' ? arg.default_note : arg.default;
}

/** The line under an argument's field: its hint and its default ("Seconds to wait between moves, 0 to 30. Default: 1."). */
export function argHintText(arg: ArgJson): string {
  const hint = arg.hint || arg.description;
  const sentence = hint === '' ? '' : `${hint.charAt(0).toUpperCase()}${hint.slice(1)}.`;
  const fallback = fallbackOf(arg);
  return fallback === null ? sentence : `${sentence} Default: ${fallback}.`;
}

/**
 * The field's placeholder: what an empty field plays, the very default the hint states (an
 * example there would read as the default and contradict the hint); 'default' when the game
 * names none.
 */
export function argPlaceholder(arg: ArgJson): string {
  return fallbackOf(arg) ?? 'default';
}

/** The error in words for a value the argument refuses, or null when it fits. Never the regex. */
export function argValueError(arg: ArgJson, value: string): string | null {
  if (argValueFits(arg, value)) return null;
  if (arg.problem !== '') return arg.problem;
  const what = arg.hint || arg.description;
  return `${arg.name} is not valid${what ? `: ${what}` : ''}${arg.example ? ` (for example ${arg.example})` : ''}`;
}
