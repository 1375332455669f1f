import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from './services.js';

// The service harness itself: the multi-machine tests build on it.
const started: (RedisServer | PostgresServer)[] = [];
after(async () => {
  for (const service of started) await service.stop();
});

test('a real redis-server answers on loopback, and comes back empty after a restart', async () => {
  const redis = await startRedis();
  started.push(redis);
  const client = new Redis(redis.url, { maxRetriesPerRequest: null });
  // While the server restarts, the client reconnects; its refused attempts are expected here.
  client.on('error', () => {});
  try {
    await client.set('k', 'v');
    assert.equal(await client.get('k'), 'v');
    await redis.restart();
    assert.equal(await client.get('k'), null);
  } finally {
    client.disconnect();
  }
});

test('a real PostgreSQL server makes databases, and keeps their data over a halt', async () => {
  const postgres = await startPostgres();
  started.push(postgres);
  const url = await postgres.createDatabase('harness_check');
  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return client;
  };
  let client = await connect();
  await client.query('CREATE TABLE t (x integer)');
  await client.query('INSERT INTO t VALUES (42)');
  await client.end();
  await postgres.halt();
  await postgres.start();
  client = await connect();
  const { rows } = await client.query<{ x: number }>('SELECT x FROM t');
  await client.end();
  assert.deepEqual(rows, [{ x: 42 }]);
});
