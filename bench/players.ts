/**
 * The players of the benchmark, in a process of their own: two WebSocket clients per match, each
 * sending a gesture as soon as it learns the previous round's result. Prints one JSON line with
 * the rounds played and the round latencies (ms) measured by the first player of each match.
 */
import WebSocket from 'ws';

const [url, idList, roundsText] = process.argv.slice(2) as [string, string, string];
const ids = idList.split(',');
const rounds = Number(roundsText);
const GESTURES = ['ROCK', 'PAPER', 'SCISSORS'];
const latencies: number[] = [];
/** When each measured round ended, in seconds since the players started. */
const endedAt: number[] = [];
let roundsPlayed = 0;

function play(id: string, seat: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let buffered = '';
    let lines = 0;
    let sentAt = 0;
    let sent = 0;
    let opened = false;
    let ended = false;
    const move = (): void => {
      if (sent >= rounds) return;
      sent++;
      sentAt = performance.now();
      ws.send(Buffer.from(`${GESTURES[(sent + seat) % 3]}\n`), { binary: true });
    };
    ws.on('open', () => {
      ws.send('{"Handshake":{"magic":"coco","version":2}}');
      ws.send(`{"LobbyJoinMatch":{"id":"${id}","name":"p${seat}","password":null}}`);
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) {
        const text = data.toString();
        if (text.startsWith('{"MatchEnded"')) {
          ended = true;
          ws.close();
          resolve();
        } else if (text.includes('"Err"')) reject(new Error(text));
        return;
      }
      buffered += data.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        buffered = buffered.slice(newline + 1);
        lines++;
        if (lines === 3) move();
        else if (lines > 3) {
          if (seat === 0) {
            const now = performance.now();
            latencies.push(now - sentAt);
            endedAt.push((now - started) / 1000);
            roundsPlayed++;
          }
          move();
        }
      }
    });
    // Which connection failed and when, for a run that stops (bench/README.md: an intermittent reset).
    ws.on('open', () => (opened = true));
    ws.on('error', (error) => reject(new Error(`match ${id}, seat ${seat}, ${opened ? 'after the WebSocket opened' : 'during its opening handshake'}: ${error.message}`)));
    ws.on('close', (code) => {
      if (!ended) reject(new Error(`match ${id}, seat ${seat}: the connection closed (${code}) before MatchEnded`));
    });
  });
}

const started = performance.now();
await Promise.all(ids.flatMap((id) => [play(id, 0), play(id, 1)]));
const cpu = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ roundsPlayed, seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, latencies, endedAt })}\n`);
