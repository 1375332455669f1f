import type { Socket } from 'node:net';
import { ATTACKER } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { inParallel, tcpWrite, whenClosed } from '../net.js';

const MiB = 1 << 20;

/** A connection to the clobber port from the attacker's address, or null if refused. */
async function connect(context: AttackContext, allowHalfOpen = false): Promise<Socket | null> {
  try {
    return await context.net.tcp(context.server.clobberPort, ATTACKER, { allowHalfOpen });
  } catch {
    return null;
  }
}

/** Collects what the server writes until it closes the connection. */
function received(socket: Socket): () => string {
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    if (text.length < 4096) text += chunk.toString('latin1');
  });
  return () => text;
}

export const clobberGarbage: Attack = {
  name: 'clobber-garbage',
  door: 'clobber port',
  summary: 'random bytes instead of the play line, with or without a line break, the sender then ending its side',
  async run(context) {
    const answers = new Map<string, number>();
    await inParallel(context.scale(300, 5000), 16, async () => {
      const socket = await connect(context);
      context.tried();
      if (!socket) return;
      const text = received(socket);
      const junk = Buffer.from(Array.from({ length: 1 + context.random.int(300) }, () => context.random.int(256)));
      await tcpWrite(socket, context.random.bit() ? Buffer.concat([junk, Buffer.from('\n')]) : junk);
      // A line that is not finished is only judged when the sender stops sending.
      socket.end();
      await whenClosed(socket);
      const answer = JSON.stringify(text().slice(0, 20));
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    });
    context.note(`answers: ${[...answers].map(([a, n]) => `${a} x${n}`).join(', ')}`);
  },
};

export const clobberLongLines: Attack = {
  name: 'clobber-long-lines',
  door: 'clobber port',
  summary: 'megabytes without a line break, before the play line and after it (seated in a match, pairs of attackers)',
  async run(context) {
    const lengths = { before: 0, after: 0 };
    // Pairs: the two of a pair are seated in one match, so the long lines after `play` reach a running seat.
    await inParallel(context.scale(10, 200), 8, async (i) => {
      const socket = await connect(context);
      context.tried();
      if (!socket) return;
      // Read (and drop) what comes back: a socket nobody reads never sees its end.
      socket.resume();
      if (i % 3 === 0) {
        lengths.before++;
        await tcpWrite(socket, Buffer.alloc(context.scale(1, 16) * MiB, 0x61));
      } else {
        lengths.after++;
        await tcpWrite(socket, `play clobber long${i}\n`);
        for (let sent = 0; sent < context.scale(2, 32) * MiB && !socket.destroyed; sent += 64 * 1024) await tcpWrite(socket, Buffer.alloc(64 * 1024, 0x62));
      }
      socket.end();
      await whenClosed(socket);
    });
    context.note(`${lengths.before} before the play line, ${lengths.after} after it`);
  },
};

export const clobberConnectionFlood: Attack = {
  name: 'clobber-connection-flood',
  door: 'clobber port',
  summary: '2,000 connections from one address that never send their play line, left open',
  async run(context) {
    let open = 0;
    await inParallel(context.scale(2000, 8000), 64, async () => {
      context.tried();
      if (await connect(context)) open++;
    });
    context.note(`${open} open`);
  },
};

export const clobberMatchFlood: Attack = {
  name: 'clobber-match-flood',
  door: 'clobber port',
  summary: '2,100 connections from one address each sending its play line (1,050 matches of players that never move)',
  async run(context) {
    const seated = { yes: 0, refused: 0 };
    const count = context.scale(2100, 8000);
    // Every play line the port handles is logged with the client's address and port: that is the event to wait for.
    const handled = new Map<number, (seated: boolean) => void>();
    const off = context.server.onLine((line) => {
      const found = /^clobber port 127\.0\.0\.1:(\d+): (.*)$/.exec(line);
      if (found) handled.get(Number(found[1]))?.(/ joined match /.test(found[2]!));
    });
    let firstRefusal = '';
    await inParallel(count, 32, async (i) => {
      const socket = await connect(context);
      context.tried();
      if (!socket) return void seated.refused++;
      const port = socket.localPort!;
      const done = new Promise<boolean>((resolve) => {
        handled.set(port, resolve);
        socket.once('close', () => resolve(false));
      });
      await tcpWrite(socket, `play clobber flood${i}\n`);
      if (await done) seated.yes++;
      else {
        seated.refused++;
        firstRefusal ||= `connection ${i}`;
      }
      handled.delete(port);
    });
    off();
    context.note(`${seated.yes} seated, ${seated.refused} refused${firstRefusal ? ` (from ${firstRefusal} on)` : ''}`);
  },
};

export const clobberHalfOpen: Attack = {
  name: 'clobber-half-open',
  door: 'clobber port',
  summary: 'connections that end their side at once, or after the play line while still reading',
  async run(context) {
    await inParallel(context.scale(300, 5000), 32, async (i) => {
      const socket = await connect(context, true);
      context.tried();
      if (!socket) return;
      received(socket);
      if (i % 2 === 0) socket.end(`play clobber half${i}\n`);
      else socket.end();
      await whenClosed(socket);
    });
  },
};

export const CLOBBER_PORT_ATTACKS: readonly Attack[] = [clobberGarbage, clobberLongLines, clobberConnectionFlood, clobberMatchFlood, clobberHalfOpen];
