/**
 * Reading JSON from a server field by field: a missing or mistyped field becomes a harmless
 * default instead of an exception. Imports nothing, so the command-line client and the web page's
 * bundle read their bodies with the same code.
 */
export type Loose = Readonly<Record<string, unknown>>;

/** An object's fields; anything else (an array, null, a number) reads as no fields. */
export const looseRecord = (value: unknown): Loose => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {});
/** A string, or '' for anything else. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
/** An array, or [] for anything else. */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** Whether `value` is a finite number. */
export const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
