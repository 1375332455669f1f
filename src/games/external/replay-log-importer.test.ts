import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplayLogImporter } from './replay-log-importer.js';

const LOG = '000.010000 < vis {t:0,create:{id:1,p:[0.5,0.5],geom:[{circle:{r:0.2}}]}}\n000.020000 < over 1 0 done\n';

test('a log becomes the JSON body of the visualizer events; a bad one its error', async () => {
  const importer = new ReplayLogImporter();
  try {
    const ticket = importer.tryAdmit()!;
    const good = await ticket.run(Buffer.from(LOG));
    assert.ok(good.ok);
    const body = JSON.parse(good.value.toString('utf8')) as { vis: { t: number; create: { id: number } }[] };
    assert.equal(body.vis.length, 1);
    assert.equal(body.vis[0]!.create.id, 1);
    // A small Buffer is a slice of Node's shared pool: it is copied to the thread, and the pool stays usable.
    const small = Buffer.from('not a log line\n');
    const bad = await ticket.run(small);
    assert.deepEqual(bad, { ok: false, error: 'replay log line 1 is not "SSS.UUUUUU > line" or "SSS.UUUUUU < line"' });
    assert.equal(small.toString(), 'not a log line\n');
    ticket.release();
  } finally {
    await importer.close();
  }
});

test('admission is bounded, and a released place can be taken again', async () => {
  const importer = new ReplayLogImporter({ concurrentImports: 2 });
  try {
    const first = importer.tryAdmit();
    const second = importer.tryAdmit();
    assert.ok(first && second);
    assert.equal(importer.tryAdmit(), null);
    assert.equal(importer.imports, 2);
    first.release();
    first.release();
    assert.equal(importer.imports, 1, 'releasing twice frees one place');
    const third = importer.tryAdmit();
    assert.ok(third);
    // Both run on the one thread, one after the other.
    const [a, b] = await Promise.all([second.run(Buffer.from(LOG)), third.run(Buffer.from(LOG))]);
    assert.ok(a.ok && b.ok);
  } finally {
    await importer.close();
  }
});

test('nothing is admitted once closed', async () => {
  const importer = new ReplayLogImporter();
  await importer.close();
  assert.equal(importer.tryAdmit(), null);
});
