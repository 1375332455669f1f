import type { ArenaGame, ArenaRating, ArenaResult, ArenaStanding, ArenaStore } from '../arena/arena-store.js';
import type { Skill } from '../ratings/rating.js';
import type { Channel } from './hub.js';

/**
 * The arena store of `cocod --nodes N`, held by the primary (beside the history: its SQLite file,
 * its PostgreSQL, or its memory) and reached by each node through a channel, as the tournament
 * store is (remote-tournament-store.ts): whichever node pairs the arena, the ratings are one.
 * What crosses is plain data: the skills go as [name, skill] pairs.
 */
type Op = Exclude<keyof ArenaStore, 'close'>;
const OPS: readonly Op[] = ['skills', 'record', 'standing', 'saveFailures', 'countMeeting', 'board', 'games'];

export type RemoteArenaRequest = { readonly id: number; readonly op: Op; readonly args: readonly unknown[] };
export type RemoteArenaReply = { readonly id: number; readonly ok: true; readonly value: unknown } | { readonly id: number; readonly ok: false; readonly error: string };

export class RemoteArenaStore implements ArenaStore {
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly channel: Channel<RemoteArenaReply, RemoteArenaRequest>) {
    channel.receive((reply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new Error(reply.error));
    });
  }

  async skills(game: string, players: readonly string[]): Promise<Map<string, Skill>> {
    return new Map((await this.ask('skills', [game, [...players]])) as [string, Skill][]);
  }

  record(result: ArenaResult): Promise<ArenaRating[]> {
    return this.ask('record', [result]) as Promise<ArenaRating[]>;
  }

  async standing(game: string, player: string): Promise<ArenaStanding> {
    const { meetings, ...failures } = (await this.ask('standing', [game, player])) as { failures: number; heldUntil: number; meetings: [string, number][] };
    return { ...failures, meetings: new Map(meetings) };
  }

  async saveFailures(game: string, player: string, failures: number, heldUntil: number): Promise<void> {
    await this.ask('saveFailures', [game, player, failures, heldUntil]);
  }

  async countMeeting(game: string, players: readonly string[]): Promise<void> {
    await this.ask('countMeeting', [game, [...players]]);
  }

  board(game: string, limit: number): Promise<ArenaRating[]> {
    return this.ask('board', [game, limit]) as Promise<ArenaRating[]>;
  }

  games(game: string, player: string | null, limit: number): Promise<ArenaGame[]> {
    return this.ask('games', [game, player, limit]) as Promise<ArenaGame[]>;
  }

  /** Only stops asking: the owner closes the store itself. */
  async close(): Promise<void> {
    this.closed = true;
    this.fail('the arena store is closed');
  }

  /** The owner is gone: what waits for it fails rather than hanging. */
  fail(reason: string): void {
    for (const pending of this.waiting.values()) pending.reject(new Error(reason));
    this.waiting.clear();
  }

  private ask(op: Op, args: readonly unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the arena store is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.channel.send({ id, op, args });
    });
  }
}

/** The owner's side: answers a node's requests from `store`; an unknown operation is refused, not called. */
export function serveArenaStore(store: ArenaStore, channel: Channel<RemoteArenaRequest, RemoteArenaReply>): void {
  channel.receive((request) => {
    if (!OPS.includes(request.op)) return channel.send({ id: request.id, ok: false, error: `no arena store operation "${String(request.op)}"` });
    const method = store[request.op] as (...args: readonly unknown[]) => Promise<unknown>;
    method.apply(store, [...request.args]).then(
      (value) => channel.send({ id: request.id, ok: true, value: plain(value) }),
      (error: unknown) => channel.send({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** A value as plain data: Maps (the skills, a standing's meetings) as [key, value] pairs. */
function plain(value: unknown): unknown {
  if (value instanceof Map) return [...value];
  if (value && typeof value === 'object' && 'meetings' in value && value.meetings instanceof Map) return { ...value, meetings: [...value.meetings] };
  return value ?? null;
}
