import type { Socket } from 'node:net';
import { ClientMemory, clientMemoryLimits, type MemoryAccount, type MemoryCutReason, type MemoryHolder } from './client-memory.js';
import type { ServerLimits } from './server-limits.js';

/**
 * A plain TCP client's share of the server's memory budget (the clobber and Software-Challenge
 * ports): the socket's unsent output plus whatever its door keeps of its input. The door charges
 * after each write or kept chunk; past a budget the socket is destroyed at once.
 */
export class SocketMemory implements MemoryHolder {
  /** Bytes read from the client and kept by its door (input waiting for its match to start). */
  inputBytes = 0;
  private readonly account: MemoryAccount;

  constructor(
    private readonly socket: Socket,
    addressKey: string,
    memory: ClientMemory,
    /** Told why the socket is cut, before it is destroyed (the door's log line and metric). */
    private readonly onCut: (why: MemoryCutReason, heldBytes: number) => void,
  ) {
    this.account = memory.register(addressKey, this);
    socket.once('close', () => this.account.release());
  }

  /**
   * The memory of a door that was given no shared budget (tests of one door alone): the
   * per-connection limit of `limits` only.
   */
  static alone(limits: Pick<ServerLimits, 'outbound-max-bytes' | 'client-memory-per-address' | 'client-memory-server'>): ClientMemory {
    return new ClientMemory(clientMemoryLimits(limits));
  }

  heldBytes(): number {
    return this.socket.writableLength + this.inputBytes;
  }

  cut(why: MemoryCutReason): void {
    this.onCut(why, this.heldBytes());
    this.socket.destroy();
  }

  /** After a write or a kept chunk: false when the client was cut for it. */
  charge(): boolean {
    return this.account.charge();
  }
}
