import { MASTER_DELETES, type Lobby, type MatchMember, type MatchWatcher, type PlayerSeat } from '../lobby/lobby.js';
import type { VisEvent } from '../protocol/vis-event.js';
import { silentLog, type Log } from '../util/log.js';
import type { BridgeMessage, NodeBus } from './seams.js';

type Hosted =
  | { readonly kind: 'member'; readonly from: string; readonly id: string; readonly member: MatchMember; seat: PlayerSeat | null }
  | { readonly kind: 'watcher'; readonly from: string; readonly id: string; readonly watcher: MatchWatcher }
  | { readonly kind: 'vis'; readonly from: string; stop: (() => void) | null };

/**
 * This node's end of the bridges other nodes open to its matches: it joins, spectates and watches
 * in the local lobby on their behalf, as a front door of this node would, and relays both ways.
 * The seat's own limits (line length, flood, timeouts) apply here, where the game runs.
 */
export class BridgeHost {
  private readonly hosted = new Map<string, Hosted>();

  constructor(
    private readonly lobby: Lobby,
    private readonly bus: NodeBus,
    private readonly log: Log = silentLog,
  ) {}

  /** A message from a node that opened (or uses) a bridge to one of our matches. */
  receive(from: string, message: BridgeMessage): void {
    if (message.t === 'join') return this.join(from, message.key, message.id, message.name, message.password);
    if (message.t === 'spectate') return this.spectate(from, message.key, message.id);
    if (message.t === 'vis-watch') return this.watchVis(from, message.key, message.id);
    if (message.t === 'delete') return this.delete(from, message);
    const hosted = this.hosted.get(message.key);
    if (!hosted || hosted.from !== from) return;
    switch (message.t) {
      case 'from-player':
        if (hosted.kind === 'member') hosted.seat?.receive(message.bytes);
        return;
      case 'player-end':
        if (hosted.kind === 'member') hosted.seat?.receiveEnd();
        return;
      case 'leave':
        this.hosted.delete(message.key);
        if (hosted.kind === 'member') this.lobby.leave(hosted.id, hosted.member);
        return;
      case 'unspectate':
        this.hosted.delete(message.key);
        if (hosted.kind === 'watcher') this.lobby.unspectate(hosted.id, hosted.watcher);
        return;
      case 'vis-stop':
        this.hosted.delete(message.key);
        if (hosted.kind === 'vis') hosted.stop?.();
        return;
      default:
        return;
    }
  }

  /** A node went down: its players leave (or their seats see the end), its spectators go. */
  nodeDown(node: string): void {
    for (const [key, hosted] of [...this.hosted]) {
      if (hosted.from !== node) continue;
      this.hosted.delete(key);
      switch (hosted.kind) {
        case 'member':
          if (hosted.seat) hosted.seat.receiveEnd();
          else this.lobby.leave(hosted.id, hosted.member);
          break;
        case 'watcher':
          this.lobby.unspectate(hosted.id, hosted.watcher);
          break;
        case 'vis':
          hosted.stop?.();
          break;
      }
    }
  }

  /** Bridges open now, for /metrics and tests. */
  get size(): number {
    return this.hosted.size;
  }

  private join(from: string, key: string, id: string, name: string, password: string | null): void {
    const send = (message: BridgeMessage): void => this.bus.send(from, message);
    const member: MatchMember = {
      updated: (info) => send({ t: 'updated', key, info }),
      expired: (matchId) => {
        this.hosted.delete(key);
        send({ t: 'expired', key, id: matchId });
      },
      started: (seat) => {
        hosted.seat = seat;
        send({ t: 'started', key });
        seat.attach({
          send: (bytes) => send({ t: 'to-player', key, bytes }),
          close: (reason) => {
            this.hosted.delete(key);
            send({ t: 'seat-closed', key, reason });
          },
        });
      },
    };
    const hosted: Extract<Hosted, { kind: 'member' }> = { kind: 'member', from, id, member, seat: null };
    // Password back-off is the asking node's: it knows the address that tried.
    const joined = this.lobby.join(id, name, password, member);
    if (joined.ok) {
      this.hosted.set(key, hosted);
      this.log.info(`${name} joined match ${joined.value.id} through node ${from}`);
    }
    send({ t: 'joined', key, info: joined.ok ? joined.value : null, error: joined.ok ? null : joined.error });
  }

  /** A one-shot request: nothing stays open for it. */
  private delete(from: string, message: Extract<BridgeMessage, { t: 'delete' }>): void {
    const deleted = this.lobby.deleteWaiting(message.id, message.master ? MASTER_DELETES : { owner: message.owner });
    if (deleted.ok) this.log.info(`match ${deleted.value} deleted through node ${from}`);
    this.bus.send(from, { t: 'deleted', key: message.key, id: deleted.ok ? deleted.value : null, error: deleted.ok ? null : deleted.error });
  }

  private spectate(from: string, key: string, id: string): void {
    const send = (message: BridgeMessage): void => this.bus.send(from, message);
    const watcher: MatchWatcher = {
      updated: (info) => send({ t: 'updated', key, info }),
      started: (history) => send({ t: 'stream-start', key, history }),
      data: (bytes) => send({ t: 'stream-data', key, bytes }),
      ended: () => {
        this.hosted.delete(key);
        send({ t: 'stream-end', key });
      },
    };
    const joined = this.lobby.spectate(id, watcher);
    if (joined.ok) {
      this.hosted.set(key, { kind: 'watcher', from, id, watcher });
      this.log.info(`a spectator of match ${joined.value.id} came through node ${from}`);
    }
    send({ t: 'spectating', key, info: joined.ok ? joined.value : null, error: joined.ok ? null : joined.error });
  }

  private watchVis(from: string, key: string, id: string): void {
    const send = (message: BridgeMessage): void => this.bus.send(from, message);
    // Events come in bursts (the history at once, then one or two a move): one message a burst.
    let batch: VisEvent[] = [];
    const flush = (): void => {
      if (batch.length > 0) send({ t: 'vis-events', key, events: batch });
      batch = [];
    };
    const hosted: Extract<Hosted, { kind: 'vis' }> = { kind: 'vis', from, stop: null };
    const live = this.lobby.watchVis(id, {
      // Relayed as the text it is: the watching node's front door sends it on in slices.
      history: (json) => send({ t: 'vis-history', key, history: json }),
      event: (event) => {
        if (batch.length === 0) queueMicrotask(flush);
        batch.push(event);
      },
      seats: (seats) => {
        // After the events of the same turn, as the viewer on this node would see them.
        flush();
        send({ t: 'vis-seats', key, seats });
      },
      end: () => {
        flush();
        this.hosted.delete(key);
        send({ t: 'vis-end', key });
      },
    });
    if (live.ok) {
      hosted.stop = live.value;
      this.hosted.set(key, hosted);
    }
    send({ t: 'vis-watching', key, error: live.ok ? null : live.error });
  }
}
