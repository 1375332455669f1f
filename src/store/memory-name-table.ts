import type { NameClaimTable } from './history-store.js';

/** Claimed names in memory: MemoryHistoryStore's, and the default of a server's NameClaims in tests. */
export class MemoryNameTable implements NameClaimTable {
  private readonly digests = new Map<string, string>();

  async claimName(name: string, digest: string): Promise<boolean> {
    if (this.digests.has(name)) return false;
    this.digests.set(name, digest);
    return true;
  }

  async nameDigest(name: string): Promise<string | null> {
    return this.digests.get(name) ?? null;
  }

  async replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    if (this.digests.get(name) !== expected) return false;
    this.digests.set(name, next);
    return true;
  }

  async releaseName(name: string): Promise<boolean> {
    return this.digests.delete(name);
  }
}
