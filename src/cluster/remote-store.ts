import { HistoryUnavailableError, type ByteRange, type RecordOutline, type RecordPart, type HistoryQuery, type HistoryStore, type MatchRecord, type MatchSummary, type NewMatchRecord, type PlayerRating, type RatingPoint, type RatingQuery, type StoredTournament, type TournamentEntry } from '../store/history-store.js';
import { ownBytes } from '../util/own-bytes.js';
import { asBuffer } from '../store/sqlite-store-messages.js';
import type { Channel } from './hub.js';

/** What a node asks the store's owner. */
export type RemoteStoreRequest =
  | { readonly id: number; readonly op: 'record'; readonly record: NewMatchRecord }
  | { readonly id: number; readonly op: 'list'; readonly query: HistoryQuery | undefined }
  | { readonly id: number; readonly op: 'ids' }
  | { readonly id: number; readonly op: 'get'; readonly matchId: string }
  | { readonly id: number; readonly op: 'outline'; readonly matchId: string }
  | { readonly id: number; readonly op: 'readPart'; readonly matchId: string; readonly part: RecordPart; readonly range: ByteRange | undefined }
  | { readonly id: number; readonly op: 'ratings'; readonly game: string; readonly query: RatingQuery | undefined }
  | { readonly id: number; readonly op: 'ratingHistory'; readonly game: string; readonly player: string; readonly query: RatingQuery | undefined }
  | { readonly id: number; readonly op: 'saveTournament'; readonly tournament: TournamentEntry }
  | { readonly id: number; readonly op: 'addTournamentResult'; readonly tournamentId: string; readonly index: number; readonly result: string }
  | { readonly id: number; readonly op: 'tournaments' }
  | { readonly id: number; readonly op: 'forgetTournament'; readonly tournamentId: string }
  | { readonly id: number; readonly op: 'claimName'; readonly name: string; readonly digest: string }
  | { readonly id: number; readonly op: 'nameDigest'; readonly name: string }
  | { readonly id: number; readonly op: 'replaceNameDigest'; readonly name: string; readonly expected: string; readonly next: string }
  | { readonly id: number; readonly op: 'releaseName'; readonly name: string };

/** `unavailable`: the owner's store threw a HistoryUnavailableError, raised again on the node's side. */
export type RemoteStoreReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string; readonly unavailable?: boolean };

/**
 * A history store in another process (the primary of `cocod --nodes N`), reached through a
 * channel: one writer for the SQLite file, whose retention keeps a running total that several
 * writers would each get wrong. `close` only stops asking: the owner closes the store itself.
 */
