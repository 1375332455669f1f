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
  readonly body: unknown;
}

function isTagged(message: unknown, tag: string): message is Tagged {
  return typeof message === 'object' && message !== null && (message as Tagged).cocod === tag;
}

export function ipcChannel<In, Out>(end: IpcEnd, tag: string): Channel<In, Out> {
  return {
    send: (message) => {
      try {
        end.send({ cocod: tag, body: message });
      } catch {
        // The other side is gone; whoever watches the process sees it exit and says so.
      }
    },
    receive: (handler) => {
      end.on('message', (message) => {
        if (isTagged(message, tag)) handler(message.body as In);
      });
    },
  };
}

/** The same over a MessagePort (worker_threads), for tests of the IPC implementations in one process. */
export function portEnd(port: { postMessage(message: unknown): void; on(event: 'message', listener: (message: unknown) => void): unknown }): IpcEnd {
  return { send: (message) => port.postMessage(message), on: (event, listener) => port.on(event, listener) };
}
