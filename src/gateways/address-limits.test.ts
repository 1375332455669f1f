import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { matchSecret } from '../util/secret.js';
import { AddressLimits, addressKey } from './address-limits.js';
import { networkKey } from './network-key.js';
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
  for (let i = 0; i < 6; i++) assert.equal(limits.takeGameNew('1.1.1.1'), null);
  assert.equal(limits.takeGameNew('1.1.1.1'), 'game-new-per-minute');
  assert.equal(limits.takeGameNew('2.2.2.2'), null, 'another address has its own allowance');
  await clock.advance(9_000);
  assert.equal(limits.takeGameNew('1.1.1.1'), 'game-new-per-minute', 'a token comes back every 10 s');
  await clock.advance(1_000);
  assert.equal(limits.takeGameNew('1.1.1.1'), null);
  assert.equal(limits.takeGameNew('1.1.1.1'), 'game-new-per-minute');
});

test('wrong passwords: free attempts, then a back-off that doubles up to its maximum; success resets it', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(
    limitsWith({ 'password-free-attempts': 2, 'password-backoff-seconds': 1, 'password-backoff-max-seconds': 4 }),
    clock,
  );
  const key = '9.9.9.9';
  limits.passwordFailed(key, 'master');
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 0, 'the free attempts cost nothing');
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 1);
  await clock.advance(1000);
  assert.equal(limits.passwordWait(key, 'master'), 0);
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 2);
  await clock.advance(2000);
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 4);
  await clock.advance(4000);
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 4, 'never more than the maximum');
  assert.equal(limits.passwordWait('8.8.8.8', 'master'), 0, 'other addresses are not slowed');
  await clock.advance(4000);
  limits.passwordSucceeded(key, 'master');
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 0, 'a right password starts the count again');
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

test('back-off counts per secret: the right password of one\'s own match does not clear the failures on the master password', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'password-free-attempts': 3, 'password-backoff-seconds': 1, 'password-backoff-max-seconds': 300 }), clock);
  const attacker = '6.6.6.6';
  // The reset attack: a wrong master password, then the right password of a match the attacker made.
  let held = 0;
  for (let guess = 0; guess < 20; guess++) {
    if (limits.passwordWait(attacker, 'master') > 0) held++;
    else limits.passwordFailed(attacker, 'master');
    limits.passwordSucceeded(attacker, matchSecret('OWN123'));
  }
  assert.equal(held, 16, 'past the free attempts every guess is held back');
  assert.ok(limits.passwordWait(attacker, 'master') > 0);
  assert.equal(limits.passwordWait(attacker, matchSecret('OWN123')), 0, 'its own match is not held back');
  assert.equal(limits.passwordWait('7.7.7.7', 'master'), 0, 'another address is not held back');
  assert.equal(limits.passwordWait(attacker, 'socha-admin'), 0, 'nor another secret');
  limits.passwordSucceeded(attacker, 'socha-admin');
  assert.ok(limits.passwordWait(attacker, 'master') > 0, 'a success on the socha admin password clears nothing else either');
});

test('back-off: failures on many secrets cannot push out the count of another; past password-secrets-per-address they share one count', () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'password-free-attempts': 1, 'password-secrets-per-address': 4 }), clock);
  const key = '6.6.6.6';
  limits.passwordFailed(key, 'master');
  limits.passwordFailed(key, 'master');
  const wait = limits.passwordWait(key, 'master');
  assert.ok(wait > 0);
  for (let i = 0; i < 100; i++) limits.passwordFailed(key, matchSecret(`M${i}`));
  assert.equal(limits.passwordWait(key, 'master'), wait, 'the master count is kept');
  assert.equal(limits.passwordWait(key, matchSecret('M0')), 0, 'a counted secret below its free attempts');
  assert.ok(limits.passwordWait(key, matchSecret('M99')) > 0, 'the shared count of the further secrets is held back');
  assert.ok(limits.passwordWait(key, matchSecret('never-tried')) > 0, 'any further secret goes by the shared count');
});

test('back-off: a count is forgotten once nothing was added to it for password-backoff-max-seconds after its wait ended', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'password-free-attempts': 1, 'password-backoff-seconds': 1, 'password-backoff-max-seconds': 10 }), clock);
  const key = '6.6.6.6';
  limits.passwordFailed(key, 'master');
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 1);
  assert.equal(limits.tracked, 1);
  await clock.advance(1000 + 9_999);
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 2, 'not yet forgotten: the wait doubles');
  await clock.advance(2000 + 10_000);
  assert.equal(limits.passwordWait(key, 'master'), 0);
  limits.passwordFailed(key, 'master');
  assert.equal(limits.passwordWait(key, 'master'), 0, 'forgotten: the free attempt again');
});

test('back-off memory is bounded by tracked-addresses, and an address held back is not the first forgotten', () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'tracked-addresses': 100, 'password-free-attempts': 1 }), clock);
  limits.passwordFailed('6.6.6.6', 'master');
  limits.passwordFailed('6.6.6.6', 'master');
  for (let i = 0; i < 1000; i++) limits.passwordFailed(`10.2.${i >> 8}.${i & 255}`, 'master');
  assert.ok(limits.tracked <= 100, `${limits.tracked} addresses tracked`);
  assert.ok(limits.passwordWait('6.6.6.6', 'master') > 0, 'the address held back is still held back');
});

