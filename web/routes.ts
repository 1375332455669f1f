/** The page's hash routes, parsed and built in one place (pure, tested under Node). */
export type Route =
  | { readonly name: 'lobby' }
  | { readonly name: 'games' }
  /** One game's page: its description and arguments (`#/games/chess`). */
  | { readonly name: 'game'; readonly game: string }
  | { readonly name: 'new'; readonly game: string | null }
  | { readonly name: 'match'; readonly id: string }
  | { readonly name: 'history'; readonly game: string; readonly player: string }
  /** Every game's leaderboard, one link each (`#/ratings`): the nav's Leaderboards entry. */
  | { readonly name: 'leaderboards' }
  /** A game's leaderboard (`#/ratings/chess`). */
  | { readonly name: 'ratings'; readonly game: string }
  /** One player's rating over time and their matches in a game (`#/ratings/chess/ann`). */
  | { readonly name: 'rating'; readonly game: string; readonly player: string }
  /** `step`: the move to open the replay at (`#/replay/ID?step=31`), paused there. */
  | { readonly name: 'replay'; readonly id: string; readonly step: number | null }
  | { readonly name: 'demo'; readonly t: number | null }
  | { readonly name: 'import' }
  /** The server's tournaments and the form to start one (`#/tournaments`). */
  | { readonly name: 'tournaments' }
  /** One tournament, live (`#/tournaments/ab12cd34ef`). */
  | { readonly name: 'tournament'; readonly id: string }
  /** Every game's arena, one link each (`#/arena`): the nav's Arena entry. */
  | { readonly name: 'arenas' }
  /** A game's arena: queue, live games, leaderboard (`#/arena/roshambo`). */
  | { readonly name: 'arena'; readonly game: string }
  /** One player's arena rating and games (`#/arena/roshambo/ann`). */
  | { readonly name: 'arena-player'; readonly game: string; readonly player: string }
  | { readonly name: 'not-found'; readonly path: string };

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#/, '');
  const [rawPath = '', rawQuery = ''] = text.split('?', 2);
  const query = new URLSearchParams(rawQuery);
  const parts = rawPath.split('/').filter((p) => p !== '').map(decodeSegment);
  const [first, second, third] = parts;
  if (parts.length === 0) return { name: 'lobby' };
  if (parts.length === 1 && first === 'games') return { name: 'games' };
  if (parts.length === 1 && first === 'new') return { name: 'new', game: query.get('game') || null };
  if (parts.length === 1 && first === 'history') {
    return { name: 'history', game: query.get('game') ?? '', player: query.get('player') ?? '' };
  }
  if (parts.length === 1 && first === 'import') return { name: 'import' };
  if (parts.length === 1 && first === 'tournaments') return { name: 'tournaments' };
  if (parts.length === 2 && first === 'tournaments' && second) return { name: 'tournament', id: second };
  if (parts.length === 1 && first === 'demo') {
    const t = Number(query.get('t') ?? NaN);
    return { name: 'demo', t: Number.isFinite(t) ? t : null };
  }
  if (parts.length === 2 && first === 'games' && second) return { name: 'game', game: second };
  if (parts.length === 1 && first === 'ratings') return { name: 'leaderboards' };
  if (parts.length === 2 && first === 'ratings' && second) return { name: 'ratings', game: second };
  if (parts.length === 3 && first === 'ratings' && second && third) return { name: 'rating', game: second, player: third };
  if (parts.length === 1 && first === 'arena') return { name: 'arenas' };
  if (parts.length === 2 && first === 'arena' && second) return { name: 'arena', game: second };
  if (parts.length === 3 && first === 'arena' && second && third) return { name: 'arena-player', game: second, player: third };
  if (parts.length === 2 && first === 'match' && second) return { name: 'match', id: second };
  if (parts.length === 2 && first === 'replay' && second) {
    const step = Number(query.get('step') ?? NaN);
    return { name: 'replay', id: second, step: Number.isInteger(step) && step >= 0 ? step : null };
  }
  return { name: 'not-found', path: rawPath };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const href = {
  lobby: (): string => '#/',
  games: (): string => '#/games',
  game: (name: string): string => `#/games/${encodeURIComponent(name)}`,
  newMatch: (game?: string): string => (game ? `#/new?game=${encodeURIComponent(game)}` : '#/new'),
  match: (id: string): string => `#/match/${encodeURIComponent(id)}`,
  replay: (id: string, step?: number): string => `#/replay/${encodeURIComponent(id)}${step === undefined ? '' : `?step=${step}`}`,
  history: (filter: { game?: string; player?: string } = {}): string => {
    const params = new URLSearchParams();
    if (filter.game) params.set('game', filter.game);
    if (filter.player) params.set('player', filter.player);
    const text = params.toString();
    return `#/history${text ? `?${text}` : ''}`;
  },
  leaderboards: (): string => '#/ratings',
  ratings: (game: string): string => `#/ratings/${encodeURIComponent(game)}`,
  rating: (game: string, player: string): string => `#/ratings/${encodeURIComponent(game)}/${encodeURIComponent(player)}`,
  arenas: (): string => '#/arena',
  arena: (game: string): string => `#/arena/${encodeURIComponent(game)}`,
  arenaPlayer: (game: string, player: string): string => `#/arena/${encodeURIComponent(game)}/${encodeURIComponent(player)}`,
  importLog: (): string => '#/import',
  tournaments: (): string => '#/tournaments',
  tournament: (id: string): string => `#/tournaments/${encodeURIComponent(id)}`,
  demo: (t?: number): string => (t === undefined ? '#/demo' : `#/demo?t=${t}`),
};
