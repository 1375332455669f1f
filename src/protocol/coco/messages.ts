/**
 * The coco wire protocol (notes/coco-wire-protocol.md): requests a client sends and replies the
 * server sends, as typed values. Encoding and decoding live in json-codec.ts and bincode.ts.
 */

export const PROTOCOL_MAGIC = 'coco';
/** Protocol versions we speak: 1 (desktop client) and 2 (coco). */
export const PROTOCOL_VERSIONS = [1, 2] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

export interface MatchInfo {
  /** Seats, bots included. */
  readonly players: number;
  readonly bots: number;
  /** Player inactivity timeout, seconds. */
  readonly timeout: number;
  readonly args: Readonly<Record<string, string>>;
  readonly id: string;
  readonly name: string;
  readonly game: string;
  readonly running: boolean;
  /** Unix seconds: expiry while waiting, start while running. */
  readonly time: number;
  /** Names of joined players (not bots). */
  readonly connected: readonly string[];
  readonly spectators: number;
  readonly password: boolean;
  readonly verified: boolean;
}

export interface GameNewParams {
  readonly players: number | null;
  readonly bots: number;
  readonly timeout: number | null;
}

export type Request =
  | { readonly type: 'Handshake'; readonly magic: string; readonly version: number }
  | { readonly type: 'GameList' }
  | { readonly type: 'GameDescription'; readonly name: string }
  | {
      readonly type: 'GameNew';
      readonly name: string;
      readonly game: string;
      readonly params: GameNewParams;
      readonly args: Readonly<Record<string, string>>;
      readonly password: string | null;
      readonly verification: string | null;
    }
  | { readonly type: 'LobbyList' }
  | { readonly type: 'LobbySubscribe' }
  | { readonly type: 'LobbyUnsubscribe' }
  /**
   * `token`: our extension (docs/protocol.md), the secret of a claimed name; absent or null from
   * clients that do not know it (the reference coco), which can still play unclaimed names.
   */
  | { readonly type: 'LobbyJoinMatch'; readonly id: string; readonly name: string; readonly password: string | null; readonly token?: string | null }
  | { readonly type: 'LobbyLeaveMatch' }
  /**
   * Extension (docs/protocol.md): removes a waiting match made from the requester's address, or
   * any waiting match with the server's master password (`verification`).
   */
  | { readonly type: 'LobbyDeleteMatch'; readonly id: string; readonly verification: string | null }
  | { readonly type: 'SpectateJoin'; readonly id: string }
  | { readonly type: 'SpectateLeave' }
  | { readonly type: 'HistoryMatchList' }
  | { readonly type: 'HistoryMatch'; readonly id: string }
  /** Extension for the web page: visualizer events of a match. */
  | { readonly type: 'VisSubscribe'; readonly id: string }
  /** Extensions for claimed names (src/names/): claim a name, replace its token, free it (master password). */
  | { readonly type: 'NameRegister'; readonly name: string }
  | { readonly type: 'NameRotate'; readonly name: string; readonly token: string }
  | { readonly type: 'NameRelease'; readonly name: string; readonly verification: string }
  /** Extensions for the arena (docs/arena.md): queue for rated games of `game`, `concurrency` at once. */
  | { readonly type: 'ArenaEnter'; readonly game: string; readonly name: string; readonly token: string | null; readonly concurrency: number }
  | { readonly type: 'ArenaLeave' };

export type RequestType = Request['type'];

export type Outcome<T> = { readonly Ok: T } | { readonly Err: string };

export interface GameListEntry {
  readonly name: string;
  readonly args: Readonly<Record<string, { readonly description: string; readonly regex: string }>>;
}

/** History of a finished match as the existing client knows it. */
export interface MatchData {
  readonly id: string;
  readonly game_name: string;
  readonly args: Readonly<Record<string, string>>;
  readonly players: readonly string[];
  readonly bot_count: number;
  readonly history: Uint8Array;
}

export const HISTORY_ERRORS = ['FileNotFound', 'UnableToDeserialize', 'InvalidID'] as const;
export type HistoryError = (typeof HISTORY_ERRORS)[number];

