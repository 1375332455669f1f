import { h } from '../dom.js';
import { renderMarkdown, splitTitle } from '../markdown.js';
import { href } from '../routes.js';
import { sanitizedFragment } from '../safe-html.js';
import { argsTable, requestDescription, requestGames } from './games.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

/** `#/games/NAME`: one game, its arguments and its description (Markdown); a clear page when there is no such game. */
export const gameView =
  (name: string): View =>
  (root, context) => {
    const resources = new Resources();
    const body = h('div', {}, h('p', { class: 'muted' }, 'Loading the game…'));
    root.append(body);
    document.title = `${name} — Code Colosseum`;

    void (async () => {
      try {
        const socket = await resources.open(context.socketUrl);
        const game = (await requestGames(socket)).find((g) => g.name === name);
        if (!game) {
          document.title = 'No such game — Code Colosseum';
          body.replaceChildren(
            pageHead('No such game'),
            notice('error', `This server has no game called "${name}".`),
            h('p', {}, h('a', { href: href.games() }, 'See the games it has')),
          );
          return;
        }
        const description = h('div', { class: 'markdown' }, h('p', { class: 'muted' }, 'Loading the description…'));
        const title = h('span', {}, game.name);
        body.replaceChildren(
          pageHead(
            title,
            h('a', { class: 'button', href: href.games() }, 'All games'),
            h('a', { class: 'button', href: href.history({ game: game.name }) }, 'History'),
            h('a', { class: 'button', href: href.ratings(game.name) }, 'Leaderboard'),
            h('a', { class: 'button primary', href: href.newMatch(game.name) }, 'New match'),
          ),
          h('section', { class: 'card' }, h('details', { class: 'game-args', open: true }, h('summary', {}, 'Arguments'), argsTable(game))),
          h('article', { class: 'card game-description' }, description),
        );
        const text = await requestDescription(socket, game.name);
        if (resources.isReleased) return;
        if (text === null) description.replaceChildren(h('p', { class: 'muted' }, 'No description.'));
        else {
          // The description's own first heading ("roshambo (Rock Paper Scissors)") is the page's.
          const { title: own, rest } = splitTitle(text);
          if (own) title.textContent = own;
          description.replaceChildren(sanitizedFragment(renderMarkdown(rest, { headingOffset: own ? 0 : 1 })));
        }
      } catch (e) {
        if (!resources.isReleased) body.replaceChildren(pageHead(name), notice('error', `Cannot load the game: ${errorText(e)}`));
      }
    })();
    return () => resources.release();
  };
