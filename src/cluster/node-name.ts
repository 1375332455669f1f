import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * A node name no other node of a cluster spanning machines has: the host (what an operator reads
 * in the logs), the process id, and a random part, so a restarted process with a reused pid on
 * the same host is a new node and never inherits a dead one's name (a dead name stays dead).
 */
export function uniqueNodeName(host = hostname(), pid = process.pid): string {
  const plain = host.replace(/[^A-Za-z0-9.-]/g, '').slice(0, 40) || 'host';
  return `${plain}-${pid}-${randomBytes(3).toString('hex')}`;
}
