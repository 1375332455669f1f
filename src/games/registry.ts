import type { GameDefinition } from '../match/game.js';
import { roshambo } from './roshambo/roshambo.js';
import { royalur } from './royalur/royalur.js';

/** The built-in games. A new game is one folder under games/ and one line here. */
export const BUILT_IN_GAMES: readonly GameDefinition<any>[] = [roshambo, royalur];
