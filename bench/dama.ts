/**
 * Benchmark (not a test): dama move generation speed, perft from the start position, and the
 * search's speed in nodes per second. Run: npm run build && node dist/bench/dama.js [maxDepth]
 */
import { perft } from '../src/games/dama/perft.js';
import { startPosition } from '../src/games/dama/rules.js';
import { searchDama } from '../src/games/dama/search.js';

const maxDepth = Number(process.argv[2] ?? 9);
const board = Int8Array.from(startPosition().board);

console.log('dama perft from the start position (leaves counted at depth 1, as usual)');
let total = 0;
let seconds = 0;
for (let depth = 1; depth <= maxDepth; depth++) {
  const started = performance.now();
  const leaves = perft(board, 1, depth);
  const elapsed = (performance.now() - started) / 1000;
  total += leaves;
  seconds += elapsed;
  const rate = elapsed > 0 ? `${Math.round(leaves / elapsed).toLocaleString('en')} positions/s` : '';
  console.log(`perft(${depth}) = ${leaves.toLocaleString('en').padStart(12)}  ${elapsed.toFixed(3)} s  ${rate}`);
}
console.log(`overall: ${Math.round(total / seconds).toLocaleString('en')} positions/s`);

const started = performance.now();
const result = searchDama(startPosition(), { maxMillis: 1000 });
const elapsed = (performance.now() - started) / 1000;
console.log(
  `search from the start, 1 s budget: depth ${result.depth}, ${result.nodes.toLocaleString('en')} nodes, ` +
    `${Math.round(result.nodes / elapsed).toLocaleString('en')} nodes/s`,
);
