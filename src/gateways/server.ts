import type { NameDesk } from '../names/name-desk.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ServerMetrics } from './metrics.js';
import { SHUTDOWN_REASON, type LobbyPort } from '../lobby/lobby.js';
import type { Log } from '../util/log.js';
import { HistoryUnavailableError, type HistoryStore } from '../store/history-store.js';
import type { Clock } from '../util/clock.js';
import { addressKey, admitConnection, type AddressLimits, type AdmittedConnection, type RefusalReason } from './address-limits.js';
import { CLOSE_CODES, CocoConnection, type ConnectionDeps } from './coco-connection.js';
import { peerLabel, type PeerAddresses } from './peer-addresses.js';
import { Heartbeat } from './heartbeat.js';
import { HttpRoutes } from './http-routes.js';
import type { TournamentsApi } from './tournaments-api.js';
import type { ArenaService } from '../arena/arena.js';
import type { ArenaApi } from './arena-api.js';
import { ReplayLogImporter } from '../games/external/replay-log-importer.js';
import { ResponseWriter } from './response-writer.js';
import { ReplaySlots } from './replay-slots.js';
import { RequestPipeline } from './http-pipeline.js';
import { ConcurrencyGate } from './concurrency-gate.js';
import type { ServerLimits } from './server-limits.js';
import { listenWithBacklog } from './listen.js';
import { ClientMemory, clientMemoryLimits } from './client-memory.js';
import { RequestBodies } from './request-body.js';

export interface ServerOptions {
  readonly lobby: LobbyPort;
  readonly store: HistoryStore;
  readonly host: string;
  readonly port: number;
  readonly webRoot: string;
  readonly log: Log;
  readonly limits: ServerLimits;
  readonly clock: Clock;
  /** Shared with the other front doors: connections and rates count per address on all ports. */
  readonly addresses: AddressLimits;
  /** Claimed names (src/names/): checked before every join on the coco door. */
  readonly names: NameDesk;
  /** Who the clients are behind trusted balancers and proxies; shared with the other front doors. */
  readonly peers: PeerAddresses;
  readonly refused?: (reason: RefusalReason) => void;
  /** Served at /metrics; /health works without it. */
  readonly metrics?: ServerMetrics;
  /**
   * The server's one budget of memory held for clients, shared with the other front doors and
   * swept by its owner; without it the server keeps and sweeps one of its own.
   */
  readonly memory?: ClientMemory;
  /** Reads request bodies (shared with the tournaments API, so that one address's bodies count together); one is made when absent. */
  readonly bodies?: RequestBodies;
  /** The server's tournaments, served below /api/tournaments. */
  readonly tournaments?: TournamentsApi;
  /** The arena: ArenaEnter on the coco protocol, and /api/arena. */
  readonly arena?: ArenaService;
  readonly arenaApi?: ArenaApi;
}

/** How long `close()` lets clients answer the 1001 close frame before cutting them off. */
const CLOSE_GRACE_MS = 2000;

/**
 * The main front door: HTTP for the web page and history JSON, and on the same port the coco
 * WebSocket protocol at any path. Connections count against the per-address limits of their client
 * from their first byte (after a trusted balancer's PROXY preamble), whatever they turn out to be.
 */
