import { LOBBY_DEFAULTS, MASTER_DELETES, MASTER_LIFTS, SERVER_STOPPING, type Eventually, type Lobby, type LobbyListener, type LobbyPort, type MatchMember, type MatchWatcher, type NewMatchRequest, type Requester } from '../lobby/lobby.js';
import { normalizeMatchId } from '../lobby/match-id.js';
import type { VisSink } from '../match/vis-feed.js';
import type { GameListEntry, MatchInfo } from '../protocol/coco/messages.js';
import type { Log } from '../util/log.js';
import { matchSecret } from '../util/secret.js';
import { err, type Result } from '../util/result.js';
import { BridgeClient } from './bridge-client.js';
import { BridgeHost } from './bridge-host.js';
import type { ClusterLink, DirectoryEntry } from './seams.js';

/** The refusal of a new match (or a seat on another node) while the cluster's Redis cannot be reached. */
export const CLUSTER_UNAVAILABLE = 'The cluster is unavailable (its Redis cannot be reached): no new matches for now, try again later';

export interface ClusterLobbyOptions {
  /** The cluster-wide limits (the same options as the local lobby's). */
  readonly maxMatches?: number;
  readonly maxWaitingPerOwner?: number;
  readonly maxWaitingPerNetwork?: number;
  readonly log?: Log;
}

/**
 * The lobby of the whole cluster as this node's front doors see it: the matches of this node (its
 * own Lobby) and, through the directory, those of every other node. A player or spectator of a
 * match on another node is bridged there over the bus; this node's matches are published to the
 * directory as they change, and other nodes' bridges to them are served here.
 */
export class ClusterLobby implements LobbyPort {
  /** Other nodes' matches, in the order they were first published. */
  private readonly remote = new Map<string, DirectoryEntry>();
  private readonly listeners = new Set<LobbyListener>();
  private readonly client: BridgeClient;
  private readonly host: BridgeHost;
  private readonly maxMatches: number;
  private readonly maxWaitingPerOwner: number;
  private readonly maxWaitingPerNetwork: number;
  private readonly stops: (() => void)[] = [];
  /**
   * What this node last put to the directory for each of its matches, as sent: a change notice that
   * would put the same again (the running entry the start gate put, the entry create() put) is not
   * sent twice. Redis itself keeps a node's own entries to put again after an outage (redis-link.ts).
   */
  private readonly sent = new Map<string, string>();
  /** Set by shutdown(): no seat or spectator place in another node's match is taken from here. */
  private stopping = false;

  constructor(
    private readonly local: Lobby,
    private readonly link: ClusterLink,
    options: ClusterLobbyOptions = {},
  ) {
    this.maxMatches = options.maxMatches ?? LOBBY_DEFAULTS.maxMatches;
    this.maxWaitingPerOwner = options.maxWaitingPerOwner ?? LOBBY_DEFAULTS.maxWaitingPerOwner;
    this.maxWaitingPerNetwork = options.maxWaitingPerNetwork ?? LOBBY_DEFAULTS.maxWaitingPerNetwork;
    local.admitWith({
      matchCount: () => {
        const here = this.local.counts();
        return here.waiting + here.running + this.remote.size;
      },
      check: (requester, verified) => this.admission(requester, verified),
    });
    const { bus, directory } = link;
    this.client = new BridgeClient(bus);
    this.host = new BridgeHost(local, bus, options.log);
    this.stops.push(
      directory.watch({
        put: (entry) => this.remotePut(entry),
        removed: (id, node) => this.remoteRemoved(id, node),
      }),
      bus.listen((from, message) => {
        this.client.receive(from, message);
        this.host.receive(from, message);
      }),
      bus.onNodeDown((node) => {
        this.client.nodeDown(node);
        this.host.nodeDown(node);
      }),
    );
    // What the directory held before this node watched it.
    void directory.list().then((entries) => {
      for (const entry of entries) if (!this.remote.has(entry.info.id)) this.remotePut(entry);
    });
    // A match's players hear it started once the directory holds it running (Lobby.gateStarts).
    local.gateStarts((info) => this.publish(info));
    this.stops.push(
      local.subscribe({
        // What create() made is published already; the TCP ports make theirs on the local lobby.
        created: (info) => void this.publish(info),
        updated: (info) => void this.publish(info),
        deleted: (id) => {
          this.sent.delete(id);
          void directory.remove(id);
        },
      }).unsubscribe,
    );
  }

