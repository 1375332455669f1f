import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiUrl } from './match-record.js';

test("the history API is asked on the WebSocket's own host and port, over TLS when the WebSocket is", () => {
  assert.equal(apiUrl('ws://127.0.0.1:8088/', '/api/history/abc').href, 'http://127.0.0.1:8088/api/history/abc');
  assert.equal(apiUrl('wss://coco.example.org/', '/api/history').href, 'https://coco.example.org/api/history');
  assert.equal(apiUrl('https://coco.example.org:444/', '/api/history').href, 'https://coco.example.org:444/api/history');
});
