import { ClusterHub, HubLink, type Channel, type HubEvent, type HubRequest } from './hub.js';
import type { Clock } from '../util/clock.js';
import type { ClusterLink } from './seams.js';

/**
 * Several nodes in one process sharing one hub: the in-process implementation of the seams, for
 * tests of what crosses nodes and for embedding. Messages go through microtasks, never at once,
 * so a node sees the same asynchrony it would over IPC or a network, in a deterministic order.
 */
export class MemoryHub {
  readonly hub: ClusterHub;

  constructor(clock?: Clock) {
    this.hub = new ClusterHub(clock);
  }

  link(node: string): ClusterLink {
    let toNode: ((event: HubEvent) => void) | null = null;
    let handle: ((request: HubRequest) => void) | null = null;
    const channel: Channel<HubEvent, HubRequest> = {
      send: (request) => queueMicrotask(() => handle?.(request)),
      receive: (handler) => {
        toNode = handler;
      },
    };
    const link = new HubLink(node, channel);
    handle = this.hub.connect(node, (event) => queueMicrotask(() => toNode?.(event)));
    return link;
  }
}