export class CocoServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly cocoConnections = new Set<CocoConnection>();
  private readonly heartbeat: Heartbeat;
  private readonly routes: HttpRoutes;
  private readonly responses: ResponseWriter;
  private readonly pipeline: RequestPipeline;
  /** Sockets speaking plain HTTP (a WebSocket upgrade moves its socket to the coco count). */
  private readonly httpSockets = new Set<Socket>();
  /**
   * One 'close' listener for every HTTP socket (the socket is `this`), rather than a closure each;
   * removed again when the socket becomes a WebSocket, which then lives much longer.
   */
  private readonly forgetHttpSocket = ((sockets: Set<Socket>) =>
    function (this: Socket): void {
      sockets.delete(this);
    })(this.httpSockets);
  /** Each connection's slot of the per-address limits. */
  private readonly admitted = new WeakMap<Socket, AdmittedConnection>();
  /** Every byte held for this door's clients counts here (and on the other doors, when shared). */
  readonly memory: ClientMemory;
  /** Stops the sweep of a budget this server made itself; null when its owner sweeps it. */
  private stopSweeping: (() => void) | null = null;
  /** Set by startDraining(): no new client, /health answers 503, the history still answers. */
  private draining = false;

  constructor(private readonly options: ServerOptions) {
    const { limits, log } = options;
    this.responses = new ResponseWriter({
      sendIdleMs: limits['http-send-idle-seconds'] * 1000,
      clock: options.clock,
      // Each response counts against its client's memory budget (the client behind a trusted proxy).
      account: (response, holder) => this.memory.register(addressKey(options.peers.ofRequest(response.req).address), holder),
    });
    this.memory = options.memory ?? new ClientMemory(clientMemoryLimits(limits));
    this.routes = new HttpRoutes(options.store, options.webRoot, {
      responses: this.responses,
      metrics: options.metrics,
      replayLogMaxBytes: limits['replay-log-bytes'],
      bodies: options.bodies ?? RequestBodies.forServer({ ...options, memory: this.memory }),
      importer: new ReplayLogImporter({ concurrentImports: limits['replay-imports'] }),
      games: () => options.lobby.gameArgs(),
      historyReads: new ConcurrencyGate(limits['history-reads'], limits['history-reads-per-address']),
      addressOf: (request) => addressKey(options.peers.ofRequest(request).address),
      ...(options.tournaments && { tournaments: options.tournaments }),
      ...(options.arenaApi && { arena: options.arenaApi }),
      draining: () => this.draining,
    });
    // Node checks the request deadlines below every `connectionsCheckingInterval` (30 s by default).
    const answer = (request: IncomingMessage, response: ServerResponse): Promise<void> =>
      this.routes.handle(request, response).catch((error: unknown) => {
        // The history's database is down: the client may try again; the store logged the outage.
        if (error instanceof HistoryUnavailableError) {
          log.warn(`http ${request.url}: ${error.message}`);
          if (!response.headersSent) response.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify({ error: 'the match history is unavailable for now; try again later' }));
          return;
        }
        log.error(`http ${request.url}: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    // Pipelined requests are answered one at a time (see RequestPipeline).
    this.pipeline = new RequestPipeline(limits['http-pipelined-requests'], answer);
    // Node checks the request deadlines below every `connectionsCheckingInterval` (30 s by default).
    this.http = createServer({ connectionsCheckingInterval: 1000 }, (request, response) => this.pipeline.accept(request, response));
    // A request (the WebSocket upgrade included) must bring its headers within the handshake time.
    this.http.headersTimeout = limits['handshake-seconds'] * 1000;
    this.http.requestTimeout = Math.max(this.http.headersTimeout, 60_000);
    // Node's HTTP server must own the port (its request deadlines start when it listens), so the
    // client's address (a trusted balancer's PROXY preamble) is read in front of its own handler.
    const httpHandlers = this.http.listeners('connection') as ((socket: Socket) => void)[];
    this.http.removeAllListeners('connection');
    this.http.on('connection', (socket: Socket) => {
      // Tracked from the start, a balancer's preamble still to come included: `close` ends them all.
      this.httpSockets.add(socket);
      socket.on('close', this.forgetHttpSocket);
      options.peers.accept(socket, 'http', (client) => {
        const admitted = admitConnection(socket, client, 'http', options);
        if (admitted === null) return;
        this.admitted.set(socket, admitted);
        for (const handler of httpHandlers) handler.call(this.http, socket);
      });
    });
    this.wss = new WebSocketServer({
      server: this.http,
      maxPayload: limits['game-frame-bytes'],
      perMessageDeflate: false,
      // A node that drains takes no new client: 503 before the upgrade, as /health says (a balancer
      // stops sending them here once its check sees it; a client refused meanwhile tries again).
      verifyClient: (_info, answer) => (this.draining ? answer(false, 503, 'server stopping: try again', { 'retry-after': '1' }) : answer(true)),
    });
    // The WebSocket server repeats the HTTP server's errors (a busy port): listen() reports those,
    // and without a listener here the repeat would crash the process with a stack trace.
    this.wss.on('error', () => {});
    this.heartbeat = new Heartbeat(options.clock, limits['heartbeat-seconds']);
    // One set of dependencies for every connection; each registers itself with the heartbeat.
    const connectionDeps: ConnectionDeps = {
      ...options,
      memory: this.memory,
      replays: new ReplaySlots(limits),
      heartbeat: this.heartbeat,
      closed: (connection) => {
        this.cocoConnections.delete(connection);
        this.closedWhileDraining?.(connection);
      },
    };
    this.wss.on('connection', (ws, request) => {
      const socket = request.socket;
      const client = options.peers.ofRequest(request);
      const peer = peerLabel(client);
      this.httpSockets.delete(socket);
      socket.off('close', this.forgetHttpSocket);
      // Behind an HTTP proxy the connection was the proxy's; from here on it is this client's.
      const admitted = this.admitted.get(socket);
      const refusal = admitted?.moveTo(addressKey(client.address)) ?? null;
      if (refusal) {
        log.warn(`${peer}: connection refused (${refusal})`);
        ws.close(CLOSE_CODES.tryAgainLater, refusal === 'connections-per-network' ? "too many connections from your address's network" : 'too many connections from your address');
        return;
      }
      this.cocoConnections.add(new CocoConnection(ws, socket, addressKey(client.address), peer, connectionDeps));
    });
  }

  /** Open connections: coco WebSockets and plain HTTP. */
  connections(): { coco: number; http: number } {
    return { coco: this.cocoConnections.size, http: this.httpSockets.size };
  }

  /** Bytes accepted for this door's clients that they have not taken yet (HTTP bodies, WebSocket buffers). */
  queuedBytes(): number {
    let total = this.responses.queuedBytes();
    for (const ws of this.wss.clients) total += ws.bufferedAmount;
    return total;
  }

  async listen(): Promise<AddressInfo> {
    const address = await listenWithBacklog(this.http, this.options.port, this.options.host, this.options.limits['listen-backlog']);
    this.heartbeat.start();
    if (!this.options.memory) this.stopSweeping = this.memory.startSweeping(this.options.clock, 1000);
    return address;
  }

  /**
   * The first step of stopping: no new client (WebSocket upgrades get 503, /health 503 so that a
   * balancer takes this node out), while the port stays open so that the players drain() waits
   * for can read their match's result from the history as usual. `close` ends the rest.
   * `ownMatchesFinish`: this node lets its running matches finish (Lobby.shutdown's finishWithinMs),
   * and drain() waits for their players as for those of other nodes' matches.
   */
  startDraining(ownMatchesFinish = false): void {
    if (this.draining) return;
    this.draining = true;
    // When this node's own matches may finish first (a node of several machines), their players
    // playing now are waited for by drain() too, until they have read their result.
    if (ownMatchesFinish) for (const connection of this.cocoConnections) if (connection.isPlaying()) this.playingAtStop.add(connection);
  }

  /** The coco connections that were playing when the server began to stop (startDraining). */
  private readonly playingAtStop = new Set<CocoConnection>();

  /**
   * Lets the players still in a match finish it before the server closes: by then this node's own
   * matches have ended (the lobby's shutdown), so those are players bridged to a match another node
   * runs, which goes on whether this node stops or not, and the players of this node's own matches
   * that were playing when it began to stop, still reading their result. Every other client is
   * told 1001 at once; each of these is waited for until it closes its connection by itself (coco
   * does once it has read the result), for at most `ms`, and those still in a match then are told
   * that the match goes on without them. Resolves with how many players were waited for and how
   * many were cut off.
   */
  async drain(ms: number, why = SHUTDOWN_REASON): Promise<{ waited: number; cutOff: number }> {
    this.startDraining();
    const players = new Set<CocoConnection>();
    for (const connection of this.cocoConnections) {
      if (connection.isPlaying() || this.playingAtStop.has(connection)) players.add(connection);
      else connection.goAway(why);
    }
    this.playingAtStop.clear();
    const waited = players.size;
    if (waited > 0 && ms > 0) {
      this.options.log.info(`stopping: ${waited} players may finish their matches and read their results first (at most ${Math.round(ms / 100) / 10} s)`);
      await new Promise<void>((resolve) => {
        const cancel = this.options.clock.setTimer(ms, () => {
          this.closedWhileDraining = null;
          resolve();
        });
        this.closedWhileDraining = (connection) => {
          players.delete(connection);
          if (players.size > 0) return;
          this.closedWhileDraining = null;
          cancel();
          resolve();
        };
        for (const connection of players) if (!this.cocoConnections.has(connection)) this.closedWhileDraining(connection);
      });
    }
    let cutOff = 0;
    for (const connection of players) {
      if (connection.isPlaying()) cutOff++;
      // Says LEFT_MATCH_ON_OTHER_NODE (coco-connection.ts) to those still playing (and to those cut off from their match meanwhile).
      connection.goAway(why);
    }
    if (waited > 0) this.options.log.info(`stopping: ${waited - players.size} of ${waited} players finished their matches${cutOff ? `; ${cutOff} still playing were told their match goes on without them` : ''}`);
    return { waited, cutOff };
  }

  /** Told each coco connection that closes while drain() waits. */
  private closedWhileDraining: ((connection: CocoConnection) => void) | null = null;

  /**
   * Tells every client the server is going away (1001, saying `why`: the reason its matches ended),
   * then closes what is left.
   */
  async close(why = SHUTDOWN_REASON): Promise<void> {
    this.heartbeat.stop();
    this.stopSweeping?.();
    this.stopSweeping = null;
    this.http.close();
    for (const connection of this.cocoConnections) connection.goAway(why);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, CLOSE_GRACE_MS);
      const check = (): void => {
        if (this.wss.clients.size > 0) return;
        clearTimeout(timer);
        resolve();
      };
      for (const ws of this.wss.clients) ws.once('close', check);
      check();
    });
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    this.http.closeAllConnections();
    // Those the HTTP server never got: still sending a balancer's preamble.
    for (const socket of this.httpSockets) socket.destroy();
    await this.routes.close();
  }
}
