import type { AddressInfo, Server } from 'node:net';

/**
 * Starts `server` listening, its kernel accept queue `backlog` connections long (the
 * `listen-backlog` limit; the kernel caps it at net.core.somaxconn). Node's own default, 511,
 * overflows when a tournament's or a benchmark's players all connect at once: the kernel then drops
 * their handshakes, and they connect a retransmission (a second or more) later, or are reset.
 */
export async function listenWithBacklog(server: Server, port: number, host: string, backlog: number): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error): void => reject(error);
    server.once('error', failed);
    server.listen({ port, host, backlog }, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}
