import type { Channel } from './hub.js';

/**
 * A store held by the primary of `cocod --nodes N` and called by each node through a channel, by
 * the name of its method and plain arguments: one request and one reply each. The tournament and
 * arena stores are reached this way (the history store has its own typed requests: remote-store.ts).
 */
export type RemoteCall<Op extends string> = { readonly id: number; readonly op: Op; readonly args: readonly unknown[] };
export type RemoteAnswer = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: string };

/** The node's side: asks, and settles each ask with its reply; `what` names the store in errors. */
export class RemoteCaller<Op extends string> {
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly channel: Channel<RemoteAnswer, RemoteCall<Op>>,
    private readonly what: string,
  ) {
    channel.receive((reply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new Error(reply.error));
    });
  }

  ask(op: Op, args: readonly unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error(`the ${this.what} is closed`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.channel.send({ id, op, args });
    });
  }

  /** Only stops asking: the owner closes the store itself. */
  close(): void {
    this.closed = true;
    this.fail(`the ${this.what} is closed`);
  }

  /** The owner is gone: what waits for it fails rather than hanging. */
  fail(reason: string): void {
    for (const pending of this.waiting.values()) pending.reject(new Error(reason));
    this.waiting.clear();
  }
}

/**
 * The owner's side: answers each call from `store`; an operation not in `ops` is refused, not
 * called. `plain` makes a value plain data for the channel (default: undefined as null).
 */
export function serveCalls<Op extends string>(
  store: Record<Op, (...args: never[]) => Promise<unknown>>,
  ops: readonly Op[],
  channel: Channel<RemoteCall<Op>, RemoteAnswer>,
  what: string,
  plain: (value: unknown) => unknown = (value) => value ?? null,
): void {
  channel.receive((request) => {
    if (!ops.includes(request.op)) return channel.send({ id: request.id, ok: false, error: `no ${what} operation "${String(request.op)}"` });
    const method = store[request.op] as unknown as (...args: readonly unknown[]) => Promise<unknown>;
    method.apply(store, [...request.args]).then(
      (value) => channel.send({ id: request.id, ok: true, value: plain(value) }),
      (error: unknown) => channel.send({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
