import WebSocket from 'ws';
import type { Random } from '../../../src/match/random.js';
import { ATTACKER } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { FORGED_LINE } from '../checks.js';
import { CocoPeer, gameNew } from '../coco-peer.js';
import { firstOf, inParallel, rawSocket, wsClosed, wsSend } from '../net.js';
import { WRONG_PASSWORD_PREFIX } from '../server.js';

const HANDSHAKE = '{"Handshake":{"magic":"coco","version":2}}';
const MiB = 1 << 20;
/** What the server documents for a client that does not read (README: "passes 64 MiB"). */
const UNSENT_LIMIT = 64 * MiB;

/** Opens a coco connection from the attacker's address, or null if the server refuses it. */
async function peer(context: AttackContext, handshake = true, address = ATTACKER): Promise<CocoPeer | null> {
  try {
    return await CocoPeer.open(context.net, context.server.url, address, handshake);
  } catch {
    return null;
  }
}

/** Counts the replies of type `type` until `count` arrived or the connection closed; returns how many did. */
async function replies(client: CocoPeer, type: string, count: number, each: (reply: unknown) => void = () => {}): Promise<number> {
  let seen = 0;
  while (seen < count) {
    const frame = await client.next();
    if (frame === null) break;
    if (frame.kind === 'reply' && frame.reply.type === type) {
      seen++;
      each(frame.reply);
    }
  }
  return seen;
}

function junk(random: Random, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = random.int(256);
  return bytes;
}

/** One hostile frame: text (string), text with invalid UTF-8 ({ invalidText }) or binary (Buffer). */
type Hostile = string | Buffer | { readonly invalidText: Buffer };

function hostileFrame(random: Random): Hostile {
  const depth = 1 + random.int(200_000);
  switch (random.int(16)) {
    case 0: return junk(random, 1 + random.int(512));
    case 1: return { invalidText: Buffer.concat([Buffer.from('{"LobbyList":'), junk(random, 1 + random.int(64)), Buffer.from([0xff, 0xfe])]) };
    case 2: return junk(random, 1 + random.int(64)).toString('latin1');
    case 3: return random.pick(['{"GameNew":', '{', 'nul', '"LobbyList', '{"LobbyList":{}}{"GameList":{}}', '{"":{}}', '[]', '1e999', '{"LobbyList":{},"GameList":{}}']);
    case 4: return '['.repeat(depth) + ']'.repeat(depth);
    case 5: return '{"a":'.repeat(depth >> 2) + '1' + '}'.repeat(depth >> 2);
    case 6: return `{"GameNew":{"name":"x","game":"roshambo","params":${'['.repeat(depth)}`;
    case 7: return `{"GameNew":{"name":5,"game":[],"params":null,"args":{"rounds":${random.pick(['1', 'null', '{}', '"\\u0000"'])}}}}`;
    case 8: return `{"GameNew":{"name":"n","game":"roshambo","params":{"players":${random.pick(['-1', '1e308', '2.5', '"2"', '4294967296'])},"bots":${random.pick(['-0', '1e400', '0'])},"timeout":${random.pick(['-1', '1e308', 'NaN', '0'])}},"args":{},"password":null,"verification":null}}`;
    case 9: return random.pick(['{"LobbyLeaveMatch":{}}', '{"SpectateLeave":null}', '{"LobbyUnsubscribe":{}}', '"HistoryMatchList"', '{"Handshake":{"magic":"coco","version":2}}']);
    case 10: return `{"HistoryMatch":{"id":"${random.pick(['', 'zz', '0000000000001', 'x'.repeat(100_000), '\\ud800'])}"}}`;
    case 11: return `{"SpectateJoin":{"id":${random.pick(['null', '1', '"vvvvvvvvvvvvv"', '"\\u0000"', '{"__proto__":1}'])}}}`;
    case 12: return `{"__proto__":{"LobbyList":{}}}`;
    case 13: return `{"GameDescription":{"name":"${random.pick(['__proto__', 'constructor', '\\ud800', 'x'.repeat(50_000)])}"}}`;
    case 14: return `{"VisSubscribe":{"id":"${random.pick(['', '__proto__', 'zzzzzzzzzzzzz'])}"}}`;
    default: return random.pick(['{"LobbyList":{}}', '"GameList"', '{"HistoryMatchList":null}']);
  }
}

