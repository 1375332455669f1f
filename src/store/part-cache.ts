/**
 * Whole record parts kept by the thread that reads them, within a byte budget, the least recently
 * used dropped first. SQLite reads a text or blob value whole whatever range of it is asked
 * (`substr` loads the value first: 180 ms for 40 MiB), so reading a large part a range at a time
 * would read it whole once per range; with the part kept here, each range after the first is a copy
 * of that range. Many clients asking for the same artifact (the usual attack, and the usual
 * popular download) share one copy.
 */
export class PartCache {
  /** By partKey, least recently used first. */
  private readonly parts = new Map<string, { readonly matchId: string; readonly bytes: Buffer }>();
  /** The keys kept of each match, so that writing or removing a match forgets its parts at once. */
  private readonly byMatch = new Map<string, Set<string>>();
  private bytes = 0;

  constructor(
    /** The most bytes kept; a part larger than this is never kept. */
    readonly maxBytes: number,
  ) {}

  /** Bytes kept now. */
  get heldBytes(): number {
    return this.bytes;
  }

  get(matchId: string, part: string): Buffer | undefined {
    return this.touch(partKey(matchId, part));
  }

  private touch(key: string): Buffer | undefined {
    const kept = this.parts.get(key);
    if (kept === undefined) return undefined;
    // Map order is the order of use: touched, it goes to the back.
    this.parts.delete(key);
    this.parts.set(key, kept);
    return kept.bytes;
  }

  /** Keeps the part if it fits the budget at all, dropping the least recently used ones for room. */
  keep(matchId: string, part: string, bytes: Buffer): void {
    const key = partKey(matchId, part);
    this.drop(key);
    if (bytes.length > this.maxBytes) return;
    for (const oldKey of this.parts.keys()) {
      if (this.bytes + bytes.length <= this.maxBytes) break;
      this.drop(oldKey);
    }
    this.parts.set(key, { matchId, bytes });
    this.bytes += bytes.length;
    const keys = this.byMatch.get(matchId) ?? new Set<string>();
    this.byMatch.set(matchId, keys.add(key));
  }

  /** Forgets a match's parts (when it is written again or removed). */
  forgetMatch(matchId: string): void {
    for (const key of this.byMatch.get(matchId) ?? []) this.drop(key);
  }

  private drop(key: string): void {
    const old = this.parts.get(key);
    if (old === undefined) return;
    this.parts.delete(key);
    this.bytes -= old.bytes.length;
    const keys = this.byMatch.get(old.matchId);
    keys?.delete(key);
    if (keys?.size === 0) this.byMatch.delete(old.matchId);
  }
}

/** JSON of the pair: unambiguous whatever characters the id and the part's name hold. */
function partKey(matchId: string, part: string): string {
  return JSON.stringify([matchId, part]);
}