export class RemoteHistoryStore implements HistoryStore {
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly channel: Channel<RemoteStoreReply, RemoteStoreRequest>) {
    channel.receive((reply) => {
      const pending = this.waiting.get(reply.id);
      if (!pending) return;
      this.waiting.delete(reply.id);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(reply.unavailable ? new HistoryUnavailableError(reply.error) : new Error(reply.error));
    });
  }

  record(record: NewMatchRecord): Promise<void> {
    return this.ask({ op: 'record', record }) as Promise<void>;
  }

  list(query?: HistoryQuery): Promise<MatchSummary[]> {
    return this.ask({ op: 'list', query }) as Promise<MatchSummary[]>;
  }

  ids(): Promise<string[]> {
    return this.ask({ op: 'ids' }) as Promise<string[]>;
  }

  async get(id: string): Promise<MatchRecord | null> {
    const record = (await this.ask({ op: 'get', matchId: id })) as MatchRecord | null;
    return record && { ...record, spectatorStream: asBuffer(record.spectatorStream) };
  }

  outline(id: string): Promise<RecordOutline | null> {
    return this.ask({ op: 'outline', matchId: id }) as Promise<RecordOutline | null>;
  }

  async readPart(id: string, part: RecordPart, range?: ByteRange): Promise<Buffer | null> {
    const bytes = (await this.ask({ op: 'readPart', matchId: id, part, range })) as Uint8Array | null;
    return bytes && asBuffer(bytes);
  }

  ratings(game: string, query?: RatingQuery): Promise<PlayerRating[]> {
    return this.ask({ op: 'ratings', game, query }) as Promise<PlayerRating[]>;
  }

  ratingHistory(game: string, player: string, query?: RatingQuery): Promise<RatingPoint[]> {
    return this.ask({ op: 'ratingHistory', game, player, query }) as Promise<RatingPoint[]>;
  }

  async saveTournament(tournament: TournamentEntry): Promise<void> {
    await this.ask({ op: 'saveTournament', tournament: { id: tournament.id, createdAt: tournament.createdAt, body: tournament.body } });
  }

  async addTournamentResult(id: string, index: number, result: string): Promise<void> {
    await this.ask({ op: 'addTournamentResult', tournamentId: id, index, result });
  }

  tournaments(): Promise<StoredTournament[]> {
    return this.ask({ op: 'tournaments' }) as Promise<StoredTournament[]>;
  }

  async forgetTournament(id: string): Promise<void> {
    await this.ask({ op: 'forgetTournament', tournamentId: id });
  }

  async claimName(name: string, digest: string): Promise<boolean> {
    return (await this.ask({ op: 'claimName', name, digest })) as boolean;
  }

  async nameDigest(name: string): Promise<string | null> {
    return (await this.ask({ op: 'nameDigest', name })) as string | null;
  }

  async replaceNameDigest(name: string, expected: string, next: string): Promise<boolean> {
    return (await this.ask({ op: 'replaceNameDigest', name, expected, next })) as boolean;
  }

  async releaseName(name: string): Promise<boolean> {
    return (await this.ask({ op: 'releaseName', name })) as boolean;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.waiting.values()) pending.reject(new Error('the history store is closed'));
    this.waiting.clear();
  }

  /** The owner is gone: what waits for it fails rather than hanging. */
  fail(reason: string): void {
    for (const pending of this.waiting.values()) pending.reject(new Error(reason));
    this.waiting.clear();
  }

  private ask(request: DistributiveOmit<RemoteStoreRequest, 'id'>): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the history store is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.channel.send({ ...request, id } as RemoteStoreRequest);
    });
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

/** The owner's side: answers a node's requests from `store`. */
export function serveHistoryStore(store: HistoryStore, channel: Channel<RemoteStoreRequest, RemoteStoreReply>): void {
  channel.receive((request) => {
    const answer = (work: Promise<unknown>): void => {
      work.then(
        (value) => channel.send({ id: request.id, ok: true, value: value ?? null }),
        (error: unknown) =>
          channel.send({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error), ...(error instanceof HistoryUnavailableError && { unavailable: true }) }),
      );
    };
    switch (request.op) {
      case 'record':
        // The record's bytes are views into the IPC message they came in: kept as they are, they
        // would keep the whole message (a batch) alive.
        return answer(store.record({ ...request.record, spectatorStream: ownBytes(request.record.spectatorStream), visJson: typeof request.record.visJson === 'string' ? request.record.visJson : ownBytes(request.record.visJson) }));
      case 'list':
        return answer(store.list(request.query));
      case 'ids':
        return answer(store.ids());
      case 'get':
        return answer(store.get(request.matchId));
      case 'outline':
        return answer(store.outline(request.matchId));
      case 'readPart':
        // A range may be a window on a larger block (a store's whole part): sent alone.
        return answer(store.readPart(request.matchId, request.part, request.range).then((bytes) => bytes && ownBytes(bytes)));
      case 'ratings':
        return answer(store.ratings(request.game, request.query));
      case 'ratingHistory':
        return answer(store.ratingHistory(request.game, request.player, request.query));
      case 'saveTournament':
        return answer(store.saveTournament(request.tournament));
      case 'addTournamentResult':
        return answer(store.addTournamentResult(request.tournamentId, request.index, request.result));
      case 'tournaments':
        return answer(store.tournaments());
      case 'forgetTournament':
        return answer(store.forgetTournament(request.tournamentId));
      case 'claimName':
        return answer(store.claimName(request.name, request.digest));
      case 'nameDigest':
        return answer(store.nameDigest(request.name));
      case 'replaceNameDigest':
        return answer(store.replaceNameDigest(request.name, request.expected, request.next));
      case 'releaseName':
        return answer(store.releaseName(request.name));
    }
  });
}
