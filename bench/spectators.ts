/**
 * Spectators of the benchmark, in a process of their own: one WebSocket spectator for each match
 * id given, joined before the players so that it sees the whole match live. Prints "ready" once
 * every spectator has joined, then, when every match has ended, one JSON line: per match, the
 * SHA-256 and length of the bytes the spectator received (bench/verify.ts compares them with the
 * match's record).
 */
import { createHash, type Hash } from 'node:crypto';
import WebSocket from 'ws';

const [url, idList] = process.argv.slice(2) as [string, string];
const ids = idList.split(',').filter(Boolean);

interface Watched {
  readonly id: string;
  readonly sha256: string;
  readonly bytes: number;
}

function watch(id: string, joined: () => void): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const hash: Hash = createHash('sha256');
    let bytes = 0;
    ws.on('open', () => {
      ws.send('{"Handshake":{"magic":"coco","version":2}}');
      ws.send(`{"SpectateJoin":{"id":"${id}"}}`);
    });
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        hash.update(data);
        bytes += data.length;
        return;
      }
      const text = data.toString();
      if (text.startsWith('{"SpectateJoined"')) {
        if (text.includes('"Err"')) reject(new Error(`spectating ${id}: ${text}`));
        else joined();
      } else if (text.startsWith('{"SpectateEnded"')) {
        ws.close();
        resolve({ id, sha256: hash.digest('hex'), bytes });
      }
    });
    ws.on('error', reject);
    ws.on('close', () => reject(new Error(`spectator of ${id} closed before the match ended`)));
  });
}

let joinedCount = 0;
const joinedAll = (): void => {
  if (++joinedCount === ids.length) process.stdout.write('ready\n');
};
if (ids.length === 0) process.stdout.write('ready\n');
const watched = await Promise.all(ids.map((id) => watch(id, joinedAll)));
process.stdout.write(`${JSON.stringify(watched)}\n`);
