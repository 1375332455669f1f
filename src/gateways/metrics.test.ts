import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerMetrics, type MetricSources } from './metrics.js';

function sources(values: { http: number; waiting: number; running: number; queued: number; store: number }): MetricSources {
  return {
    connections: () => ({ http: values.http, coco: 2 }),
    matches: () => ({ waiting: values.waiting, running: values.running }),
    outboundQueuedBytes: () => values.queued,
    storeQueueDepth: () => values.store,
    clientMemoryBytes: () => values.queued * 2,
  };
}

test('gauges read their sources at each scrape', async () => {
  const values = { http: 1, waiting: 3, running: 1, queued: 0, store: 0 };
  const metrics = new ServerMetrics(sources(values), { processMetrics: false });
  let text = await metrics.text();
  assert.match(text, /^cocod_connections\{front_door="http"\} 1$/m);
  assert.match(text, /^cocod_connections\{front_door="coco"\} 2$/m);
  assert.match(text, /^cocod_connections\{front_door="socha"\} 0$/m, 'a door left out reads 0');
  assert.match(text, /^cocod_matches\{state="waiting"\} 3$/m);
  Object.assign(values, { http: 5, running: 4, queued: 1234, store: 7 });
  text = await metrics.text();
  assert.match(text, /^cocod_connections\{front_door="http"\} 5$/m);
  assert.match(text, /^cocod_matches\{state="running"\} 4$/m);
  assert.match(text, /^cocod_outbound_queued_bytes 1234$/m);
  assert.match(text, /^cocod_store_queue_depth 7$/m);
  assert.match(text, /^cocod_client_memory_bytes 2468$/m);
});

test('counters count, and two servers keep separate registries', async () => {
  const one = new ServerMetrics(sources({ http: 0, waiting: 0, running: 0, queued: 0, store: 0 }));
  const two = new ServerMetrics(sources({ http: 0, waiting: 0, running: 0, queued: 0, store: 0 }));
  one.refused('replay_log_too_large');
  one.refused('replay_log_too_large');
  one.refused('replay_import_busy');
  one.movePlayed();
  const text = await one.text();
  assert.match(text, /^cocod_requests_refused_total\{reason="replay_log_too_large"\} 2$/m);
  assert.match(text, /^cocod_requests_refused_total\{reason="replay_import_busy"\} 1$/m);
  assert.match(text, /^cocod_moves_total 1$/m);
  assert.match(text, /^process_cpu_user_seconds_total /m);
  const other = await two.text();
  assert.match(other, /^cocod_moves_total 0$/m);
  assert.ok(!other.includes('reason="replay_log_too_large"'));
});