/** Resolves at the next message from the server or when the connection closes. */
function answered(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      ws.off('message', done);
      ws.off('close', done);
      resolve();
    };
    ws.on('message', done);
    ws.on('close', done);
  });
}

function sendHostile(ws: WebSocket, frame: Hostile): Promise<void> {
  if (typeof frame === 'string') return wsSend(ws, frame, false);
  if (Buffer.isBuffer(frame)) return wsSend(ws, frame, true);
  return wsSend(ws, frame.invalidText, false);
}

export const cocoGarbageFrames: Attack = {
  name: 'coco-garbage-frames',
  door: 'coco WebSocket',
  summary: 'garbage text and binary frames, invalid UTF-8, invalid and deeply nested JSON, wrong types, out-of-state requests, before and after the handshake',
  async run(context) {
    let left = context.scale(1000, 200_000);
    let connections = 0;
    await inParallel(context.scale(8, 32), 8, async () => {
      while (left > 0) {
        let ws: WebSocket;
        try {
          ws = await context.net.ws(context.server.url, ATTACKER);
        } catch {
          left--;
          context.tried();
          continue;
        }
        connections++;
        if (context.random.int(3) > 0) {
          const shaken = answered(ws);
          await wsSend(ws, HANDSHAKE);
          await shaken;
        }
        // The server closes a connection at its first invalid request: keep sending until it has.
        while (left > 0 && ws.readyState === WebSocket.OPEN) {
          left--;
          context.tried();
          const frame = hostileFrame(context.random);
          // A text frame is answered or refused (the connection closed); binary frames are ignored outside a game.
          const judged = Buffer.isBuffer(frame) ? null : answered(ws);
          await sendHostile(ws, frame);
          await judged;
        }
        ws.terminate();
        await wsClosed(ws);
      }
    });
    context.note(`${connections} connections`);
  },
};

/** A GameNew of almost 16 MiB: a million argument keys (built once, it takes a while). */
let hugeGameNew: Buffer | null = null;
function millionKeyGameNew(): Buffer {
  if (!hugeGameNew) {
    const keys: string[] = [];
    for (let i = 0; i < 1_000_000; i++) keys.push(`"k${i.toString(36)}":"${i % 10}"`);
    hugeGameNew = Buffer.from(`{"GameNew":{"name":"big","game":"roshambo","params":{"players":2,"bots":0,"timeout":null},"args":{${keys.join(',')}},"password":null,"verification":null}}`);
  }
  return hugeGameNew;
}

export const cocoHugeGameNew: Attack = {
  name: 'coco-huge-gamenew',
  door: 'coco WebSocket',
  summary: 'GameNew text frames of ~12 MiB holding 1,000,000 argument keys (one; several at once in the fuzz run)',
  async run(context) {
    const frame = millionKeyGameNew();
    const outcomes = { answered: 0, closed: 0, refused: 0 };
    await Promise.all(
      Array.from({ length: context.scale(1, 8) }, async () => {
        const client = await peer(context);
        context.tried();
        if (!client) return void outcomes.refused++;
        await wsSend(client.ws, frame, false);
        const reply = await client.until('GameNew');
        if (reply) outcomes.answered++;
        else outcomes.closed++;
        client.terminate();
      }),
    );
    context.note(`${frame.length} bytes each: ${outcomes.answered} answered, ${outcomes.closed} closed by the server, ${outcomes.refused} connections refused`);
  },
};

