import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { err, ok, type Result } from '../util/result.js';

/**
 * The balancers and proxies allowed to name the client they relay (`cocod --trusted-proxy`):
 * addresses and CIDR ranges, IPv4 and IPv6. Anyone else's PROXY preamble or X-Forwarded-For is
 * never read, so a client cannot choose the address its limits count against.
 */
export class TrustedProxies {
  private constructor(
    private readonly list: BlockList,
    /** The entries as given, for the log. */
    readonly entries: readonly string[],
  ) {}

  static none(): TrustedProxies {
    return new TrustedProxies(new BlockList(), []);
  }

  /** Parses `ADDR[,ADDR...]`, each an address or a CIDR range (`10.0.0.0/24`, `fd00::/8`). */
  static parse(text: string): Result<TrustedProxies> {
    const list = new BlockList();
    const entries = text.split(',').map((entry) => entry.trim());
    for (const entry of entries) {
      const [address = '', prefixText, extra] = entry.split('/');
      const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
      if (type === null || extra !== undefined) return err(`invalid --trusted-proxy entry "${entry}" (an IPv4 or IPv6 address, or a CIDR range such as 10.0.0.0/24)`);
      if (prefixText === undefined) {
        list.addAddress(address, type);
        continue;
      }
      const prefix = Number(prefixText);
      if (!/^\d{1,3}$/.test(prefixText) || prefix > (type === 'ipv4' ? 32 : 128)) return err(`invalid --trusted-proxy range "${entry}" (prefix length out of range)`);
      list.addSubnet(address, prefix, type);
    }
    return ok(new TrustedProxies(list, entries));
  }

  /** Whether any proxy is trusted at all. */
  get any(): boolean {
    return this.entries.length > 0;
  }

  trusts(address: string | undefined): boolean {
    if (address === undefined || !this.any) return false;
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d; the list names it as a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return this.list.check(mapped[1]!, 'ipv4');
    if (isIPv4(address)) return this.list.check(address, 'ipv4');
    return isIPv6(address) && this.list.check(address, 'ipv6');
  }

  /**
   * The client of an HTTP request that came from `peer` (the standard rule): walking the
   * X-Forwarded-For chain from the right, past every trusted proxy, the first address not trusted
   * is the client. Only the proxies' own entries are believed: whatever a client wrote at the left
   * of the header is never reached unless every hop after it is trusted. An entry that is not an
   * address stops the walk at the hop that forwarded it.
   */
  clientOf(peer: string, forwardedFor: string | readonly string[] | undefined): string {
    if (!this.trusts(peer) || forwardedFor === undefined) return peer;
    const chain = (typeof forwardedFor === 'string' ? [forwardedFor] : forwardedFor).join(',').split(',').map((entry) => entry.trim());
    let client = peer;
    for (let i = chain.length - 1; i >= 0; i--) {
      const hop = chain[i]!;
      if (!isIPv4(hop) && !isIPv6(hop)) return client;
      client = hop;
      if (!this.trusts(hop)) return hop;
    }
    return client;
  }
}
