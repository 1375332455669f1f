#!/usr/bin/env node
// Lowest unique number, a game server for the game-server protocol (Node.js, no dependencies).
//
// 3 to 6 players bid a whole number from 1 to MAX at the same time, round after round; the
// lowest bid that nobody else made wins the round. The most rounds won wins the match.
// Reads the controller's commands on stdin, prints its own on stdout, draws itself with JSON
// `vis` events.
import { createInterface } from 'node:readline';

const ROUND_SECONDS = 2; // logical time of one round in the replay
const COLORS = ['e6194bff', '3cb44bff', '4363d8ff', 'f58231ff', '911eb4ff', '42d4f4ff'];

const out = (line) => process.stdout.write(`${line}\n`);
const vis = (event) => out(`vis ${JSON.stringify(event)}`);
const round4 = (x) => Math.round(x * 10000) / 10000;

let players = 0;
let rounds = 0;
let max = 0;
let timeoutMs = 0;
let started = false;
let round = 0;
let open = false;
let bids = [];
let wins = [];
const dropped = new Set();
let nextId = 100;
let roundObjects = [];
let scoreIds = [];

const bidX = (bid) => round4(0.12 + ((bid - 0.5) / max) * 0.82);
const rowY = (p) => round4(0.18 + (p - 1) * 0.1);

function drawTable() {
  vis({ t: 0, create: { id: 1, z: 1, geom: [{ text: { v: 'Lowest unique number', p: [0.5, 0.06], t: 0.05 } }] } });
  vis({ t: 0, create: { id: 2, z: 1, geom: [{ line: { p1: [0.12, 0.85], p2: [0.94, 0.85], t: 0.004 } }] } });
  for (let bid = 1; bid <= max; bid++) {
    if (max > 20 && bid % 5 !== 0 && bid !== 1) continue;
    vis({ t: 0, create: { id: 10 + bid, z: 1, geom: [{ text: { v: String(bid), p: [bidX(bid), 0.89], t: 0.025 } }] } });
  }
  // Each player's disc with its number in one object: the match page's legend reads from it who
  // plays which colour (this program is never told the players' names; "Player p" is seat p).
  for (let p = 1; p <= players; p++) {
    const disc = { circle: { p: [0.05, rowY(p)], r: 0.015, f: COLORS[p - 1] } };
    const label = { text: { v: `Player ${p}`, p: [0.05, round4(rowY(p) - 0.032)], t: 0.016 } };
    vis({ t: 0, create: { id: 200 + p, z: 2, geom: [disc, label] } });
  }
  drawScores(0);
}

function drawScores(t) {
  for (const id of scoreIds) vis({ t, destroy: { id } });
  scoreIds = [];
  for (let p = 1; p <= players; p++) {
    const id = nextId++;
    scoreIds.push(id);
    const label = `${dropped.has(p) ? 'x ' : ''}${wins[p - 1]}`;
    vis({ t, create: { id, z: 2, geom: [{ text: { v: label, p: [0.09, rowY(p)], t: 0.03 } }] } });
  }
}

function startRound() {
  round++;
  open = true;
  bids = Array(players).fill(0);
  const t = round * ROUND_SECONDS;
  for (const id of roundObjects) vis({ t, destroy: { id } });
  roundObjects = [];
  vis({ t, log: { line: `Round ${round}` } });
  out(`sendall round ${round}`);
  out(`timer ${round} ${timeoutMs}ms`);
  if (everyoneBid()) closeRound();
}

const everyoneBid = () => bids.every((bid, i) => bid !== 0 || dropped.has(i + 1));

function closeRound() {
  open = false;
  const counts = new Map();
  for (const bid of bids) if (bid > 0) counts.set(bid, (counts.get(bid) ?? 0) + 1);
  const unique = bids.filter((bid) => bid > 0 && counts.get(bid) === 1);
  const best = unique.length ? Math.min(...unique) : 0;
  const winner = best ? bids.indexOf(best) + 1 : 0;
  if (winner) wins[winner - 1]++;
  out(`sendall result ${round} ${bids.join(' ')} ${winner}`);
  const t = round * ROUND_SECONDS + 0.2;
  const stacked = new Map();
  let winnerToken = null;
  bids.forEach((bid, i) => {
    if (bid === 0) return;
    const p = i + 1;
    const id = nextId++;
    roundObjects.push(id);
    const level = stacked.get(bid) ?? 0;
    stacked.set(bid, level + 1);
    vis({ t, create: { id, z: 3, p: [0.05, rowY(p)], geom: [{ circle: { r: 0.018, f: COLORS[i], t: 0.003 } }] } });
    const dx = round4(bidX(bid) - 0.05);
    const dy = round4(0.82 - level * 0.04 - rowY(p));
    vis({ t, transform: { id, d: 0.8, mv: [dx, dy] } });
    if (p === winner) winnerToken = id;
  });
  // Events must come in time order, so the winner's token grows after every token has moved.
  if (winnerToken !== null) vis({ t: t + 0.9, transform: { id: winnerToken, d: 0.4, f: 'easeout', scale: 1.6 } });
  vis({ t: t + 0.9, log: { line: winner ? `Player ${winner} wins round ${round} with ${best}` : `Nobody wins round ${round}` } });
  drawScores(t + 1.3);
  if (round >= rounds) finish();
  else startRound();
}

function finish() {
  out(`sendall end ${wins.join(' ')}`);
  const top = Math.max(...wins);
  const leaders = wins.map((w, i) => (w === top ? i + 1 : 0)).filter(Boolean);
  const reason = leaders.length === 1 ? `Player ${leaders[0]} wins with ${top} rounds` : `Players ${leaders.join(', ')} tie with ${top} rounds`;
  vis({ t: (round + 1) * ROUND_SECONDS, log: { line: reason } });
  out(`over ${wins.join(' ')} ${reason}`);
  process.exit(0);
}

function onLine(line) {
  const [word, a, ...rest] = line.split(' ');
  if (word === 'vis') return;
  if (word === 'param') {
    [players, rounds, max] = [a, rest[0], rest[1]].map(Number);
    timeoutMs = Math.round(Number(rest[2]) * 1000);
    wins = Array(players).fill(0);
    drawTable();
    return;
  }
  if (word === 'start') {
    started = true;
    for (let p = 1; p <= players; p++) out(`send ${p} you ${p}`);
    out(`sendall game ${players} ${rounds} ${max}`);
    startRound();
    return;
  }
  if (word === 'dropped') {
    dropped.add(Number(a));
    if (open && everyoneBid()) closeRound();
    return;
  }
  if (word === 'timeout') {
    if (open && Number(a) === round) {
      bids.forEach((bid, i) => {
        if (bid === 0 && !dropped.has(i + 1)) out(`playererror ${i + 1} no bid in round ${round}`);
      });
      closeRound();
    }
    return;
  }
  if (word === 'recv') {
    const p = Number(a);
    const text = rest.join(' ');
    const bid = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!open) out(`playererror ${p} no round is open`);
    else if (bids[p - 1] !== 0) out(`playererror ${p} already bid in round ${round}`);
    else if (!(bid >= 1 && bid <= max)) out(`playererror ${p} a bid must be a whole number from 1 to ${max}`);
    else {
      bids[p - 1] = bid;
      if (everyoneBid()) closeRound();
    }
    return;
  }
  process.stderr.write(`unknown command: ${line}\n`);
  process.exit(1);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!started && !['vis', 'param', 'start', 'dropped'].includes(line.split(' ')[0])) return;
  onLine(line);
});
process.stdin.on('end', () => process.exit(0));
