import { MATCH_NAME_RULE, PASSWORD_RULE } from '../lobby/names.js';
import { CliError, EXIT } from './exit-status.js';

/**
 * The server's refusals, with what to do next. The server's own text comes first and unchanged:
 * it is pinned by the reference protocol (lobby texts such as `Game "ID" does not exists`), so a
 * script matching it keeps working; coco adds its hint after it, the same from every command.
 */
const HINTS: readonly (readonly [RegExp, (id: string, text: string) => string])[] = [
  [/^Game ".*" does not exists$/, () => 'coco lobby lists the waiting and running matches, coco history the finished ones'],
  [/^Invalid ID: /, () => 'a match id is the 13 letters and digits that coco new printed; coco lobby lists them'],
  [/^Game ".*" is already running$/, (id) => `watch it with coco connect -s ${id}`],
  [/^Wrong password$/, () => "give the match's password with -p"],
  [/^Game ".*" was made from another address: /, () => 'coco delete -v PASSWORD deletes any waiting match with the master password'],
  [/^Username ".*" already taken$/, () => 'choose another name with -n'],
  // The reference's words call the match's name a "game name": the hint says what it is and its rule.
  [/^"[^]*" is not a valid game name$/, (_id, text) => `${MATCH_NAME_RULE}; this one has ${nameLength(text)} characters`],
  [/^"[^]*" is not a valid password$/, () => PASSWORD_RULE],
  [/^".*" is not a valid username$/, () => 'a name is 1 to 16 printable characters, no spaces, no $'],
  // Claimed names (docs/cli.md, "Claimed names"): the server's texts are in src/names/name-claims.ts.
  [/^Name ".*" is claimed: /, () => 'coco register NAME keeps its token for this server; on another machine give it with --token-file FILE or COCO_TOKEN, or choose another name with -n'],
  [/^Wrong token for name /, () => 'the token given (--token-file, COCO_TOKEN, or the one coco register kept) is not this name\'s on this server: rotated elsewhere?'],
  [/^Name ".*" is already claimed$/, () => 'choose another name; the operator can release one (coco register --release NAME -v PASSWORD)'],
];

/** The length of the name quoted at the start of a refusal (`"NAME" is not ...`). */
function nameLength(text: string): number {
  return text.slice(1, text.lastIndexOf('" is not')).length;
}

/** The server's text with coco's hint after it, when coco has one. */
export function withHint(text: string, id = 'ID'): string {
  const hint = HINTS.find(([pattern]) => pattern.test(text))?.[1](id, text);
  return hint === undefined ? text : `${text} (${hint})`;
}

/** A refusal from the server, as the error that ends the command with status 3. */
export function refused(text: string, id?: string): CliError {
  return new CliError(withHint(text, id), EXIT.refused);
}

/** What every command says of a match id the server does not know: the lobby's own words. */
export function noSuchMatch(id: string): CliError {
  return refused(`Game "${id}" does not exists`, id);
}

/** What `list GAME` and `new GAME` both say of a game the server does not have (`new` gets the first words from the server). */
export function noSuchGame(game: string): CliError {
  return new CliError(`Game not found: "${game}" (coco list shows the games of this server)`, EXIT.refused);
}