export const cocoUnreadReplies: Attack = {
  name: 'coco-unread-replies',
  door: 'coco WebSocket',
  summary: 'a client sends 10,000 (fuzz: 50,000) GameDescription/LobbyList requests and never reads its socket',
  async run(context) {
    const client = await peer(context);
    if (!client) return context.note('connection refused');
    // ws's own pause: it also keeps the socket paused when its parser drains.
    client.ws.pause();
    const socket = rawSocket(client.ws);
    const count = context.scale(10_000, 400_000);
    for (let i = 0; i < count; i++) {
      client.sendText(i % 4 === 3 ? '{"LobbyList":{}}' : '{"GameDescription":{"name":"hase-und-igel"}}');
      // Let the socket drain now and then, so the client's own memory stays small.
      if (i % 5000 === 4999) await wsSend(client.ws, '{"LobbyList":{}}');
      context.tried();
    }
    // Requests are handled in order: once this one's match exists, every request before it was answered.
    const marker = `unread-${context.random.uint32().toString(36)}`;
    client.send(gameNew('roshambo', marker));
    const port = socket.localPort;
    const how = await firstOf(
      context.watch.created(marker).then(() => 'all handled' as const),
      // A server that cuts the client off says so in its log (naming its address and port) and never handles the marker.
      new Promise<'cut off'>((resolve) => {
        const mine = new RegExp(`127\\.0\\.0\\.1:${port}\\b`);
        const off = context.server.onLine((line) => mine.test(line) && (off(), resolve('cut off')));
      }),
      context.server.exited.then(() => 'server gone' as const),
    );
    // What did the server keep for us? Read it now, and stop once it is clearly more than allowed.
    let received = 0;
    let sawMarker = false;
    client.ws.on('message', (data: Buffer, isBinary: boolean) => {
      received += data.length;
      if (!isBinary && data.length < 200 && data.subarray(0, 12).toString() === '{"GameNew":{') sawMarker = true;
      if (received > UNSENT_LIMIT + 16 * MiB || sawMarker) client.terminate();
    });
    client.ws.resume();
    await client.closed;
    const mib = (received / MiB).toFixed(1);
    context.note(`${how}; a client that never read got ${mib} MiB when it finally read`);
    context.check(
      `a client that never reads is cut off once its unsent replies pass ${UNSENT_LIMIT / MiB} MiB`,
      how !== 'all handled' && received <= UNSENT_LIMIT + 16 * MiB,
      `the server ${how === 'all handled' ? `kept the replies to all ${count} requests` : how}; the client then received ${mib} MiB${received > UNSENT_LIMIT + 16 * MiB ? ' (and more: it stopped reading)' : ' before the connection closed'}`,
    );
  },
};

export const cocoWatcherFlood: Attack = {
  name: 'coco-watcher-flood',
  door: 'coco WebSocket',
  summary: '200 VisSubscribe and 200 SpectateJoin on the legitimate match, each connection then never reads',
  async run(context) {
    const counts = { accepted: 0, refused: 0, closed: 0 };
    const each = context.scale(200, 2000);
    await inParallel(2 * each, 32, async (i) => {
      const client = await peer(context);
      context.tried();
      if (!client) return void counts.closed++;
      const vis = i % 2 === 0;
      client.send(vis ? { type: 'VisSubscribe', id: context.legitId } : { type: 'SpectateJoin', id: context.legitId });
      const reply = vis ? await client.until('VisSubscribed') : await client.until('SpectateJoined');
      if (reply === null) counts.closed++;
      else if ('Ok' in reply.info) counts.accepted++;
      else counts.refused++;
      client.ws.pause();
    });
    context.note(`${counts.accepted} watching, ${counts.refused} refused, ${counts.closed} closed`);
  },
};

