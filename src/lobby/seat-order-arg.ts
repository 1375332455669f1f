import { err, ok, type Result } from '../util/result.js';
import { isValidUserName } from './names.js';

/**
 * A game argument no game defines (games' argument names are words; this one starts with `@`):
 * the players' names in seat order, separated by spaces (user names have none), for a client that
 * must say who sits where, as a tournament that alternates seats does. Server bots are named as
 * the match names them (`ServerBot$0`). The lobby takes it out of the arguments before the game
 * sees them; seats it does not name are filled in the lobby's order after the named ones. The
 * reference server ignores arguments it does not know, so a client sending it there gets the
 * reference's own seating.
 */
export const SEAT_ORDER_ARG = '@seats';

const BOT_NAME = /^ServerBot\$\d{1,3}$/;

/** The seat order `value` names, for a match of `players` seats. */
export function parseSeatOrder(value: string, players: number): Result<string[]> {
  const names = value.split(' ').filter((name) => name !== '');
  const bad = names.find((name) => !isValidUserName(name) && !BOT_NAME.test(name));
  if (bad !== undefined) return err(`${SEAT_ORDER_ARG}: "${bad}" is not a player name (give the names in seat order, separated by spaces)`);
  if (names.length > players) return err(`${SEAT_ORDER_ARG}: ${names.length} names for ${players} seats`);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) return err(`${SEAT_ORDER_ARG}: "${twice}" is named twice`);
  return ok(names);
}
