/**
 * Every limit the server puts on what a peer may do, by name, with its default. One table, so that
 * `--limit NAME=VALUE`, the config file and docs/limits.md speak of the same things; the modules
 * that enforce a limit take its value from here through their options.
 */
export const LIMIT_SPECS = {
  'max-matches': { default: 1000, min: 1, doc: 'matches waiting or running on the server at once; when all are taken and some wait, a GameNew from a network that has no waiting match expires the oldest waiting match of the network that has the most (its members get LobbyDelete), so one network cannot lock everyone else out' },
  'match-expiry-seconds': { default: 600, min: 1, doc: 'a waiting match is removed this long after its creation or last join or leave' },
  'max-connections': { default: 10_000, min: 1, doc: 'open connections on all ports together; past it new ones are closed at once' },
  'listen-backlog': { default: 4096, min: 1, doc: 'connections the kernel queues on each listening port (WebSocket and HTTP, clobber, socha) before the server takes them; the kernel caps it at net.core.somaxconn (4096 by default). Node\'s 511 overflows when thousands of clients connect at once, and the kernel then drops or resets their handshakes' },
  'connections-per-address': { default: 64, min: 1, doc: 'open connections from one address (IPv6: one /64) on all ports together, and on all nodes together with --nodes or --redis' },
  'network-prefix-v4': { default: 24, min: 8, max: 32, doc: 'the IPv4 network (prefix length, 8 to 32) that the per-network limits count by' },
  'network-prefix-v6': { default: 48, min: 16, max: 64, doc: 'the IPv6 network (prefix length, 16 to 64) that the per-network limits count by' },
  'connections-per-network': { default: 256, min: 1, doc: 'open connections from one network (network-prefix-v4, network-prefix-v6) on all ports together, and on all nodes together with --nodes or --redis' },
  'handshake-seconds': { default: 10, min: 1, doc: 'a connection must finish its HTTP request or coco Handshake within this long' },
  'heartbeat-seconds': { default: 25, min: 1, doc: 'an idle WebSocket gets a ping after this long and is dropped if the pong has not come this long after' },
  'control-frame-bytes': { default: 64 * 1024, min: 1024, doc: 'largest coco text frame (a JSON request); a larger one closes with 1009' },
  'game-frame-bytes': { default: 1 << 20, min: 1024, doc: 'largest coco WebSocket message (1009 past it); the reference took 16 MiB, but a seat holds at most 1 MiB of unread input anyway, and every connection may buffer a message this big' },
  'ws-message-fragments': { default: 64, min: 1, doc: 'frames one WebSocket message may come in (its first and its continuations); past it the connection closes with 1008. Every fragment costs ws a buffer of its own, so many tiny ones cost far more than their bytes; clients send a message in one frame' },
  'game-args': { default: 64, min: 0, doc: 'game arguments (-a KEY=VALUE) of one GameNew' },
  'pending-requests': { default: 32, min: 1, doc: 'coco requests received and not yet answered; past it the connection closes with 1008' },
  'outbound-high-water-bytes': { default: 1 << 20, min: 1024, doc: 'unsent bytes of a connection past which the server stops reading its requests until they drain' },
  'outbound-max-bytes': { default: 16 << 20, min: 1 << 20, doc: 'bytes the server holds for one connection (unsent replies, lobby pushes, game and spectator bytes, an unfinished incoming WebSocket message, a request body) past which it is dropped: the per-connection budget of client-memory' },
  'client-memory-per-address': { default: 64 << 20, min: 1 << 20, doc: 'bytes the server holds for all connections of one address together (as outbound-max-bytes counts them); past it the largest of them are dropped until it is under' },
  'client-memory-server': { default: 192 << 20, min: 1 << 20, doc: 'bytes the server holds for all clients together (as outbound-max-bytes counts them); past it the largest holders of all are dropped first until it is under' },
  'game-new-per-minute': { default: 30, min: 1, doc: 'matches one address may create per minute (GameNew, clobber and socha ports), on all nodes together with --nodes or --redis; a GameNew with the master (verification) password is exempt' },
  'game-new-per-minute-per-network': { default: 90, min: 1, doc: 'matches one network may create per minute, counted like game-new-per-minute' },
  'waiting-matches-per-address': { default: 10, min: 1, doc: 'waiting matches created by one address at once; a GameNew with the master (verification) password is exempt' },
  'waiting-matches-per-network': { default: 30, min: 1, doc: 'waiting matches created by one network at once, counted like waiting-matches-per-address' },
  'name-registrations-per-hour': { default: 5, min: 1, doc: 'names one address may claim per hour (coco register; a burst of this many, then one every hour / this); counted on all nodes together with --nodes or --redis' },
  'name-registrations-per-hour-per-network': { default: 20, min: 1, doc: 'names one network may claim per hour, counted like name-registrations-per-hour' },
  'spectators-per-match': { default: 100, min: 1, doc: 'spectators of one match (coco SpectateJoin, socha observe), and visualizer subscribers likewise' },
  'replays-per-address': { default: 2, min: 1, doc: 'replays one address has in flight: coco VisSubscribe of a finished match or of a running one until its events so far are sent, and HistoryMatch; past it VisSubscribe is answered with an error and HistoryMatch waits for one to end' },
  'replays': { default: 32, min: 1, doc: 'replays in flight on the server (as for replays-per-address, all addresses together); past it VisSubscribe is answered with an error and HistoryMatch waits' },
  'password-free-attempts': { default: 3, min: 1, doc: 'wrong passwords for one secret (the master password, the socha admin password, one match\'s password) from one address before back-off starts; the right password for one secret never clears another\'s count' },
  'password-backoff-seconds': { default: 1, min: 0.001, doc: 'first back-off after the free attempts; it doubles with each further wrong password' },
  'password-backoff-max-seconds': { default: 300, min: 1, doc: 'longest back-off; a count nothing was added to for this long after its back-off ended is forgotten' },
  'password-secrets-per-address': { default: 4, min: 2, doc: 'secrets whose wrong passwords are counted apart for one address; wrong passwords for any further ones share one count' },
  'http-pipelined-requests': { default: 8, min: 1, doc: 'HTTP requests pipelined on one connection that wait parsed while an earlier one is answered (one at a time, each once the last has drained); past it the connection is not read until they are answered' },
  'http-send-idle-seconds': { default: 60, min: 1, doc: 'an HTTP response the client takes nothing of for this long is cut off (its connection closed)' },
  'history-reads': { default: 64, min: 1, doc: 'history requests (a record, an artifact, the list, ratings) answered at once on the server, their sending included; more get 503 with retry-after' },
  'history-reads-per-address': { default: 4, min: 1, doc: 'history requests (a record, an artifact, the list, ratings) answered at once for one address (IPv6: one /64); more get 503 with retry-after' },
  'replay-log-bytes': { default: 16 << 20, min: 1024, doc: 'body of POST /api/replay-log; a larger one is refused with 413 before it is read (or as soon as it grows past it)' },
  'replay-imports': { default: 2, min: 1, doc: 'replay logs parsed at once (each on a worker thread), counted from when the body has arrived whole to the answer; more get 503' },
  'request-body-seconds': { default: 30, min: 1, doc: 'a request body (POST /api/replay-log, POST /api/tournaments) must have arrived whole this long after the server started reading it; past it 408 and the connection closes. An import slot is taken only once the body is whole' },
  'request-bodies-per-address': { default: 2, min: 1, doc: 'request bodies one address may be sending at once; more are refused with 429 before they are read. Their bytes count against client-memory-per-address and client-memory-server while they arrive' },
  'tournaments-running': { default: 4, min: 1, doc: 'server tournaments running at once (POST /api/tournaments); more are refused with 429' },
  'tournaments-kept': { default: 100, min: 1, doc: 'server tournaments that are over kept, in memory and in the history store, for the page and GET /api/tournaments; the oldest is forgotten first' },
  'tournament-entrants': { default: 32, min: 2, doc: 'entrants of one server tournament' },
  'tournament-matches': { default: 2000, min: 1, doc: 'matches in the schedule of one server tournament (entrants, format and rounds together)' },
  'tournament-concurrency': { default: 16, min: 1, doc: 'matches one server tournament plays at once' },
  'tournament-request-bytes': { default: 64 * 1024, min: 1024, doc: 'body of POST /api/tournaments; a larger one is refused with 413 before it is read' },
  'arena-entries': { default: 1000, min: 1, doc: 'programs queued in the arena at once (coco arena; the operator\'s anchors not counted); past it ArenaEnter is refused' },
  'arena-entries-per-address': { default: 8, min: 1, doc: 'arena entries from one address at once (IPv6: one /64)' },
  'arena-games-per-name': { default: 8, min: 1, doc: 'arena games one player name plays at once, over all its entries (the sum of their --concurrency)' },
  'arena-join-seconds': { default: 30, min: 1, doc: 'a paired arena entrant must take its seat within this long; otherwise the match is called off, counts as a failure of whoever did not come, and the others queue again' },
  'arena-failures': { default: 3, min: 1, doc: 'arena games in a row that a name failed (did not come, crashed, disconnected, timed out) before it is held out of pairing' },
  'arena-hold-seconds': { default: 300, min: 1, doc: 'how long a name that kept failing is held out of arena pairing; its entries stay queued' },
  'arena-lease-seconds': { default: 10, min: 1, doc: 'with --redis or --nodes: one node pairs the arena\'s queue for the whole cluster while it holds this lease; one that has not renewed it for this long is gone, and another node takes the queue over' },
  'arena-lease-refresh-seconds': { default: 2, min: 0.1, doc: 'with --redis or --nodes: how often each node renews the arena\'s pairing lease or looks for who holds it (less than arena-lease-seconds)' },
  'arena-carried-wait-seconds': { default: 300, min: 0, doc: 'with --redis or --nodes: when the arena\'s pairing node changes, each door queues its entries again with how long they have waited; the new pairing node believes at most this much of it (their pairing windows go on widening from there; 0: waiting starts again at each takeover)' },
  'arena-anchor-games': { default: 2, min: 1, doc: 'with --arena-anchors: games the server bot of each of those games plays at once as an arena anchor' },
  'history-max-bytes': { default: 1 << 30, min: 0, doc: 'total size of the match history; the oldest matches are removed first, the newest is always kept (0: no limit)' },
  'history-max-age-days': { default: 0, min: 0, doc: 'matches that ended longer ago are removed (0: kept forever)' },
  'history-backlog-max-bytes': { default: 64 << 20, min: 1024, doc: 'with --postgres: records kept in memory while the database cannot be reached, written when it answers again; past it the oldest waiting ones are dropped (and named in the log)' },
  'shutdown-seconds': { default: 10, min: 1, doc: 'on SIGTERM or SIGINT, the time to end and record the running matches and close every connection before the process exits anyway' },
  'shutdown-drain-seconds': { default: 30, min: 0, doc: 'with --redis or --nodes: on SIGTERM or SIGINT, how long a stopping node lets its own running matches go on to their end (those still running then end as server shutdown) and the players connected through it finish their matches running on other nodes (those still playing then are told their match goes on without them); it takes no new client and makes no new match meanwhile (/health answers 503). Nothing is waited for by a node cut off from Redis or declared dead. Added to shutdown-seconds before the process exits anyway' },
  'proxy-preamble-seconds': { default: 5, min: 1, doc: 'with --proxy-protocol: a connection from a trusted balancer must bring its whole PROXY preamble within this long, or it is closed' },
  'proxy-preamble-bytes': { default: 1024, min: 232, doc: 'with --proxy-protocol: largest PROXY v2 preamble (its TLVs included) from a trusted balancer; a larger one closes the connection (v1 lines have their own 107)' },
  'tracked-addresses': { default: 100_000, min: 100, doc: 'addresses remembered for the per-address limits, and as many networks and addresses with wrong passwords; the idlest are forgotten first (of those with wrong passwords, one not held back now)' },
  'redis-lease-seconds': { default: 10, min: 1, doc: 'with --redis: a node that has not refreshed its lease in Redis for this long is dead; another node records its running matches as ended by node failure' },
  'redis-lease-refresh-seconds': { default: 2, min: 0.1, doc: 'with --redis: how often a node refreshes its lease and looks for dead nodes (less than redis-lease-seconds)' },
  'tournament-lease-seconds': { default: 10, min: 1, doc: 'with --redis or --nodes: a node that has not renewed its lease on a server tournament it runs for this long is gone; another node takes the tournament over and plays the rest of it' },
  'tournament-lease-refresh-seconds': { default: 2, min: 0.1, doc: 'with --redis or --nodes: how often a node renews the leases of its tournaments and looks for tournaments to take over (less than tournament-lease-seconds)' },
  'redis-offline-buffer-bytes': { default: 4 << 20, min: 0, doc: 'with --redis: bytes of messages between nodes held while Redis is unreachable, sent when it is back; past it they are dropped' },
} as const satisfies Record<string, { readonly default: number; readonly min: number; readonly max?: number; readonly doc: string }>;

