import { h } from './dom.js';
import { socketUrlFor } from './format.js';
import { parseRoute, type Route } from './routes.js';
import { arenaPlayerView, arenasView, arenaView } from './views/arena.js';
import { gameView } from './views/game.js';
import { gamesView } from './views/games.js';
import { historyView } from './views/history.js';
import { lobbyView } from './views/lobby.js';
import { matchView } from './views/match.js';
import { newMatchView } from './views/new-match.js';
import { leaderboardsView, ratingView, ratingsView } from './views/ratings.js';
import { demoView, importView, replayView } from './views/replay.js';
import { tournamentView, tournamentsView } from './views/tournaments.js';
import { errorText, notice, pageHead, type View, type ViewContext } from './views/view.js';

/**
 * The page shell: a single page with hash routes. Each route is a view that draws into the main
 * element and returns what releases it (sockets, timers, animation frames) when the route changes.
 */
const main = document.getElementById('main') as HTMLElement;
const SITE_TITLE = 'Code Colosseum';

const notFound =
  (path: string): View =>
  (root) => {
    root.append(pageHead('Not found'), notice('error', `There is no page "${path}".`), h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')));
    return () => {};
  };

function viewFor(route: Route): View {
  switch (route.name) {
    case 'lobby':
      return lobbyView;
    case 'games':
      return gamesView;
    case 'game':
      return gameView(route.game);
    case 'new':
      return newMatchView(route.game);
    case 'match':
      return matchView(route.id);
    case 'history':
      return historyView(route.game, route.player);
    case 'leaderboards':
      return leaderboardsView;
    case 'ratings':
      return ratingsView(route.game);
    case 'rating':
      return ratingView(route.game, route.player);
    case 'replay':
      return replayView(route.id, route.step);
    case 'demo':
      return demoView(route.t);
    case 'import':
      return importView;
    case 'tournaments':
      return tournamentsView;
    case 'tournament':
      return tournamentView(route.id);
    case 'arenas':
      return arenasView;
    case 'arena':
      return arenaView(route.game);
    case 'arena-player':
      return arenaPlayerView(route.game, route.player);
    case 'not-found':
      return notFound(route.path);
  }
}

/** Which navigation entry a route belongs to. */
const NAV_OF: Readonly<Record<Route['name'], string>> = {
  lobby: 'lobby',
  match: 'lobby',
  games: 'games',
  game: 'games',
  new: 'new',
  history: 'history',
  leaderboards: 'ratings',
  ratings: 'ratings',
  rating: 'ratings',
  replay: 'history',
  demo: '',
  import: 'history',
  tournaments: 'tournaments',
  tournament: 'tournaments',
  arenas: 'arena',
  arena: 'arena',
  'arena-player': 'arena',
  'not-found': '',
};

let release: (() => void) | null = null;

const context: ViewContext = {
  socketUrl: socketUrlFor(location),
  navigate(hash, options = {}) {
    if (options.replace) {
      history.replaceState(null, '', hash);
      show();
    } else if (location.hash === hash) show();
    else location.hash = hash;
  },
};

function show(): void {
  release?.();
  release = null;
  const route = parseRoute(location.hash);
  document.title = SITE_TITLE;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    link.classList.toggle('active', link.dataset['nav'] === NAV_OF[route.name]);
  }
  const root = h('div', { class: `view view-${route.name}` });
  main.replaceChildren(root);
  try {
    release = viewFor(route)(root, context);
  } catch (e) {
    root.append(notice('error', `This page failed: ${errorText(e)}`));
  }
  window.scrollTo(0, 0);
}

window.addEventListener('hashchange', show);
show();
