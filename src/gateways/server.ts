import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerMetrics } from '../app/metrics.js';
import type { Lobby } from '../lobby/lobby.js';
import type { HistoryStore } from '../store/history-store.js';
import { CocoConnection } from './coco-connection.js';
import { HttpRoutes } from './http-routes.js';
import { ResponseWriter } from './response-writer.js';

export const SERVER_LIMITS = {
  /** Largest WebSocket message a client may send. */
  maxMessageBytes: 16 << 20,
  /** A connection silent this long gets a WebSocket ping (the reference's 25 s). */
  keepaliveSeconds: 25,
} as const;

export interface ServerOptions {
  readonly lobby: Lobby;
  readonly store: HistoryStore;
  readonly host: string;
  readonly port: number;
  readonly webRoot: string;
  readonly log: (line: string) => void;
  /** Served at /metrics; /health works without it. */
  readonly metrics?: ServerMetrics;
}

/**
 * The main front door: HTTP for the web page and history JSON, and on the same port the coco
 * WebSocket protocol at any path.
 */
export class CocoServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly lastTraffic = new Map<WebSocket, number>();
  private keepalive: NodeJS.Timeout | null = null;
  private readonly routes: HttpRoutes;
  private readonly responses = new ResponseWriter();
  /** Sockets speaking plain HTTP (a WebSocket upgrade moves its socket to the coco count). */
  private readonly httpSockets = new Set<Socket>();

  constructor(private readonly options: ServerOptions) {
    this.routes = new HttpRoutes(options.store, options.webRoot, { responses: this.responses, metrics: options.metrics });
    this.http = createServer((request, response) => {
      this.routes.handle(request, response).catch((error: unknown) => {
        options.log(`http ${request.url}: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    });
    this.http.on('connection', (socket: Socket) => {
      this.httpSockets.add(socket);
      socket.once('close', () => this.httpSockets.delete(socket));
    });
    this.wss = new WebSocketServer({ server: this.http, maxPayload: SERVER_LIMITS.maxMessageBytes, perMessageDeflate: false });
    this.wss.on('connection', (ws, request) => {
      const peer = `${request.socket.remoteAddress}:${request.socket.remotePort}`;
      this.httpSockets.delete(request.socket);
      this.lastTraffic.set(ws, Date.now());
      const touch = (): void => void this.lastTraffic.set(ws, Date.now());
      ws.on('message', touch);
      ws.on('pong', touch);
      ws.on('close', () => this.lastTraffic.delete(ws));
      new CocoConnection(ws, options.lobby, options.store, peer, options.log);
    });
  }

  /** Open connections: coco WebSockets and plain HTTP. */
  connections(): { coco: number; http: number } {
    return { coco: this.wss.clients.size, http: this.httpSockets.size };
  }

  /** Bytes accepted for this door's clients that they have not taken yet (HTTP bodies, WebSocket buffers). */
  queuedBytes(): number {
    let total = this.responses.queuedBytes();
    for (const ws of this.wss.clients) total += ws.bufferedAmount;
    return total;
  }

  async listen(): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host, () => resolve());
    });
    const every = SERVER_LIMITS.keepaliveSeconds * 1000;
    this.keepalive = setInterval(() => {
      const now = Date.now();
      for (const [ws, last] of this.lastTraffic) {
        if (now - last >= every) {
          ws.ping();
          this.lastTraffic.set(ws, now);
        }
      }
    }, every / 5);
    this.keepalive.unref();
    return this.http.address() as AddressInfo;
  }

  async close(): Promise<void> {
    if (this.keepalive) clearInterval(this.keepalive);
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
    await this.routes.close();
  }
}
