/** A match as the full lobby weighs it: who made it, and whether it runs. */
export interface Placed {
  /** Its maker's network (Requester.network), or null for a match no requester made. */
  readonly network: string | null;
  /** Running matches are never expired. */
  readonly running: unknown;
}

/**
 * The waiting match to expire so that a newcomer from `network` gets one in a full lobby, or null
 * when none may be: only a network with no waiting match makes room, and only at the expense of
 * the network with the most waiting matches (at least two, so that nobody's only match goes; on a
 * tie, the one whose oldest is oldest), whose oldest goes. `matches` are in creation order.
 */
export function matchToMakeRoom<T extends Placed>(matches: Iterable<T>, network: string): T | null {
  const waiting = new Map<string, { count: number; oldest: T }>();
  for (const match of matches) {
    if (match.running || match.network === null) continue;
    const held = waiting.get(match.network);
    if (held) held.count++;
    else waiting.set(match.network, { count: 1, oldest: match });
  }
  if (waiting.has(network)) return null;
  let most: { count: number; oldest: T } | null = null;
  // The map is in the order each network's oldest was made: a strict > keeps the older on a tie.
  for (const held of waiting.values()) if (held.count >= 2 && (!most || held.count > most.count)) most = held;
  return most?.oldest ?? null;
}
