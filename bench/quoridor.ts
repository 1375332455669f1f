// Quoridor benchmarks: perft to depth 4 from the 9x9 start, and engine self-play at two time
// budgets. Run after `npm run build`:
//   node dist/bench/quoridor.js perft            (perft 1..4, about 3 s for depth 4)
//   node dist/bench/quoridor.js selfplay 10 0.1 1 (10 games, 0.1 s against 1 s per move)
import { performance } from 'node:perf_hooks';
import { QuoridorBoard } from '../src/games/quoridor/board.js';
import { perft } from '../src/games/quoridor/perft.js';
import { playSelfMatch } from '../src/games/quoridor/self-play.js';

const PERFT_9X9 = [1, 131, 16_677, 2_062_264, 247_569_030];

function benchPerft(maxDepth: number): void {
  for (let depth = 1; depth <= maxDepth; depth++) {
    const started = performance.now();
    const count = perft(QuoridorBoard.start(9), depth);
    const seconds = (performance.now() - started) / 1000;
    const verdict = count === PERFT_9X9[depth] ? 'ok' : `WRONG, expected ${PERFT_9X9[depth]}`;
    console.log(`perft ${depth}: ${count} in ${seconds.toFixed(2)} s (${(count / seconds / 1e6).toFixed(1)} M/s) ${verdict}`);
  }
}

function benchSelfPlay(games: number, fastSeconds: number, slowSeconds: number): void {
  const result = playSelfMatch({
    games,
    size: 9,
    budgets: [{ timeMs: fastSeconds * 1000 }, { timeMs: slowSeconds * 1000 }],
    seed: 'bench',
    onGame: (line) => console.log(line),
  });
  console.log(
    `${fastSeconds} s engine: ${result.wins[0]} wins, ${slowSeconds} s engine: ${result.wins[1]} wins, draws: ${result.draws}`,
  );
}

const [mode = 'perft', ...rest] = process.argv.slice(2);
if (mode === 'perft') benchPerft(Number(rest[0] ?? 4));
else if (mode === 'selfplay') benchSelfPlay(Number(rest[0] ?? 10), Number(rest[1] ?? 0.1), Number(rest[2] ?? 1));
else console.error('usage: quoridor.js perft [depth] | selfplay [games] [fast seconds] [slow seconds]');
