import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ClobberTcpGateway } from '../gateways/clobber-tcp.js';
import { CocoServer } from '../gateways/server.js';
import { SochaTcpGateway } from '../gateways/socha-tcp.js';
import { createHaseUndIgelGame, DEFAULT_HARD_TIMEOUT, DEFAULT_SOFT_TIMEOUT, HASE_UND_IGEL } from '../games/hase-und-igel/hase-und-igel.js';
import { RoomDirectory } from '../games/hase-und-igel/room-control.js';
import { BUILT_IN_GAMES } from '../games/registry.js';
import { applyBotsFor, loadExternalCatalog } from '../games/external/registry-loader.js';
import { ClusterLobby } from '../cluster/cluster-lobby.js';
import type { ClusterLink } from '../cluster/seams.js';
import { recordLost } from '../cluster/node-failure.js';
import { hasLeaseFencing } from '../store/node-lease.js';
import type { RedisLink } from '../cluster/redis-link.js';
import { maskRedisUrl } from '../cluster/redis-url.js';
import { uniqueNodeName } from '../cluster/node-name.js';
import { nodeMatchId } from '../lobby/match-id.js';
import { Lobby, SHUTDOWN_REASON, type LobbyPort } from '../lobby/lobby.js';
import { LobbyMatchHost } from '../tournament/lobby-match-host.js';
import { TournamentDirectory } from '../tournament/server-tournaments.js';
import { TournamentArchive } from '../tournament/tournament-archive.js';
import { TournamentsApi } from '../gateways/tournaments-api.js';
import { SharedTournaments } from '../tournament/shared-tournaments.js';
import { LocalTournaments, type TournamentService } from '../tournament/tournament-service.js';
import type { TournamentStore } from '../store/tournament-store.js';
import { WorkerCompute, type Compute } from '../match/compute.js';
import type { GameDefinition } from '../match/game.js';
import type { HistoryStore } from '../store/history-store.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { AddressLimits, type RefusalReason } from '../gateways/address-limits.js';
import { ClientMemory, clientMemoryLimits } from '../gateways/client-memory.js';
import { RequestBodies } from '../gateways/request-body.js';
import { PeerAddresses } from '../gateways/peer-addresses.js';
import { ok } from '../util/result.js';
import { TrustedProxies } from '../gateways/trusted-proxies.js';
import { DEFAULT_LIMITS, type ServerLimits } from '../gateways/server-limits.js';
import { historyLabel, openHistoryStore } from '../store/open-history-store.js';
import { ServerMetrics } from '../gateways/metrics.js';
import { nameDesk } from '../names/name-desk.js';
import { StoredNameClaims, type NameClaims } from '../names/name-claims.js';
import { Arena, type ArenaService, type CheckName } from '../arena/arena.js';
import { arenaGameSettings } from '../arena/arena-games.js';
import { openArenaStore } from '../arena/open-arena-store.js';
import { ClusterArena } from '../cluster/cluster-arena.js';
import type { ArenaStore } from '../arena/arena-store.js';
import { ArenaApi } from '../gateways/arena-api.js';
import { DerivedVisStore } from '../store/derived-vis-store.js';

