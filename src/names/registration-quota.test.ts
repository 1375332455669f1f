import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { RegistrationQuota } from './registration-quota.js';

const HOUR = 60 * 60 * 1000;

test('an address registers a burst of name-registrations-per-hour, then one every hour / that, and is told how long to wait', async () => {
  const clock = new ManualClock();
  const quota = new RegistrationQuota({ perHour: 3, perHourPerNetwork: 100, tracked: 100 }, clock);
  for (let i = 0; i < 3; i++) assert.equal(quota.take('10.0.0.1', '10.0.0.0/24'), null, `registration ${i + 1}`);
  assert.deepEqual(quota.take('10.0.0.1', '10.0.0.0/24'), { refusal: 'name-registrations-per-hour', waitSeconds: 1200 });
  // Another address of the same network has its own count.
  assert.equal(quota.take('10.0.0.2', '10.0.0.0/24'), null);
  await clock.advance(HOUR / 3 - 1000);
  assert.deepEqual(quota.take('10.0.0.1', '10.0.0.0/24'), { refusal: 'name-registrations-per-hour', waitSeconds: 1 });
  await clock.advance(1000);
  assert.equal(quota.take('10.0.0.1', '10.0.0.0/24'), null);
  assert.equal(quota.take('10.0.0.1', '10.0.0.0/24')?.refusal, 'name-registrations-per-hour');
});

test('the addresses of one network share name-registrations-per-hour-per-network; a refused registration takes from neither count', async () => {
  const clock = new ManualClock();
  const quota = new RegistrationQuota({ perHour: 2, perHourPerNetwork: 3, tracked: 100 }, clock);
  assert.equal(quota.take('10.0.0.1', 'net-a'), null);
  assert.equal(quota.take('10.0.0.2', 'net-a'), null);
  assert.equal(quota.take('10.0.0.3', 'net-a'), null);
  assert.deepEqual(quota.take('10.0.0.4', 'net-a'), { refusal: 'name-registrations-per-hour-per-network', waitSeconds: 1200 });
  // 10.0.0.4 was refused by its network: its own count is whole, and it registers elsewhere... in another network.
  assert.equal(quota.take('10.0.0.4', 'net-b'), null);
  assert.equal(quota.take('10.0.0.4', 'net-b'), null);
  assert.equal(quota.take('10.0.0.4', 'net-b')?.refusal, 'name-registrations-per-hour');
});

test('at most `tracked` addresses and networks are remembered; the least recently seen is forgotten first', async () => {
  const clock = new ManualClock();
  const quota = new RegistrationQuota({ perHour: 1, perHourPerNetwork: 1000, tracked: 3 }, clock);
  for (const address of ['a', 'b', 'c', 'd']) assert.equal(quota.take(address, 'net'), null);
  assert.deepEqual(quota.tracked, { addresses: 3, networks: 1 });
  // 'a' was forgotten (a fresh count); 'd' is remembered (spent).
  assert.equal(quota.take('d', 'net')?.refusal, 'name-registrations-per-hour');
  assert.equal(quota.take('a', 'net'), null);
});

test('on a cluster, a registration its own node allows but the shared count refuses is refused, and this node\'s count is given back', async () => {
  const clock = new ManualClock();
  let sharedAnswer: { index: number; waitMs: number } | null = { index: 1, waitMs: 90_500 };
  const asked: string[][] = [];
  const shared = {
    openConnection: async () => true,
    closeConnection: () => {},
    takeGameNew: async () => 0,
    takeTokens: async (buckets: readonly { key: string }[]) => (asked.push(buckets.map((b) => b.key)), sharedAnswer),
  };
  const quota = new RegistrationQuota({ perHour: 1, perHourPerNetwork: 10, tracked: 100 }, clock, shared);
  assert.deepEqual(await quota.spend('10.0.0.1', 'net-a'), { refusal: 'name-registrations-per-hour-per-network', waitSeconds: 91 });
  assert.deepEqual(asked, [['registrations:10.0.0.1', 'registrations:net-a']]);
  sharedAnswer = null;
  assert.equal(await quota.spend('10.0.0.1', 'net-a'), null, 'its one token an hour was given back');
  assert.equal((await quota.spend('10.0.0.1', 'net-a'))?.refusal, 'name-registrations-per-hour', 'its own count still holds');
  assert.equal(asked.length, 2, 'refused here: the cluster is not asked');
});
