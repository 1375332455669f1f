import type { WebSocket } from 'ws';
import type { Lobby, MatchMember, MatchWatcher } from '../lobby/lobby.js';
import type { Seat, SeatCloseReason } from '../match/seat.js';
import type { VisEvent } from '../protocol/vis-event.js';
import { encodeHistoryMatchReply } from '../protocol/coco/bincode.js';
import { decodeRequest, encodeReply } from '../protocol/coco/json-codec.js';
import { PROTOCOL_MAGIC, type Reply, type Request } from '../protocol/coco/messages.js';
import type { HistoryStore } from '../store/history-store.js';
import type { Log } from '../util/log.js';
import { normalizeMatchId } from '../lobby/match-id.js';

/** Named limits of one coco connection. */
export const CONNECTION_LIMITS = {
  /** Spectator history is sent in binary frames of at most this size. */
  historyChunkBytes: 1 << 20,
  /** A client whose unsent data passes this is too slow and is disconnected. */
  maxBufferedBytes: 64 << 20,
  /** Visualizer events per VisEvents message. */
  visBatch: 500,
} as const;

type State =
  | { readonly kind: 'handshake' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'subscribed'; readonly unsubscribe: () => void }
  | { readonly kind: 'waiting'; readonly id: string; readonly member: MatchMember }
  | { readonly kind: 'playing'; readonly seat: Seat }
  | { readonly kind: 'spectating'; readonly id: string; readonly watcher: MatchWatcher }
  | { readonly kind: 'vis'; readonly stop: () => void }
  | { readonly kind: 'closed' };

/**
 * One client of the coco WebSocket protocol (notes/coco-wire-protocol.md): a state machine over
 * the requests valid in each state, as the reference server has it. A request that is invalid,
 * or not valid in the current state, closes this connection only, with a log line.
 */
