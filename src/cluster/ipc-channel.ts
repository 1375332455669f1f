import type { Channel } from './hub.js';

/**
 * Channels over Node.js IPC (a cluster worker and its primary, a forked child and its parent) or a
 * MessagePort. Every message is wrapped with a tag, so that several channels share one IPC pipe
 * with Node's own messages (the cluster module's). The pipe must use `serialization: 'advanced'`
 * (structured clone): bytes travel as bytes, not as JSON arrays of numbers.
 */
export interface IpcEnd {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

interface Tagged {
  readonly cocod: string;
  /** The messages sent during one turn of the event loop, in order. */
  readonly batch: readonly unknown[];
}

function isTagged(message: unknown, tag: string): message is Tagged {
  return typeof message === 'object' && message !== null && (message as Tagged).cocod === tag;
}

/**
 * Messages are sent in batches, one IPC write per turn of the event loop (setImmediate runs after
 * the turn's I/O callbacks): a busy node relays many small seat messages a turn, and each write
 * costs a system call and a serialisation on both sides.
 */
export function ipcChannel<In, Out>(end: IpcEnd, tag: string): Channel<In, Out> {
  let batch: Out[] = [];
  const flush = (): void => {
    const sending = batch;
    batch = [];
    try {
      end.send({ cocod: tag, batch: sending });
    } catch {
      // The other side is gone; whoever watches the process sees it exit and says so.
    }
  };
  return {
    send: (message) => {
      if (batch.length === 0) setImmediate(flush);
      batch.push(message);
    },
    receive: (handler) => {
      end.on('message', (message) => {
        if (isTagged(message, tag)) for (const one of message.batch) handler(one as In);
      });
    },
  };
}
/** The same over a MessagePort (worker_threads), for tests of the IPC implementations in one process. */
export function portEnd(port: { postMessage(message: unknown): void; on(event: 'message', listener: (message: unknown) => void): unknown }): IpcEnd {
  return { send: (message) => port.postMessage(message), on: (event, listener) => port.on(event, listener) };
}
