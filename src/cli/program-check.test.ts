import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missingProgram } from './program-check.js';

test('a command whose first program the shell cannot start is named; one it can start, or cannot tell, is not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'program-check-'));
  try {
    const script = join(dir, 'bot.sh');
    writeFileSync(script, '#!/bin/sh\nexec cat\n');
    assert.equal(missingProgram(`${script} --fast`), script, 'not executable yet');
    chmodSync(script, 0o755);
    assert.equal(missingProgram(`${script} --fast`), null);
    assert.equal(missingProgram(join(dir, 'nope')), join(dir, 'nope'));
    assert.equal(missingProgram('surely-no-such-program-here arg'), 'surely-no-such-program-here');
    assert.equal(missingProgram('python3 bot.py'), null);
    assert.equal(missingProgram('cd somewhere && ./bot'), null, 'a builtin');
    assert.equal(missingProgram('X=1 ./nope'), null, 'an assignment first: left to the shell');
    assert.equal(missingProgram('"./my bot"'), null, 'quoted: left to the shell');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