  private publish(info: MatchInfo): Promise<void> {
    const placement = this.local.placement(info.id);
    if (!placement) return Promise.resolve();
    const entry: DirectoryEntry = {
      node: this.link.bus.node,
      info,
      origin: placement.origin,
      owner: placement.owner,
      network: placement.network,
      ...(placement.seats && { seats: placement.seats }),
      ...(placement.startedAt !== null && { startedAt: placement.startedAt }),
    };
    const text = JSON.stringify(entry);
    if (this.sent.get(info.id) === text) return Promise.resolve();
    this.sent.set(info.id, text);
    return this.link.directory.put(entry).catch((error: unknown) => {
      // Not held after all: the next change puts it again.
      if (this.sent.get(info.id) === text) this.sent.delete(info.id);
      throw error;
    });
  }

  gameList(): GameListEntry[] {
    return this.local.gameList();
  }

  gameArgs(): ReturnType<Lobby['gameArgs']> {
    return this.local.gameArgs();
  }

  gameDescription(name: string): string | null {
    return this.local.gameDescription(name);
  }

  list(): MatchInfo[] {
    return [...this.local.list(), ...[...this.remote.values()].map((entry) => entry.info)];
  }

  find(id: string): MatchInfo | null {
    return this.local.find(id) ?? this.remoteEntry(id)?.info ?? null;
  }

  oldestWaiting(game: string, origin: string): MatchInfo | null {
    const here = this.local.oldestWaiting(game, origin);
    if (here) return here;
    for (const entry of this.remote.values()) {
      if (!entry.info.running && entry.info.game === game && entry.origin === origin) return entry.info;
    }
    return null;
  }

  subscribe(listener: LobbyListener): { seed: MatchInfo[]; unsubscribe: () => void } {
    const mine = this.local.subscribe(listener);
    this.listeners.add(listener);
    return {
      seed: [...mine.seed, ...[...this.remote.values()].map((entry) => entry.info)],
      unsubscribe: () => {
        mine.unsubscribe();
        this.listeners.delete(listener);
      },
    };
  }

  /**
   * Matches are made on the node asked (the local lobby asks admission() first). The id is handed
   * out once the directory holds the match, so that its creator may join it through any node at once.
   */
  create(request: NewMatchRequest, origin = 'coco', requester?: Requester): Eventually<Result<string>> {
    const made = this.local.create(request, origin, requester);
    if (!made.ok) return made;
    const id = made.value;
    const info = this.local.find(id);
    if (!info) return made;
    return this.publish(info).then(
      () => made,
      () => made,
    );
  }

  /**
   * Whether a new match may be made, whichever front door asks: the limits count every node's
   * matches (the local lobby checks max-matches with matchCount), and none is made while the
   * cluster cannot be reached (it could not be listed). A request with the master password
   * (`verified`) is exempt from the quotas per address and per network.
   */
  private admission(requester: Requester | undefined, verified: boolean): string | null {
    if (this.link.available && !this.link.available()) return CLUSTER_UNAVAILABLE;
    if (requester && !verified) {
      let waiting = 0;
      let fromNetwork = 0;
      for (const entry of this.remote.values()) {
        if (entry.info.running) continue;
        if (entry.owner === requester.owner) waiting++;
        if (requester.network !== undefined && entry.network === requester.network) fromNetwork++;
      }
      // The local lobby counts its own against the same limits, so only the other nodes' are added.
      if (waiting > 0 && waiting + this.local.waitingOf(requester.owner) >= this.maxWaitingPerOwner) {
        return `Too many waiting matches: at most ${this.maxWaitingPerOwner} per address ${MASTER_LIFTS}`;
      }
      if (fromNetwork > 0 && fromNetwork + this.local.waitingOfNetwork(requester.network!) >= this.maxWaitingPerNetwork) {
        return `Too many waiting matches from your network: at most ${this.maxWaitingPerNetwork} per network ${MASTER_LIFTS}`;
      }
    }
    return null;
  }

  join(id: string, name: string, password: string | null, member: MatchMember, requester?: Requester): Eventually<Result<MatchInfo>> {
    const located = this.locate(id);
    if (located instanceof Promise) return located.then((entry) => this.joinAt(entry, id, name, password, member, requester));
    return this.joinAt(located, id, name, password, member, requester);
  }

  private joinAt(entry: DirectoryEntry | null, id: string, name: string, password: string | null, member: MatchMember, requester?: Requester): Eventually<Result<MatchInfo>> {
    if (!entry) return this.local.join(id, name, password, member, requester);
    if (this.stopping) return err(SERVER_STOPPING);
    if (this.link.available && !this.link.available()) return err(CLUSTER_UNAVAILABLE);
    const secret = matchSecret(entry.info.id);
    if (entry.info.password) {
      const refusal = requester?.passwords?.refusal(secret);
      if (refusal) return err(refusal);
    }
    return this.client.join(entry.node, entry.info.id, name, password, member).then((joined) => {
      if (entry.info.password && joined.ok) requester?.passwords?.succeeded(secret);
      if (!joined.ok && joined.error === 'Wrong password') requester?.passwords?.failed(secret);
      return joined;
    });
  }

