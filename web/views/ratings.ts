import { getJson } from '../api.js';
import { h } from '../dom.js';
import { formatDate, formatScore } from '../format.js';
import { drawRatingChart } from '../rating-chart.js';
import { playerRatingsPath, ratingsCsvPath, ratingsPath, readPlayerRatings, readRatings } from '../ratings-api.js';
import { href } from '../routes.js';
import { stackOnPhone } from '../stack-table.js';
import { requestGames } from './games.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

const fixed = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : '');

/** `#/ratings`: a link to each game's leaderboard (the nav's Leaderboards entry). */
export const leaderboardsView: View = (root, context) => {
  const resources = new Resources();
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading games…'));
  root.append(pageHead('Leaderboards'), h('p', { class: 'muted' }, 'OpenSkill ratings from verified matches, one leaderboard per game.'), list);
  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      const games = (await requestGames(socket)).sort((a, b) => a.name.localeCompare(b.name));
      if (resources.isReleased) return;
      list.replaceChildren(
        games.length === 0
          ? notice('info', 'This server has no games.')
          : h('ul', { class: 'card game-index leaderboard-index' }, games.map((game) => h('li', { class: 'game-item' }, h('a', { class: 'game-link', href: href.ratings(game.name) }, game.name)))),
      );
    } catch (e) {
      if (!resources.isReleased) list.replaceChildren(notice('error', `Cannot load the games: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};

/** `#/ratings/GAME`: the game's leaderboard, best first, each player linking to their page. */
export const ratingsView = (game: string): View => (root) => {
  const resources = new Resources();
  const status = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'table ratings-table', hidden: true },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), ['Rating', 'Mu', 'Sigma', 'Games'].map((c) => h('th', { scope: 'col', class: 'num' }, c)))),
    body,
  );
  root.append(
    pageHead(`${game}: leaderboard`, h('a', { class: 'button', href: href.game(game) }, 'The game'), h('a', { class: 'button', href: ratingsCsvPath(game), download: '' }, 'CSV')),
    h('p', { class: 'muted' }, 'OpenSkill ratings from verified matches. Rating = mu − 3 sigma: a skill the player is very likely above.'),
    status,
    h('div', { class: 'table-wrap' }, stackOnPhone(table)),
  );
  getJson(ratingsPath(game)).then(
    (answer) => {
      if (resources.isReleased) return;
      const rows = readRatings(answer);
      for (const row of rows) {
        body.append(
          h(
            'tr',
            {},
            h('td', { class: 'num' }, String(row.rank)),
            h('td', {}, h('a', { href: href.rating(game, row.player) }, row.player)),
            h('td', { class: 'num rating' }, fixed(row.rating)),
            h('td', { class: 'num' }, fixed(row.mu)),
            h('td', { class: 'num' }, fixed(row.sigma)),
            h('td', { class: 'num' }, String(row.games)),
          ),
        );
      }
      table.hidden = rows.length === 0;
      status.replaceChildren(rows.length === 0 ? notice('info', 'No verified match of this game has been played yet.') : '');
    },
    (e: unknown) => {
      if (!resources.isReleased) status.replaceChildren(notice('error', `Cannot load the leaderboard: ${errorText(e)}`));
    },
  );
  return () => resources.release();
};

/** `#/ratings/GAME/PLAYER`: the player's rating over time and their matches, each linking to its replay. */
export const ratingView = (game: string, player: string): View => (root) => {
  const resources = new Resources();
  const status = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const figure = h('div');
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'table player-matches', hidden: true },
    h('thead', {}, h('tr', {}, ['Ended', 'Name', 'Players and scores', 'Verified', ''].map((c) => h('th', { scope: 'col' }, c)))),
    body,
  );
  root.append(
    pageHead(`${player} in ${game}`, h('a', { class: 'button', href: href.ratings(game) }, 'Leaderboard'), h('a', { class: 'button', href: href.history({ game, player }) }, 'History')),
    status,
    figure,
    h('h2', {}, 'Matches'),
    h('div', { class: 'table-wrap' }, stackOnPhone(table)),
  );
  getJson(playerRatingsPath(game, player)).then(
    (answer) => {
      if (resources.isReleased) return;
      const { history, matches } = readPlayerRatings(answer);
      const last = history[history.length - 1];
      status.replaceChildren(
        last
          ? h('p', { class: 'current-rating' }, `Rating ${fixed(last.rating)} (mu ${fixed(last.mu)}, sigma ${fixed(last.sigma)}) after the match of ${formatDate(last.endedAt)}.`)
          : notice('info', 'No rated match of this player is kept.'),
      );
      if (history.length > 0) {
        const chart = h('div', { class: 'rating-chart-box' });
        figure.replaceChildren(
          h(
            'figure',
            { class: 'rating-figure' },
            chart,
            h('figcaption', { class: 'muted' }, `Rating after each of the last ${history.length} rated matches. Point at a match to read it; click to replay it.`),
          ),
        );
        const drawn = drawRatingChart(chart, history, { formatDate, openMatch: (id) => (location.hash = href.replay(id)) });
        resources.add(() => drawn.destroy());
      }
      for (const match of matches) {
        const seats = match.players.map((name, i) => {
          const score = match.scores?.[i];
          return `${name}${score !== undefined && Number.isFinite(score) ? ` ${formatScore(score)}` : ''}`;
        });
        body.append(
          h(
            'tr',
            {},
            h('td', { class: 'nowrap' }, formatDate(match.endedAt)),
            h('td', {}, match.name),
            h('td', {}, seats.join(', ')),
            h('td', {}, match.verified ? 'yes' : 'no'),
            h('td', {}, h('a', { class: 'button small', href: href.replay(match.id) }, 'Replay')),
          ),
        );
      }
      table.hidden = matches.length === 0;
    },
    (e: unknown) => {
      if (!resources.isReleased) status.replaceChildren(notice('error', `Cannot load the player's ratings: ${errorText(e)}`));
    },
  );
  return () => resources.release();
};
