import type { ArgRange, ArgSpec } from '../../match/game.js';
import { fullMatch, type ArgDeclaration } from './manifest.js';

/**
 * The people-facing description of an external game's argument. A manifest declares a description,
 * a regex and a default, and may add a `hint` and an `example`; what it leaves out is derived here:
 * the hint is the description, the example the default, and what a valid value is comes from the
 * regex when it is recognisably a range of whole numbers or a list of words.
 */
export function externalArgSpec(declared: ArgDeclaration): ArgSpec {
  const hint = declared.hint ?? declared.description;
  const pattern = fullMatch(declared.regex);
  const words = wordChoices(declared.regex);
  const range = words === null ? wholeNumberRange(pattern) : null;
  const expects = range
    ? `a whole number from ${range.min} to ${range.max}`
    : words
      ? `one of ${words.join(', ')}`
      : `a value the game accepts for "${hint}"`;
  return {
    description: declared.description,
    regex: declared.regex,
    hint,
    expects,
    example: declared.example ?? declared.default,
    default: declared.default,
    defaultNote: null,
    range,
  };
}

/** Whole numbers up to this are tried against a regex to find the range it accepts. */
const PROBE_LIMIT = 10_000;
/** Values a regex for whole numbers refuses: with any of them accepted, it is not one. */
const NOT_WHOLE_NUMBERS = ['', ' ', 'a', '-1', '1.5', '1a', 'a1', '1 '];

/**
 * The range of a regex that accepts exactly the whole numbers from min to max (`[4-9]|1[0-2]`:
 * 4 to 12), or null when it accepts anything else, a gap, or numbers past PROBE_LIMIT.
 */
function wholeNumberRange(pattern: RegExp): ArgRange | null {
  if (NOT_WHOLE_NUMBERS.some((value) => pattern.test(value))) return null;
  let min = -1;
  let max = -1;
  for (let n = 0; n <= PROBE_LIMIT; n++) {
    if (!pattern.test(String(n))) continue;
    if (min < 0) min = n;
    else if (n !== max + 1) return null;
    max = n;
  }
  if (min < 0 || max === PROBE_LIMIT) return null;
  return { min, max, integer: true, odd: false };
}

/** The words of a regex that is only a choice of plain words (`fast|slow`, `^(red|blue)$`), or null. */
function wordChoices(regex: string): string[] | null {
  const match = /^\^?(?:\(([\w-]+(?:\|[\w-]+)+)\)|([\w-]+(?:\|[\w-]+)+))\$?$/.exec(regex);
  const body = match?.[1] ?? match?.[2];
  return body === undefined ? null : body.split('|');
}
