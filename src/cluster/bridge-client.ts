import type { MatchMember, MatchWatcher, PlayerSeat } from '../lobby/lobby.js';
import { SEAT_LIMITS, type SeatCloseReason, type SeatTransport } from '../match/seat.js';
import type { VisSink } from '../match/vis-feed.js';
import type { MatchInfo } from '../protocol/coco/messages.js';
import { err, ok, type Result } from '../util/result.js';
import type { BridgeMessage, NodeBus } from './seams.js';

/** Said to a player or spectator whose match was on a node that went down. */
export const NODE_DOWN = 'the node running this match stopped';

/**
 * A player's seat in a match on another node: what the front door writes goes there over the bus,
 * what the game writes comes back from it.
 */
class RemoteSeat implements PlayerSeat {
  readonly remote = true;
  private transport: SeatTransport | null = null;
  private early: Uint8Array[] = [];
  private closedWith: SeatCloseReason | null = null;
  private inputEnded = false;
  /** Bytes relayed in this turn of the event loop. */
  private turnBytes = 0;

  constructor(
    readonly name: string,
    private readonly toHost: (message: BridgeMessage) => void,
    private readonly key: string,
  ) {}

  attach(transport: SeatTransport): void {
    this.transport = transport;
    for (const bytes of this.early) transport.send(bytes);
    this.early = [];
    if (this.closedWith) transport.close(this.closedWith);
  }

  receive(chunk: Uint8Array): void {
    if (this.closedWith || this.inputEnded) return;
    // More than the seat may hold unread, in one turn, is a flood: the host's seat closes it on
    // the bytes already sent; the rest is not relayed, so a flooding player cannot fill the pipe
    // between the nodes while the host's answer is on its way.
    if (this.turnBytes > SEAT_LIMITS.maxQueuedBytes) return;
    if (this.turnBytes === 0) setImmediate(() => (this.turnBytes = 0));
    this.turnBytes += chunk.byteLength;
    this.toHost({ t: 'from-player', key: this.key, bytes: chunk });
  }

  receiveEnd(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    if (!this.closedWith) this.toHost({ t: 'player-end', key: this.key });
  }

  /** Bytes the game wrote. */
  deliver(bytes: Uint8Array): void {
    if (this.closedWith) return;
    if (this.transport) this.transport.send(bytes);
    else this.early.push(bytes);
  }

  closed(reason: SeatCloseReason): void {
    if (this.closedWith) return;
    this.closedWith = reason;
    this.transport?.close(reason);
  }
}

type Bridge =
  | { readonly kind: 'member'; readonly node: string; readonly name: string; readonly member: MatchMember; settle: ((result: Result<MatchInfo>) => void) | null; held: BridgeMessage[] | null; seat: RemoteSeat | null }
  | { readonly kind: 'watcher'; readonly node: string; readonly watcher: MatchWatcher; settle: ((result: Result<MatchInfo>) => void) | null; held: BridgeMessage[] | null }
  | { readonly kind: 'vis'; readonly node: string; readonly sink: VisSink; settle: ((result: Result<() => void>) => void) | null; held: BridgeMessage[] | null }
  /** A one-shot LobbyDeleteMatch: forgotten once answered. */
  | { readonly kind: 'delete'; readonly node: string; settle: ((result: Result<string>) => void) | null; held: null };

/**
 * This node's end of the bridges to matches on other nodes: players who joined them, spectators
 * and visualizer subscribers. The front doors see the same MatchMember, MatchWatcher and VisSink
 * calls as for a match of their own node.
 */
export class BridgeClient {
  private readonly bridges = new Map<string, Bridge>();
  /** The key of each bridged member and watcher, for leave and unspectate. */
  private readonly keys = new Map<MatchMember | MatchWatcher, string>();
  private nextKey = 0;

  constructor(private readonly bus: NodeBus) {}

  join(node: string, id: string, name: string, password: string | null, member: MatchMember): Promise<Result<MatchInfo>> {
    return new Promise((settle) => {
      const key = this.newKey();
      this.bridges.set(key, { kind: 'member', node, name, member, settle, held: [], seat: null });
      this.keys.set(member, key);
      this.bus.send(node, { t: 'join', key, id, name, password });
    });
  }

  /** Returns false when `member` is not bridged (it waits in a match of this node). */
  leave(member: MatchMember): boolean {
    const key = this.keys.get(member);
    const bridge = key === undefined ? undefined : this.bridges.get(key);
    if (key === undefined || !bridge) return false;
    this.forget(key);
    this.bus.send(bridge.node, { t: 'leave', key });
    return true;
  }

  spectate(node: string, id: string, watcher: MatchWatcher): Promise<Result<MatchInfo>> {
    return new Promise((settle) => {
      const key = this.newKey();
      this.bridges.set(key, { kind: 'watcher', node, watcher, settle, held: [] });
      this.keys.set(watcher, key);
      this.bus.send(node, { t: 'spectate', key, id });
    });
  }

  unspectate(watcher: MatchWatcher): boolean {
    const key = this.keys.get(watcher);
    const bridge = key === undefined ? undefined : this.bridges.get(key);
    if (key === undefined || !bridge) return false;
    this.forget(key);
    this.bus.send(bridge.node, { t: 'unspectate', key });
    return true;
  }

  watchVis(node: string, id: string, sink: VisSink): Promise<Result<() => void>> {
    return new Promise((settle) => {
      const key = this.newKey();
      this.bridges.set(key, { kind: 'vis', node, sink, settle, held: [] });
      this.bus.send(node, { t: 'vis-watch', key, id });
    });
  }

