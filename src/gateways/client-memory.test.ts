import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../util/clock.js';
import { ClientMemory, type MemoryAccount, type MemoryCut, type MemoryCutReason, type MemoryHolder } from './client-memory.js';

/** A holder whose bytes the test sets by hand, remembering whether (and why) it was cut. */
class FakeHolder implements MemoryHolder {
  bytes = 0;
  cutFor: MemoryCutReason | null = null;
  cutCalls = 0;
  heldBytes(): number {
    return this.bytes;
  }
  cut(why: MemoryCutReason): void {
    this.cutCalls++;
    this.cutFor = why;
  }
}

function setUp(limits = { perConnection: 100, perAddress: 250, serverWide: 600 }): { memory: ClientMemory; cuts: MemoryCut[]; add(key: string, bytes?: number): { holder: FakeHolder; account: MemoryAccount } } {
  const cuts: MemoryCut[] = [];
  const memory = new ClientMemory(limits, { cut: (cut) => cuts.push(cut) });
  return {
    memory,
    cuts,
    add(key, bytes = 0) {
      const holder = new FakeHolder();
      const account = memory.register(key, holder);
      holder.bytes = bytes;
      account.charge();
      return { holder, account };
    },
  };
}

test('a holder past the per-connection budget is cut, and only it', () => {
  const { memory, cuts, add } = setUp();
  const small = add('1.1.1.1', 50);
  const big = add('1.1.1.1', 100);
  assert.equal(memory.heldBy('1.1.1.1'), 150);
  big.holder.bytes = 101;
  assert.equal(big.account.charge(), false);
  assert.equal(big.holder.cutFor, 'client-memory-per-connection');
  assert.equal(small.holder.cutFor, null);
  assert.equal(memory.heldBy('1.1.1.1'), 50);
  assert.equal(memory.total(), 50);
  assert.deepEqual(cuts, [{ addressKey: '1.1.1.1', why: 'client-memory-per-connection', heldBytes: 101 }]);
  // Cut once only, however often it is charged again.
  assert.equal(big.account.charge(), false);
  assert.equal(big.holder.cutCalls, 1);
  assert.equal(memory.cuts()['client-memory-per-connection'], 1);
});

test('past the per-address budget the largest holders of that address are cut until it is under; other addresses are untouched', () => {
  const { memory, add } = setUp();
  const a = add('1.1.1.1', 90);
  const b = add('1.1.1.1', 40);
  const c = add('1.1.1.1', 80);
  const other = add('2.2.2.2', 95);
  assert.equal(memory.heldBy('1.1.1.1'), 210);
  // b grows to 60: 230, still under 250. Then to 99: 269, over by 19; a (90) is the largest and goes.
  b.holder.bytes = 60;
  assert.equal(b.account.charge(), true);
  b.holder.bytes = 99;
  assert.equal(b.account.charge(), false, 'b is now the largest (99 > 90 > 80) and is cut');
  assert.equal(b.holder.cutFor, 'client-memory-per-address');
  assert.equal(a.holder.cutFor, null);
  assert.equal(c.holder.cutFor, null);
  assert.equal(memory.heldBy('1.1.1.1'), 170);
  // A charge by a small holder may cut a bigger one of its address: the address pays, largest first.
  const d = add('1.1.1.1', 0);
  d.holder.bytes = 85;
  assert.equal(d.account.charge(), true);
  assert.equal(a.holder.cutFor, 'client-memory-per-address');
  assert.equal(c.holder.cutFor, null);
  assert.equal(memory.heldBy('1.1.1.1'), 165);
  assert.equal(other.holder.cutFor, null);
  assert.equal(memory.heldBy('2.2.2.2'), 95);
  assert.equal(memory.cuts()['client-memory-per-address'], 2);
});

test('past the server-wide budget the largest holders of all addresses are cut first, until it is under', () => {
  const { memory, add } = setUp({ perConnection: 100, perAddress: 1000, serverWide: 300 });
  const holders = [add('1.1.1.1', 10), add('2.2.2.2', 95), add('3.3.3.3', 30), add('4.4.4.4', 90), add('5.5.5.5', 60)];
  assert.equal(memory.total(), 285);
  const newcomer = add('6.6.6.6', 0);
  newcomer.holder.bytes = 50; // 335: over by 35, the 95 goes (240)
  assert.equal(newcomer.account.charge(), true);
  assert.deepEqual(
    holders.map((h) => h.holder.cutFor),
    [null, 'client-memory-server', null, null, null],
  );
  assert.equal(memory.total(), 240);
  // Several grow at once (seen by a sweep): 100 + 100 + 90 + 60 + 100 = 450, over by 150. The
  // largest go first (ties in the order they came) until it is under: two of the 100s, not the 90.
  holders[0]!.holder.bytes = 100;
  holders[2]!.holder.bytes = 100;
  newcomer.holder.bytes = 100;
  memory.sweep();
  assert.deepEqual(
    holders.map((h) => h.holder.cutFor),
    ['client-memory-server', 'client-memory-server', 'client-memory-server', null, null],
  );
  assert.equal(newcomer.holder.cutFor, null);
  assert.equal(memory.total(), 250);
  assert.equal(memory.cuts()['client-memory-server'], 3);
});

