import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { systemClock, type Clock } from '../util/clock.js';
import { silentLog, type Log } from '../util/log.js';
import { ProxyPreambleReader } from './proxy-protocol.js';
import { TrustedProxies } from './trusted-proxies.js';

/** Who is at the other end of a connection: the client itself, whether direct or behind a trusted balancer. */
export interface ClientAddress {
  readonly address: string;
  /** 0 when unknown (a client named only by X-Forwarded-For). */
  readonly port: number;
  /**
   * True for a trusted balancer's own connection (a PROXY preamble naming no client: LOCAL), which
   * is how HAProxy's health checks come. Doors do not log its socket errors: a TCP check ends with
   * a reset by design, and one line per check would bury the log.
   */
  readonly balancersOwn?: boolean;
}

/** How a client is named in log lines. */
export function peerLabel(client: ClientAddress): string {
  return client.port === 0 ? client.address : `${client.address}:${client.port}`;
}

export interface PeerAddressOptions {
  readonly trusted: TrustedProxies;
  /** Connections from trusted proxies start with a PROXY protocol preamble (`cocod --proxy-protocol`). */
  readonly proxyProtocol: boolean;
  /** Limits proxy-preamble-seconds and proxy-preamble-bytes. */
  readonly preambleSeconds: number;
  readonly preambleBytes: number;
  readonly clock: Clock;
  readonly log: Log;
}

/**
 * The real address of each client, for every front door: the per-address limits, the log lines
 * and the `peer` strings use it. A connection from a trusted balancer with the PROXY protocol on
 * names its client in its preamble, read here before the front door sees a byte; an HTTP request
 * from a trusted proxy names it in X-Forwarded-For. From anyone else, neither is read: a PROXY
 * line from an untrusted peer reaches the front door as its first bytes and is refused there as
 * the garbage it is.
 */
export class PeerAddresses {
  /** The clients named by preambles (a socket without one is its own client). */
  private readonly named = new WeakMap<Socket, ClientAddress>();

  constructor(private readonly options: PeerAddressOptions) {}

  /** No trusted proxy (cocod's default): everyone is who their socket says; no preamble is ever read. */
  static direct(): PeerAddresses {
    return new PeerAddresses({ trusted: TrustedProxies.none(), proxyProtocol: false, preambleSeconds: 0, preambleBytes: 0, clock: systemClock, log: silentLog });
  }

  /** Whether `address` is a trusted proxy (whose own connections carry many clients). */
  trusts(address: string): boolean {
    return this.options.trusted.trusts(address);
  }

  /**
   * Calls `then` with the connection's client once it is known: at once, or after the preamble of
   * a trusted balancer, which must come whole within proxy-preamble-seconds and -bytes. A preamble
   * that is malformed, too long or too slow closes this connection only, with a log line. The
   * bytes after the preamble are put back on the socket for the front door to read.
   */
  accept(socket: Socket, door: string, then: (client: ClientAddress) => void): void {
    // Reset before it was even accepted (a balancer's TCP health check does this): nobody to serve.
    if (socket.remoteAddress === undefined) return void socket.destroy();
    const own = { address: socket.remoteAddress, port: socket.remotePort ?? 0 };
    if (!this.options.proxyProtocol || !this.trusts(own.address)) return then(own);
    const { clock, log, preambleSeconds } = this.options;
    const reader = new ProxyPreambleReader(this.options.preambleBytes);
    // A socket error before the preamble ends only this connection ('close' follows).
    const ignore = (): void => {};
    const stop = (): void => {
      cancelTimer();
      socket.off('data', onData);
      socket.off('close', cancelTimer);
      socket.off('error', ignore);
    };
    const drop = (why: string): void => {
      stop();
      log.warn(`${door} ${peerLabel(own)}: ${why}; connection closed`);
      socket.destroy();
    };
    const cancelTimer = clock.setTimer(preambleSeconds * 1000, () => drop(`no PROXY protocol preamble within ${preambleSeconds} s (limit proxy-preamble-seconds)`), { weak: true });
    const onData = (chunk: Buffer): void => {
      const step = reader.push(chunk);
      if (step.kind === 'more') return;
      if (step.kind === 'refused') return drop(step.why);
      stop();
      const client: ClientAddress = step.source ?? { ...own, balancersOwn: true };
      this.named.set(socket, client);
      // Paused while the rest is put back, so that no byte reaches the front door out of order.
      socket.pause();
      if (step.rest.length > 0) socket.unshift(step.rest);
      then(client);
      socket.resume();
    };
    socket.on('data', onData);
    socket.on('close', cancelTimer);
    socket.on('error', ignore);
  }

  /** The client of a connection that went through `accept`. */
  ofSocket(socket: Socket): ClientAddress {
    return this.named.get(socket) ?? { address: socket.remoteAddress ?? 'unknown', port: socket.remotePort ?? 0 };
  }

  /** The client of an HTTP request (a WebSocket upgrade included): its connection's, or the one a trusted proxy names in X-Forwarded-For. */
  ofRequest(request: IncomingMessage): ClientAddress {
    const connection = this.ofSocket(request.socket);
    const address = this.options.trusted.clientOf(connection.address, request.headers['x-forwarded-for']);
    return address === connection.address ? connection : { address, port: 0 };
  }
}