  /** Asks `node` to delete its waiting match `id` (the master password, if any, was checked here). */
  delete(node: string, id: string, owner: string | null, master: boolean): Promise<Result<string>> {
    return new Promise((settle) => {
      const key = this.newKey();
      this.bridges.set(key, { kind: 'delete', node, settle, held: null });
      this.bus.send(node, { t: 'delete', key, id, owner, master });
    });
  }

  /** A message from the node that hosts one of our bridges. */
  receive(from: string, message: BridgeMessage): void {
    const bridge = this.bridges.get(message.key);
    if (!bridge || bridge.node !== from) return;
    if (bridge.settle) return this.settle(message.key, bridge, message);
    // Until the front door has acted on the answer, what follows it waits (see settle).
    if (bridge.held) return void bridge.held.push(message);
    this.apply(message.key, bridge, message);
  }

  /** A node went down: every bridge to it ends as if its match had. */
  nodeDown(node: string): void {
    for (const [key, bridge] of [...this.bridges]) {
      if (bridge.node !== node) continue;
      this.forget(key);
      if (bridge.settle) {
        (bridge.settle as (result: Result<never>) => void)(err(NODE_DOWN));
        continue;
      }
      switch (bridge.kind) {
        case 'delete':
          break; // settled above
        case 'member':
          if (bridge.seat) bridge.seat.closed('shutdown');
          else bridge.member.expired(key);
          break;
        case 'watcher':
          bridge.watcher.ended();
          break;
        case 'vis':
          bridge.sink.end();
          break;
      }
    }
  }

  private settle(key: string, bridge: Bridge, message: BridgeMessage): void {
    if (bridge.kind === 'delete') {
      if (message.t !== 'deleted') return;
      this.forget(key);
      bridge.settle!(message.error === null && message.id !== null ? ok(message.id) : err(message.error ?? 'no answer'));
      return;
    }
    let error: string | null;
    switch (message.t) {
      case 'joined':
      case 'spectating':
      case 'vis-watching':
        error = message.error;
        break;
      default:
        return; // nothing comes before the answer
    }
    const settle = bridge.settle!;
    bridge.settle = null;
    if (error !== null) this.forget(key);
    if (bridge.kind === 'vis') {
      (settle as (result: Result<() => void>) => void)(error === null ? ok(() => this.stopVis(key)) : err(error));
    } else {
      const info = (message as { info: MatchInfo | null }).info;
      (settle as (result: Result<MatchInfo>) => void)(error === null && info ? ok(info) : err(error ?? 'no answer'));
    }
    // The front door continues after its await, in a microtask; what the host sent after the
    // answer (an update, the start of the match) is applied after that, as for a local match,
    // whose notifications follow the reply.
    setImmediate(() => {
      const held = bridge.held ?? [];
      bridge.held = null;
      for (const later of held) if (this.bridges.get(key) === bridge) this.apply(key, bridge, later);
    });
  }

  private apply(key: string, bridge: Bridge, message: BridgeMessage): void {
    switch (bridge.kind) {
      case 'member':
        return this.applyMember(key, bridge, message);
      case 'watcher':
        return this.applyWatcher(key, bridge, message);
      case 'vis':
        return this.applyVis(key, bridge, message);
      case 'delete':
        return;
    }
  }

  private applyMember(key: string, bridge: Extract<Bridge, { kind: 'member' }>, message: BridgeMessage): void {
    switch (message.t) {
      case 'updated':
        return bridge.member.updated(message.info);
      case 'expired':
        this.forget(key);
        return bridge.member.expired(message.id);
      case 'started':
        bridge.seat = new RemoteSeat(bridge.name, (out) => this.bus.send(bridge.node, out), key);
        return bridge.member.started(bridge.seat);
      case 'to-player':
        return bridge.seat?.deliver(message.bytes);
      case 'seat-closed':
        this.forget(key);
        return bridge.seat?.closed(message.reason as SeatCloseReason);
      default:
        return;
    }
  }

  private applyWatcher(key: string, bridge: Extract<Bridge, { kind: 'watcher' }>, message: BridgeMessage): void {
    switch (message.t) {
      case 'updated':
        return bridge.watcher.updated(message.info);
      case 'stream-start':
        return bridge.watcher.started(Buffer.from(message.history.buffer, message.history.byteOffset, message.history.byteLength));
      case 'stream-data':
        return bridge.watcher.data(message.bytes);
      case 'stream-end':
        this.forget(key);
        return bridge.watcher.ended();
      default:
        return;
    }
  }

  private applyVis(key: string, bridge: Extract<Bridge, { kind: 'vis' }>, message: BridgeMessage): void {
    switch (message.t) {
      case 'vis-history':
        return bridge.sink.history(Buffer.from(message.history.buffer, message.history.byteOffset, message.history.byteLength));
      case 'vis-events':
        for (const event of message.events) bridge.sink.event(event);
        return;
      case 'vis-seats':
        return bridge.sink.seats?.(message.seats);
      case 'vis-end':
        this.forget(key);
        return bridge.sink.end();
      default:
        return;
    }
  }

  private stopVis(key: string): void {
    const bridge = this.bridges.get(key);
    if (!bridge) return;
    this.forget(key);
    this.bus.send(bridge.node, { t: 'vis-stop', key });
  }

  private forget(key: string): void {
    const bridge = this.bridges.get(key);
    this.bridges.delete(key);
    if (bridge?.kind === 'member') this.keys.delete(bridge.member);
    if (bridge?.kind === 'watcher') this.keys.delete(bridge.watcher);
  }

  private newKey(): string {
    return `${this.bus.node}:${this.nextKey++}`;
  }
}
