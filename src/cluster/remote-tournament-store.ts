import type { TournamentEntry } from '../store/history-store.js';
import type { SharedTournament, TournamentLease, TournamentStore, TournamentWrite } from '../store/tournament-store.js';
import type { Channel } from './hub.js';
import { RemoteCaller, serveCalls, type RemoteAnswer, type RemoteCall } from './remote-calls.js';

/**
 * The tournament store of `cocod --nodes N`, held by the primary (in its memory, or its
 * PostgreSQL) and reached by each node through a channel, as the history store is
 * (remote-store.ts). Every value is plain data: what crosses is what the store's methods take
 * and give, one request and one reply each.
 */
type Op = Exclude<keyof TournamentStore, 'close'>;
const OPS: readonly Op[] = ['create', 'get', 'list', 'write', 'orphans', 'takeOver', 'askStop', 'forget'];

export type RemoteTournamentRequest = RemoteCall<Op>;
export type RemoteTournamentReply = RemoteAnswer;

export class RemoteTournamentStore implements TournamentStore {
  private readonly caller: RemoteCaller<Op>;

  constructor(channel: Channel<RemoteTournamentReply, RemoteTournamentRequest>) {
    this.caller = new RemoteCaller(channel, 'tournament store');
  }

  create(entry: TournamentEntry, node: string, until: number): Promise<TournamentLease> {
    return this.caller.ask('create', [{ id: entry.id, createdAt: entry.createdAt, body: entry.body }, node, until]) as Promise<TournamentLease>;
  }

  get(id: string): Promise<SharedTournament | null> {
    return this.caller.ask('get', [id]) as Promise<SharedTournament | null>;
  }

  list(): Promise<SharedTournament[]> {
    return this.caller.ask('list', []) as Promise<SharedTournament[]>;
  }

  write(id: string, epoch: number, change: TournamentWrite): Promise<boolean> {
    return this.caller.ask('write', [id, epoch, change]) as Promise<boolean>;
  }

  orphans(now: number): Promise<string[]> {
    return this.caller.ask('orphans', [now]) as Promise<string[]>;
  }

  takeOver(id: string, node: string, now: number, until: number): Promise<TournamentLease | null> {
    return this.caller.ask('takeOver', [id, node, now, until]) as Promise<TournamentLease | null>;
  }

  askStop(id: string): Promise<boolean> {
    return this.caller.ask('askStop', [id]) as Promise<boolean>;
  }

  async forget(id: string): Promise<void> {
    await this.caller.ask('forget', [id]);
  }

  /** Only stops asking: the owner closes the store itself. */
  async close(): Promise<void> {
    this.caller.close();
  }

  /** The owner is gone: what waits for it fails rather than hanging. */
  fail(reason: string): void {
    this.caller.fail(reason);
  }
}

/** The owner's side: answers a node's requests from `store`; an unknown operation is refused, not called. */
export function serveTournamentStore(store: TournamentStore, channel: Channel<RemoteTournamentRequest, RemoteTournamentReply>): void {
  serveCalls(store, OPS, channel, 'tournament store');
}
