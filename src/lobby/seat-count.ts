/**
 * How full a match is, written the same way by every front door that shows it (`coco lobby`,
 * `coco connect`, the web page's lobby and match page): the seats taken, server bots included,
 * over the seats, with the bots spelled out when there are any: `0/2`, `1/2 (1 bot)`,
 * `3/4 (2 bots)`. The web page imports this file too, so it stays free of Node and the DOM.
 */
export function formatSeatCount(joined: number, bots: number, seats: number): string {
  const taken = `${joined + bots}/${seats}`;
  return bots === 0 ? taken : `${taken} (${bots} ${bots === 1 ? 'bot' : 'bots'})`;
}

/** The seat count of a match as the lobby describes it (`connected`: the players who joined, bots not included). */
export function matchSeatCount(match: { readonly connected: readonly string[]; readonly bots: number; readonly players: number }): string {
  return formatSeatCount(match.connected.length, match.bots, match.players);
}
