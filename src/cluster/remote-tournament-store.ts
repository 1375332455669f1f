import type { TournamentEntry } from '../store/history-store.js';
import type { SharedTournament, TournamentLease, TournamentStore, TournamentWrite } from '../store/tournament-store.js';
import type { Channel } from './hub.js';

/**
 * The tournament store of `cocod --nodes N`, held by the primary (in its memory, or its
 * PostgreSQL) and reached by each node through a channel, as the history store is
 * (remote-store.ts). Every value is plain data: what crosses is what the store's methods take
 * and give, one request and one reply each.
 */
type Op = Exclude<keyof TournamentStore, 'close'>;
const OPS: readonly Op[] = ['create', 'get', 'list', 'write', 'orphans', 'takeOver', 'askStop', 'forget'];

export type RemoteTournamentRequest = { readonly id: number; readonly op: Op; readonly args: readonly unknown[] };
export type RemoteTournamentReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: string };

export class RemoteTournamentStore implements TournamentStore {
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly channel: Channel<RemoteTournamentReply, RemoteTournamentRequest>) {
    channel.receive((reply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new Error(reply.error));
    });
  }

  create(entry: TournamentEntry, node: string, until: number): Promise<TournamentLease> {
    return this.ask('create', [{ id: entry.id, createdAt: entry.createdAt, body: entry.body }, node, until]) as Promise<TournamentLease>;
  }

  get(id: string): Promise<SharedTournament | null> {
    return this.ask('get', [id]) as Promise<SharedTournament | null>;
  }

  list(): Promise<SharedTournament[]> {
    return this.ask('list', []) as Promise<SharedTournament[]>;
  }

  write(id: string, epoch: number, change: TournamentWrite): Promise<boolean> {
    return this.ask('write', [id, epoch, change]) as Promise<boolean>;
  }

  orphans(now: number): Promise<string[]> {
    return this.ask('orphans', [now]) as Promise<string[]>;
  }

  takeOver(id: string, node: string, now: number, until: number): Promise<TournamentLease | null> {
    return this.ask('takeOver', [id, node, now, until]) as Promise<TournamentLease | null>;
  }

  askStop(id: string): Promise<boolean> {
    return this.ask('askStop', [id]) as Promise<boolean>;
  }

  async forget(id: string): Promise<void> {
    await this.ask('forget', [id]);
  }

  /** Only stops asking: the owner closes the store itself. */
  async close(): Promise<void> {
    this.closed = true;
    this.fail('the tournament store is closed');
  }

  /** The owner is gone: what waits for it fails rather than hanging. */
  fail(reason: string): void {
    for (const pending of this.waiting.values()) pending.reject(new Error(reason));
    this.waiting.clear();
  }

  private ask(op: Op, args: readonly unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the tournament store is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.channel.send({ id, op, args });
    });
  }
}

/** The owner's side: answers a node's requests from `store`; an unknown operation is refused, not called. */
export function serveTournamentStore(store: TournamentStore, channel: Channel<RemoteTournamentRequest, RemoteTournamentReply>): void {
  channel.receive((request) => {
    if (!OPS.includes(request.op)) return channel.send({ id: request.id, ok: false, error: `no tournament store operation "${String(request.op)}"` });
    const method = store[request.op] as (...args: readonly unknown[]) => Promise<unknown>;
    method.apply(store, [...request.args]).then(
      (value) => channel.send({ id: request.id, ok: true, value: value ?? null }),
      (error: unknown) => channel.send({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
