import type { GameDefinition } from '../match/game.js';
import { chess } from './chess/chess.js';
import { clobber } from './clobber/clobber.js';
import { dama } from './dama/dama.js';
import { haseUndIgel } from './hase-und-igel/hase-und-igel.js';
import { quoridor } from './quoridor/quoridor.js';
import { roshambo } from './roshambo/roshambo.js';
import { royalur } from './royalur/royalur.js';

/** The built-in games. A new game is one folder under games/, one import and one entry here. */
export const BUILT_IN_GAMES: readonly GameDefinition<any>[] = [
  roshambo,
  royalur,
  chess,
  clobber,
  dama,
  haseUndIgel,
  quoridor,
];
