import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { AddressLimits, addressKey } from './address-limits.js';
import { DEFAULT_LIMITS, resolveLimits, type ServerLimits } from './server-limits.js';

function limitsWith(overrides: Record<string, number>): ServerLimits {
  const resolved = resolveLimits(overrides);
  assert.ok(resolved.ok);
  return resolved.value;
}

test('addresses are counted by IPv4 address and by IPv6 /64 network', () => {
  assert.equal(addressKey('127.0.0.1'), '127.0.0.1');
  assert.equal(addressKey('::ffff:10.1.2.3'), '10.1.2.3');
  assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey(undefined), 'unknown');
});

test('one address may hold connections-per-address connections; another address is not affected', () => {
  const limits = new AddressLimits(limitsWith({ 'connections-per-address': 3 }), new ManualClock());
  for (let i = 0; i < 3; i++) assert.equal(limits.openConnection('1.1.1.1'), null);
  assert.equal(limits.openConnection('1.1.1.1'), 'connections-per-address');
  assert.equal(limits.openConnection('2.2.2.2'), null);
  limits.closeConnection('1.1.1.1');
  assert.equal(limits.openConnection('1.1.1.1'), null);
  assert.equal(limits.connections, 4);
});

test('max-connections caps all addresses together', () => {
  const limits = new AddressLimits(limitsWith({ 'max-connections': 2 }), new ManualClock());
  assert.equal(limits.openConnection('1.1.1.1'), null);
  assert.equal(limits.openConnection('2.2.2.2'), null);
  assert.equal(limits.openConnection('3.3.3.3'), 'max-connections');
});

test('GameNew is refused past game-new-per-minute and allowed again as the minute passes', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'game-new-per-minute': 6 }), clock);
  for (let i = 0; i < 6; i++) assert.ok(limits.takeGameNew('1.1.1.1'));
  assert.equal(limits.takeGameNew('1.1.1.1'), false);
  assert.ok(limits.takeGameNew('2.2.2.2'), 'another address has its own allowance');
  await clock.advance(9_000);
  assert.equal(limits.takeGameNew('1.1.1.1'), false, 'a token comes back every 10 s');
  await clock.advance(1_000);
  assert.ok(limits.takeGameNew('1.1.1.1'));
  assert.equal(limits.takeGameNew('1.1.1.1'), false);
});

test('wrong passwords: free attempts, then a back-off that doubles up to its maximum; success resets it', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(
    limitsWith({ 'password-free-attempts': 2, 'password-backoff-seconds': 1, 'password-backoff-max-seconds': 4 }),
    clock,
  );
  const key = '9.9.9.9';
  limits.passwordFailed(key);
  limits.passwordFailed(key);
  assert.equal(limits.passwordWait(key), 0, 'the free attempts cost nothing');
  limits.passwordFailed(key);
  assert.equal(limits.passwordWait(key), 1);
  await clock.advance(1000);
  assert.equal(limits.passwordWait(key), 0);
  limits.passwordFailed(key);
  assert.equal(limits.passwordWait(key), 2);
  await clock.advance(2000);
  limits.passwordFailed(key);
  assert.equal(limits.passwordWait(key), 4);
  await clock.advance(4000);
  limits.passwordFailed(key);
  assert.equal(limits.passwordWait(key), 4, 'never more than the maximum');
  assert.equal(limits.passwordWait('8.8.8.8'), 0, 'other addresses are not slowed');
  await clock.advance(4000);
  limits.passwordSucceeded(key);
  limits.passwordFailed(key);
  assert.equal(limits.passwordWait(key), 0, 'a right password starts the count again');
});

test('memory is bounded: idle addresses are forgotten, and past tracked-addresses the idlest go first', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'tracked-addresses': 100 }), clock);
  limits.openConnection('keep');
  for (let i = 0; i < 1000; i++) {
    limits.openConnection(`10.0.${i >> 8}.${i & 255}`);
    limits.closeConnection(`10.0.${i >> 8}.${i & 255}`);
  }
  assert.ok(limits.tracked <= 100, `${limits.tracked} addresses tracked`);
  for (let i = 0; i < 1000; i++) limits.takeGameNew(`10.1.${i >> 8}.${i & 255}`);
  assert.ok(limits.tracked <= 100, `${limits.tracked} addresses tracked`);
  assert.equal(limits.openConnection('keep'), null, 'an address with open connections is kept');
  assert.equal(limits.connections, 2);
});

test('refusals are logged once, then at most once a minute per address with their count', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(DEFAULT_LIMITS, clock);
  assert.equal(limits.refusalToLog('a'), 1);
  for (let i = 0; i < 50; i++) assert.equal(limits.refusalToLog('a'), null);
  assert.equal(limits.refusalToLog('b'), 1);
  await clock.advance(60_000);
  assert.equal(limits.refusalToLog('a'), 51);
});

test('limits resolve from overrides with their defaults; unknown names and bad values are refused', () => {
  const resolved = resolveLimits({ 'connections-per-address': '5', 'spectators-per-match': 7 });
  assert.ok(resolved.ok);
  assert.equal(resolved.value['connections-per-address'], 5);
  assert.equal(resolved.value['spectators-per-match'], 7);
  assert.equal(resolved.value['max-matches'], DEFAULT_LIMITS['max-matches']);
  assert.deepEqual(resolveLimits({ 'no-such-limit': 1 }), { ok: false, error: 'unknown limit "no-such-limit" (see docs/limits.md)' });
  assert.equal(resolveLimits({ 'max-matches': '0' }).ok, false);
  assert.equal(resolveLimits({ 'max-matches': 'many' }).ok, false);
});
