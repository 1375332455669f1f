import { systemClock, type Clock } from '../util/clock.js';
import { AddressTally } from './address-tally.js';
import type { AddressCounter } from '../gateways/address-counter.js';
import type { SharedBucket, TokensRefused } from '../util/shared-buckets.js';
import type { BridgeMessage, ClusterLeases, ClusterLink, DirectoryEntry, DirectoryListener, LeaseHolder, LobbyDirectory, NodeBus } from './seams.js';

/** What a node asks the hub. */
export type HubRequest =
  /** Answered (`answer`, 1 when published) once the hub holds it: only then is its id handed out. */
  | { readonly k: 'put'; readonly req: number; readonly entry: DirectoryEntry }
  | { readonly k: 'remove'; readonly id: string }
  | { readonly k: 'list'; readonly req: number }
  /** Answered as a `list` of the one entry, or of none. */
  | { readonly k: 'find'; readonly req: number; readonly id: string }
  | { readonly k: 'send'; readonly to: string; readonly msg: BridgeMessage }
  | { readonly k: 'conn-open'; readonly req: number; readonly key: string; readonly limit: number }
  | { readonly k: 'conn-close'; readonly key: string }
  | { readonly k: 'game-new'; readonly req: number; readonly key: string; readonly perMinute: number }
  /** Answered by a `tokens` event. */
  | { readonly k: 'tokens-take'; readonly req: number; readonly buckets: readonly SharedBucket[] }
  /** Answered by a `lease` event: who holds the lease after the claim. */
  | { readonly k: 'lease-claim'; readonly req: number; readonly name: string; readonly ms: number }
  | { readonly k: 'lease-release'; readonly name: string }
  | { readonly k: 'leave' };

/** What the hub tells a node. */
export type HubEvent =
  | { readonly k: 'put'; readonly entry: DirectoryEntry }
  | { readonly k: 'removed'; readonly id: string; readonly node: string }
  | { readonly k: 'list'; readonly req: number; readonly entries: readonly DirectoryEntry[] }
  | { readonly k: 'msg'; readonly from: string; readonly msg: BridgeMessage }
  | { readonly k: 'answer'; readonly req: number; readonly value: number }
  | { readonly k: 'lease'; readonly req: number; readonly holder: LeaseHolder }
  | { readonly k: 'tokens'; readonly req: number; readonly refused: TokensRefused | null }
  | { readonly k: 'down'; readonly node: string };

/** A two-way message pipe: in one process (microtasks), over IPC (process.send), over a MessagePort. */
export interface Channel<In, Out> {
  send(message: Out): void;
  receive(handler: (message: In) => void): void;
}

/**
 * The directory and the switchboard of a set of nodes: it holds every node's published matches
 * and forwards messages between nodes, each node through one channel, so messages between two
 * nodes keep their order. It runs wherever all nodes can reach it: in the process itself (tests,
 * memory-hub.ts) or in the primary of `cocod --nodes N` (its workers reach it over IPC).
 */
export class ClusterHub {
  private readonly entries = new Map<string, DirectoryEntry>();
  private readonly nodes = new Map<string, (event: HubEvent) => void>();
  private readonly addresses: AddressTally;
  /** The cluster-wide leases (ClusterLeases), and the last epoch of each name (kept when a lease is freed). */
  private readonly leases = new Map<string, { holder: LeaseHolder | null; until: number; epoch: number }>();

  /** `clock` times the shared GameNew buckets and the leases. */
  constructor(private readonly clock: Clock = systemClock) {
    this.addresses = new AddressTally(clock);
  }

  /**
   * Connects a node: it is sent every match published so far, then every change. Returns what
   * handles the node's requests.
   */
  connect(node: string, deliver: (event: HubEvent) => void): (request: HubRequest) => void {
    if (this.nodes.has(node)) throw new Error(`node ${node} is already connected`);
    this.nodes.set(node, deliver);
    for (const entry of this.entries.values()) deliver({ k: 'put', entry });
    return (request) => this.handle(node, request);
  }

  /**
   * A node is gone (it left, died or its channel broke): its matches leave the directory and the
   * other nodes are told. Returns the matches it hosted, for whoever records how they ended.
   */
  down(node: string): DirectoryEntry[] {
    if (!this.nodes.delete(node)) return [];
    this.addresses.nodeDown(node);
    // A node that is gone holds nothing: the next claim takes its leases at once.
    for (const lease of this.leases.values()) if (lease.holder?.node === node) lease.holder = null;
    const lost = [...this.entries.values()].filter((entry) => entry.node === node);
    for (const entry of lost) {
      this.entries.delete(entry.info.id);
      this.broadcast({ k: 'removed', id: entry.info.id, node });
    }
    this.broadcast({ k: 'down', node });
    return lost;
  }

