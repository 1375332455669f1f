/** Why a request was not let in. */
export type GateRefusal = 'per-address' | 'total';

/**
 * Bounds how many of one kind of expensive request are in flight at once, per address and on the
 * whole server. A request is let in or refused at once, never queued: a queue would only move the
 * memory and the waiting elsewhere. Each admission is released exactly once, however often its
 * release is called.
 */
export class ConcurrencyGate {
  private readonly byAddress = new Map<string, number>();
  private total = 0;

  constructor(
    readonly maxTotal: number,
    readonly maxPerAddress: number,
  ) {}

  /** Requests in flight now, on the whole server. */
  get inFlight(): number {
    return this.total;
  }

  /** Lets a request of `addressKey` in (returning its release) or says why not. */
  tryEnter(addressKey: string): { ok: true; release: () => void } | { ok: false; refusal: GateRefusal } {
    const ofAddress = this.byAddress.get(addressKey) ?? 0;
    if (ofAddress >= this.maxPerAddress) return { ok: false, refusal: 'per-address' };
    if (this.total >= this.maxTotal) return { ok: false, refusal: 'total' };
    this.byAddress.set(addressKey, ofAddress + 1);
    this.total++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.total--;
        const left = (this.byAddress.get(addressKey) ?? 1) - 1;
        if (left > 0) this.byAddress.set(addressKey, left);
        // Forgotten at 0: the map holds only addresses with requests in flight.
        else this.byAddress.delete(addressKey);
      },
    };
  }
}
