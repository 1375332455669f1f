/**
 * Clobber benchmark (not a test): move generation speed on 10 x 10 positions reached by seeded
 * random play, and the server bot's search speed. Run after `npm run build`:
 *   node dist/bench/clobber.js [seconds per measurement, default 2]
 */
import { performance } from 'node:perf_hooks';
import { Random } from '../src/match/random.js';
import { apply, legalMoves, startPosition, type Position } from '../src/games/clobber/rules.js';
import { searchClobber } from '../src/games/clobber/search.js';

const SECONDS = Number(process.argv[2] ?? 2);
const POSITIONS = 2000;

/** Positions from every stage of random games, so the figure covers openings and endgames. */
function samplePositions(count: number): Position[] {
  const random = Random.fromSeed('clobber-bench');
  const positions: Position[] = [];
  while (positions.length < count) {
    const start = startPosition(10, 10);
    if (!start.ok) throw new Error('no start position');
    let position = start.value;
    for (;;) {
      const moves = legalMoves(position);
      if (moves.length === 0) break;
      positions.push(position);
      position = apply(position, random.pick(moves));
    }
  }
  return positions.slice(0, count);
}

function measure(label: string, unit: string, run: () => number): void {
  run(); // warm-up
  let work = 0;
  const began = performance.now();
  let elapsed = 0;
  while (elapsed < SECONDS * 1000) {
    work += run();
    elapsed = performance.now() - began;
  }
  console.log(`${label}: ${Math.round((work * 1000) / elapsed).toLocaleString('en-US')} ${unit}/s`);
}

const positions = samplePositions(POSITIONS);
const average = positions.reduce((sum, p) => sum + legalMoves(p).length, 0) / positions.length;
console.log(`${positions.length} positions from random 10 x 10 games, ${average.toFixed(1)} legal moves on average`);
measure('move generation (legalMoves)', 'positions', () => {
  let sink = 0;
  for (const position of positions) sink += legalMoves(position).length;
  if (sink < 0) console.log(sink);
  return positions.length;
});
measure('move generation + apply of every move', 'moves', () => {
  let moves = 0;
  for (const position of positions) for (const move of legalMoves(position)) {
    apply(position, move);
    moves++;
  }
  return moves;
});
const start = startPosition(10, 10);
if (start.ok) {
  measure('search from the 10 x 10 start (50,000-node budget)', 'nodes', () =>
    searchClobber({ columns: 10, rows: 10, cells: start.value.cells, toMove: 'black', maxNodes: 50_000, seed: 1 }).nodes,
  );
  const reply = searchClobber({ columns: 10, rows: 10, cells: start.value.cells, toMove: 'black', maxMillis: 1000, seed: 1 });
  console.log(`search with the serving budget (1 s) from the start: depth ${reply.depth}, ${reply.nodes.toLocaleString('en-US')} nodes`);
}
