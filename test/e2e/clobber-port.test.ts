import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Random } from '../../src/match/random.js';
import { apply, legalMoves, startPosition, type Position } from '../../src/games/clobber/rules.js';
import { formatMove, parseMove } from '../../src/games/clobber/notation.js';
import { coco, startCoco, startServer } from '../support/processes.js';

/** A plain 2006 tournament client on a TCP socket, playing random legal moves. */
function tcpClient(port: number, name: string, seed: string): Promise<{ received: string[]; starts: string[] }> {
  return new Promise((resolve, reject) => {
    const random = Random.fromSeed(seed);
    const socket = connect(port, '127.0.0.1');
    const received: string[] = [];
    const starts: string[] = [];
    let position: Position | null = null;
    let buffer = '';
    const move = (): void => {
      const moves = legalMoves(position!);
      if (moves.length === 0) return;
      const chosen = random.pick(moves);
      socket.write(`${formatMove(position!, chosen)}\n`);
      position = apply(position!, chosen);
    };
    socket.on('connect', () => socket.write(`play clobber ${name}\n`));
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        received.push(line);
        const start = /^(\d+) (\d+) ([01])$/.exec(line);
        if (start) {
          starts.push(line);
          const made = startPosition(Number(start[1]), Number(start[2]));
          assert.ok(made.ok);
          position = made.value;
          if (start[3] === '1') move();
        } else if (line === 'error' || line === 'end') position = null;
        else if (position) {
          const theirs = parseMove(line, position);
          assert.ok(theirs.ok, `a move from the server: ${line}`);
          position = apply(position, theirs.value);
          move();
        }
      }
    });
    socket.on('close', () => resolve({ received, starts }));
    socket.on('error', reject);
  });
}

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
