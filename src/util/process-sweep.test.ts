import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { findTaggedProcesses, killTaggedProcesses, newProcessTag, PROCESS_TAG_VARIABLE, taggedEnvironment } from './process-sweep.js';

/** `sleep 300` with `env` added to ours; resolves once it runs (its environment is in place then). */
async function sleeper(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn('sleep', ['300'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  await once(child, 'spawn');
  return child;
}

/** Kills what a test started, whatever happened in it. */
function killAll(children: readonly ChildProcess[]): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

test('a tag is added after the tags the environment already has, and must not hold a comma', () => {
  assert.equal(taggedEnvironment('b', { PATH: '/bin' })[PROCESS_TAG_VARIABLE], 'b');
  assert.equal(taggedEnvironment('b', { [PROCESS_TAG_VARIABLE]: 'a' })[PROCESS_TAG_VARIABLE], 'a,b');
  assert.equal(taggedEnvironment('b', { PATH: '/bin' }).PATH, '/bin');
  assert.throws(() => taggedEnvironment('a,b'), /without commas/);
  assert.notEqual(newProcessTag(), newProcessTag());
  assert.match(newProcessTag(), /^[0-9a-f]{32}$/);
});

test('a process is found by one of its comma-separated tags, and only by a whole one', async () => {
  const tag = newProcessTag();
  const started: ChildProcess[] = [];
  try {
    const tagged = await sleeper({ [PROCESS_TAG_VARIABLE]: `outer,${tag}` });
    started.push(tagged);
    for (const env of [{ [PROCESS_TAG_VARIABLE]: `${tag}0` }, { [PROCESS_TAG_VARIABLE]: tag.slice(1) }, { [`X_${PROCESS_TAG_VARIABLE}`]: tag }]) {
      started.push(await sleeper(env));
    }
    assert.deepEqual(await findTaggedProcesses(tag), [tagged.pid]);
    assert.deepEqual(await findTaggedProcesses('outer'), [tagged.pid]);
  } finally {
    killAll(started);
  }
});

test('every tagged process is killed and has exited when the sweep resolves; the others are left alone', async () => {
  const tag = newProcessTag();
  const started: ChildProcess[] = [];
  try {
    const tagged = [await sleeper({ [PROCESS_TAG_VARIABLE]: tag }), await sleeper({ [PROCESS_TAG_VARIABLE]: tag })];
    const otherTag = newProcessTag();
    const other = await sleeper({ [PROCESS_TAG_VARIABLE]: otherTag });
    started.push(...tagged, other);
    const exits = tagged.map((child) => once(child, 'exit'));
    assert.deepEqual(await killTaggedProcesses(tag), { killed: 2, survivors: [] });
    assert.deepEqual(await findTaggedProcesses(tag), []);
    for (const [, signal] of await Promise.all(exits)) assert.equal(signal, 'SIGKILL');
    assert.deepEqual(await findTaggedProcesses(otherTag), [other.pid], 'a process with another tag was killed');
    assert.deepEqual(await killTaggedProcesses(tag), { killed: 0, survivors: [] }, 'a second sweep finds nothing');
  } finally {
    killAll(started);
  }
});
