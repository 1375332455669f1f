import type { ArgRange } from '../protocol/games-json.js';

/**
 * Whether `value` passes the checks a client can make before sending it: the regex (anchored, as
 * the games check it) and the numeric range. The game still has the last word (a hase-und-igel
 * board must also be one the server could deal). Shared by the server (arg-spec.ts) and the web
 * page's form (web/arg-check.ts), which the bundle lets import it: one check, not two copies. An
 * empty regex, or one JavaScript cannot read (an external game's), passes: the server judges then.
 */
export function argValueFits(spec: { readonly regex: string; readonly range: ArgRange | null }, value: string): boolean {
  if (!regexAccepts(spec.regex, value)) return false;
  const range = spec.range;
  if (range === null) return true;
  const number = Number(value.trim());
  if (!Number.isFinite(number) || number < range.min || number > range.max) return false;
  if (range.integer && !Number.isInteger(number)) return false;
  return !range.odd || Math.abs(number % 2) === 1;
}

function regexAccepts(regex: string, value: string): boolean {
  if (regex === '') return true;
  try {
    return new RegExp(`^(?:${regex})$`, 'u').test(value);
  } catch {
    return true;
  }
}
