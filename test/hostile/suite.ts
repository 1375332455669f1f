import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Attack } from './attack.js';
import { failed, releaseAll, runAttack, type AttackReport } from './harness.js';

/** The seed and budget of `npm test`: the same inputs every run, small enough for a 2-core machine. */
export const TEST_RUN = { seed: 'npm-test', budget: 1, legitRounds: 200, chain: false } as const;

export function describeReport(report: AttackReport): string {
  const lines = failed(report).map((c) => `  FAILED ${c.name}: ${c.detail}`);
  lines.push(`  (${report.inputs} inputs, peak RSS ${report.peakRssMiB} MiB${report.notes.length ? `; ${report.notes.join('; ')}` : ''})`);
  return lines.join('\n');
}

/**
 * One node:test test per attack, each against its own server. Every invariant is asserted; a
 * failure lists all that failed with what was seen. `after` stops whatever a timed-out test left.
 */
export function attackSuite(title: string, attacks: readonly Attack[], timeoutMs: number): void {
  describe(title, { timeout: timeoutMs }, () => {
    after(releaseAll);
    for (const attack of attacks) {
      test(`${attack.name}: ${attack.summary}`, async () => {
        const report = await runAttack(attack, TEST_RUN);
        if (failed(report).length > 0) assert.fail(`${attack.name} broke invariants:\n${describeReport(report)}`);
      });
    }
  });
}
