import type pg from 'pg';
import { LeaseTakenOverError, type NodeLease } from './node-lease.js';

/**
 * The leases of a cluster's nodes, as the history's writes are fenced by them (node-lease.ts).
 * One row per node that joined (its name is unique: it carries a random part) with its epoch; a
 * survivor that cleans up after a dead node marks its row taken over before recording its lost
 * matches. Like the node-number sequence, the table holds no history, so it is created here
 * (idempotently, by every node that starts) rather than by a history migration.
 */
export const NODE_LEASES_TABLE = 'cocod_node_leases';

const CREATE = `CREATE TABLE IF NOT EXISTS ${NODE_LEASES_TABLE} (
  node TEXT PRIMARY KEY,
  epoch BIGINT NOT NULL,
  held_since BIGINT NOT NULL,
  taken_over_by TEXT,
  taken_over_at BIGINT
)`;

type Queryable = pg.Pool | pg.ClientBase;

export async function createNodeLeases(client: Queryable): Promise<void> {
  // Two nodes starting at once may both create it: PostgreSQL then refuses one with a unique
  // violation (23505) or "already exists" (42P07), and the table is there all the same.
  await client.query(CREATE).catch((error: unknown) => {
    if (!['23505', '42P07'].includes(String((error as { code?: unknown }).code))) throw error;
  });
}

/** Registers the node's lease; rejects with a LeaseTakenOverError if its name was taken over already. */
export async function registerNodeLease(client: Queryable, lease: NodeLease, now: number): Promise<void> {
  await createNodeLeases(client);
  await client.query(`INSERT INTO ${NODE_LEASES_TABLE} (node, epoch, held_since) VALUES ($1, $2, $3) ON CONFLICT (node) DO NOTHING`, [lease.node, lease.epoch, now]);
  await checkNodeLease(client, lease);
}

/**
 * Inside a write's transaction: rejects with a LeaseTakenOverError when the lease was taken over
 * (or belongs to another epoch). The row is locked FOR SHARE to the end of the transaction, so a
 * take-over waits for this write to commit, and a write after a take-over sees it.
 */
export async function checkNodeLease(client: Queryable, lease: NodeLease): Promise<void> {
  const { rows } = await client.query<{ epoch: string; taken_over_by: string | null }>(`SELECT epoch, taken_over_by FROM ${NODE_LEASES_TABLE} WHERE node = $1 FOR SHARE`, [lease.node]);
  const row = rows[0];
  if (!row) throw new LeaseTakenOverError(lease, '(nobody: this lease was never registered)');
  if (row.taken_over_by !== null) throw new LeaseTakenOverError(lease, row.taken_over_by);
  if (Number(row.epoch) !== lease.epoch) throw new LeaseTakenOverError(lease, `(epoch ${row.epoch} of the same name)`);
}

/** Marks the victim's lease taken over (the first taker's name stays); a node never registered is fenced all the same. */
export async function takeOverNodeLease(client: Queryable, victim: string, by: string, now: number): Promise<void> {
  await createNodeLeases(client);
  await client.query(
    `INSERT INTO ${NODE_LEASES_TABLE} (node, epoch, held_since, taken_over_by, taken_over_at) VALUES ($1, 0, $3, $2, $3)
     ON CONFLICT (node) DO UPDATE SET taken_over_by = coalesce(${NODE_LEASES_TABLE}.taken_over_by, excluded.taken_over_by),
       taken_over_at = coalesce(${NODE_LEASES_TABLE}.taken_over_at, excluded.taken_over_at)`,
    [victim, by, now],
  );
}
