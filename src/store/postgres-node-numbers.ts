import pg from 'pg';
import { POSTGRES_CONNECT_TIMEOUT_MS } from './postgres-history-db.js';
import { errorText, maskedUrl } from './postgres-connection.js';

/**
 * The sequence that numbers the nodes of a cluster. It lives in PostgreSQL, beside the history,
 * because Redis may lose its data (a restart without persistence) while nodes live: a counter
 * kept there would start again at 1 and give a new node a living node's number, hence its match
 * ids' first characters. A sequence never gives a number twice, whatever happens to Redis.
 * It is created here, not by a history migration: it holds no history, and creating it is
 * idempotent for every node that starts.
 */
export const NODE_NUMBER_SEQUENCE = 'cocod_node_numbers';

/** Takes the next node number (1, 2, ...) from the cluster's PostgreSQL; fails with the cause when it cannot be reached. */
export async function takeNodeNumber(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS });
  // An error on an idle client must not be an uncaught 'error' event.
  client.on('error', () => {});
  try {
    await client.connect();
    // Two nodes starting at once may both create it: PostgreSQL then refuses one with a unique
    // violation (23505) or "already exists" (42P07), and the sequence is there all the same.
    await client.query(`CREATE SEQUENCE IF NOT EXISTS ${NODE_NUMBER_SEQUENCE}`).catch((error: unknown) => {
      if (!['23505', '42P07'].includes(String((error as { code?: unknown }).code))) throw error;
    });
    const { rows } = await client.query<{ n: string }>(`SELECT nextval('${NODE_NUMBER_SEQUENCE}') AS n`);
    return Number(rows[0]!.n);
  } catch (error) {
    throw new Error(`cannot take a node number from PostgreSQL at ${maskedUrl(url)}: ${errorText(error)}`);
  } finally {
    await client.end().catch(() => {});
  }
}
