import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FIXTURES, groupAndSession, isAlive, markTestProcesses, processesWithTag } from '../games/external/test-support.js';
import { killTaggedProcesses } from '../util/process-sweep.js';
import { startStdioProgram } from './program-channel.js';

// Whatever a failing test leaves running is killed when the file ends.
after(markTestProcesses());

test("coco kills what the user's program left running in a session of its own when the program exits", async () => {
  // orphan_maker.py (the external games' test fixture) starts a child that calls setsid, then exits.
  const channel = startStdioProgram(['python3', join(FIXTURES, 'orphan_maker.py'), 'exit'], false);
  let text = '';
  const orphanLine = new Promise<RegExpExecArray>((resolve, reject) => {
    channel.output!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /^orphan (\d+) (\S+)\n/m.exec(text);
      if (match) resolve(match);
    });
    channel.output!.on('end', () => reject(new Error(`the program's output ended: ${JSON.stringify(text)}`)));
  });
  let tag: string | undefined;
  try {
    const [, pidText, tags] = await orphanLine;
    const pid = Number(pidText);
    tag = tags!.split(',').at(-1)!;
    assert.deepEqual(groupAndSession(pid), { group: pid, session: pid }, 'the orphan did not leave the group');
    assert.equal(await channel.exited, 0);
    assert.equal(isAlive(pid), false, 'the orphan outlived the program');
    assert.deepEqual(processesWithTag(tag), []);
  } finally {
    await channel.stop();
    if (tag) await killTaggedProcesses(tag);
  }
});
