import type { LiveSeats, MatchInfo } from '../protocol/coco/messages.js';
import type { VisEvent } from '../protocol/vis-event.js';
import type { AddressCounter } from '../gateways/address-counter.js';
import type { ArenaEntryRequest, ArenaPairing, ArenaReport, ArenaView } from '../arena/arena.js';
import type { CarriedEntry } from '../arena/carried-entry.js';

/**
 * The seams between nodes (processes, later machines) that share one lobby. Each is a small
 * async interface: the in-process hub (memory-hub.ts), the local multi-process one (a hub in the
 * primary reached over IPC, channel.ts) and a networked one (Redis pub/sub and a hash) are
 * implementations of the same ones, and pass the same contract suite (seams.test.ts).
 */

/** A match as the other nodes see it: where it lives and what the lobby shows of it. */
export interface DirectoryEntry {
  /** The node that hosts the match (runs its game, holds its seats). */
  readonly node: string;
  readonly info: MatchInfo;
  /** The front door that made it: the TCP ports pair their own clients (Lobby.oldestWaiting). */
  readonly origin: string;
  /** Who made it (Requester.owner): the waiting-match limit counts across nodes. */
  readonly owner: string | null;
  /** Its maker's network (Requester.network): the waiting-match limit per network counts across nodes. */
  readonly network?: string | null;
  /** Players of the match when it started, in seat order, for a record if its node dies. */
  readonly seats?: readonly string[];
  /** Unix ms when the match started (running ones), for the same record. */
  readonly startedAt?: number;
}

export interface DirectoryListener {
  /** A match was created or changed (on any node, this one included). */
  put(entry: DirectoryEntry): void;
  /** A match left the lobby (ended, expired, or its node died). */
  removed(id: string, node: string): void;
}

/** Every node's matches, as every node sees them. */
export interface LobbyDirectory {
  /**
   * Publishes (creates or replaces) a match this node hosts. Settles once the directory holds it:
   * from then on find() on any node finds it (a match id is handed out only after that).
   */
  put(entry: DirectoryEntry): Promise<void>;
  /** Removes a match this node hosts; unknown ids are ignored. */
  remove(id: string): Promise<void>;
  /** Every node's matches, in the order they were first published. */
  list(): Promise<DirectoryEntry[]>;
  /**
   * One match as the directory holds it now, asked of the directory itself rather than of this
   * node's view (which learns of a change a moment later): null when no node publishes it.
   */
  find(id: string): Promise<DirectoryEntry | null>;
  /** Every later change, from every node, in the order the directory applied them. */
  watch(listener: DirectoryListener): () => void;
}

/**
 * What one node says to another about a bridged player, spectator or visualizer subscriber.
 * `key` names the bridge; the node that opened it chose it, unique on that node.
 */