export class CocoConnection {
  private state: State = { kind: 'handshake' };
  private version = 2;
  private requests: Promise<void> = Promise.resolve();
  /** Game bytes waiting to go out in one binary frame (flushed at the end of the current turn). */
  private outgoing: Buffer[] = [];
  private flushScheduled = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly lobby: Lobby,
    private readonly store: HistoryStore,
    private readonly peer: string,
    private readonly log: Log,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer | Buffer[] | ArrayBuffer, isBinary));
    ws.on('close', () => this.onClose());
    ws.on('error', (error) => this.log.warn(`${this.peer}: connection error: ${error.message}`));
  }

  private onMessage(data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean): void {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (isBinary) {
      if (this.state.kind === 'playing') this.state.seat.receive(bytes);
      return;
    }
    if (this.state.kind === 'playing') return; // text frames from a playing client are ignored
    const text = bytes.toString('utf8');
    // Requests are handled one at a time, in order, even when one waits for the history store.
    this.requests = this.requests.then(() => this.handle(text)).catch((error: unknown) => {
      this.abort(`internal error: ${error instanceof Error ? error.stack : String(error)}`);
    });
  }

  private async handle(text: string): Promise<void> {
    if (this.state.kind === 'closed') return;
    const decoded = decodeRequest(text);
    if (!decoded.ok) return this.abort(`invalid request: ${decoded.error}`);
    const request = decoded.value;
    switch (this.state.kind) {
      case 'handshake':
        return this.handshake(request);
      case 'idle':
        return this.idleRequest(request);
      case 'subscribed':
        if (request.type !== 'LobbyUnsubscribe') return this.abort(`${request.type} is not valid while subscribed to the lobby`);
        this.state.unsubscribe();
        this.state = { kind: 'idle' };
        return this.reply({ type: 'LobbyUnsubscribed' });
      case 'waiting':
        if (request.type !== 'LobbyLeaveMatch') return this.abort(`${request.type} is not valid while waiting in a match`);
        this.lobby.leave(this.state.id, this.state.member);
        this.state = { kind: 'idle' };
        return this.reply({ type: 'LobbyLeavedMatch' });
      case 'spectating':
        if (request.type !== 'SpectateLeave') return this.abort(`${request.type} is not valid while spectating`);
        this.lobby.unspectate(this.state.id, this.state.watcher);
        this.state = { kind: 'idle' };
        return this.reply({ type: 'SpectateLeaved' });
      case 'vis':
        return this.abort(`${request.type} is not valid while receiving visualizer events`);
      case 'playing':
        return;
    }
  }

  private handshake(request: Request): void {
    if (request.type !== 'Handshake') return this.abort('the first message must be a Handshake');
    const supported = request.magic === PROTOCOL_MAGIC && (request.version === 1 || request.version === 2);
    this.version = supported ? request.version : 2;
    this.reply({ type: 'Handshake', magic: PROTOCOL_MAGIC, version: this.version });
    if (!supported) return this.abort(`unsupported handshake: magic "${request.magic}", version ${request.version}`);
    this.state = { kind: 'idle' };
  }

  private async idleRequest(request: Request): Promise<void> {
    switch (request.type) {
      case 'GameList':
        return this.reply({ type: 'GameList', games: this.lobby.gameList() });
      case 'GameDescription':
        return this.reply({ type: 'GameDescription', description: this.lobby.gameDescription(request.name) });
      case 'GameNew': {
        const created = this.lobby.create(request);
        if (!created.ok) this.log.info(`${this.peer}: GameNew refused: ${created.error}`);
        return this.reply({ type: 'GameNew', id: created.ok ? { Ok: created.value } : { Err: created.error } });
      }
      case 'LobbyList':
        return this.reply({ type: 'LobbyList', info: this.lobby.list() });
      case 'LobbySubscribe': {
        const { seed, unsubscribe } = this.lobby.subscribe({
          created: (info) => this.reply({ type: 'LobbyNew', info }),
          updated: (info) => this.reply({ type: 'LobbyUpdate', info }),
          deleted: (id) => this.reply({ type: 'LobbyDelete', id }),
        });
        this.state = { kind: 'subscribed', unsubscribe };
        return this.reply({ type: 'LobbySubscribed', seed });
      }
      case 'LobbyJoinMatch':
        return this.join(request.id, request.name, request.password);
      case 'SpectateJoin':
        return this.spectate(request.id);
      case 'HistoryMatchList':
        if (this.version < 2) return this.abort('HistoryMatchList needs protocol version 2');
        return this.reply({ type: 'HistoryMatchList', ids: await this.store.ids() });
      case 'HistoryMatch':
        if (this.version < 2) return this.abort('HistoryMatch needs protocol version 2');
        return this.historyMatch(request.id);
      case 'VisSubscribe':
        return this.visSubscribe(request.id);
      default:
        return this.abort(`${request.type} is not valid now`);
    }
  }

  private join(id: string, name: string, password: string | null): void {
    const member: MatchMember = {
      updated: (info) => this.reply({ type: 'LobbyUpdate', info }),
      expired: (matchId) => {
        this.state = { kind: 'idle' };
        this.reply({ type: 'LobbyDelete', id: matchId });
      },
      started: (seat) => this.play(seat),
    };
    const joined = this.lobby.join(id, name, password, member);
    this.reply({ type: 'LobbyJoinedMatch', info: joined.ok ? { Ok: joined.value } : { Err: joined.error } });
    if (joined.ok) this.state = { kind: 'waiting', id: joined.value.id, member };
  }

  private play(seat: Seat): void {
    if (this.state.kind === 'closed') {
      seat.receiveEnd();
      return;
    }
    this.state = { kind: 'playing', seat };
    this.reply({ type: 'MatchStarted' });
    seat.attach({
      send: (bytes) => this.sendGameBytes(bytes),
      close: (reason) => this.seatClosed(seat, reason),
    });
  }

  private seatClosed(seat: Seat, reason: SeatCloseReason): void {
    if (this.state.kind !== 'playing' || this.state.seat !== seat) return;
    if (reason !== 'match-over') this.log.info(`${this.peer}: player ${seat.name} left the game: ${reason}`);
    this.flush();
    this.state = { kind: 'idle' };
    this.reply({ type: 'MatchEnded' });
  }

  private spectate(id: string): void {
    let synced = false;
    const watcher: MatchWatcher = {
      updated: (info) => this.reply({ type: 'LobbyUpdate', info }),
      started: (history) => {
        this.reply({ type: 'SpectateStarted' });
        for (let offset = 0; offset < history.length; offset += CONNECTION_LIMITS.historyChunkBytes) {
          this.sendBinary(history.subarray(offset, offset + CONNECTION_LIMITS.historyChunkBytes));
        }
        this.reply({ type: 'SpectateSynced' });
        synced = true;
      },
      data: (bytes) => {
        if (synced) this.sendBinary(bytes, true);
      },
      ended: () => {
        if (this.state.kind !== 'spectating' || this.state.watcher !== watcher) return;
        this.state = { kind: 'idle' };
        this.reply({ type: 'SpectateEnded' });
      },
    };
    const joined = this.lobby.spectate(id, watcher);
    this.reply({ type: 'SpectateJoined', info: joined.ok ? { Ok: joined.value } : { Err: joined.error } });
    if (joined.ok) this.state = { kind: 'spectating', id: joined.value.id, watcher };
  }

  private async historyMatch(id: string): Promise<void> {
    const normal = normalizeMatchId(id);
    const record = normal.ok ? await this.store.get(normal.value) : null;
    const outcome = !normal.ok
      ? ({ Err: 'InvalidID' } as const)
      : record
        ? {
            Ok: {
              id: record.id,
              game_name: record.game,
              args: record.args,
              players: record.players,
              bot_count: record.bots,
              history: record.spectatorStream,
            },
          }
        : ({ Err: 'FileNotFound' } as const);
    this.sendBinary(encodeHistoryMatchReply(outcome));
  }

  private async visSubscribe(id: string): Promise<void> {
    let batch: VisEvent[] = [];
    let scheduled = false;
    let ended = false;
    const flush = (): void => {
      scheduled = false;
      for (let i = 0; i < batch.length; i += CONNECTION_LIMITS.visBatch) {
        this.reply({ type: 'VisEvents', id, events: batch.slice(i, i + CONNECTION_LIMITS.visBatch) });
      }
      batch = [];
    };
    const finish = (): void => {
      if (ended) return;
      ended = true;
      flush();
      if (this.state.kind === 'vis') this.state = { kind: 'idle' };
      this.reply({ type: 'VisEnded', id });
    };
    const live = this.lobby.watchVis(id, {
      event: (event) => {
        batch.push(event);
        if (!scheduled) {
          scheduled = true;
          queueMicrotask(flush);
        }
      },
      end: () => queueMicrotask(finish),
    });
    if (live.ok) {
      this.state = { kind: 'vis', stop: live.value };
      return this.reply({ type: 'VisSubscribed', info: { Ok: null } });
    }
    const normal = normalizeMatchId(id);
    const record = normal.ok ? await this.store.get(normal.value) : null;
    if (!record) return this.reply({ type: 'VisSubscribed', info: { Err: live.error } });
    this.reply({ type: 'VisSubscribed', info: { Ok: null } });
    batch = JSON.parse(record.visJson) as VisEvent[];
    finish();
  }

  private reply(reply: Reply): void {
    if (this.state.kind === 'closed') return;
    this.flush();
    this.ws.send(encodeReply(reply, this.version));
  }

  private sendGameBytes(bytes: Uint8Array): void {
    this.outgoing.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.outgoing.length === 0) return;
    const frame = this.outgoing.length === 1 ? this.outgoing[0]! : Buffer.concat(this.outgoing);
    this.outgoing = [];
    this.sendBinary(frame, true);
  }

  private sendBinary(bytes: Uint8Array, checkBackpressure = false): void {
    if (this.state.kind === 'closed') return;
    this.ws.send(bytes, { binary: true });
    if (checkBackpressure && this.ws.bufferedAmount > CONNECTION_LIMITS.maxBufferedBytes) {
      this.abort(`too slow: more than ${CONNECTION_LIMITS.maxBufferedBytes} bytes unsent`);
      this.ws.terminate();
    }
  }

  /** Closes this connection because of what the client did (or failed to do). */
  private abort(why: string): void {
    if (this.state.kind === 'closed') return;
    this.log.warn(`${this.peer}: closing connection: ${why}`);
    this.flush();
    this.leaveState();
    this.ws.close();
  }

  private onClose(): void {
    this.leaveState();
  }

  private leaveState(): void {
    const state = this.state;
    this.state = { kind: 'closed' };
    this.outgoing = [];
    switch (state.kind) {
      case 'subscribed':
        state.unsubscribe();
        break;
      case 'waiting':
        this.lobby.leave(state.id, state.member);
        break;
      case 'playing':
        state.seat.receiveEnd();
        break;
      case 'spectating':
        this.lobby.unspectate(state.id, state.watcher);
        break;
      case 'vis':
        state.stop();
        break;
      default:
        break;
    }
  }
}
