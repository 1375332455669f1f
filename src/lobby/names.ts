/**
 * What the reference accepts for names and passwords (POSIX classes over ASCII):
 * match name `[[:print:]]{1,24}`, password `[[:graph:]]{0,32}`, user name `[[:graph:]]{1,16}`
 * without `$` (reserved for server bots, `ServerBot$0`).
 */
const MATCH_NAME = /^[\x20-\x7e]{1,24}$/;
const PASSWORD = /^[\x21-\x7e]{0,32}$/;
const USER_NAME = /^[\x21-\x23\x25-\x7e]{1,16}$/;

export const isValidMatchName = (name: string): boolean => MATCH_NAME.test(name);
export const isValidPassword = (password: string): boolean => PASSWORD.test(password);
export const isValidUserName = (name: string): boolean => USER_NAME.test(name);

/** The rules above in words, for the hints of the CLI and the page (the wire texts name no rule). */
export const MATCH_NAME_RULE = 'a match name is 1 to 24 printable ASCII characters, spaces allowed';
export const PASSWORD_RULE = 'a password is 0 to 32 printable ASCII characters, no spaces';