  /** The matches `node` hosts now. */
  entriesOf(node: string): DirectoryEntry[] {
    return [...this.entries.values()].filter((entry) => entry.node === node);
  }

  /** The connected nodes' names. */
  members(): string[] {
    return [...this.nodes.keys()];
  }

  private handle(node: string, request: HubRequest): void {
    const deliver = this.nodes.get(node);
    if (!deliver) return;
    switch (request.k) {
      case 'put': {
        // A node publishes only its own matches, and may not take over another node's id.
        const known = this.entries.get(request.entry.info.id);
        if (request.entry.node !== node || (known && known.node !== node)) return deliver({ k: 'answer', req: request.req, value: 0 });
        // Replacing keeps the Map's order: list() stays in order of first publication.
        this.entries.set(request.entry.info.id, request.entry);
        this.broadcast({ k: 'put', entry: request.entry });
        return deliver({ k: 'answer', req: request.req, value: 1 });
      }
      case 'remove': {
        const known = this.entries.get(request.id);
        if (!known || known.node !== node) return;
        this.entries.delete(request.id);
        return this.broadcast({ k: 'removed', id: request.id, node });
      }
      case 'list':
        return deliver({ k: 'list', req: request.req, entries: [...this.entries.values()] });
      case 'find': {
        const found = this.entries.get(request.id);
        return deliver({ k: 'list', req: request.req, entries: found ? [found] : [] });
      }
      case 'send':
        return this.nodes.get(request.to)?.({ k: 'msg', from: node, msg: request.msg });
      case 'conn-open':
        return deliver({ k: 'answer', req: request.req, value: this.addresses.openConnection(node, request.key, request.limit) ? 1 : 0 });
      case 'conn-close':
        return this.addresses.closeConnection(node, request.key);
      case 'game-new':
        return deliver({ k: 'answer', req: request.req, value: this.addresses.takeGameNew(request.key, request.perMinute) });
      case 'tokens-take':
        return deliver({ k: 'tokens', req: request.req, refused: this.addresses.takeTokens(request.buckets) });
      case 'lease-claim':
        return deliver({ k: 'lease', req: request.req, holder: this.claim(node, request.name, request.ms) });
      case 'lease-release': {
        const lease = this.leases.get(request.name);
        if (lease?.holder?.node === node) lease.holder = null;
        return;
      }
      case 'leave':
        this.down(node);
        return;
    }
  }

  private claim(node: string, name: string, ms: number): LeaseHolder {
    const now = this.clock.now();
    let lease = this.leases.get(name);
    if (!lease) this.leases.set(name, (lease = { holder: null, until: 0, epoch: 0 }));
    if (lease.holder !== null && lease.holder.node !== node && lease.until >= now) return lease.holder;
    if (lease.holder?.node !== node) lease.holder = { node, epoch: ++lease.epoch };
    lease.until = now + ms;
    return lease.holder;
  }

  private broadcast(event: HubEvent): void {
    for (const deliver of this.nodes.values()) deliver(event);
  }
}

/** A node's end of the seams, talking to a ClusterHub through a channel. */
export class HubLink implements ClusterLink {
  readonly directory: LobbyDirectory;
  readonly bus: NodeBus;
  readonly addresses: AddressCounter;
  readonly leases: ClusterLeases;
  private readonly watchers = new Set<DirectoryListener>();
  private readonly handlers = new Set<(from: string, message: BridgeMessage) => void>();
  private readonly downHandlers = new Set<(node: string) => void>();
  private readonly lists = new Map<number, (entries: DirectoryEntry[]) => void>();
  /** Requests for a number (address counts) waiting for the hub's answer, with what to answer once closed. */
  private readonly answers = new Map<number, { resolve: (value: number) => void; closedValue: number }>();
  private readonly leaseAnswers = new Map<number, { resolve: (holder: LeaseHolder) => void; reject: (error: Error) => void }>();
  private readonly tokenAnswers = new Map<number, (refused: TokensRefused | null) => void>();
  private nextRequest = 0;
  private closed = false;