export type LimitName = keyof typeof LIMIT_SPECS;
export type ServerLimits = { readonly [K in LimitName]: number };

export const DEFAULT_LIMITS: ServerLimits = Object.fromEntries(
  Object.entries(LIMIT_SPECS).map(([name, spec]) => [name, spec.default]),
) as unknown as ServerLimits;

export function isLimitName(name: string): name is LimitName {
  return Object.hasOwn(LIMIT_SPECS, name);
}

/** Validates overrides (from flags or a config file) and fills in the defaults. */
export function resolveLimits(overrides: Readonly<Record<string, unknown>>): { ok: true; value: ServerLimits } | { ok: false; error: string } {
  const limits: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [name, raw] of Object.entries(overrides)) {
    if (!isLimitName(name)) return { ok: false, error: `unknown limit "${name}" (see docs/limits.md)` };
    const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    const spec: { readonly min: number; readonly max?: number } = LIMIT_SPECS[name];
    const { min, max } = spec;
    if (!Number.isFinite(value) || value < min || (max !== undefined && value > max)) {
      const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
      return { ok: false, error: `limit "${name}" must be a number ${range}, not "${String(raw)}"` };
    }
    limits[name] = value;
  }
  return { ok: true, value: limits as ServerLimits };
}

/** The table of docs/limits.md: every limit, its default and what it bounds (a test keeps them equal). */
export function limitsTable(): string {
  const rows = Object.entries(LIMIT_SPECS).map(([name, spec]) => `| \`${name}\` | ${spec.default} | ${spec.doc} |`);
  return ['| limit | default | what it bounds |', '|---|---|---|', ...rows].join('\n');
}
