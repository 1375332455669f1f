import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ClobberTcpGateway } from '../gateways/clobber-tcp.js';
import { CocoServer } from '../gateways/server.js';
import { SochaTcpGateway } from '../gateways/socha-tcp.js';
import { createHaseUndIgelGame, DEFAULT_HARD_TIMEOUT, DEFAULT_SOFT_TIMEOUT, HASE_UND_IGEL } from '../games/hase-und-igel/hase-und-igel.js';
import { RoomDirectory } from '../games/hase-und-igel/room-control.js';
import { BUILT_IN_GAMES } from '../games/registry.js';
import { applyBotsFor, loadExternalCatalog } from '../games/external/registry-loader.js';
import { Lobby } from '../lobby/lobby.js';
import { WorkerCompute, type Compute } from '../match/compute.js';
import type { GameDefinition } from '../match/game.js';
import type { HistoryStore } from '../store/history-store.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import { SqliteHistoryStore } from '../store/sqlite-history-store.js';
import { ServerMetrics, matchesByState } from './metrics.js';

export interface CocodOptions {
  readonly bindAddress: string;
  readonly port: number;
  /** Master password for verified matches; a random one is made and logged when absent. */
  readonly verificationPassword: string | null;
  /** SQLite file of the history, or ':memory:' for none kept. */
  readonly database: string;
  readonly expirySeconds: number;
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
  readonly log: (line: string) => void;
}

export interface RunningCocod {
  readonly url: string;
  readonly port: number;
  readonly lobby: Lobby;
  /** The clobber TCP port actually listened on, when enabled. */
  readonly clobberPort: number | null;
  /** The Software-Challenge TCP port actually listened on, when enabled. */
  readonly sochaPort: number | null;
  stop(): Promise<void>;
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
  options.log(`games from ${options.gamesDir}: ${catalog.value.games.map((g) => g.name).join(', ') || 'none'}${catalog.value.botsFor.length ? ` (+ bot programs for ${catalog.value.botsFor.map((b) => b.game).join(', ')})` : ''}`);
  return all.value;
}

/** Wires the server together: store, compute pool, lobby, front doors. */
export async function startCocod(options: CocodOptions): Promise<RunningCocod> {
  const { log } = options;
  let verificationPassword = options.verificationPassword;
  if (verificationPassword === null) {
    verificationPassword = randomBytes(12).toString('base64url');
    log(`verification password: ${verificationPassword}`);
  }
  let games = await gamesOf(options);
  // The Software-Challenge port's administrators reach the rooms (pause, step, cancel) through the
  // directory the game registers them in.
  const rooms = options.sochaPort === undefined ? null : new RoomDirectory();
  if (rooms) games = games.map((game) => (game.name === HASE_UND_IGEL ? createHaseUndIgelGame({ rooms }) : game));
  const store: HistoryStore = options.database === ':memory:' ? new MemoryHistoryStore() : await SqliteHistoryStore.open(options.database);
  const compute: Compute = new WorkerCompute();
  const lobby = new Lobby({
    games,
    store,
    compute,
    verificationPassword,
    expirySeconds: options.expirySeconds,
    log,
  });
  let clobber: ClobberTcpGateway | null = null;
  let socha: SochaTcpGateway | null = null;
  // Read at each scrape of /metrics; the TCP gateways started below are counted once they exist.
  const metrics = new ServerMetrics({
    connections: () => ({ ...server.connections(), clobber: clobber?.connections ?? 0, socha: socha?.connections ?? 0 }),
    matches: () => matchesByState(lobby.list()),
    outboundQueuedBytes: () => server.queuedBytes() + (clobber?.queuedBytes() ?? 0) + (socha?.queuedBytes() ?? 0),
    storeQueueDepth: () => (store instanceof SqliteHistoryStore ? store.queueDepth : 0),
  });
  const server: CocoServer = new CocoServer({
    lobby,
    store,
    metrics,
    host: options.bindAddress,
    port: options.port,
    webRoot: fileURLToPath(new URL('../../web', import.meta.url)),
    log,
  });
  const address = await server.listen();
  let clobberPort: number | null = null;
  if (options.clobberPort !== undefined) {
    clobber = new ClobberTcpGateway(lobby, log);
    clobberPort = (await clobber.listen(options.clobberPort, options.bindAddress)).port;
    log(`clobber tournament port listening on ${options.bindAddress}:${clobberPort}`);
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
    });
    sochaPort = (await socha.listen(options.sochaPort, options.bindAddress)).port;
    log(`socha port listening on ${options.bindAddress}:${sochaPort}${options.sochaPassword ? '' : ' (admin commands off: no --socha-password)'}`);
  }
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `ws://${host}:${address.port}/`;
  log(`listening on ${url} (history: ${options.database})`);
  return {
    url,
    port: address.port,
    lobby,
    clobberPort,
    sochaPort,
    async stop() {
      await server.close();
      await clobber?.close();
      await socha?.close();
      await lobby.shutdown();
      await compute.close();
      await store.close();
    },
  };
}
