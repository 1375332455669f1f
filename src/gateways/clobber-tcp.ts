import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Lobby } from '../lobby/lobby.js';
import type { Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { isValidUserName } from '../lobby/names.js';
import { parsePlayLine } from '../games/clobber/clobber.js';
import { admitConnection, type Admission } from './address-limits.js';
import type { ServerLimits } from './server-limits.js';
import { listenWithBacklog } from './listen.js';
import type { NameDesk } from '../names/name-desk.js';
import { SocketMember } from './socket-member.js';
import { SocketMemory } from './socket-memory.js';
import { memoryCutRefusal } from './client-memory.js';
import { peerLabel, type ClientAddress } from './peer-addresses.js';

export const CLOBBER_TCP_LIMITS = {
  /** The `play clobber <name>` line must come within this long... */
  helloSeconds: 30,
  /** ...and be at most this long. */
  helloBytes: 256,
} as const;

const ORIGIN = 'clobber-port';

/**
 * The 2006 Clobber tournament port: a client connects and sends `play clobber <name>`; it is
 * seated in the oldest waiting clobber match made through this port, or a new one is created and
 * listed in the lobby. From then on the socket carries the game's own stream (the game ignores
 * the `play clobber` line, so the same program works through coco).
 */
export class ClobberTcpGateway {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private readonly log: Log;

  constructor(
    private readonly lobby: Lobby,
    private readonly admission: Admission & { readonly limits: ServerLimits; readonly clock: Clock; readonly names: NameDesk },
  ) {
    this.log = admission.log;
    this.server = createServer((socket) => {
      // Tracked from the start, a balancer's preamble still to come included: `close` ends them all.
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      admission.peers.accept(socket, 'clobber port', (client) => this.accept(socket, client));
    });
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return listenWithBacklog(this.server, port, host, this.admission.limits['listen-backlog']);
  }

  /** Stops accepting connections; those open stay until `close`. */
  stopAccepting(): void {
    if (this.server.listening) this.server.close();
  }

  /** Open connections (players, and clients still to send their "play clobber" line). */
  get connections(): number {
    return this.sockets.size;
  }

  /** Bytes written to this port's sockets that their clients have not taken yet. */
  queuedBytes(): number {
    let total = 0;
    for (const socket of this.sockets) total += socket.writableLength;
    return total;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const closed = new Promise<void>((resolve) => this.server.once('close', () => resolve()));
    const wasListening = this.server.listening;
    this.stopAccepting();
    if (wasListening) await closed;
  }

  private accept(socket: Socket, client: ClientAddress): void {
    const admitted = admitConnection(socket, client, 'clobber port', this.admission);
    if (admitted === null) return;
    const { key } = admitted;
    const peer = peerLabel(client);
    const memory = new SocketMemory(socket, key, this.admission.memory ?? SocketMemory.alone(this.admission.limits), (why, held) => {
      this.admission.refused?.(memoryCutRefusal(why));
      this.log.info(`clobber port ${peer}: connection dropped: ${held} bytes held for it (${why})`);
    });
    socket.on('error', (error) => {
      if (!client.balancersOwn) this.log.info(`clobber port ${peer}: ${error.message}`);
    });
    socket.setNoDelay(true);
    let received = Buffer.alloc(0);
    const refuse = (why: string): void => {
      this.log.info(`clobber port ${peer}: ${why}`);
      socket.end('error\n');
    };
    const cancelTimer = this.admission.clock.setTimer(CLOBBER_TCP_LIMITS.helloSeconds * 1000, () => refuse('no "play clobber <name>" line in time'), { weak: true });
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const newline = received.indexOf(0x0a);
      if (newline === -1) {
        if (received.length > CLOBBER_TCP_LIMITS.helloBytes) {
          socket.off('data', onData);
          cancelTimer();
          refuse('first line too long');
        }
        return;
      }
      socket.off('data', onData);
      cancelTimer();
      const hello = parsePlayLine(received.subarray(0, newline).toString('latin1').replace(/\r$/, ''));
      if (!hello.ok) return refuse(`expected "play clobber <name>", got ${JSON.stringify(received.subarray(0, Math.min(newline, 80)).toString('latin1'))}`);
      const wanted = hello.value.name ?? 'player';
      // A claimed name is played only with its token, which the 2006 protocol has no room for:
      // such a client is refused (docs/protocol.md). Nothing is read meanwhile, so nothing is lost.
      socket.pause();
      this.admission.names.check(isValidUserName(wanted) ? wanted : 'player', null).then(
        (claimed) => {
          if (socket.destroyed) return;
          if (claimed !== null) return refuse(`"${wanted}" is a claimed name, which the clobber port cannot play (its token goes only through coco)`);
          this.seat(socket, peer, key, memory, wanted, received);
          socket.resume();
        },
        (error: unknown) => refuse(`the claimed names cannot be read: ${error instanceof Error ? error.message : String(error)}`),
      );
    };
    socket.on('data', onData);
    socket.on('close', cancelTimer);
  }

  private seat(socket: Socket, peer: string, key: string, memory: SocketMemory, wanted: string, firstBytes: Buffer): void {
    let id = this.lobby.oldestWaiting('clobber', ORIGIN)?.id;
    if (!id) {
      const empty = this.admission.addresses.takeGameNew(key);
      if (empty !== null) {
        this.admission.refused?.(empty);
        const why = empty === 'game-new-per-minute' ? `${this.admission.limits['game-new-per-minute']} a minute from this address` : `${this.admission.limits['game-new-per-minute-per-network']} a minute from this address's network`;
        return void socket.end('error\n', () => this.log.info(`clobber port ${peer}: cannot create a match: more than ${why}`));
      }
      const created = this.lobby.create(
        // Programs on a tournament port need no pause between moves for people to follow.
        { name: 'clobber port', game: 'clobber', params: { players: 2, bots: 0, timeout: null }, args: { pace: '0' }, password: null, verification: null },
        ORIGIN,
        { owner: key, network: this.admission.addresses.network(key) },
      );
      if (!created.ok) return void socket.end('error\n', () => this.log.info(`clobber port ${peer}: cannot create a match: ${created.error}`));
      id = created.value;
    }
    const taken = new Set(this.lobby.find(id)?.connected ?? []);
    let name = isValidUserName(wanted) ? wanted : 'player';
    // Two clients may announce the same name; the second gets a suffix rather than a refusal.
    for (let n = 2; taken.has(name); n++) name = `${(isValidUserName(wanted) ? wanted : 'player').slice(0, 12)}#${n}`;
    const matchId = id;
    const member: SocketMember = new SocketMember(socket, firstBytes, () => this.lobby.leave(matchId, member), memory);
    const joined = this.lobby.join(matchId, name, null, member);
    if (!joined.ok) return void socket.end('error\n', () => this.log.info(`clobber port ${peer}: cannot join: ${joined.error}`));
    this.log.info(`clobber port ${peer}: ${name} joined match ${matchId}`);
  }
}
