/**
 * Plays a server tournament's matches in the lobby, as ordinary matches (listed, spectatable,
 * recorded in the history), and reads each one's result from its record: a match leaves the
 * lobby only once it is recorded, so its `deleted` event is the moment to read it.
 */
import type { Lobby, LobbyListener, NewMatchRequest } from '../lobby/lobby.js';
import { transcriptName } from '../match/match.js';
import { closureReason } from '../match/seat-transcript.js';
import type { HistoryStore } from '../store/history-store.js';
import type { Result } from '../util/result.js';
import type { BotMatchRequest, EndedMatch, MatchHost } from './server-tournament.js';

/** The lobby origin of tournament matches (front doors that pair their own clients never see them). */
export const TOURNAMENT_ORIGIN = 'tournament';

export class LobbyMatchHost implements MatchHost {
  private readonly waiting = new Map<string, () => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly lobby: Pick<Lobby, 'create' | 'find' | 'subscribe' | 'abort'>,
    private readonly store: HistoryStore,
  ) {
    const listener: LobbyListener = {
      created: () => {},
      updated: () => {},
      deleted: (id) => {
        const wake = this.waiting.get(id);
        this.waiting.delete(id);
        wake?.();
      },
    };
    this.unsubscribe = this.lobby.subscribe(listener).unsubscribe;
  }

  start(request: BotMatchRequest): Result<string> {
    const players = request.lineup.length;
    return this.lobby.create(
      {
        name: request.name,
        game: request.game,
        params: { players, bots: players, timeout: request.timeout },
        args: { ...request.args },
        password: null,
        verification: null,
        botLineup: request.lineup,
        ...(request.names && { botNames: request.names }),
      },
      TOURNAMENT_ORIGIN,
    );
  }

  /**
   * Creates any match, made by `origin` (the arena's matches of entrants and anchors); `ended`
   * reads its result as it reads a tournament match's.
   */
  create(request: NewMatchRequest, origin: string): Result<string> {
    return this.lobby.create(request, origin);
  }

  /** Whether the match has started (every seat taken). */
  running(id: string): boolean {
    return this.lobby.find(id)?.running === true;
  }

  /** The names that have joined the match while it waits. */
  joined(id: string): readonly string[] {
    return this.lobby.find(id)?.connected ?? [];
  }

  abort(id: string, reason: string): void {
    this.lobby.abort(id, reason);
  }

  async ended(id: string): Promise<EndedMatch | null> {
    // The match starts in a later task than its creation, so it is still in the lobby here unless
    // it has already gone (recorded) or never was.
    if (this.lobby.find(id) !== null) await new Promise<void>((resolve) => this.waiting.set(id, resolve));
    const record = await this.store.get(id);
    if (record === null) return null;
    return {
      scores: record.scores,
      reason: record.reason,
      error: record.error,
      closures: record.players.map((_, seat) => {
        const transcript = record.artifacts[transcriptName(seat)];
        return transcript === undefined ? null : closureReason(transcript);
      }),
    };
  }

  /** Stops listening to the lobby (the matches themselves end with the lobby's shutdown). */
  close(): void {
    this.unsubscribe();
    for (const wake of this.waiting.values()) wake();
    this.waiting.clear();
  }
}
