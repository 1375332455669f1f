import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawClient } from '../support/raw-client.js';
import { newMatch, startCoco, startServer } from '../support/processes.js';

const HANDSHAKE = '{"Handshake":{"magic":"coco","version":2}}';

/** Joins match `id` as `name` and returns the client once the match has started. */
async function joinAndStart(url: string, id: string, name: string): Promise<RawClient> {
  const client = await RawClient.open(url);
  assert.match((await client.ask(HANDSHAKE)) ?? '', /Handshake/);
  assert.match((await client.ask(`{"LobbyJoinMatch":{"id":"${id}","name":"${name}","password":null}}`)) ?? '', /"Ok"/);
  await client.until((frames) => frames.some((frame) => frame.text === '{"MatchStarted":{}}'));
  return client;
}

async function historyOf(port: number, id: string): Promise<{ reason: string; scores: number[] | null }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/history/${id}`);
  assert.equal(response.status, 200, `the history has match ${id}`);
  return (await response.json()) as { reason: string; scores: number[] | null };
}

test('SIGTERM ends a running match as "server shutdown", tells its player, closes with 1001 and exits 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-lifecycle-'));
  const database = join(dir, 'history.sqlite');
  const server = await startServer([], database);
  try {
    // The player never moves: the match waits for it when the server is told to stop.
    const id = await newMatch(server.url, ['roshambo', 'Long', '-b', '1', '-t', '600', '-a', 'rounds=100', '-a', 'pace=0']);
    const player = await joinAndStart(server.url, id, 'papery');
    server.kill('SIGTERM');
    const code = await player.closed;
    assert.equal(code, 1001);
    const texts = player.frames.map((frame) => frame.text).filter((text) => text !== null);
    assert.ok(texts.includes('{"MatchEnded":{}}'), 'the player was told the match ended before the connection closed');
    assert.equal(await server.exited, 0);
    assert.match(server.log(), new RegExp(`match ${id} ended: server shutdown`));
    assert.doesNotMatch(server.log(), /papery retired/);

    const again = await startServer([], database);
    try {
      const record = await historyOf(again.port, id);
      assert.equal(record.reason, 'server shutdown');
      assert.equal(record.scores, null);
    } finally {
      await again.stop();
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('coco connect of a match on a SIGTERM\'d server says "no result (server shutdown)", as the README shows', async () => {
  const server = await startServer();
  try {
    const id = await newMatch(server.url, ['roshambo', 'Long', '-b', '1', '-t', '600', '-a', 'rounds=100', '-a', 'pace=0']);
    // `cat` never answers: the match waits for it when the server is told to stop.
    const player = startCoco(server.url, ['connect', id, '-n', 'mute', '--', 'sh', '-c', 'cat > /dev/null']);
    await player.waitForOutput(/^> match started$/m);
    server.kill('SIGTERM');
    const done = await player.done;
    assert.match(done.stdout, /^> match ended: no result \(server shutdown\)$/m, done.stdout + done.stderr);
    assert.equal(await server.exited, 0);
  } finally {
    await server.stop();
  }
});

test('a match is recorded before its players hear that it ended: kill -9 right after MatchEnded loses nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cocod-lifecycle-'));
  const database = join(dir, 'history.sqlite');
  const server = await startServer([], database);
  try {
    const id = await newMatch(server.url, ['roshambo', 'Short', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
    const player = await joinAndStart(server.url, id, 'rocky');
    player.ws.send(Buffer.from('ROCK\n'), { binary: true });
    await player.until((frames) => frames.some((frame) => frame.text === '{"MatchEnded":{}}'));
    server.kill('SIGKILL');
    assert.equal(await server.exited, null);
    const again = await startServer([], database);
    try {
      const record = await historyOf(again.port, id);
      assert.match(record.reason, /after 1 rounds/);
      assert.equal(record.scores?.length, 2);
    } finally {
      await again.stop();
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
