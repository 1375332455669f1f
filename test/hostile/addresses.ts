/**
 * Source addresses on the loopback network (all of 127.0.0.0/8 reaches a server bound to
 * 127.0.0.1 on Linux). The server's per-address limits must leave the legitimate players alone,
 * so attackers, legitimate players, the lobby observer and the newcomer each come from their own
 * addresses.
 */

/** The attacker's main address. */
export const ATTACKER = '127.0.0.1';

/**
 * One of the attacker's other addresses (`127.0.1.N`), for attacks whose subject is not a
 * per-address limit (a seat's input, a port's parser): a fixed server's limits on GameNew and
 * connections must not decide what those attacks reach.
 */
export function attackerAddress(n: number): string {
  return `127.0.1.${1 + (n % 250)}`;
}

/** The legitimate players of the k-th legitimate match (`127.0.2.N`). */
export function legitAddress(k: number): string {
  return `127.0.2.${1 + (k % 250)}`;
}

/** The harness's lobby observer, which waits for matches to be recorded. */
export const OBSERVER = '127.0.3.1';

/** Whoever comes after the attack to create and play a match of their own. */
export const NEWCOMER = '127.0.4.1';

/**
 * Host `host` of the attacker's network `network` (`127.1.N.0/24`): the server counts per-address
 * limits per IPv4 /24 as well, so attacks that spread over addresses say which networks they use.
 */
export function attackerNetworkAddress(network: number, host: number): string {
  return `127.1.${network % 256}.${1 + (host % 250)}`;
}

/** Someone else using the server while an attack runs (`127.0.6.N`): an importer, a probe match. */
export function bystanderAddress(n: number): string {
  return `127.0.6.${1 + (n % 250)}`;
}

/** An operator setting up matches with the master verification password (`127.0.7.1`). */
export const OPERATOR = '127.0.7.1';
