import { getJson } from '../api.js';
import { arenaCsvPath, arenaPath, arenaPlayerPath, arenaRatingPoints, readArena, readArenaPlayer, type ArenaGameRow } from '../arena-api.js';
import { h } from '../dom.js';
import { formatDate, formatScore } from '../format.js';
import { drawRatingChart } from '../rating-chart.js';
import { href } from '../routes.js';
import { stackOnPhone } from '../stack-table.js';
import { requestGames } from './games.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

/** How often the arena view reads the queue and the live games again. */
const REFRESH_MS = 5_000;

const fixed = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : '');

/** `#/arena`: a link to each game's arena (the nav's Arena entry). */
export const arenasView: View = (root, context) => {
  const resources = new Resources();
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading games…'));
  root.append(
    pageHead('Arena'),
    h('p', { class: 'muted' }, 'Programs queued with coco arena GAME -- PROGRAM play rated games around the clock, paired by rating. See docs/arena.md.'),
    list,
  );
  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      const games = (await requestGames(socket)).sort((a, b) => a.name.localeCompare(b.name));
      if (resources.isReleased) return;
      list.replaceChildren(h('ul', { class: 'card game-index' }, games.map((game) => h('li', { class: 'game-item' }, h('a', { class: 'game-link', href: href.arena(game.name) }, game.name)))));
    } catch (e) {
      if (!resources.isReleased) list.replaceChildren(notice('error', `Cannot load the games: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};

function gamesTable(rows: readonly ArenaGameRow[], game: string): HTMLElement {
  const table = h(
    'table',
    { class: 'table arena-games' },
    h('thead', {}, h('tr', {}, ['Ended', 'Players and scores', ''].map((c) => h('th', { scope: 'col' }, c)))),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          {},
          h('td', { class: 'nowrap' }, formatDate(row.endedAt)),
          h('td', {}, row.players.flatMap((name, i) => [i > 0 ? ', ' : '', h('a', { href: href.arenaPlayer(game, name) }, name), ` ${formatScore(row.scores[i] ?? Number.NaN)}`])),
          h('td', {}, h('a', { class: 'button small', href: href.replay(row.matchId) }, 'Replay')),
        ),
      ),
    ),
  );
  return h('div', { class: 'table-wrap' }, stackOnPhone(table));
}

/** `#/arena/GAME`: who waits, the live games (watch the best-rated), the leaderboard and the newest games; read again every few seconds. */
export const arenaView = (game: string): View => (root) => {
  const resources = new Resources();
  const status = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const body = h('div');
  root.append(pageHead(`${game}: arena`, h('a', { class: 'button', href: href.game(game) }, 'The game'), h('a', { class: 'button', href: arenaCsvPath(game), download: '' }, 'CSV')), status, body);
  const load = (): void => {
    getJson(arenaPath(game)).then(
      (answer) => {
        if (resources.isReleased) return;
        const arena = readArena(answer);
        const args = Object.entries(arena.args).map(([k, v]) => `${k}=${v}`).join(' ');
        status.replaceChildren(h('p', { class: 'muted' }, `${arena.players} players a game${args ? `, ${args}` : ''}. Join with: coco arena ${game} -n NAME -- PROGRAM`));
        const top = arena.live[0];
        body.replaceChildren(
          h('h2', {}, `Live games (${arena.live.length})`),
          top ? h('p', {}, h('a', { class: 'button', href: href.match(top.id) }, `Watch the top-rated game: ${top.players.join(' vs ')}`)) : h('p', { class: 'muted' }, 'No game is being played now.'),
          arena.live.length > 1 ? h('ul', { class: 'arena-live' }, arena.live.slice(1).map((match) => h('li', {}, h('a', { href: href.match(match.id) }, match.players.join(' vs '))))) : '',
          h('h2', {}, `Queue (${arena.queue.length})`),
          arena.queue.length === 0
            ? h('p', { class: 'muted' }, 'Nobody is queued.')
            : h(
                'ul',
                { class: 'arena-queue' },
                arena.queue.map((entry) =>
                  h('li', {}, h('a', { href: href.arenaPlayer(game, entry.name) }, entry.name), ` (${fixed(entry.rating)}) playing ${entry.playing} of ${entry.concurrency}${entry.anchor ? ', anchor' : ''}${entry.heldUntil !== null ? `, held out until ${formatDate(entry.heldUntil)}` : ''}`),
                ),
              ),
          h('h2', {}, 'Leaderboard'),
          arena.leaderboard.length === 0
            ? h('p', { class: 'muted' }, 'No arena game of this game has been played yet.')
            : h(
                'div',
                { class: 'table-wrap' },
                stackOnPhone(
                  h(
                    'table',
                    { class: 'table ratings-table arena-board' },
                    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), ['Rating', 'Games', 'W', 'D', 'L'].map((c) => h('th', { scope: 'col', class: 'num' }, c)), h('th', { scope: 'col' }, 'Last seen'))),
                    h(
                      'tbody',
                      {},
                      arena.leaderboard.map((row) =>
                        h(
                          'tr',
                          {},
                          h('td', { class: 'num' }, String(row.rank)),
                          h('td', {}, h('a', { href: href.arenaPlayer(game, row.player) }, row.player)),
                          h('td', { class: 'num rating' }, fixed(row.rating)),
                          [row.games, row.wins, row.draws, row.losses].map((n) => h('td', { class: 'num' }, String(n))),
                          h('td', { class: 'nowrap' }, formatDate(row.lastSeen)),
                        ),
                      ),
                    ),
                  ),
                ),
              ),
          h('h2', {}, 'Newest games'),
          arena.games.length === 0 ? h('p', { class: 'muted' }, 'None yet.') : gamesTable(arena.games, game),
        );
      },
      (e: unknown) => {
        if (!resources.isReleased) status.replaceChildren(notice('error', `Cannot load the arena: ${errorText(e)}`));
      },
    );
  };
  load();
  resources.interval(load, REFRESH_MS);
  return () => resources.release();
};