export interface CocodOptions {
  readonly bindAddress: string;
  readonly port: number;
  /** Master password for verified matches; a random one is made and logged when absent. */
  readonly verificationPassword: string | null;
  /** SQLite file of the history, or ':memory:' for none kept; unused when `postgres` is given. */
  readonly database: string;
  /** A PostgreSQL URL: the history is kept there instead (docs/postgres.md). */
  readonly postgres?: string;
  /** The limits on peers (server-limits.ts); the defaults where absent. */
  readonly limits?: ServerLimits;
  /** Where the server's time comes from; the system clock by default. */
  readonly clock?: Clock;
  readonly extraGames?: readonly GameDefinition<any>[];
  /** Folder of external game registrations (one folder per game, see src/games/external/README.md). */
  readonly gamesDir?: string;
  /** TCP port of the 2006 Clobber tournament protocol; off when absent. */
  readonly clobberPort?: number;
  /** TCP port of the Software-Challenge 2018 protocol (Hase und Igel); off when absent. */
  readonly sochaPort?: number;
  /** Passphrase of that port's administrators; without it admin commands are refused. */
  readonly sochaPassword?: string | null;
  /** Time limits of the matches made through that port, in seconds (default 2 and 10). */
  readonly sochaSoftTimeout?: number;
  readonly sochaHardTimeout?: number;
  /** Balancers and proxies allowed to name their clients (ADDR[,ADDR...], CIDR ranges too); none when absent. */
  readonly trustedProxy?: string;
  /** Connections from those start with a PROXY protocol (v1 or v2) preamble, on every TCP port. */
  readonly proxyProtocol?: boolean;
  readonly log: Log;
  /**
   * This server is one node of several (`cocod --nodes N`): it shares the lobby through `link`
   * (else through `redis` when given) and records into `store` (the primary's) instead of opening
   * `database` itself.
   */
  readonly cluster?: { readonly link?: ClusterLink; readonly store?: HistoryStore; readonly tournaments?: TournamentStore; readonly arena?: ArenaStore };
  /** Redis URL of a cluster of nodes on several machines (docs/deployment.md): this server is one node. */
  readonly redis?: string;
  /** This node's name in the Redis cluster; made unique from the host, the pid and a random part by default. */
  readonly nodeName?: string;
  /** Game arguments every arena match of a game has, by game (`--arena-arg GAME:KEY=VALUE`). */
  readonly arenaArgs?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Games whose server bot queues in the arena as an anchor (`--arena-anchors`). */
  readonly arenaAnchors?: readonly string[];
  /** Another node declared this one dead while it could not reach Redis: whoever started it stops it. */
  readonly onEvicted?: () => void;
}

export interface RunningCocod {
  readonly url: string;
  readonly port: number;
  /** The lobby the front doors use: this node's, or the cluster's when it is one of several. */
  readonly lobby: LobbyPort;
  readonly limits: ServerLimits;
  /** The clobber TCP port actually listened on, when enabled. */
  readonly clobberPort: number | null;
  /** The Software-Challenge TCP port actually listened on, when enabled. */
  readonly sochaPort: number | null;
  /**
   * Stops the server: no new clients; waiting matches are removed and running ones end as
   * "server shutdown", each recorded before its players are told; players connected here to a
   * match of another node may finish it (`shutdown-drain-seconds`); every client gets 1001; the
   * store is flushed and closed. `drain: false` skips the wait for those players (they are told
   * at once that their match goes on without them): the node can no longer relay their bytes.
   * `reason` replaces "server shutdown" as the end of its matches (what its players are told).
   */
  stop(options?: StopOptions): Promise<void>;
}

/** How a node stops: see RunningCocod.stop. */
export interface StopOptions {
  readonly drain?: boolean;
  readonly reason?: string;
}

/** The built-in games, the extra ones, and those registered in the games folder. */
async function gamesOf(options: CocodOptions): Promise<GameDefinition<any>[]> {
  const games = [...BUILT_IN_GAMES, ...(options.extraGames ?? [])];
  if (options.gamesDir === undefined) return games;
  const catalog = await loadExternalCatalog(options.gamesDir);
  if (!catalog.ok) throw new Error(catalog.error);
  for (const game of catalog.value.games) {
    if (games.some((known) => known.name === game.name)) throw new Error(`external game "${game.name}" in ${options.gamesDir} has the name of a game the server already has`);
  }
  const all = applyBotsFor([...games, ...catalog.value.games], catalog.value.botsFor);
  if (!all.ok) throw new Error(all.error);
  options.log.info(`games from ${options.gamesDir}: ${catalog.value.games.map((g) => g.name).join(', ') || 'none'}${catalog.value.botsFor.length ? ` (+ bot programs for ${catalog.value.botsFor.map((b) => b.game).join(', ')})` : ''}`);
  return all.value;
}

