/**
 * Benchmark (not a test): the chess server bot against opponents, and its search speed.
 *
 *   node dist/bench/chess.js random GAMES MS          the bot (MS per move) against a uniformly random mover
 *   node dist/bench/chess.js stockfish GAMES MS [SKILL] [ENGINE]
 *                                                      against a UCI engine (stockfish, Skill Level SKILL,
 *                                                      default 0) with the same MS per move
 *
 * Colours alternate; games end by the rules (mate, stalemate, repetition, fifty moves, material).
 * The bot searches in this thread, the engine in its own process, each MS per move.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { normalizeMove } from 'chessops/chess';
import type { NormalMove } from 'chessops/types';
import { makeUci, parseUci } from 'chessops/util';
import { Random } from '../src/match/random.js';
import { ChessGame, type Ending } from '../src/games/chess/rules.js';
import { standardUci } from '../src/games/chess/notation.js';
import { legalMoves, searchChess } from '../src/games/chess/search.js';

type Opponent = (game: ChessGame, uciMoves: readonly string[]) => Promise<NormalMove>;

async function uciEngine(command: string, skill: number, movetime: number): Promise<{ opponent: Opponent; quit(): void }> {
  const child = spawn(command, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const next = waiting[0];
    if (next) next(line);
  });
  const until = (prefix: string): Promise<string> =>
    new Promise((resolve) => {
      const check = (line: string): void => {
        if (line.startsWith(prefix)) {
          waiting.shift();
          resolve(line);
        }
      };
      waiting.push(check);
    });
  const send = (line: string): void => void child.stdin.write(`${line}\n`);
  send('uci');
  await until('uciok');
  send(`setoption name Skill Level value ${skill}`);
  send('isready');
  await until('readyok');
  return {
    opponent: async (game, uciMoves) => {
      send(`position startpos${uciMoves.length ? ` moves ${uciMoves.join(' ')}` : ''}`);
      send(`go movetime ${movetime}`);
      const best = (await until('bestmove')).split(' ')[1]!;
      return normalizeMove(game.position, parseUci(best) as NormalMove) as NormalMove;
    },
    quit: () => {
      send('quit');
      child.stdin.end();
    },
  };
}

async function play(games: number, movetime: number, opponent: Opponent, label: string): Promise<void> {
  let wins = 0;
  let draws = 0;
  let losses = 0;
  let plies = 0;
  let depths = 0;
  let searches = 0;
  const started = performance.now();
  for (let index = 0; index < games; index++) {
    const botColour = index % 2 === 0 ? 'white' : 'black';
    const game = new ChessGame();
    const uciMoves: string[] = [];
    const chessopsMoves: string[] = [];
    let ending: Ending | null = null;
    while (!(ending = game.ending())) {
      let move: NormalMove;
      if (game.position.turn === botColour) {
        const result = searchChess(chessopsMoves, { maxMillis: movetime });
        move = parseUci(result.uci!) as NormalMove;
        depths += result.depth;
        searches++;
      } else move = await opponent(game, uciMoves);
      uciMoves.push(standardUci(game.position, move));
      chessopsMoves.push(makeUci(move));
      game.play(move);
      plies++;
    }
    const outcome = ending.kind === 'draw' ? 'draw' : ending.winner === botColour ? 'win' : 'loss';
    if (outcome === 'win') wins++;
    else if (outcome === 'draw') draws++;
    else losses++;
    console.log(`game ${index + 1} (bot ${botColour}): ${outcome}${ending.kind === 'draw' ? ` (${ending.why})` : ''} after ${uciMoves.length} plies`);
  }
  const score = (wins + draws / 2) / games;
  console.log(
    `${label}: ${wins} wins, ${draws} draws, ${losses} losses in ${games} games: score ${(100 * score).toFixed(1)} %; ` +
      `${movetime} ms a move, mean depth ${(depths / searches).toFixed(1)}, ${plies} plies in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

const [mode = 'random', gamesArg = '10', msArg = '200', skillArg = '0', engineArg] = process.argv.slice(2);
const games = Number(gamesArg);
const movetime = Number(msArg);
if (mode === 'random') {
  const random = Random.fromSeed('chess-bench');
  await play(games, movetime, async (game) => random.pick(legalMoves(game.position)), 'against a random mover');
} else if (mode === 'stockfish') {
  const command = engineArg ?? ['/usr/games/stockfish', '/usr/bin/stockfish'].find((path) => existsSync(path)) ?? 'stockfish';
  const engine = await uciEngine(command, Number(skillArg), movetime);
  try {
    await play(games, movetime, engine.opponent, `against ${command} at Skill Level ${skillArg}`);
  } finally {
    engine.quit();
  }
} else {
  console.error('usage: node dist/bench/chess.js random|stockfish GAMES MS [SKILL] [ENGINE]');
  process.exitCode = 2;
}