/** `#/arena/GAME/PLAYER`: the player's arena rating over its games, and those games. */
export const arenaPlayerView = (game: string, player: string): View => (root) => {
  const resources = new Resources();
  const status = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const figure = h('div');
  const list = h('div');
  root.append(pageHead(`${player} in the ${game} arena`, h('a', { class: 'button', href: href.arena(game) }, 'Arena')), status, figure, h('h2', {}, 'Games'), list);
  getJson(arenaPlayerPath(game, player)).then(
    (answer) => {
      if (resources.isReleased) return;
      const { rating, games } = readArenaPlayer(answer);
      status.replaceChildren(
        rating
          ? h('p', { class: 'current-rating' }, `Rank ${rating.rank}, rating ${fixed(rating.rating)}: ${rating.games} games, ${rating.wins} won, ${rating.draws} drawn, ${rating.losses} lost; last seen ${formatDate(rating.lastSeen)}.`)
          : notice('info', 'This player has no arena game in this game.'),
      );
      const points = arenaRatingPoints(player, games);
      if (points.length > 0) {
        const chart = h('div', { class: 'rating-chart-box' });
        figure.replaceChildren(h('figure', { class: 'rating-figure' }, chart, h('figcaption', { class: 'muted' }, `Arena rating after each of the last ${points.length} games. Click a game to replay it.`)));
        const drawn = drawRatingChart(chart, points, { formatDate, openMatch: (id) => (location.hash = href.replay(id)) });
        resources.add(() => drawn.destroy());
      }
      list.replaceChildren(games.length === 0 ? '' : gamesTable(games, game));
    },
    (e: unknown) => {
      if (!resources.isReleased) status.replaceChildren(notice('error', `Cannot load the player: ${errorText(e)}`));
    },
  );
  return () => resources.release();
};
