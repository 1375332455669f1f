import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TrustedProxies } from './trusted-proxies.js';

function parsed(text: string): TrustedProxies {
  const result = TrustedProxies.parse(text);
  assert.ok(result.ok, result.ok ? '' : result.error);
  return result.value;
}

test('addresses and CIDR ranges, IPv4 and IPv6, are trusted; nothing else is', () => {
  const trusted = parsed('10.0.0.20, 192.168.1.0/24,fd00::/8,::1');
  for (const address of ['10.0.0.20', '192.168.1.0', '192.168.1.255', '::ffff:192.168.1.9', 'fd12::1', '::1']) assert.ok(trusted.trusts(address), address);
  for (const address of ['10.0.0.21', '192.168.2.1', 'fe80::1', '::2', 'unknown', '']) assert.ok(!trusted.trusts(address), address);
  assert.ok(!trusted.trusts(undefined));
  assert.deepEqual(trusted.entries, ['10.0.0.20', '192.168.1.0/24', 'fd00::/8', '::1']);
  assert.ok(!TrustedProxies.none().any);
  assert.ok(!TrustedProxies.none().trusts('127.0.0.1'));
});

test('a wrong entry is refused with its text', () => {
  for (const text of ['', 'lb.example', '10.0.0.1/33', '10.0.0.1/8/8', 'fd00::/129', '10.0.0.1,', '10.0.0.1/x']) {
    const result = TrustedProxies.parse(text);
    assert.ok(!result.ok, text);
    assert.match(result.ok ? '' : result.error, /--trusted-proxy/);
  }
});

test('X-Forwarded-For: the rightmost address not trusted is the client', () => {
  const trusted = parsed('10.0.0.0/24');
  // nginx appended the client it saw; whatever the client wrote before it is not believed.
  assert.equal(trusted.clientOf('10.0.0.20', '6.6.6.6, 203.0.113.7'), '203.0.113.7');
  // Two proxies: the second trusted hop is walked past.
  assert.equal(trusted.clientOf('10.0.0.20', '203.0.113.7, 10.0.0.21'), '203.0.113.7');
  // Several header lines are one list.
  assert.equal(trusted.clientOf('10.0.0.20', ['6.6.6.6', '203.0.113.7']), '203.0.113.7');
  assert.equal(trusted.clientOf('10.0.0.20', '2001:db8::7'), '2001:db8::7');
  // Every hop trusted: the leftmost is the best there is.
  assert.equal(trusted.clientOf('10.0.0.20', '10.0.0.5,10.0.0.6'), '10.0.0.5');
  // No header: the proxy itself.
  assert.equal(trusted.clientOf('10.0.0.20', undefined), '10.0.0.20');
});

test('X-Forwarded-For from a peer that is not trusted is not read', () => {
  const trusted = parsed('10.0.0.0/24');
  assert.equal(trusted.clientOf('203.0.113.7', '1.2.3.4'), '203.0.113.7');
  assert.equal(TrustedProxies.none().clientOf('127.0.0.1', '1.2.3.4'), '127.0.0.1');
});

test('an entry that is not an address stops the walk at the hop that forwarded it', () => {
  const trusted = parsed('10.0.0.0/24');
  assert.equal(trusted.clientOf('10.0.0.20', 'garbage'), '10.0.0.20');
  assert.equal(trusted.clientOf('10.0.0.20', '203.0.113.7:5555, 10.0.0.21'), '10.0.0.21');
  assert.equal(trusted.clientOf('10.0.0.20', '1.2.3.4, ,203.0.113.7'), '203.0.113.7');
});