export type BridgeMessage =
  | { readonly t: 'join'; readonly key: string; readonly id: string; readonly name: string; readonly password: string | null }
  | { readonly t: 'joined'; readonly key: string; readonly info: MatchInfo | null; readonly error: string | null }
  | { readonly t: 'leave'; readonly key: string }
  /**
   * LobbyDeleteMatch of a match on the host: the asking node checked the master password
   * (`master`) and names its requester's `owner`; `deleted` answers with the id, or the refusal.
   */
  | { readonly t: 'delete'; readonly key: string; readonly id: string; readonly owner: string | null; readonly master: boolean }
  | { readonly t: 'deleted'; readonly key: string; readonly id: string | null; readonly error: string | null }
  | { readonly t: 'updated'; readonly key: string; readonly info: MatchInfo }
  | { readonly t: 'expired'; readonly key: string; readonly id: string }
  | { readonly t: 'started'; readonly key: string }
  | { readonly t: 'to-player'; readonly key: string; readonly bytes: Uint8Array }
  | { readonly t: 'seat-closed'; readonly key: string; readonly reason: string }
  | { readonly t: 'from-player'; readonly key: string; readonly bytes: Uint8Array }
  | { readonly t: 'player-end'; readonly key: string }
  | { readonly t: 'spectate'; readonly key: string; readonly id: string }
  | { readonly t: 'spectating'; readonly key: string; readonly info: MatchInfo | null; readonly error: string | null }
  | { readonly t: 'unspectate'; readonly key: string }
  | { readonly t: 'stream-start'; readonly key: string; readonly history: Uint8Array }
  | { readonly t: 'stream-data'; readonly key: string; readonly bytes: Uint8Array }
  | { readonly t: 'stream-end'; readonly key: string }
  | { readonly t: 'vis-watch'; readonly key: string; readonly id: string }
  | { readonly t: 'vis-watching'; readonly key: string; readonly error: string | null }
  /** The visualizer events before the watch, as the text of one JSON array (VisSink.history). */
  | { readonly t: 'vis-history'; readonly key: string; readonly history: Uint8Array }
  | { readonly t: 'vis-events'; readonly key: string; readonly events: readonly VisEvent[] }
  | { readonly t: 'vis-seats'; readonly key: string; readonly seats: LiveSeats }
  | { readonly t: 'vis-end'; readonly key: string }
  | { readonly t: 'vis-stop'; readonly key: string }
  /**
   * The arena of a cluster (src/cluster/cluster-arena.ts): a node's entry, queued on the node that
   * holds the pairing lease. `epoch` is that lease's: either side drops what carries another.
   * The entrant's token never crosses: its own node checked the name. `carried`: what the entry
   * waited and met under earlier holders, so that a takeover costs it neither (carried-entry.ts).
   */
  | { readonly t: 'arena-enter'; readonly key: string; readonly epoch: number; readonly request: Omit<ArenaEntryRequest, 'token'>; readonly carried?: CarriedEntry }
  | { readonly t: 'arena-entered'; readonly key: string; readonly epoch: number; readonly error: string | null; readonly args: Readonly<Record<string, string>> | null; readonly seats: number }
  | { readonly t: 'arena-leave'; readonly key: string; readonly epoch: number }
  | { readonly t: 'arena-paired'; readonly key: string; readonly epoch: number; readonly pairing: ArenaPairing }
  | { readonly t: 'arena-finished'; readonly key: string; readonly epoch: number; readonly report: ArenaReport }
  | { readonly t: 'arena-held'; readonly key: string; readonly epoch: number; readonly until: number; readonly why: string }
  | { readonly t: 'arena-look'; readonly key: string; readonly game: string }
  | { readonly t: 'arena-view'; readonly key: string; readonly view: ArenaView | null };

/** Messages between nodes, in order between any two of them. */
export interface NodeBus {
  /** This node's name, unique among the nodes. */
  readonly node: string;
  /** Sends to another node; a message to a node that is gone is dropped. */
  send(to: string, message: BridgeMessage): void;
  listen(handler: (from: string, message: BridgeMessage) => void): () => void;
  /** Told when another node is gone (died or stopped): its matches and bridges are over. */
  onNodeDown(handler: (node: string) => void): () => void;
}

/** Who holds a cluster-wide lease, under which epoch (one more at each change of holder: it fences). */
export interface LeaseHolder {
  readonly node: string;
  readonly epoch: number;
}

/**
 * Named leases that one node at a time holds for the whole cluster (the arena's pairing): a lease
 * not renewed within its time, or whose node went down, is free for the next node that claims it.
 */
export interface ClusterLeases {
  /**
   * Takes `name` for this node for `ms` when it is free, renews it when it is this node's, and
   * answers who holds it now (this node or another); rejects when the cluster cannot be reached.
   */
  claim(name: string, ms: number): Promise<LeaseHolder>;
  /** Frees `name` when this node holds it (a node that stops), so that another takes it at once. */
  release(name: string): Promise<void>;
}

/** One node's ends of the seams. */
export interface ClusterLink {
  readonly directory: LobbyDirectory;
  readonly bus: NodeBus;
  readonly addresses: AddressCounter;
  /** Cluster-wide leases; absent: this link cannot hold them (the arena stays off on such nodes). */
  readonly leases?: ClusterLeases;
  /** Leaves the cluster: the other nodes see this node go down. */
  close(): void;
  /**
   * False while the cluster cannot be reached (Redis down): the node refuses new matches and seats
   * on other nodes, and its running matches go on. Absent: always reachable (in-process, IPC).
   */
  available?(): boolean;
}
