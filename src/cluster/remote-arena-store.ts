import type { ArenaGame, ArenaRating, ArenaResult, ArenaStanding, ArenaStore } from '../arena/arena-store.js';
import type { Skill } from '../ratings/rating.js';
import type { Channel } from './hub.js';
import { RemoteCaller, serveCalls, type RemoteAnswer, type RemoteCall } from './remote-calls.js';

/**
 * The arena store of `cocod --nodes N`, held by the primary (beside the history: its SQLite file,
 * its PostgreSQL, or its memory) and reached by each node through a channel, as the tournament
 * store is (remote-tournament-store.ts): whichever node pairs the arena, the ratings are one.
 * What crosses is plain data: the skills go as [name, skill] pairs.
 */
type Op = Exclude<keyof ArenaStore, 'close'>;
const OPS: readonly Op[] = ['skills', 'record', 'standing', 'saveFailures', 'countMeeting', 'board', 'games'];

export type RemoteArenaRequest = RemoteCall<Op>;
export type RemoteArenaReply = RemoteAnswer;

export class RemoteArenaStore implements ArenaStore {
  private readonly caller: RemoteCaller<Op>;

  constructor(channel: Channel<RemoteArenaReply, RemoteArenaRequest>) {
    this.caller = new RemoteCaller(channel, 'arena store');
  }

  async skills(game: string, players: readonly string[]): Promise<Map<string, Skill>> {
    return new Map((await this.caller.ask('skills', [game, [...players]])) as [string, Skill][]);
  }

  record(result: ArenaResult): Promise<ArenaRating[]> {
    return this.caller.ask('record', [result]) as Promise<ArenaRating[]>;
  }

  async standing(game: string, player: string): Promise<ArenaStanding> {
    const { meetings, ...failures } = (await this.caller.ask('standing', [game, player])) as { failures: number; heldUntil: number; meetings: [string, number][] };
    return { ...failures, meetings: new Map(meetings) };
  }

  async saveFailures(game: string, player: string, failures: number, heldUntil: number): Promise<void> {
    await this.caller.ask('saveFailures', [game, player, failures, heldUntil]);
  }

  async countMeeting(game: string, players: readonly string[]): Promise<void> {
    await this.caller.ask('countMeeting', [game, [...players]]);
  }

  board(game: string, limit: number): Promise<ArenaRating[]> {
    return this.caller.ask('board', [game, limit]) as Promise<ArenaRating[]>;
  }

  games(game: string, player: string | null, limit: number): Promise<ArenaGame[]> {
    return this.caller.ask('games', [game, player, limit]) as Promise<ArenaGame[]>;
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
export function serveArenaStore(store: ArenaStore, channel: Channel<RemoteArenaRequest, RemoteArenaReply>): void {
  serveCalls(store, OPS, channel, 'arena store', plain);
}

/** A value as plain data: Maps (the skills, a standing's meetings) as [key, value] pairs. */
function plain(value: unknown): unknown {
  if (value instanceof Map) return [...value];
  if (value && typeof value === 'object' && 'meetings' in value && value.meetings instanceof Map) return { ...value, meetings: [...value.meetings] };
  return value ?? null;
}
