import { h } from '../dom.js';
import { renderMarkdown } from '../markdown.js';
import { href } from '../routes.js';
import { readGameList, type GameInfo } from '../wire.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';
import type { CocoSocket } from '../coco-socket.js';

export async function requestGames(socket: CocoSocket): Promise<GameInfo[]> {
  return readGameList(await socket.request({ GameList: {} }, 'GameList'));
}

export async function requestDescription(socket: CocoSocket, name: string): Promise<string | null> {
  const reply = (await socket.request({ GameDescription: { name } }, 'GameDescription')) as { description?: unknown } | null;
  return typeof reply?.description === 'string' ? reply.description : null;
}

function argsTable(game: GameInfo): HTMLElement {
  if (game.args.length === 0) return h('p', { class: 'muted' }, 'No arguments.');
  return h(
    'table',
    { class: 'table compact' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Argument'), h('th', {}, 'Meaning'), h('th', {}, 'Accepted values'))),
    h(
      'tbody',
      {},
      game.args.map((arg) => h('tr', {}, h('td', { class: 'mono' }, arg.name), h('td', {}, arg.description), h('td', { class: 'mono small' }, arg.regex))),
    ),
  );
}

/** `#/games`: every game with its arguments and its description (Markdown). */
export const gamesView: View = (root, context) => {
  const resources = new Resources();
  const list = h('div', { class: 'game-list' }, h('p', { class: 'muted' }, 'Loading games…'));
  const toc = h('nav', { class: 'toc', 'aria-label': 'games' });
  root.append(pageHead('Games'), toc, list);

  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      const games = (await requestGames(socket)).sort((a, b) => a.name.localeCompare(b.name));
      list.replaceChildren();
      if (games.length === 0) list.append(notice('info', 'This server has no games.'));
      for (const game of games) {
        const description = h('div', { class: 'markdown' }, h('p', { class: 'muted' }, 'Loading description…'));
        const anchor = `game-${game.name}`;
        toc.append(h('a', { href: '#', 'data-target': anchor, onclick: (e: Event) => {
          e.preventDefault();
          document.getElementById(anchor)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        } }, game.name));
        list.append(
          h(
            'article',
            { class: 'card game-card', id: anchor },
            h('header', { class: 'card-head' }, h('h2', {}, game.name), h('div', { class: 'page-actions' },
              h('a', { class: 'button', href: href.history({ game: game.name }) }, 'History'),
              h('a', { class: 'button primary', href: href.newMatch(game.name) }, 'New match'))),
            h('details', { class: 'game-args', open: true }, h('summary', {}, 'Arguments'), argsTable(game)),
            description,
          ),
        );
        requestDescription(socket, game.name).then(
          (text) => {
            // renderMarkdown escapes all text and emits only its own tags, so this is safe.
            if (text === null) description.replaceChildren(h('p', { class: 'muted' }, 'No description.'));
            else description.innerHTML = renderMarkdown(text, { headingOffset: 2 });
          },
          (e: unknown) => description.replaceChildren(notice('error', errorText(e))),
        );
      }
    } catch (e) {
      if (!resources.isReleased) list.replaceChildren(notice('error', `Cannot load the games: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};