test('release takes a holder out of every total, once, and a released holder is never cut', () => {
  const { memory, add } = setUp();
  const one = add('1.1.1.1', 70);
  const two = add('1.1.1.1', 30);
  one.account.release();
  one.account.release();
  assert.equal(memory.heldBy('1.1.1.1'), 30);
  assert.equal(memory.total(), 30);
  assert.equal(memory.holders(), 1);
  one.holder.bytes = 10_000;
  assert.equal(one.account.charge(), false);
  memory.sweep();
  assert.equal(one.holder.cutFor, null);
  two.account.release();
  assert.equal(memory.heldBy('1.1.1.1'), 0);
  assert.equal(memory.total(), 0);
  assert.equal(memory.holders(), 0);
});

test('a sweep sees bytes that drained without a charge, and cuts those that grew without one', () => {
  const { memory, add } = setUp();
  const drained = add('1.1.1.1', 100);
  const grown = add('2.2.2.2', 10);
  drained.holder.bytes = 0;
  grown.holder.bytes = 150;
  assert.equal(memory.total(), 110, 'until a charge or a sweep, the last charged values count');
  memory.sweep();
  assert.equal(memory.heldBy('1.1.1.1'), 0);
  assert.equal(grown.holder.cutFor, 'client-memory-per-connection');
  assert.equal(memory.total(), 0);
});

test('the sweep runs on the clock it is given, and stops when told', async () => {
  const clock = new ManualClock();
  const { memory, add } = setUp();
  const holder = add('1.1.1.1', 80);
  const stop = memory.startSweeping(clock, 1000);
  holder.holder.bytes = 5;
  await clock.advance(999);
  assert.equal(memory.total(), 80);
  await clock.advance(1);
  assert.equal(memory.total(), 5);
  holder.holder.bytes = 7;
  await clock.advance(1000);
  assert.equal(memory.total(), 7);
  stop();
  holder.holder.bytes = 9;
  await clock.advance(5000);
  assert.equal(memory.total(), 7);
  assert.equal(clock.pending, 0);
});

test('a holder moved to another address counts there from then on', () => {
  const { memory, add } = setUp();
  const proxied = add('10.0.0.1', 60);
  proxied.account.moveTo('3.3.3.3');
  assert.equal(memory.heldBy('10.0.0.1'), 0);
  assert.equal(memory.heldBy('3.3.3.3'), 60);
  assert.equal(memory.total(), 60);
});

test('a holder moved to an address it takes past its budget cuts the largest there, though its own bytes did not change', () => {
  const { memory, add } = setUp();
  const there = add('3.3.3.3', 95);
  const alsoThere = add('3.3.3.3', 90);
  const proxied = add('10.0.0.1', 80);
  proxied.account.moveTo('3.3.3.3');
  assert.equal(there.holder.cutFor, 'client-memory-per-address');
  assert.equal(alsoThere.holder.cutFor, null);
  assert.equal(proxied.holder.cutFor, null);
  assert.equal(memory.heldBy('3.3.3.3'), 170);
});

test('a charge whose bytes did not grow cuts nobody; the next growth past a budget does', () => {
  const { add } = setUp();
  const a = add('1.1.1.1', 100);
  const b = add('1.1.1.1', 100);
  assert.equal(a.account.charge(), true);
  b.holder.bytes = 40;
  assert.equal(b.account.charge(), true);
  b.holder.bytes = 60;
  assert.equal(b.account.charge(), true);
  const c = add('1.1.1.1', 91);
  assert.equal(c.holder.cutFor, null);
  assert.equal(a.holder.cutFor, 'client-memory-per-address');
});

test('a holder that releases itself from inside its cut is counted once', () => {
  const memory = new ClientMemory({ perConnection: 10, perAddress: 100, serverWide: 100 });
  let account: MemoryAccount | null = null;
  let bytes = 0;
  account = memory.register('1.1.1.1', {
    heldBytes: () => bytes,
    cut: () => account?.release(),
  });
  bytes = 11;
  assert.equal(account.charge(), false);
  assert.equal(memory.total(), 0);
  assert.equal(memory.holders(), 0);
});
