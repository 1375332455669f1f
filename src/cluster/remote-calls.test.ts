import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { ipcChannel, portEnd } from './ipc-channel.js';
import { RemoteCaller, serveCalls, type RemoteAnswer, type RemoteCall } from './remote-calls.js';

type Op = 'double' | 'fail' | 'never';

function pair(): { caller: RemoteCaller<Op>; close(): void } {
  const pipe = new MessageChannel();
  const store = {
    double: async (n: number) => n * 2,
    fail: async () => {
      throw new Error('the owner says no');
    },
    never: () => new Promise<never>(() => {}),
    secret: async () => 'not to be called',
  };
  // 'secret' is a method of the store but not an operation: a node cannot call it.
  serveCalls(store, ['double', 'fail', 'never'], ipcChannel<RemoteCall<Op>, RemoteAnswer>(portEnd(pipe.port1), 'calls'), 'test store');
  const caller = new RemoteCaller<Op>(ipcChannel<RemoteAnswer, RemoteCall<Op>>(portEnd(pipe.port2), 'calls'), 'test store');
  return { caller, close: () => pipe.port1.close() };
}

test("a call is answered with the owner's value, or its error", async (t) => {
  const { caller, close } = pair();
  t.after(close);
  assert.equal(await caller.ask('double', [21]), 42);
  await assert.rejects(caller.ask('fail', []), /the owner says no/);
});

test('an operation the owner does not serve is refused, not called', async (t) => {
  const { caller, close } = pair();
  t.after(close);
  await assert.rejects(caller.ask('secret' as Op, []), /no test store operation "secret"/);
});

test('when the owner is gone what waits fails, and a closed caller asks nothing more', async (t) => {
  const { caller, close } = pair();
  t.after(close);
  const waiting = caller.ask('never', []);
  caller.fail('the primary process is gone');
  await assert.rejects(waiting, /the primary process is gone/);
  caller.close();
  await assert.rejects(caller.ask('double', [1]), /the test store is closed/);
});
