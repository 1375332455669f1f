import type { GameDefinition } from '../match/game.js';
import { quoridor } from './quoridor/quoridor.js';
import { roshambo } from './roshambo/roshambo.js';

/** The built-in games. A new game is one folder under games/ and one line here. */
export const BUILT_IN_GAMES: readonly GameDefinition<any>[] = [roshambo, quoridor];
