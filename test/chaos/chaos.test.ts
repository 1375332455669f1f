import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChaos } from './run.js';
import { FAULT_KINDS } from './schedule.js';

// The small chaos schedule of `npm test`: three real cocod nodes, real redis-server and
// PostgreSQL, steady roshambo matches, and each kind of fault once, in the order the seed gives.
// Its assertions are the checker's (checker.ts), never timings. Every wait of the run ends on an
// event (a log line, a process's exit, a match started) and the run fails saying why when the load
// cannot go on, rather than hang. `npm run chaos` runs a long one.
test('chaos: under a steady load across three nodes, each fault once (kill -9, SIGSTOP past the lease, Redis restarted with and without its data, PostgreSQL restarted, a node restarted): every started match recorded once as its players saw it, nothing overwritten, nothing left running', async () => {
  const lines: string[] = [];
  const result = await runChaos({ seed: 'npm-test-1', faults: FAULT_KINDS.length, nodes: 3, slots: 2, progress: (line) => lines.push(line) });
  const context = `${JSON.stringify(result, null, 1)}\n${lines.join('\n')}`;
  assert.deepEqual(result.report.problems, [], context);
  assert.ok(result.report.started >= FAULT_KINDS.length, context);
  // A woken node records nothing: the checker's "no record overwritten" and "recorded once" say
  // so from PostgreSQL. Its log cannot: a line written just before SIGSTOP may still be in the
  // pipe when the pause begins, and read as if written after waking.
  for (const woken of result.pausedExits) assert.equal(woken.code, 1, context);
  assert.equal(result.pausedExits.length, 1, context);
});
