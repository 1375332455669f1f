import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryHub } from '../cluster/memory-hub.js';
import { RedisLink } from '../cluster/redis-link.js';
import type { AddressCounter } from '../gateways/address-counter.js';
import { MemoryNameTable } from '../store/memory-name-table.js';
import { ManualClock } from '../util/clock.js';
import { startRedis, type RedisServer } from '../../test/support/services.js';
import { StoredNameClaims } from './name-claims.js';
import { nameDesk } from './name-desk.js';

const HOUR = 3_600_000;
const LIMITS = { 'name-registrations-per-hour': 2, 'name-registrations-per-hour-per-network': 3, 'tracked-addresses': 100 };
const NETWORK = 'net:10.0.0.0/24';

/** Two nodes' desks over one claims table (the cluster's one store), counting through `counters`. */
async function registrationsAcross(counters: readonly [AddressCounter, AddressCounter], clock: ManualClock): Promise<void> {
  const claims = new StoredNameClaims(new MemoryNameTable());
  const [one, two] = counters.map((shared) => nameDesk(claims, LIMITS, clock, 'master', shared));
  const register = (desk: typeof one, name: string, address: string) => desk!.register(name, { address, network: NETWORK });
  assert.ok('Ok' in (await register(one, 'amy', '10.0.0.1')));
  assert.ok('Ok' in (await register(two, 'bob', '10.0.0.1')));
  assert.deepEqual(await register(one, 'cid', '10.0.0.1'), { Err: 'Too many names registered: at most 2 an hour per address; try again in 1800 s' }, 'two names on two nodes spent the address\'s two');
  assert.ok('Ok' in (await register(two, 'dan', '10.0.0.2')), 'the refusal took nothing of the network\'s three');
  assert.deepEqual(await register(one, 'eve', '10.0.0.3'), { Err: 'Too many names registered: at most 3 an hour per network; try again in 1200 s' });
  await clock.advance(HOUR / 3);
  assert.ok('Ok' in (await register(one, 'eve', '10.0.0.3')), 'a network token back after an hour / 3; node one had given its own back');
}

test('registration quotas count on every node of a hub together (--nodes)', async () => {
  const clock = new ManualClock();
  const hub = new MemoryHub(clock);
  await registrationsAcross([hub.link('one').addresses, hub.link('two').addresses], clock);
});

let redis: RedisServer;
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
});

test('registration quotas count on every node sharing Redis together (--redis)', async () => {
  const clock = new ManualClock();
  const links = await Promise.all(['one', 'two'].map((node) => RedisLink.connect({ url: redis.url, node, prefix: 'registrations-test:', clock, useClockTime: true, leaseMs: 10_000, refreshMs: 2_000, offlineBufferBytes: 1 << 20 })));
  try {
    await registrationsAcross([links[0]!.addresses, links[1]!.addresses], clock);
  } finally {
    for (const link of links) link.close();
    await Promise.all(links.map((link) => link.closed));
  }
});
