/**
 * The benchmark's baseline (run beside cocod by `npm run bench`): the least a server can do for
 * the benchmark's players, with the same WebSocket library and the same wire traffic as cocod
 * (handshake, join, MatchStarted, the three header lines, one frame to each player per round,
 * MatchEnded) and nothing else: no lobby, no rules, no spectators, no visualizer, no history.
 * What it reaches on a machine is the ceiling for cocod there.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { DEFAULT_LIMITS } from '../src/gateways/server-limits.js';

const [roundsText] = process.argv.slice(2) as [string];
const rounds = Number(roundsText);

interface Pairing {
  readonly players: [WebSocket, WebSocket];
  /**
   * Each seat's moves not yet paired with the other's, oldest first: a player of the open-loop
   * benchmark sends on a schedule, not after the previous result, so a seat may be several moves
   * ahead, as cocod's seats buffer lines.
   */
  readonly moves: [Buffer[], Buffer[]];
  round: number;
}

const waiting = new Map<string, WebSocket>();
/** Each connection's match and seat, once both players of the match are there. */
const seats = new Map<WebSocket, { pairing: Pairing; seat: 0 | 1 }>();
const http = createServer();
const wss = new WebSocketServer({ server: http, perMessageDeflate: false });

wss.on('connection', (ws) => {
  ws.on('close', () => seats.delete(ws));
  ws.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) {
      const join = /"LobbyJoinMatch":\{"id":"([^"]+)"/.exec(data.toString());
      if (!join) return;
      const other = waiting.get(join[1]!);
      if (!other) {
        waiting.set(join[1]!, ws);
        return;
      }
      waiting.delete(join[1]!);
      const pairing: Pairing = { players: [other, ws], moves: [[], []], round: 0 };
      seats.set(other, { pairing, seat: 0 });
      seats.set(ws, { pairing, seat: 1 });
      for (const player of pairing.players) {
        player.send('{"MatchStarted":{}}');
        player.send(Buffer.from(`a\nb\n${rounds}\n`), { binary: true });
      }
      return;
    }
    const found = seats.get(ws);
    if (!found) return;
    const { pairing, seat } = found;
    pairing.moves[seat].push(data);
    const [firsts, seconds] = pairing.moves;
    while (firsts.length > 0 && seconds.length > 0) {
      const first = firsts.shift()!;
      const second = seconds.shift()!;
      pairing.players[0].send(second, { binary: true });
      pairing.players[1].send(first, { binary: true });
      if (++pairing.round === rounds) for (const player of pairing.players) player.send('{"MatchEnded":{}}');
    }
  });
});

// The accept queue cocod listens with (its listen-backlog limit), so that both take the players' crowd of connections alike.
http.listen({ port: 0, host: '127.0.0.1', backlog: DEFAULT_LIMITS['listen-backlog'] }, () => {
  process.stderr.write(`listening on ws://127.0.0.1:${(http.address() as AddressInfo).port}/\n`);
});

// Exit normally on the benchmark's SIGTERM, so that a CPU profile (BENCH_PROFILE) is written.
process.once('SIGTERM', () => process.exit(0));
