import type { ArgRange, ArgSpec } from '../match/game.js';

/**
 * The builders of a game argument's description, so that every built-in game words its hints and
 * errors the same way: a game says what the value means, its bounds, its default and an example,
 * and the hint ("seconds to wait between moves, 0 to 30") and the error ("pace must be a number
 * from 0 to 30 (for example 1.5)") are made here. The coco wire's `description` and `regex` are
 * passed through unchanged: the reference clients show them as they are.
 */
interface WireFields {
  /** What GameList sends as the argument's description. */
  readonly description: string;
  /** What GameList sends as the argument's regex. */
  readonly regex: string;
  /** A value the game accepts; a unit test checks that it does. */
  readonly example: string;
}

interface NumericFields extends WireFields {
  /** What the value means, in a few words: "seconds to wait between moves". */
  readonly meaning: string;
  readonly min: number;
  readonly max: number;
  /** The value used when none is given, or null when it depends on the match (then say so in `defaultNote`). */
  readonly default: number | null;
  /** What happens without a value, when that is not a fixed number: "the match timeout". */
  readonly defaultNote?: string;
}

/** A whole number in [min, max] (odd only, with `odd`). */
export function integerArgSpec(fields: NumericFields & { readonly odd?: boolean }): ArgSpec {
  const odd = fields.odd ?? false;
  return numeric(fields, `${odd ? 'an odd whole number' : 'a whole number'} from ${fields.min} to ${fields.max}`, {
    min: fields.min,
    max: fields.max,
    integer: true,
    odd,
  });
}

/** A decimal number in [min, max]. */
export function numberArgSpec(fields: NumericFields): ArgSpec {
  return numeric(fields, `a number from ${fields.min} to ${fields.max}`, { min: fields.min, max: fields.max, integer: false, odd: false });
}

function numeric(fields: NumericFields, expects: string, range: ArgRange): ArgSpec {
  const odd = range.odd ? ', odd' : '';
  return {
    description: fields.description,
    regex: fields.regex,
    hint: `${fields.meaning}${odd}, ${fields.min} to ${fields.max}`,
    expects,
    example: fields.example,
    default: fields.default === null ? null : String(fields.default),
    defaultNote: fields.defaultNote ?? null,
    range,
  };
}

/** `true` or `false`. */
export function booleanArgSpec(fields: WireFields & { readonly meaning: string; readonly default: boolean }): ArgSpec {
  return {
    description: fields.description,
    regex: fields.regex,
    hint: `${fields.meaning}: true or false`,
    expects: 'true or false',
    example: fields.example,
    default: String(fields.default),
    defaultNote: null,
    range: null,
  };
}

/** Any other value: the game words the hint and what a valid value is itself. */
export function textArgSpec(
  fields: WireFields & { readonly hint: string; readonly expects: string; readonly default: string | null; readonly defaultNote?: string },
): ArgSpec {
  return {
    description: fields.description,
    regex: fields.regex,
    hint: fields.hint,
    expects: fields.expects,
    example: fields.example,
    default: fields.default,
    defaultNote: fields.defaultNote ?? null,
    range: null,
  };
}

/** The error in words for a value of argument `name` that its game refuses (no regex in it). */
export function argProblem(name: string, spec: Pick<ArgSpec, 'expects' | 'example'>): string {
  return `${name} must be ${spec.expects} (for example ${spec.example})`;
}

export { argValueFits } from './arg-value.js';
