/**
 * The pairing node's side of the cluster's arena (cluster-arena.ts): while this node holds the
 * pairing lease, every node's entries queue in this node's Arena, and what the Arena tells an
 * entrant goes back over the bus to the node its connection is on, under the lease's epoch.
 */
import type { Log } from '../util/log.js';
import type { BridgeMessage, NodeBus } from './seams.js';
import type { Arena, ArenaEntrant, ArenaTicket } from '../arena/arena.js';

/** The refusal of an entry sent to a node that does not (or no longer) pair: its door tries the new holder. */
export const PAIRING_CHANGED = "the arena's pairing node changed: enter again";

/** What the relay does with a forwarded entry: the ticket once entered, or whether it left while entering. */
interface Forwarded {
  ticket: ArenaTicket | null;
  left: boolean;
}

export class ArenaRelay {
  /** Entries by `from` and key (two nodes may choose the same key). */
  private readonly forwarded = new Map<string, Forwarded>();
  private closing: Promise<void> | null = null;

  constructor(
    readonly arena: Arena,
    /** The pairing lease's epoch this relay serves: an entry sent under another is refused. */
    readonly epoch: number,
    private readonly bus: NodeBus,
    private readonly log: Log,
  ) {}

  /** A message for the pairing node; false when it is none of the relay's. */
  receive(from: string, message: BridgeMessage): boolean {
    switch (message.t) {
      case 'arena-enter':
        void this.enter(from, message);
        return true;
      case 'arena-leave': {
        const id = `${from}\n${message.key}`;
        const forwarded = this.forwarded.get(id);
        if (!forwarded || message.epoch !== this.epoch) return true;
        forwarded.left = true;
        forwarded.ticket?.leave();
        this.forwarded.delete(id);
        return true;
      }
      case 'arena-look':
        this.bus.send(from, { t: 'arena-view', key: message.key, view: this.closing ? null : this.arena.view(message.game) });
        return true;
      default:
        return false;
    }
  }

  /** A node went down: its connections are gone, so are its entries (their games go on). */
  nodeDown(node: string): void {
    for (const [id, forwarded] of [...this.forwarded]) {
      if (!id.startsWith(`${node}\n`)) continue;
      forwarded.left = true;
      forwarded.ticket?.leave();
      this.forwarded.delete(id);
    }
  }

  /** Stops pairing (the lease is lost or given up); resolves once the games it started are rated. */
  close(): Promise<void> {
    this.closing ??= this.arena.close();
    this.forwarded.clear();
    return this.closing;
  }

  private async enter(from: string, message: Extract<BridgeMessage, { t: 'arena-enter' }>): Promise<void> {
    const { key, epoch } = message;
    const refuse = (error: string): void => this.bus.send(from, { t: 'arena-entered', key, epoch, error, args: null, seats: 0 });
    const id = `${from}\n${key}`;
    if (epoch !== this.epoch || this.closing) return refuse(PAIRING_CHANGED);
    if (this.forwarded.has(id)) return;
    const forwarded: Forwarded = { ticket: null, left: false };
    this.forwarded.set(id, forwarded);
    const send = (told: BridgeMessage): void => this.bus.send(from, told);
    const entrant: ArenaEntrant = {
      paired: (pairing) => send({ t: 'arena-paired', key, epoch, pairing }),
      finished: (report) => send({ t: 'arena-finished', key, epoch, report }),
      held: (until, why) => send({ t: 'arena-held', key, epoch, until, why }),
    };
    // The door checked the name against its token; the token never left the door's node.
    const entered = await this.arena.enter({ ...message.request, token: undefined }, entrant, message.carried);
    if (!entered.ok) {
      this.forwarded.delete(id);
      return refuse(entered.error);
    }
    if (forwarded.left || this.closing || this.forwarded.get(id) !== forwarded) {
      entered.value.leave();
      if (!forwarded.left) refuse(PAIRING_CHANGED);
      return;
    }
    forwarded.ticket = entered.value;
    this.log.info(`arena: ${message.request.name} entered through node ${from}`);
    send({ t: 'arena-entered', key, epoch, error: null, args: entered.value.args, seats: entered.value.seats });
  }
}
