import { h } from '../dom.js';
import { summaryLine } from '../markdown.js';
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

export function argsTable(game: GameInfo): HTMLElement {
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

/** `#/games`: the games of this server, each with the first sentence of its description and a link to its page. */
export const gamesView: View = (root, context) => {
  const resources = new Resources();
  const list = h('div', {}, h('p', { class: 'muted' }, 'Loading games…'));
  root.append(pageHead('Games'), list);

  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      const games = (await requestGames(socket)).sort((a, b) => a.name.localeCompare(b.name));
      if (games.length === 0) {
        list.replaceChildren(notice('info', 'This server has no games.'));
        return;
      }
      const items = games.map((game) => {
        const summary = h('p', { class: 'game-summary muted' }, '…');
        requestDescription(socket, game.name).then(
          (text) => (summary.textContent = text === null ? 'No description.' : summaryLine(text)),
          () => (summary.textContent = ''),
        );
        return h('li', { class: 'game-item' }, h('a', { class: 'game-link', href: href.game(game.name) }, game.name), summary);
      });
      list.replaceChildren(h('ul', { class: 'card game-index' }, items));
    } catch (e) {
      if (!resources.isReleased) list.replaceChildren(notice('error', `Cannot load the games: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};