export const cocoLobbyChurnUnread: Attack = {
  name: 'coco-lobby-churn-unread',
  door: 'coco WebSocket',
  summary: 'LobbySubscribe on 50 connections that never read, while another churns the lobby with 2,000 join/leave cycles',
  async run(context) {
    let subscribed = 0;
    await inParallel(context.scale(50, 100), 16, async () => {
      const client = await peer(context);
      context.tried();
      if (!client) return;
      client.send({ type: 'LobbySubscribe' });
      if (await client.until('LobbySubscribed')) subscribed++;
      client.ws.pause();
    });
    const churner = await peer(context);
    if (!churner) return context.note('the churner was refused');
    const created = await churner.request(gameNew('roshambo', 'churn', { password: 'churn' }), 'GameNew');
    if (!('Ok' in created.id)) return context.note(`the churner could not create its match: ${created.id.Err}`);
    const id = created.id.Ok;
    const cycles = context.scale(2_000, 20_000);
    let done = 0;
    while (done < cycles && churner.isOpen) {
      const batch = Math.min(500, cycles - done);
      for (let i = 0; i < batch; i++) {
        churner.send({ type: 'LobbyJoinMatch', id, name: `c${context.random.int(1000)}`, password: 'churn' });
        churner.send({ type: 'LobbyLeaveMatch' });
      }
      context.tried(2 * batch);
      done += (await replies(churner, 'LobbyLeavedMatch', batch)) === batch ? batch : cycles;
    }
    context.note(`${subscribed} silent subscribers; ${done} join/leave cycles`);
  },
};

export const cocoGameNewBurst: Attack = {
  name: 'coco-gamenew-burst',
  door: 'coco WebSocket',
  summary: '1,200 valid GameNew in a burst from one address (the matches then wait in the lobby)',
  async run(context) {
    const total = context.scale(1200, 6000);
    const connections = 4;
    let created = 0;
    let refused = 0;
    let firstRefusal = '';
    await Promise.all(
      Array.from({ length: connections }, async (_, c) => {
        const client = await peer(context);
        if (!client) return;
        const mine = Math.floor(total / connections) + (c < total % connections ? 1 : 0);
        for (let i = 0; i < mine; i++) client.send(gameNew('roshambo', `burst-${c}-${i}`, { args: { rounds: '1' } }));
        context.tried(mine);
        await replies(client, 'GameNew', mine, (reply) => {
          const { id } = reply as { id: { Ok: string } | { Err: string } };
          if ('Ok' in id) created++;
          else {
            refused++;
            firstRefusal ||= `after ${created} created: ${id.Err}`;
          }
        });
      }),
    );
    context.note(`${created} created, ${refused} refused${firstRefusal ? ` (first refusal ${firstRefusal})` : ''}`);
  },
};

export const cocoConnectionFlood: Attack = {
  name: 'coco-connection-flood',
  door: 'coco WebSocket',
  summary: '2,000 coco connections from one address, handshaken and left open',
  async run(context) {
    let accepted = 0;
    await inParallel(context.scale(2000, 8000), 64, async () => {
      if (await peer(context)) accepted++;
      context.tried();
    });
    context.note(`${accepted} of ${context.scale(2000, 8000)} accepted and open`);
  },
};

