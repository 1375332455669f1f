import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withFinalNewline } from './history-stream.js';

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

test('a stream without a final newline gets one; one that has it, or is empty, is left as it is', () => {
  assert.equal(text(withFinalNewline(Buffer.from('<room><data class="result"/></room>'))), '<room><data class="result"/></room>\n');
  assert.equal(text(withFinalNewline(Buffer.from('= \n\n'))), '= \n\n');
  assert.equal(withFinalNewline(new Uint8Array(0)).length, 0);
});
