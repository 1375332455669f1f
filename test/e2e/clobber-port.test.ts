import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { tcpClient } from '../support/clobber-client.js';
import { coco, startCoco, startServer } from '../support/processes.js';

test('two plain TCP clients play a clobber session through the tournament port, watched and recorded', async () => {
  const server = await startServer(['--clobber-port', '0']);
  try {
    const [, port] = await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/);
    const first = tcpClient(Number(port), 'alice', 'a');
    await server.waitForLog(/alice joined match ([0-9a-v]{13})/);
    const lobby = await coco(server.url, ['lobby']);
    const id = /^([0-9a-v]{13})\s+no\s+clobber port\s+clobber\s+1\/2/m.exec(lobby.stdout)?.[1];
    assert.ok(id, lobby.stdout);
    const spectator = startCoco(server.url, ['connect', '-s', id]);
    await spectator.waitForOutput(/> spectating/);
    const second = tcpClient(Number(port), 'alice', 'b');
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.starts.length, 2);
    assert.deepEqual(a.starts.map((l) => l.slice(-1)).sort(), ['0', '1'], 'colours alternate between the two games');
    assert.deepEqual(b.starts.map((l) => l.split(' ').slice(0, 2).join(' ')), ['10 10', '10 10']);
    const watched = await spectator.done;
    assert.match(watched.stdout, /players (alice alice#2|alice#2 alice)\nboard 10 10\ngames 2\n/);
    assert.match(watched.stdout, /\nscore \S+ \d \S+ \d\n/);
    await server.recorded(id);
    const history = await coco(server.url, ['history', id]);
    assert.equal(history.stdout, watched.stdout.split('> reached current status\n')[1]!.split('> match ended')[0]);
  } finally {
    await server.stop();
  }
});

test('garbage instead of the play line gets an error line and the connection closed; the port goes on', async () => {
  const server = await startServer(['--clobber-port', '0']);
  try {
    const [, port] = await server.waitForLog(/clobber tournament port listening on [^:]+:(\d+)/);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('hello there\n'));
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('close', () => resolve(text));
    });
    assert.equal(answer, 'error\n');
    assert.match(server.log(), /expected "play clobber <name>"/);
  } finally {
    await server.stop();
  }
});