export const cocoUnfinishedHandshakes: Attack = {
  name: 'coco-unfinished-handshakes',
  door: 'coco WebSocket',
  summary: 'connections that never finish: silent TCP, half an HTTP upgrade, WebSocket without coco handshake, half a frame, a first fragment only',
  async run(context) {
    const kinds = { silent: 0, 'half-upgrade': 0, 'no-coco-handshake': 0, 'half-frame': 0, 'first-fragment': 0, refused: 0 };
    const port = context.server.wsPort;
    await inParallel(context.scale(1000, 6000), 64, async (i) => {
      context.tried();
      try {
        switch (i % 5) {
          case 0:
            await context.net.tcp(port, ATTACKER);
            kinds.silent++;
            break;
          case 1: {
            const socket = await context.net.tcp(port, ATTACKER);
            socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n`);
            kinds['half-upgrade']++;
            break;
          }
          case 2:
            await context.net.ws(context.server.url, ATTACKER);
            kinds['no-coco-handshake']++;
            break;
          case 3: {
            const ws = await context.net.ws(context.server.url, ATTACKER);
            // A masked text frame announcing 1 MiB (127: 64-bit length), then only 100 bytes of it.
            const header = Buffer.from([0x81, 0xff, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4]);
            rawSocket(ws).write(Buffer.concat([header, Buffer.alloc(100, 0x20)]));
            kinds['half-frame']++;
            break;
          }
          default: {
            const ws = await context.net.ws(context.server.url, ATTACKER);
            ws.send('{"Handshake":', { fin: false });
            kinds['first-fragment']++;
          }
        }
      } catch {
        kinds.refused++;
      }
    });
    context.note(Object.entries(kinds).map(([kind, n]) => `${kind} ${n}`).join(', '));
  },
};

export const cocoWrongMasterPasswords: Attack = {
  name: 'coco-wrong-master-passwords',
  door: 'coco WebSocket',
  summary: 'GameNew with wrong master passwords (verification) at high rate, and invalid match passwords',
  async run(context) {
    const total = context.scale(2000, 40_000);
    let judged = 0;
    let closedEarly = 0;
    let left = total;
    await inParallel(8, 8, async (c) => {
      while (left > 0) {
        const client = await peer(context);
        if (!client) {
          left--;
          continue;
        }
        const mine = Math.min(left, 250);
        left -= mine;
        for (let i = 0; i < mine; i++) {
          const guess = `${WRONG_PASSWORD_PREFIX}${c}-${context.random.uint32().toString(36)}`;
          // Most guess the master password; some give a match password the server must refuse (it has a space).
          client.send(i % 10 === 9 ? gameNew('roshambo', 'guess', { password: `${guess} x` }) : gameNew('roshambo', 'guess', { verification: guess }));
        }
        context.tried(mine);
        const answered = await replies(client, 'GameNew', mine);
        judged += answered;
        if (answered < mine) closedEarly++;
        client.terminate();
      }
    });
    context.note(`${judged} of ${total} guesses answered; ${closedEarly} connections closed by the server before all were answered`);
  },
};

/** Values a client controls that a server might write into its log. */
function forgedValue(random: Random): string {
  return random.pick([
    `x\n${FORGED_LINE}`,
    `x\r\n${FORGED_LINE}`,
    `x\r${FORGED_LINE}`,
    `x\u2028${FORGED_LINE}`,
    `\n${FORGED_LINE}\n`,
    'N'.repeat(10 * 1024),
    `${'N'.repeat(5000)}\n${FORGED_LINE}`,
  ]);
}

export const cocoForgedNames: Attack = {
  name: 'coco-forged-names',
  door: 'coco WebSocket',
  summary: 'match names, argument keys and values, passwords, player names and ids with line breaks and 10 KB of text',
  async run(context) {
    const total = context.scale(60, 5000);
    const client = await peer(context);
    if (!client) return context.note('connection refused');
    let sent = 0;
    for (let i = 0; i < total; i++) {
      const value = forgedValue(context.random);
      switch (i % 7) {
        case 0: client.send(gameNew('roshambo', value)); break;
        case 1: client.send(gameNew('roshambo', 'ok', { args: { [value]: '1' } })); break;
        case 2: client.send(gameNew('roshambo', 'ok', { args: { rounds: value } })); break;
        case 3: client.send(gameNew('roshambo', 'ok', { password: value })); break;
        case 4: client.send(gameNew(value, 'ok')); break;
        case 5: client.send({ type: 'GameDescription', name: value }); break;
        default: client.send({ type: 'LobbyJoinMatch', id: value, name: value, password: value });
      }
      sent++;
    }
    context.tried(sent);
    // Each request gets one reply; a join that is refused leaves the connection idle, as every other here.
    let answered = 0;
    while (answered < sent) {
      const frame = await client.next();
      if (frame === null) break;
      if (frame.kind === 'reply' && ['GameNew', 'GameDescription', 'LobbyJoinedMatch'].includes(frame.reply.type)) answered++;
    }
    context.note(`${answered} of ${sent} answered`);
  },
};

export const COCO_WS_ATTACKS: readonly Attack[] = [
  cocoGarbageFrames,
  cocoHugeGameNew,
  cocoUnreadReplies,
  cocoWatcherFlood,
  cocoLobbyChurnUnread,
  cocoGameNewBurst,
  cocoConnectionFlood,
  cocoUnfinishedHandshakes,
  cocoWrongMasterPasswords,
  cocoForgedNames,
];