  leave(id: string, member: MatchMember): void {
    if (!this.client.leave(member)) this.local.leave(id, member);
  }

  /**
   * The master password is checked here, where the requester's back-off is; the node that hosts
   * the match checks the owner and removes it. A match removed elsewhere leaves this node's view
   * at once, so that the requester's next GameNew counts one waiting match fewer.
   */
  delete(id: string, verification: string | null, requester?: Requester): Eventually<Result<string>> {
    const master = this.local.checkMaster(verification, requester);
    if (!master.ok) return master;
    const owner = requester?.owner ?? null;
    const at = (entry: DirectoryEntry | null): Eventually<Result<string>> => {
      if (!entry) return this.local.deleteWaiting(id, master.value ? MASTER_DELETES : { owner });
      if (this.link.available && !this.link.available()) return err(CLUSTER_UNAVAILABLE);
      return this.client.delete(entry.node, entry.info.id, owner, master.value).then((deleted) => {
        if (deleted.ok) this.remoteRemoved(entry.info.id, entry.node);
        return deleted;
      });
    };
    const located = this.locate(id);
    return located instanceof Promise ? located.then(at) : at(located);
  }

  spectate(id: string, watcher: MatchWatcher): Eventually<Result<MatchInfo>> {
    const at = (entry: DirectoryEntry | null): Eventually<Result<MatchInfo>> => {
      if (entry && this.stopping) return err(SERVER_STOPPING);
      if (entry && this.link.available && !this.link.available()) return err(CLUSTER_UNAVAILABLE);
      return entry ? this.client.spectate(entry.node, entry.info.id, watcher) : this.local.spectate(id, watcher);
    };
    const located = this.locate(id);
    return located instanceof Promise ? located.then(at) : at(located);
  }

  unspectate(id: string, watcher: MatchWatcher): void {
    if (!this.client.unspectate(watcher)) this.local.unspectate(id, watcher);
  }

  watchVis(id: string, sink: VisSink): Eventually<Result<() => void>> {
    const at = (entry: DirectoryEntry | null): Eventually<Result<() => void>> =>
      entry ? this.client.watchVis(entry.node, entry.info.id, sink) : this.local.watchVis(id, sink);
    const located = this.locate(id);
    return located instanceof Promise ? located.then(at) : at(located);
  }

  counts(): { waiting: number; running: number } {
    return this.local.counts();
  }

  idle(): Promise<void> {
    return this.local.idle();
  }

  /**
   * Stops this node's matches (letting those running finish within `finishWithinMs`: their bridged
   * players still reach them), lets `drain` run (the players of other nodes' matches connected
   * here finish them: their bytes still cross the bus), then leaves the cluster. Leaving first
   * would end their seats: the node that runs their match sees this one go and retires them.
   */
  async shutdown(drain?: (wait: boolean) => Promise<void>, reason?: string, finishWithinMs = 0): Promise<void> {
    this.stopping = true;
    // A node cut off from its cluster (or declared dead) relays nothing: there is nothing to wait for.
    const reachable = (): boolean => !this.link.available || this.link.available();
    await this.local.shutdown(undefined, reason, reachable() ? finishWithinMs : 0);
    await drain?.(reachable());
    for (const stop of this.stops) stop();
    this.link.close();
  }

  /**
   * Where a match lives: another node's entry, or null for this node's matches and for ids nobody
   * publishes. An id neither this node nor its view knows may have been made on another node a
   * moment ago (its creator was handed it once the directory held it, before this node heard):
   * the directory itself is asked before the answer is "does not exist".
   */
  private locate(id: string): Eventually<DirectoryEntry | null> {
    const known = this.remoteEntry(id);
    if (known) return known;
    const normal = normalizeMatchId(id);
    if (!normal.ok || this.local.find(normal.value)) return null;
    return this.link.directory.find(normal.value).then(
      (entry) => (entry && entry.node !== this.link.bus.node ? entry : null),
      () => null,
    );
  }

  private remoteEntry(id: string): DirectoryEntry | null {
    const normal = normalizeMatchId(id);
    if (!normal.ok) return null;
    const entry = this.remote.get(normal.value);
    return entry && entry.node !== this.link.bus.node ? entry : null;
  }

  private remotePut(entry: DirectoryEntry): void {
    if (entry.node === this.link.bus.node) return;
    const known = this.remote.has(entry.info.id);
    this.remote.set(entry.info.id, entry);
    for (const listener of this.listeners) {
      if (known) listener.updated(entry.info);
      else listener.created(entry.info);
    }
  }

  private remoteRemoved(id: string, node: string): void {
    if (node === this.link.bus.node || !this.remote.delete(id)) return;
    for (const listener of this.listeners) listener.deleted(id);
  }
}
