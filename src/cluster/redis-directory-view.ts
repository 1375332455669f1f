import type { DirectoryEntry, DirectoryListener } from './seams.js';

/** A change of the directory as published on its channel (redis-scripts.ts). */
export type DirectoryChange =
  | { readonly s: number; readonly k: 'put'; readonly e: DirectoryEntry }
  | { readonly s: number; readonly k: 'removed'; readonly id: string; readonly node: string }
  | { readonly s: number; readonly k: 'down'; readonly node: string };

export function parseChange(text: string): DirectoryChange | null {
  try {
    const change = JSON.parse(text) as DirectoryChange;
    return typeof change?.s === 'number' && (change.k === 'put' || change.k === 'removed' || change.k === 'down') ? change : null;
  } catch {
    return null;
  }
}

/**
 * One node's view of the directory in Redis: the entries in the order they were first published,
 * brought up to date by the numbered changes of the channel. A change whose number does not follow
 * the last one applied means changes were missed (this node's subscription dropped, or Redis
 * restarted and counts from 0 again): the view asks for a snapshot, holds the changes that arrive
 * meanwhile, and tells its watchers only the difference, so each sees one consistent sequence.
 */
export class DirectoryView {
  private readonly entries = new Map<string, DirectoryEntry>();
  private readonly watchers = new Set<DirectoryListener>();
  private lastSeq = 0;
  /** Changes received while a snapshot is on its way; null when none is. */
  private held: DirectoryChange[] | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    /** Reads the change number and every entry, atomically. */
    private readonly snapshot: () => Promise<{ seq: number; entries: DirectoryEntry[] }>,
    /** A node went down (after its matches were removed). */
    private readonly onDown: (node: string) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  list(): DirectoryEntry[] {
    return [...this.entries.values()];
  }

  watch(listener: DirectoryListener): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** A change from the channel. */
  receive(change: DirectoryChange): void {
    if (this.held) return void this.held.push(change);
    if (change.s !== this.lastSeq + 1) return void this.resync();
    this.apply(change);
  }

  /** Reads the whole directory again (on connection, and after a gap); settles when the view has it. */
  resync(): Promise<void> {
    if (this.syncing) return this.syncing;
    this.held = [];
    this.syncing = this.snapshot().then(
      ({ seq, entries }) => {
        const held = this.held ?? [];
        this.held = null;
        const fresh = new Map(entries.map((entry) => [entry.info.id, entry]));
        for (const [id, known] of [...this.entries]) {
          if (fresh.has(id)) continue;
          this.entries.delete(id);
          for (const watcher of this.watchers) watcher.removed(id, known.node);
        }
        for (const entry of entries) this.set(entry);
        this.lastSeq = seq;
        this.syncing = null;
        for (const change of held) {
          if (change.s <= seq) continue;
          this.receive(change);
        }
      },
      (error: unknown) => {
        // Redis went away meanwhile: the next connection resyncs.
        this.held = null;
        this.syncing = null;
        this.onError(error);
      },
    );
    return this.syncing;
  }

  private apply(change: DirectoryChange): void {
    this.lastSeq = change.s;
    switch (change.k) {
      case 'put':
        return this.set(change.e);
      case 'removed':
        if (!this.entries.delete(change.id)) return;
        for (const watcher of this.watchers) watcher.removed(change.id, change.node);
        return;
      case 'down':
        return this.onDown(change.node);
    }
  }

  private set(entry: DirectoryEntry): void {
    const known = this.entries.get(entry.info.id);
    if (known && JSON.stringify(known) === JSON.stringify(entry)) return;
    // Map.set on a known key keeps its place: the order stays that of first publication.
    this.entries.set(entry.info.id, entry);
    for (const watcher of this.watchers) watcher.put(entry);
  }
}
