import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryHub } from '../cluster/memory-hub.js';
import { ManualClock } from '../util/clock.js';
import { AddressLimits } from './address-limits.js';
import { resolveLimits, type ServerLimits } from './server-limits.js';

function limitsWith(overrides: Record<string, number>): ServerLimits {
  const resolved = resolveLimits(overrides);
  assert.ok(resolved.ok);
  return resolved.value;
}

/** Lets the hub's answers (microtasks) arrive. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('two nodes: a connection admitted by its own node is cut when the address holds its budget on all nodes together; a closed one frees its slot', async () => {
  const clock = new ManualClock();
  const hub = new MemoryHub(clock);
  const limits = limitsWith({ 'connections-per-address': 2 });
  const one = new AddressLimits(limits, clock, hub.link('one').addresses);
  const two = new AddressLimits(limits, clock, hub.link('two').addresses);
  const cut: string[] = [];
  assert.equal(one.openConnection('1.1.1.1'), null);
  const releaseFirst = one.clusterConnection('1.1.1.1', () => cut.push('first'));
  await settle();
  assert.equal(two.openConnection('1.1.1.1'), null);
  two.clusterConnection('1.1.1.1', () => cut.push('second'));
  await settle();
  assert.equal(two.openConnection('1.1.1.1'), null, 'node two alone holds one: its own count admits it');
  two.clusterConnection('1.1.1.1', () => cut.push('third'));
  await settle();
  assert.deepEqual(cut, ['third'], 'the cluster holds two already: the third is cut');
  two.closeConnection('1.1.1.1');
  one.closeConnection('1.1.1.1');
  releaseFirst();
  assert.equal(two.openConnection('1.1.1.1'), null);
  two.clusterConnection('1.1.1.1', () => cut.push('fourth'));
  await settle();
  assert.deepEqual(cut, ['third'], 'the first one closed: its slot is free');
});

test('two nodes: GameNew shares one bucket per address; once it is empty, each node refuses until a token is back', async () => {
  const clock = new ManualClock();
  const hub = new MemoryHub(clock);
  const limits = limitsWith({ 'game-new-per-minute': 4 });
  const one = new AddressLimits(limits, clock, hub.link('one').addresses);
  const two = new AddressLimits(limits, clock, hub.link('two').addresses);
  for (let i = 0; i < 2; i++) {
    assert.equal(one.takeGameNew('1.1.1.1'), null);
    assert.equal(two.takeGameNew('1.1.1.1'), null);
    await settle();
  }
  // Each node has two of its own four left, the shared bucket none: the next answer says so.
  assert.equal(one.takeGameNew('1.1.1.1'), null, 'decided at once by this node; the cluster answers a round trip later');
  await settle();
  assert.equal(one.takeGameNew('1.1.1.1'), 'game-new-per-minute', 'the shared bucket is empty');
  assert.equal(two.takeGameNew('1.1.1.1'), null);
  await settle();
  assert.equal(two.takeGameNew('1.1.1.1'), 'game-new-per-minute');
  assert.equal(one.takeGameNew('2.2.2.2'), null, 'another address has its own bucket');
  await clock.advance(15_000);
  assert.equal(two.takeGameNew('1.1.1.1'), null, 'a token comes back every 15 s');
});