/** Wires the server together: store, compute pool, lobby, front doors. */
export async function startCocod(options: CocodOptions): Promise<RunningCocod> {
  const { log } = options;
  const limits = options.limits ?? DEFAULT_LIMITS;
  const clock = options.clock ?? systemClock;
  const trusted = options.trustedProxy === undefined ? ok(TrustedProxies.none()) : TrustedProxies.parse(options.trustedProxy);
  if (!trusted.ok) throw new Error(trusted.error);
  const peers = new PeerAddresses({
    trusted: trusted.value,
    proxyProtocol: options.proxyProtocol ?? false,
    preambleSeconds: limits['proxy-preamble-seconds'],
    preambleBytes: limits['proxy-preamble-bytes'],
    clock,
    log,
  });
  if (trusted.value.any) log.info(`trusted proxies: ${trusted.value.entries.join(', ')} (${options.proxyProtocol ? 'PROXY protocol preamble on every port, and ' : ''}X-Forwarded-For on HTTP)`);
  const refused = (reason: RefusalReason): void => metrics.refused(reason);
  let verificationPassword = options.verificationPassword;
  if (verificationPassword === null) {
    verificationPassword = randomBytes(12).toString('base64url');
    log.info(`verification password: ${verificationPassword}`);
  }
  let games = await gamesOf(options);
  // The Software-Challenge port's administrators reach the rooms (pause, step, cancel) through the
  // directory the game registers them in.
  const rooms = options.sochaPort === undefined ? null : new RoomDirectory();
  if (rooms) games = games.map((game) => (game.name === HASE_UND_IGEL ? createHaseUndIgelGame({ rooms }) : game));
  const kept: HistoryStore =
    options.cluster?.store ??
    (await openHistoryStore(options, {
      retention: { maxBytes: limits['history-max-bytes'], maxAgeDays: limits['history-max-age-days'] },
      backlogMaxBytes: limits['history-backlog-max-bytes'],
      clock,
      log,
    }));
  // Records of games that draw from their seats' input keep a note; their events are derived when read.
  const store: HistoryStore = new DerivedVisStore(kept, (name) => games.find((game) => game.name === name), log);
  let link = options.cluster?.link ?? null;
  let redisLink: RedisLink | null = null;
  if (!link && options.redis !== undefined) {
    // Loaded only here: a server without Redis does not carry the client in its memory.
    const { RedisLink } = await import('../cluster/redis-link.js');
    const { takeNodeNumber } = await import('../store/postgres-node-numbers.js');
    // In a cluster whose history is shared (PostgreSQL), every write carries this node's lease.
    // The store that writes (`kept`), not the view that derives drawings when read.
    const fencing = hasLeaseFencing(kept) ? kept : null;
    const nodeName = options.nodeName ?? uniqueNodeName();
    redisLink = await RedisLink.connect({
      url: options.redis,
      node: nodeName,
      leaseMs: limits['redis-lease-seconds'] * 1000,
      refreshMs: limits['redis-lease-refresh-seconds'] * 1000,
      offlineBufferBytes: limits['redis-offline-buffer-bytes'],
      log,
      ...(fencing && { takeOver: (victim: string) => fencing.takeOverLease(victim, nodeName) }),
      recordLost: (entries) => recordLost(store, entries, log, clock),
      onEvicted: () => options.onEvicted?.(),
      // A Redis that lost its data must not hand a living node's number out again (ids would collide).
      ...(options.postgres !== undefined && { takeNodeNumber: () => takeNodeNumber(options.postgres!) }),
    });
    link = redisLink;
    if (fencing) {
      // The node's number is its lease's epoch: the sequence never gives one twice.
      await fencing.holdLease({ node: nodeName, epoch: redisLink.nodeNumber }, () => options.onEvicted?.()).catch(async (error: unknown) => {
        redisLink!.close();
        await redisLink!.closed;
        throw error;
      });
    }
    const numbered = `node number ${redisLink.nodeNumber} (match ids start with ${nodeMatchId(redisLink.nodeNumber).slice(0, 3)}), from ${options.postgres !== undefined ? 'PostgreSQL' : 'Redis'}`;
    log.info(`node ${redisLink.bus.node} joined the cluster through Redis at ${maskRedisUrl(options.redis)}: ${numbered}`);
  }
  // With nodes, the per-address limits count on all of them together (seams.ts: AddressCounter).
  const addresses = new AddressLimits(limits, clock, link?.addresses);
  // One budget for every byte held on clients' behalf, on every port; the holders log their own cuts.
  const memory = new ClientMemory(clientMemoryLimits(limits));
  // Re-reads every holder once a second, so that what drained stops counting without a send.
  const stopSweeping = memory.startSweeping(clock, 1000);
  const compute: Compute = new WorkerCompute();
  const lobby = new Lobby({
    ...(redisLink && { matchIds: () => nodeMatchId(redisLink.nodeNumber) }),
    games,
    store,
    compute,
    verificationPassword,
    expirySeconds: limits['match-expiry-seconds'],
    maxMatches: limits['max-matches'],
    maxWaitingPerOwner: limits['waiting-matches-per-address'],
    maxWaitingPerNetwork: limits['waiting-matches-per-network'],
    maxSpectators: limits['spectators-per-match'],
    maxGameArgs: limits['game-args'],
    clock,
    log,
    onMove: () => metrics.movePlayed(),
  });
  // The WebSocket door sees every node's matches; the TCP game ports pair their own clients and
  // keep per-port rooms, so they stay with this node's lobby (only one node serves them).
  const shared: LobbyPort = link
    ? new ClusterLobby(lobby, link, { maxMatches: limits['max-matches'], maxWaitingPerOwner: limits['waiting-matches-per-address'], maxWaitingPerNetwork: limits['waiting-matches-per-network'], log })
    : lobby;
  let clobber: ClobberTcpGateway | null = null;
  let socha: SochaTcpGateway | null = null;
  // Read at each scrape of /metrics; the TCP gateways started below are counted once they exist.
  const metrics = new ServerMetrics({
    connections: () => ({ ...server.connections(), clobber: clobber?.connections ?? 0, socha: socha?.connections ?? 0 }),
    matches: () => lobby.counts(),
    outboundQueuedBytes: () => server.queuedBytes() + (clobber?.queuedBytes() ?? 0) + (socha?.queuedBytes() ?? 0),
    clientMemoryBytes: () => memory.total(),
    storeQueueDepth: () => ('queueDepth' in kept && typeof kept.queueDepth === 'number' ? kept.queueDepth : 0),
  });
  // The server's tournaments play on this node's lobby: a tournament and its matches stay together.
  const matchHost = new LobbyMatchHost(lobby, store);
  const tournamentLimits = {
    running: limits['tournaments-running'],
    kept: limits['tournaments-kept'],
    entrants: limits['tournament-entrants'],
    matches: limits['tournament-matches'],
    concurrency: limits['tournament-concurrency'],
  };
  // The nodes of a cluster share their tournaments through a store every node reads: the
  // primary's with --nodes, PostgreSQL with --redis (which needs --postgres).
  const ownTournamentStore = !options.cluster?.tournaments && options.redis !== undefined && options.postgres !== undefined ? await openTournamentStore(options.postgres, log) : null;
  const tournamentStore = options.cluster?.tournaments ?? ownTournamentStore;
  let tournamentService: TournamentService;
  let stopTournaments: (reason: string) => Promise<void>;
  if (tournamentStore && link) {
    const shared = new SharedTournaments({
      store: tournamentStore,
      node: link.bus.node,
      host: matchHost,
      games: () => games,
      limits: tournamentLimits,
      clock,
      log,
      leaseMs: limits['tournament-lease-seconds'] * 1000,
      refreshMs: limits['tournament-lease-refresh-seconds'] * 1000,
    });
    shared.start();
    tournamentService = shared;
    stopTournaments = (reason) => shared.shutdown(reason);
  } else {
    const tournaments: TournamentDirectory = new TournamentDirectory({
      host: matchHost,
      games: () => games,
      limits: tournamentLimits,
      clock,
      changed: (id) => local.changed(id),
      // Kept in the history across restarts by a server that is the only one running tournaments on it.
      ...(!options.cluster && options.redis === undefined && { archive: new TournamentArchive(store, log) }),
    });
    const local = new LocalTournaments(tournaments, clock, 2 * limits['tournaments-kept'] + limits['tournaments-running']);
    // A history that cannot be read now costs the old tournaments, not the server.
    await tournaments.restore().catch((error: unknown) => log.error(`the tournaments kept in the history could not be read: ${error instanceof Error ? error.message : String(error)}`));
    tournamentService = local;
    stopTournaments = (reason) => tournaments.shutdown(reason);
  }
  // Claimed names live in the history's database, beside the ratings they protect (with nodes, the primary's).
  // The arena asks `claims` too: one NameClaims for every door that seats a player by name.
  const claims: NameClaims = new StoredNameClaims(store);
  // Registration quotas count on every node together, as the per-address limits do (AddressCounter).
  const names = nameDesk(claims, limits, clock, verificationPassword, link?.addresses);
  const arenaSettings = arenaGameSettings(games, options.arenaArgs ?? {}, options.arenaAnchors ?? [], limits['arena-anchor-games']);
  if (!arenaSettings.ok) throw new Error(arenaSettings.error);
  // The arena's ratings: beside the history; with --nodes the primary's; with --redis in PostgreSQL
  // (ratings in each node's own SQLite file would not be one ladder), else the arena is off.
  const arenaStore: ArenaStore | null = options.cluster?.arena ?? (options.cluster || (options.redis !== undefined && options.postgres === undefined) ? null : await openArenaStore(options));
  if (!arenaStore) log.warn('arena: off on this node (a cluster of nodes on Redis keeps arena ratings in PostgreSQL: give --postgres)');
  const pairingArena = (checkName: CheckName): Arena =>
    new Arena({
      host: matchHost,
      store: arenaStore!,
      clock,
      log,
      checkName,
      games: arenaSettings.value,
      limits: {
        entries: limits['arena-entries'],
        perName: limits['arena-games-per-name'],
        perAddress: limits['arena-entries-per-address'],
        joinSeconds: limits['arena-join-seconds'],
        failures: limits['arena-failures'],
        holdSeconds: limits['arena-hold-seconds'],
        carriedWaitSeconds: limits['arena-carried-wait-seconds'],
      },
    });
  const checkName: CheckName = (name, token) => claims.check(name, token);
  // One node of several: the queue is on whichever node holds the pairing lease (cluster-arena.ts);
  // each node checks its own entrants' names, so the pairing node's Arena checks none again.
  const arena: (ArenaService & { close(): Promise<void> }) | null = !arenaStore
    ? null
    : link
      ? link.leases
        ? new ClusterArena({
            bus: link.bus,
            leases: link.leases,
            clock,
            log,
            checkName,
            gameNames: arenaSettings.value.map((settings) => settings.game),
            startArena: () => pairingArena(async () => null),
            leaseMs: limits['arena-lease-seconds'] * 1000,
            refreshMs: limits['arena-lease-refresh-seconds'] * 1000,
          })
        : null
      : pairingArena(checkName);
  // One reader of request bodies for the replay import and the tournaments: an address's count is one.
  const bodies = RequestBodies.forServer({ limits, clock, memory, peers, log, refused });
  const tournamentsApi = new TournamentsApi({ tournaments: tournamentService, games: () => games, verificationPassword, addresses, peers, limits, clock, bodies });
  const server: CocoServer = new CocoServer({
    tournaments: tournamentsApi,
    ...(arena && arenaStore && { arena, arenaApi: new ArenaApi(arena, arenaStore) }),
    lobby: shared,
    store,
    metrics,
    host: options.bindAddress,
    port: options.port,
    webRoot: fileURLToPath(new URL('../../web', import.meta.url)),
    log,
    limits,
    clock,
    addresses,
    names,
    peers,
    refused,
    memory,
    bodies,
  });
  const address = await server.listen();
  let clobberPort: number | null = null;
  if (options.clobberPort !== undefined) {
    clobber = new ClobberTcpGateway(lobby, { addresses, peers, log, refused, limits, clock, memory, names });
    clobberPort = (await clobber.listen(options.clobberPort, options.bindAddress)).port;
    log.info(`clobber tournament port listening on ${options.bindAddress}:${clobberPort}`);
  }
  let sochaPort: number | null = null;
  if (rooms && options.sochaPort !== undefined) {
    socha = new SochaTcpGateway({
      lobby,
      rooms,
      adminPassword: options.sochaPassword ?? null,
      softTimeout: options.sochaSoftTimeout ?? DEFAULT_SOFT_TIMEOUT,
      hardTimeout: options.sochaHardTimeout ?? DEFAULT_HARD_TIMEOUT,
      log,
      addresses,
      peers,
      refused,
      memory,
      serverLimits: limits,
      clock,
    });
    sochaPort = (await socha.listen(options.sochaPort, options.bindAddress)).port;
    log.info(`socha port listening on ${options.bindAddress}:${sochaPort}${options.sochaPassword ? '' : ' (admin commands off: no --socha-password)'}`);
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `ws://${host}:${address.port}/`;
  log.info(`listening on ${url} (history: ${historyLabel(options)})`);
  return {
    url,
    port: address.port,
    lobby: shared,
    limits,
    clobberPort,
    sochaPort,
    async stop(stopOptions) {
      // A node of several machines (Redis) lets its own running matches finish, as a rolling restart
      // wants; a single server, and `--nodes` (whose nodes all stop together), end theirs at once.
      const ownMatchesFinish = redisLink !== null && stopOptions?.drain !== false;
      // No new client; the WebSocket port stays open for the history until server.close().
      server.startDraining(ownMatchesFinish);
      clobber?.stopAccepting();
      socha?.stopAccepting();
      // Tournaments start no more matches; the lobby's shutdown ends those running, which they tally.
      const reason = stopOptions?.reason ?? SHUTDOWN_REASON;
      const tournamentsDone = stopTournaments(reason);
      const arenaDone = arena?.close();
      // The players connected here to other nodes' matches may finish those (the drain), as may this
      // node's own matches, all within shutdown-drain-seconds, before the node leaves the cluster and
      // closes its connections.
      const drainMs = stopOptions?.drain === false ? 0 : limits['shutdown-drain-seconds'] * 1000;
      const drainEnds = clock.now() + drainMs;
      await shared.shutdown(async (wait) => void (await server.drain(wait ? Math.max(0, drainEnds - clock.now()) : 0, reason)), reason, ownMatchesFinish ? drainMs : 0);
      await tournamentsDone;
      await arenaDone;
      await arenaStore?.close();
      matchHost.close();
      await redisLink?.closed;
      await server.close(reason);
      await clobber?.close();
      await socha?.close();
      stopSweeping();
      await compute.close();
      await ownTournamentStore?.close();
      await store.close();
    },
  };
}

/** The tournament store of a node of several machines: PostgreSQL, loaded only here (as the Redis client is). */
async function openTournamentStore(url: string, log: Log): Promise<TournamentStore> {
  const { PostgresTournamentStore } = await import('../store/postgres-tournament-store.js');
  return PostgresTournamentStore.open(url, (error) => log.warn(`a connection of the tournament store was lost while idle: ${error.message}`));
}
