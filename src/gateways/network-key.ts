import { isIPv4 } from 'node:net';

/** Marks a network key, so that it never equals an address key where both are counted (AddressCounter). */
const NETWORK = 'net:';

/**
 * The network an address key (addressKey) belongs to, for the limits that count per network: the
 * IPv4 /`v4Prefix` or the IPv6 /`v6Prefix` around it (an IPv6 key is already a /64, so a longer
 * prefix counts as 64). One /24 or /48 is usually one neighbour: one site, one provider's
 * customer. A key that is no IP address (a Unix socket) is its own network.
 */
export function networkKey(addressKey: string, v4Prefix: number, v6Prefix: number): string {
  if (isIPv4(addressKey)) {
    const bits = Math.min(32, Math.max(0, Math.floor(v4Prefix)));
    const value = addressKey.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
    const masked = bits === 0 ? 0 : (value - (value % 2 ** (32 - bits)));
    const octets = [24, 16, 8, 0].map((shift) => Math.floor(masked / 2 ** shift) % 256);
    return `${NETWORK}${octets.join('.')}/${bits}`;
  }
  const v6 = /^([0-9a-f]{1,4}(?::[0-9a-f]{1,4}){3})::\/64$/.exec(addressKey);
  if (v6) {
    const bits = Math.min(64, Math.max(0, Math.floor(v6Prefix)));
    const groups = v6[1]!.split(':').map((group) => parseInt(group, 16));
    const kept = groups.map((group, i) => {
      const inGroup = Math.min(16, Math.max(0, bits - i * 16));
      return inGroup === 0 ? 0 : group - (group % 2 ** (16 - inGroup));
    });
    return `${NETWORK}${kept.map((group) => group.toString(16)).join(':')}::/${bits}`;
  }
  return `${NETWORK}${addressKey}`;
}
