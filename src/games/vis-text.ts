/**
 * Text in a game's drawing is laid out by the viewer, which knows nothing of the game: a label
 * must leave room for the longest text it may hold. Player names are the only unbounded part, so
 * drawings shorten them to a number of characters their layout has room for.
 */
export function shortName(name: string, maxChars: number): string {
  const chars = [...name];
  return chars.length <= maxChars ? name : `${chars.slice(0, maxChars - 1).join('')}…`;
}
