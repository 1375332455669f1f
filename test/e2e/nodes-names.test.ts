import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coco, startServer, type ServerProcess } from '../support/processes.js';

// `cocod --nodes 2`: the registration quotas count on both nodes together (the primary's hub),
// so a client whose connections land on either node gets one budget, not one per node.
let server: ServerProcess;
const dirs: string[] = [];

before(async () => {
  server = await startServer(['--nodes', '2', '--limit', 'name-registrations-per-hour=2']);
  await server.waitForLog(/listening on \S+ \(2 nodes/);
});
after(async () => {
  await server?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A user of their own: a config folder nobody else's coco reads. */
function user(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'coco-nodes-names-'));
  dirs.push(dir);
  return { COCO_CONFIG_DIR: dir, COCO_TOKEN: '' };
}

test('cocod --nodes 2: name-registrations-per-hour holds for one address over both nodes', async () => {
  // Connections alternate between the nodes: each node by itself would allow these three.
  for (const name of ['first', 'second']) {
    const registered = await coco(server.url, ['register', name], { env: user() });
    assert.equal(registered.code, 0, registered.stderr);
  }
  const third = await coco(server.url, ['register', 'third'], { env: user() });
  assert.equal(third.code, 3, third.stdout + third.stderr);
  assert.match(third.stderr, /Too many names registered: at most 2 an hour per address; try again in \d+ s/);
});