  constructor(
    readonly node: string,
    private readonly channel: Channel<HubEvent, HubRequest>,
  ) {
    channel.receive((event) => this.onEvent(event));
    const request = (message: HubRequest): void => {
      if (!this.closed) channel.send(message);
    };
    const ask = (closedValue: number, make: (req: number) => HubRequest): Promise<number> =>
      new Promise((resolve) => {
        // A node that left counts alone, as a single server does.
        if (this.closed) return resolve(closedValue);
        const req = this.nextRequest++;
        this.answers.set(req, { resolve, closedValue });
        request(make(req));
      });
    const entries = (make: (req: number) => HubRequest): Promise<DirectoryEntry[]> =>
      new Promise((resolve) => {
        if (this.closed) return resolve([]);
        const req = this.nextRequest++;
        this.lists.set(req, resolve);
        request(make(req));
      });
    this.directory = {
      put: async (entry) => void (await ask(0, (req) => ({ k: 'put', req, entry }))),
      remove: async (id) => request({ k: 'remove', id }),
      list: () => entries((req) => ({ k: 'list', req })),
      find: async (id) => (await entries((req) => ({ k: 'find', req, id })))[0] ?? null,
      watch: (listener) => {
        this.watchers.add(listener);
        return () => this.watchers.delete(listener);
      },
    };
    this.addresses = {
      openConnection: async (key, limit) => (await ask(1, (req) => ({ k: 'conn-open', req, key, limit }))) === 1,
      closeConnection: (key) => request({ k: 'conn-close', key }),
      takeGameNew: (key, perMinute) => ask(0, (req) => ({ k: 'game-new', req, key, perMinute })),
      takeTokens: (buckets) =>
        new Promise((resolve) => {
          // A node that left counts alone (its own quotas still hold), as a single server does.
          if (this.closed) return resolve(null);
          const req = this.nextRequest++;
          this.tokenAnswers.set(req, resolve);
          request({ k: 'tokens-take', req, buckets });
        }),
    };
    this.leases = {
      claim: (name, ms) =>
        new Promise((resolve, reject) => {
          if (this.closed) return reject(new Error('this node left the cluster'));
          const req = this.nextRequest++;
          this.leaseAnswers.set(req, { resolve, reject });
          request({ k: 'lease-claim', req, name, ms });
        }),
      release: async (name) => request({ k: 'lease-release', name }),
    };
    this.bus = {
      node,
      send: (to, msg) => request({ k: 'send', to, msg }),
      listen: (handler) => {
        this.handlers.add(handler);
        return () => this.handlers.delete(handler);
      },
      onNodeDown: (handler) => {
        this.downHandlers.add(handler);
        return () => this.downHandlers.delete(handler);
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.channel.send({ k: 'leave' });
    this.closed = true;
    for (const { reject } of this.leaseAnswers.values()) reject(new Error('this node left the cluster'));
    this.leaseAnswers.clear();
    for (const resolve of this.lists.values()) resolve([]);
    this.lists.clear();
    for (const { resolve, closedValue } of this.answers.values()) resolve(closedValue);
    this.answers.clear();
    for (const resolve of this.tokenAnswers.values()) resolve(null);
    this.tokenAnswers.clear();
  }

  private onEvent(event: HubEvent): void {
    if (this.closed) return;
    switch (event.k) {
      case 'put':
        for (const watcher of this.watchers) watcher.put(event.entry);
        return;
      case 'removed':
        for (const watcher of this.watchers) watcher.removed(event.id, event.node);
        return;
      case 'list': {
        const resolve = this.lists.get(event.req);
        this.lists.delete(event.req);
        resolve?.([...event.entries]);
        return;
      }
      case 'msg':
        for (const handler of this.handlers) handler(event.from, event.msg);
        return;
      case 'answer': {
        const waiting = this.answers.get(event.req);
        this.answers.delete(event.req);
        waiting?.resolve(event.value);
        return;
      }
      case 'tokens': {
        const resolve = this.tokenAnswers.get(event.req);
        this.tokenAnswers.delete(event.req);
        resolve?.(event.refused);
        return;
      }
      case 'lease': {
        const waiting = this.leaseAnswers.get(event.req);
        this.leaseAnswers.delete(event.req);
        waiting?.resolve(event.holder);
        return;
      }
      case 'down':
        if (event.node === this.node) return;
        for (const handler of this.downHandlers) handler(event.node);
        return;
    }
  }
}
