import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProgram } from './child-program.js';
import { FIXTURES, groupAndSession, isAlive, markTestProcesses, openPipes, processesWithTag } from './test-support.js';

// Whatever a failing test leaves running is killed when the file ends.
after(markTestProcesses());

interface Orphan {
  readonly pid: number;
  /** The COCO_PROCESS_TAG value the orphan's parent saw. */
  readonly tags: readonly string[];
}

interface OrphanMaker {
  readonly program: ChildProgram;
  /** Resolves with the first `count` orphans the program reported. */
  orphans(count: number): Promise<Orphan[]>;
  /** Resolves when the program itself has exited. */
  readonly exited: Promise<void>;
}

/** Runs fixtures/orphan_maker.py in `mode` through a ChildProgram. */
function startOrphanMaker(mode: string): OrphanMaker {
  let text = '';
  let outputEnded = false;
  let wake = (): void => {};
  let exitSeen = (): void => {};
  const exited = new Promise<void>((resolve) => (exitSeen = resolve));
  const program = new ChildProgram(
    ['python3', 'orphan_maker.py', mode],
    FIXTURES,
    {
      stdout: (chunk) => {
        text += chunk.toString('utf8');
        wake();
      },
      stdoutEnd: () => {
        outputEnded = true;
        wake();
      },
      exit: () => exitSeen(),
      spawnError: () => {
        outputEnded = true;
        wake();
      },
    },
    { keepStderr: true },
  );
  const orphans = async (count: number): Promise<Orphan[]> => {
    for (;;) {
      const found = [...text.matchAll(/^orphan (\d+) (\S+)\n/gm)].map((match) => ({ pid: Number(match[1]), tags: match[2]!.split(',') }));
      if (found.length >= count) return found.slice(0, count);
      if (outputEnded) throw new Error(`the program's output ended after ${found.length} orphans; stderr: ${program.stderrTail()}`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return { program, orphans, exited };
}

/** The orphan really left the program's process group and session (the test is about nothing otherwise). */
function assertEscaped(orphan: Orphan, program: ChildProgram): void {
  assert.ok(orphan.tags.includes(program.tag), `the orphan's parent has tags ${orphan.tags.join(',')}, not ${program.tag}`);
  assert.ok(isAlive(orphan.pid), 'the orphan is alive before stop()');
  assert.deepEqual(groupAndSession(orphan.pid), { group: orphan.pid, session: orphan.pid });
  assert.notEqual(orphan.pid, program.pid);
  assert.ok(processesWithTag(program.tag).includes(orphan.pid), 'the orphan carries the tag');
}

test('stop() kills a grandchild that left the process group with setsid, and the pipes it held close', async () => {
  const pipesBefore = openPipes();
  const { program, orphans } = startOrphanMaker('stay');
  try {
    const [orphan] = (await orphans(1)) as [Orphan];
    assertEscaped(orphan, program);
    // 'closed' means the exit and the end of the pipes came as events, not the fallback timer.
    assert.equal(await program.stop(), 'closed');
    assert.equal(isAlive(orphan.pid), false);
    assert.deepEqual(processesWithTag(program.tag), []);
    assert.deepEqual(
      openPipes().filter((fd) => !pipesBefore.includes(fd)),
      [],
      'pipes to the program are still open',
    );
    assert.equal(await program.stop(), 'closed', 'a second stop() gives the same outcome');
  } finally {
    await program.stop();
  }
});

test('stop() after the program exited by itself kills the grandchild that still holds its stdout', async () => {
  const pipesBefore = openPipes();
  const { program, orphans, exited } = startOrphanMaker('exit');
  try {
    const [orphan] = (await orphans(1)) as [Orphan];
    await exited;
    assertEscaped(orphan, program);
    assert.equal(await program.stop(), 'closed');
    assert.equal(isAlive(orphan.pid), false);
    assert.deepEqual(processesWithTag(program.tag), []);
    assert.deepEqual(openPipes().filter((fd) => !pipesBefore.includes(fd)), []);
  } finally {
    await program.stop();
  }
});

test('stop() also kills the setsid children a program keeps starting while it is being stopped', async () => {
  const { program, orphans } = startOrphanMaker('spawner');
  try {
    const seen = await orphans(3);
    for (const orphan of seen) assertEscaped(orphan, program);
    assert.equal(await program.stop(), 'closed');
    assert.deepEqual(processesWithTag(program.tag), []);
    assert.deepEqual(
      seen.filter((orphan) => isAlive(orphan.pid)),
      [],
    );
  } finally {
    await program.stop();
  }
});

test("stopping one program leaves another program's processes alone", async () => {
  const first = startOrphanMaker('stay');
  const second = startOrphanMaker('stay');
  try {
    const [firstOrphan] = (await first.orphans(1)) as [Orphan];
    const [secondOrphan] = (await second.orphans(1)) as [Orphan];
    assert.notEqual(first.program.tag, second.program.tag);
    assert.equal(await first.program.stop(), 'closed');
    assert.equal(isAlive(firstOrphan.pid), false);
    assert.ok(isAlive(secondOrphan.pid), "the other program's orphan was killed too");
    assert.ok(isAlive(second.program.pid!), 'the other program was killed too');
    assert.equal(await second.program.stop(), 'closed');
    assert.equal(isAlive(secondOrphan.pid), false);
  } finally {
    await first.program.stop();
    await second.program.stop();
  }
});