export type Reply =
  | { readonly type: 'Handshake'; readonly magic: string; readonly version: number }
  | { readonly type: 'GameList'; readonly games: readonly GameListEntry[] }
  | { readonly type: 'GameDescription'; readonly description: string | null }
  | { readonly type: 'GameNew'; readonly id: Outcome<string> }
  | { readonly type: 'LobbyList'; readonly info: readonly MatchInfo[] }
  | { readonly type: 'LobbySubscribed'; readonly seed: readonly MatchInfo[] }
  | { readonly type: 'LobbyJoinedMatch'; readonly info: Outcome<MatchInfo> }
  | { readonly type: 'LobbyNew'; readonly info: MatchInfo }
  | { readonly type: 'LobbyUpdate'; readonly info: MatchInfo }
  | { readonly type: 'LobbyDelete'; readonly id: string }
  | { readonly type: 'LobbyUnsubscribed' }
  | { readonly type: 'LobbyLeavedMatch' }
  /** Extension, the answer to LobbyDeleteMatch: the id of the match removed, or why not. */
  | { readonly type: 'LobbyDeletedMatch'; readonly id: Outcome<string> }
  | { readonly type: 'MatchStarted' }
  | { readonly type: 'MatchEnded' }
  | { readonly type: 'SpectateJoined'; readonly info: Outcome<MatchInfo> }
  | { readonly type: 'SpectateStarted' }
  | { readonly type: 'SpectateSynced' }
  | { readonly type: 'SpectateEnded' }
  | { readonly type: 'SpectateLeaved' }
  | { readonly type: 'HistoryMatchList'; readonly ids: readonly string[] }
  | { readonly type: 'HistoryMatch'; readonly data: { readonly Ok: MatchData } | { readonly Err: HistoryError } }
  /** Extensions for the web page. */
  | { readonly type: 'VisSubscribed'; readonly info: Outcome<null> }
  | { readonly type: 'VisEvents'; readonly id: string; readonly events: readonly unknown[] }
  | { readonly type: 'VisEnded'; readonly id: string }
  /** Each seat of a running match as the runtime sees it now (sent when a turn starts or ends, or a seat closes). */
  | ({ readonly type: 'VisSeats'; readonly id: string } & LiveSeats)
  /** Extensions for claimed names: the new token, or why not. */
  | { readonly type: 'NameRegistered'; readonly name: string; readonly token: Outcome<string> }
  | { readonly type: 'NameRotated'; readonly name: string; readonly token: Outcome<string> }
  | { readonly type: 'NameReleased'; readonly name: string; readonly result: Outcome<null> }
  /** Extensions for the arena. */
  | { readonly type: 'ArenaEntered'; readonly info: Outcome<ArenaEntryInfo> }
  | { readonly type: 'ArenaPaired'; readonly id: string; readonly password: string; readonly players: readonly string[] }
  | { readonly type: 'ArenaResult'; readonly result: ArenaResultInfo }
  | { readonly type: 'ArenaHeld'; readonly until: number; readonly reason: string }
  | { readonly type: 'ArenaLeft' };

/** What an ArenaEnter is answered with: the arena's fixed settings of the game. */
export interface ArenaEntryInfo {
  readonly game: string;
  readonly name: string;
  readonly args: Readonly<Record<string, string>>;
  readonly players: number;
}

/** One finished arena game, as told to an entrant in it. */
export interface ArenaResultInfo {
  readonly id: string;
  /** Names in seat order. */
  readonly players: readonly string[];
  readonly scores: readonly number[] | null;
  readonly outcome: 'win' | 'draw' | 'loss' | 'none';
  /** The entrant's displayed arena rating after the game, or null when it rated nobody. */
  readonly rating: number | null;
  readonly reason: string;
}

export type ReplyType = Reply['type'];

/**
 * Reply variants in declaration order of the reference server: the bincode enum index of a reply
 * is its position here (HistoryMatch is 20).
 */
export const REPLY_VARIANT_ORDER: readonly ReplyType[] = [
  'Handshake',
  'GameList',
  'GameDescription',
  'GameNew',
  'LobbyList',
  'LobbySubscribed',
  'LobbyJoinedMatch',
  'LobbyNew',
  'LobbyUpdate',
  'LobbyDelete',
  'LobbyUnsubscribed',
  'LobbyLeavedMatch',
  'MatchStarted',
  'MatchEnded',
  'SpectateJoined',
  'SpectateStarted',
  'SpectateSynced',
  'SpectateEnded',
  'SpectateLeaved',
  'HistoryMatchList',
  'HistoryMatch',
];

/**
 * The seats of a running match for its live page (the VisSeats extension): each seat's name, its
 * latest turn as the record's clock.json keeps it (`[asked, answered, limit]`, match seconds) and
 * why it was closed, if it was (`timeout`, `disconnected`, ...); `now` is the match's time when
 * this was sent, so that a page counts a clock down from the server's time, not its own.
 */
export interface LiveSeats {
  readonly now: number;
  readonly seats: readonly LiveSeat[];
}

export interface LiveSeat {
  readonly name: string;
  readonly turn: readonly [asked: number, answered: number | null, limit: number | null] | null;
  readonly closed: string | null;
}
