import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskRedisUrl } from './redis-url.js';

test('a Redis URL in a log line has its password masked, and an unreadable one is not shown at all', () => {
  assert.equal(maskRedisUrl('redis://:hunter2@10.0.0.5:6379/1'), 'redis://:***@10.0.0.5:6379/1');
  assert.equal(maskRedisUrl('rediss://coco:hunter2@cache.example'), 'rediss://coco:***@cache.example');
  assert.equal(maskRedisUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
  assert.equal(maskRedisUrl('::hunter2@'), '(an unreadable Redis URL)');
});