test('networks: addresses are grouped by IPv4 /24 and IPv6 /48 by default, and by the configured prefixes', () => {
  const limits = new AddressLimits(DEFAULT_LIMITS, new ManualClock());
  assert.equal(limits.network('10.1.2.3'), 'net:10.1.2.0/24');
  assert.equal(limits.network(addressKey('2001:db8:1:2:aaaa::1')), 'net:2001:db8:1:0::/48');
  assert.equal(limits.network(addressKey('2001:db8:1:ff00::1')), 'net:2001:db8:1:0::/48', 'one /56 of many /64s is one network');
  assert.equal(limits.network('unknown'), 'net:unknown');
  assert.equal(networkKey('10.1.2.3', 16, 48), 'net:10.1.0.0/16');
  assert.equal(networkKey('255.255.255.255', 20, 48), 'net:255.255.240.0/20');
  assert.equal(networkKey('10.1.2.3', 32, 48), 'net:10.1.2.3/32');
  assert.equal(networkKey('2001:db8:abcd:1234::/64', 24, 48), 'net:2001:db8:abcd:0::/48');
  assert.equal(networkKey('2001:db8:abcd:1234::/64', 24, 40), 'net:2001:db8:ab00:0::/40');
  assert.equal(networkKey('2001:db8:abcd:1234::/64', 24, 64), 'net:2001:db8:abcd:1234::/64');
  assert.equal(resolveLimits({ 'network-prefix-v4': 33 }).ok, false, 'a prefix past 32 is refused');
  assert.equal(resolveLimits({ 'network-prefix-v6': 65 }).ok, false, 'an IPv6 prefix past 64 is refused (an address is a /64)');
  assert.ok(resolveLimits({ 'network-prefix-v6': 56 }).ok);
});

test('connections-per-network caps the addresses of one network together; another network is not affected', () => {
  const limits = new AddressLimits(limitsWith({ 'connections-per-address': 2, 'connections-per-network': 5 }), new ManualClock());
  for (let i = 0; i < 5; i++) assert.equal(limits.openConnection(`10.0.0.${i}`), null);
  assert.equal(limits.openConnection('10.0.0.200'), 'connections-per-network', 'a fresh address of the same /24');
  assert.equal(limits.openConnection('10.0.1.1'), null, 'another /24');
  limits.closeConnection('10.0.0.1');
  assert.equal(limits.openConnection('10.0.0.200'), null, 'a closed connection gives the network its slot back');
  assert.equal(limits.moveConnection('10.0.0.200', '10.0.0.201'), null, 'a move within the network keeps its count');
  assert.equal(limits.moveConnection('10.0.1.1', '10.0.0.202'), 'connections-per-network', 'a move into a full network is refused');
  assert.equal(limits.connections, 6);
});

test('a trusted proxy\'s own connections count towards max-connections only, not in its network', () => {
  const limits = new AddressLimits(limitsWith({ 'connections-per-address': 2, 'connections-per-network': 3 }), new ManualClock());
  for (let i = 0; i < 10; i++) assert.equal(limits.openConnection('10.0.0.99', false), null);
  for (let i = 0; i < 3; i++) assert.equal(limits.openConnection(`10.0.0.${i}`), null, 'the clients of the proxy\'s network still have its whole budget');
  assert.equal(limits.openConnection('10.0.0.3'), 'connections-per-network');
  assert.equal(limits.moveConnection('10.0.0.99', '10.0.0.4'), 'connections-per-network', 'a client the proxy names counts in its network');
  limits.closeConnection('10.0.0.0');
  assert.equal(limits.moveConnection('10.0.0.99', '10.0.0.4'), null);
  for (let i = 0; i < 9; i++) limits.closeConnection('10.0.0.99');
  assert.equal(limits.openConnection('10.0.0.5'), 'connections-per-network', 'closing the proxy\'s own gave the network nothing back: it had taken nothing');
  assert.equal(limits.connections, 3);
});

test('game-new-per-minute-per-network caps the addresses of one network together; neither bucket is spent on a refusal', async () => {
  const clock = new ManualClock();
  const limits = new AddressLimits(limitsWith({ 'game-new-per-minute': 2, 'game-new-per-minute-per-network': 3 }), clock);
  assert.equal(limits.takeGameNew('10.0.0.1'), null);
  assert.equal(limits.takeGameNew('10.0.0.1'), null);
  assert.equal(limits.takeGameNew('10.0.0.1'), 'game-new-per-minute');
  assert.equal(limits.takeGameNew('10.0.0.2'), null);
  assert.equal(limits.takeGameNew('10.0.0.3'), 'game-new-per-minute-per-network');
  assert.equal(limits.takeGameNew('10.0.9.9'), null, 'another network has its own bucket');
  await clock.advance(20_000);
  assert.equal(limits.takeGameNew('10.0.0.3'), null, 'a network token is back after 20 s, and 10.0.0.3 had spent none');
  assert.equal(limits.trackedNetworks, 2);
});
