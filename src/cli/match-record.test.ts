import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiUrl, awaitMatch, fetchMatch } from './match-record.js';

test("the history API is asked on the WebSocket's own host and port, over TLS when the WebSocket is", () => {
  assert.equal(apiUrl('ws://127.0.0.1:8088/', '/api/history/abc').href, 'http://127.0.0.1:8088/api/history/abc');
  assert.equal(apiUrl('wss://coco.example.org/', '/api/history').href, 'https://coco.example.org/api/history');
  assert.equal(apiUrl('https://coco.example.org:444/', '/api/history').href, 'https://coco.example.org:444/api/history');
});

/** A history API on loopback answering each GET with the next of `answers` (the last one repeats). */
async function scriptedApi(answers: readonly { status: number; body: unknown }[]): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  const server = createServer((_request, response) => {
    const answer = answers[Math.min(asked++, answers.length - 1)]!;
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `ws://127.0.0.1:${port}/`, asked: () => asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const SUMMARY = { id: 'abc', game: 'roshambo', name: 'x', players: ['a', 'b'], scores: [1, 0], reason: 'a wins', error: null, ended_at: 1 };

test('a 503 of the history (its database away) is "unavailable" with the reason the server gave, and a waiting player asks again until the record comes', async () => {
  const api = await scriptedApi([{ status: 503, body: { error: 'the match history is unavailable for now; try again later' } }, { status: 200, body: SUMMARY }]);
  try {
    assert.deepEqual(await fetchMatch(api.url, 'abc'), { kind: 'unavailable', why: 'the match history is unavailable for now; try again later' });
    const api2 = await scriptedApi([{ status: 503, body: { error: 'away' } }, { status: 200, body: SUMMARY }]);
    try {
      const found = await awaitMatch(api2.url, 'abc', { waitMs: 60_000, intervalMs: 10 });
      assert.deepEqual(found, { kind: 'found', value: SUMMARY });
      assert.equal(api2.asked(), 2);
    } finally {
      await api2.close();
    }
  } finally {
    await api.close();
  }
});

test('a history that stays unavailable is given up once the wait is over, as unavailable; a 503 without our JSON is no API of ours', async () => {
  const api = await scriptedApi([{ status: 503, body: { error: 'away' } }]);
  try {
    assert.deepEqual(await awaitMatch(api.url, 'abc', { waitMs: 0, intervalMs: 10 }), { kind: 'unavailable', why: 'away' });
  } finally {
    await api.close();
  }
  const other = await scriptedApi([{ status: 503, body: 'busy' }]);
  try {
    assert.deepEqual(await fetchMatch(other.url, 'abc'), { kind: 'no-api' });
  } finally {
    await other.close();
  }
});
