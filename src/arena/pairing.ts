/**
 * Who plays whom in the arena: a pure function of the queue and the time, so that it is tested
 * without sockets or timers (the Arena calls it on its clock's ticks).
 *
 * Rules (docs/arena.md): the entry that has waited longest is seated first, with the entries
 * nearest to it in rating, within a window that widens the longer it waits; a table never holds
 * one name twice; a table of anchors (server bots) only is never made; a table is full at the
 * game's number of seats or not made at all.
 */

/** One place in the queue: an entrant's free slot (an entrant with concurrency K has up to K). */
export interface QueuedSlot {
  /** Unique per slot; identifies it in the tables returned. */
  readonly key: string;
  /** The player name it plays as; two slots of one name never share a table. */
  readonly name: string;
  /** The OpenSkill mean of the name in this game's arena (pairing compares means, not the displayed rating). */
  readonly mu: number;
  /** Clock time (ms) since when it waits. */
  readonly since: number;
  /** A server bot queued by the operator: it never makes a table alone with other anchors. */
  readonly anchor: boolean;
  /** The names it met in its last game: met again only once both have waited PairingWindow.rematchAfterMs. */
  readonly lastMet?: readonly string[];
}

/** How the window of acceptable rating differences grows with waiting. */
export interface PairingWindow {
  /** Rating (mu) difference accepted at once. */
  readonly baseMu: number;
  /** Added to the window per second waited. */
  readonly muPerSecond: number;
  /**
   * How long two slots whose names met in the last game of either wait before they may meet again:
   * players who finish together would otherwise meet again and again, and a ladder of few players
   * would never mix (the ranking test's four programs are such a ladder).
   */
  readonly rematchAfterMs: number;
}

/** The defaults (docs/arena.md): one initial sigma of difference at once, everybody after about a minute, a rematch after 3 s. */
export const PAIRING_WINDOW: PairingWindow = { baseMu: 25 / 3, muPerSecond: 0.5, rematchAfterMs: 3_000 };

/** How far apart in mu `slot` accepts an opponent at time `now`. */
export function windowOf(slot: QueuedSlot, now: number, window: PairingWindow): number {
  return window.baseMu + (Math.max(0, now - slot.since) / 1000) * window.muPerSecond;
}

/**
 * The tables to start now, each `seats` slot keys long (not yet in seat order, see seatOrder).
 * Slots are taken oldest first as the table's first member; each further member is the nearest
 * in mu to the first (ties: the one waiting longer, then by key) among those not yet seated, of
 * another name than every member so far, and within the wider of the two windows.
 */
export function pairTables(queue: readonly QueuedSlot[], seats: number, now: number, window: PairingWindow = PAIRING_WINDOW): string[][] {
  const waiting = [...queue].sort((a, b) => a.since - b.since || compareKeys(a.key, b.key));
  const seated = new Set<string>();
  const tables: string[][] = [];
  for (const first of waiting) {
    if (seated.has(first.key)) continue;
    const table = [first];
    const candidates = waiting
      .filter((other) => !seated.has(other.key) && other.key !== first.key)
      .filter((other) => Math.abs(other.mu - first.mu) <= Math.max(windowOf(first, now, window), windowOf(other, now, window)))
      .filter((other) => !metLast(first, other) || Math.min(now - first.since, now - other.since) >= window.rematchAfterMs)
      .sort((a, b) => Math.abs(a.mu - first.mu) - Math.abs(b.mu - first.mu) || a.since - b.since || compareKeys(a.key, b.key));
    for (const candidate of candidates) {
      if (table.length === seats) break;
      if (table.some((member) => member.name === candidate.name)) continue;
      // The last seat of a table of anchors so far goes to an entrant, never to one more anchor.
      if (candidate.anchor && table.length === seats - 1 && table.every((member) => member.anchor)) continue;
      table.push(candidate);
    }
    if (table.length < seats) continue;
    if (table.every((member) => member.anchor)) continue;
    for (const member of table) seated.add(member.key);
    tables.push(table.map((member) => member.key));
  }
  return tables;
}

function metLast(a: QueuedSlot, b: QueuedSlot): boolean {
  return (a.lastMet ?? []).includes(b.name) || (b.lastMet ?? []).includes(a.name);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The seat order of a table of `names`, given how many games these same names have played
 * together before: the names sorted, rotated by one seat per earlier game, so two players
 * alternate who moves first and k players each take every seat in turn.
 */
export function seatOrder(names: readonly string[], gamesBefore: number): string[] {
  const sorted = [...names].sort(compareKeys);
  const shift = gamesBefore % Math.max(1, sorted.length);
  return [...sorted.slice(shift), ...sorted.slice(0, shift)];
}

/** The key under which the games of one set of names are counted (for seatOrder). */
export function tableKey(names: readonly string[]): string {
  return [...names].sort(compareKeys).join(' ');
}
