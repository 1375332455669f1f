import { clear, h, lockIcon } from '../dom.js';
import { formatTimeout, lobbyPlayers, lobbyTiming } from '../format.js';
import { href } from '../routes.js';
import { readMatchInfo, type MatchInfo } from '../wire.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

/** The columns of `coco lobby`, with their alignment. */
const COLUMNS: readonly (readonly [string, string | null])[] = [
  ['ID', null],
  ['Verified', 'center'],
  ['Name', null],
  ['Game', null],
  ['Players', null],
  ['Spectators', 'num'],
  ['Timeout', 'num'],
  ['Password', 'center'],
  ['Timing', null],
];

/** Retry delays after the lobby connection drops. */
const RECONNECT_MS = [1000, 2000, 5000, 10000];

/** Waiting matches first (soonest to expire first), then running ones (newest first). */
export function lobbyOrder(a: MatchInfo, b: MatchInfo): number {
  if (a.running !== b.running) return a.running ? 1 : -1;
  return a.running ? b.time - a.time : a.time - b.time;
}

/** `#/`: the matches waiting for players and running, like `coco lobby`, kept live. */
export const lobbyView: View = (root, context) => {
  const resources = new Resources();
  const matches = new Map<string, MatchInfo>();
  const status = h('p', { class: 'muted live-status' }, 'Connecting…');
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'table lobby-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        COLUMNS.map(([label, cls]) => h('th', { scope: 'col', class: cls }, label)),
      ),
    ),
    body,
  );
  const empty = h('div', { class: 'empty' }, h('p', {}, 'No match is waiting or running.'), h('a', { class: 'button', href: href.newMatch() }, 'Create a match'));
  root.append(pageHead('Lobby', h('a', { class: 'button primary', href: href.newMatch() }, 'New match')), status, h('div', { class: 'table-wrap' }, table), empty);

  const timingCells = new Map<string, HTMLElement>();
  const render = (): void => {
    clear(body);
    timingCells.clear();
    const now = Date.now() / 1000;
    const list = [...matches.values()].sort(lobbyOrder);
    for (const m of list) {
      const timing = h('td', { class: 'nowrap' }, lobbyTiming(m, now));
      timingCells.set(m.id, timing);
      const row = h(
        'tr',
        { class: m.running ? 'is-running' : 'is-waiting', tabindex: 0, title: m.running ? 'Watch this match' : 'Open this match' },
        h('td', {}, h('a', { class: 'mono', href: href.match(m.id) }, m.id)),
        h('td', { class: 'center' }, m.verified ? h('span', { class: 'check', title: 'verified' }, '✓') : ''),
        h('td', {}, m.name),
        h('td', {}, h('a', { href: href.games() }, m.game)),
        h('td', { class: 'mono', title: m.connected.join(', ') }, lobbyPlayers(m)),
        h('td', { class: 'num' }, m.spectators),
        h('td', { class: 'num' }, formatTimeout(m.timeout)),
        h('td', { class: 'center' }, m.password ? lockIcon('password protected') : ''),
        timing,
      );
      row.addEventListener('click', (e) => {
        if ((e.target as HTMLElement).closest('a')) return;
        context.navigate(href.match(m.id));
      });
      row.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') context.navigate(href.match(m.id));
      });
      body.append(row);
    }
    table.hidden = list.length === 0;
    empty.hidden = list.length > 0;
  };
  render();
  resources.interval(() => {
    const now = Date.now() / 1000;
    for (const [id, cell] of timingCells) {
      const m = matches.get(id);
      if (m) cell.textContent = lobbyTiming(m, now);
    }
  }, 1000);

  let attempt = 0;
  let retryPending = false;
  const retry = (message: (delay: number) => Node | string): void => {
    if (resources.isReleased || retryPending) return;
    retryPending = true;
    const delay = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
    attempt++;
    status.replaceChildren(message(delay / 1000));
    resources.timeout(() => {
      retryPending = false;
      void connect();
    }, delay);
  };
  const connect = async (): Promise<void> => {
    try {
      const socket = await resources.open(context.socketUrl);
      const upsert = (p: unknown): void => {
        const info = readMatchInfo((p as { info?: unknown } | null)?.info);
        if (info.id === '') return;
        matches.set(info.id, info);
        render();
      };
      socket.on('LobbyNew', upsert);
      socket.on('LobbyUpdate', upsert);
      socket.on('LobbyDelete', (p) => {
        matches.delete(String((p as { id?: unknown } | null)?.id));
        render();
      });
      socket.onClosed((reason) => retry((s) => `Disconnected (${reason}); reconnecting in ${s}s…`));
      const reply = (await socket.request({ LobbySubscribe: {} }, 'LobbySubscribed')) as { seed?: unknown } | null;
      attempt = 0;
      matches.clear();
      for (const info of Array.isArray(reply?.seed) ? reply.seed : []) {
        const m = readMatchInfo(info);
        if (m.id !== '') matches.set(m.id, m);
      }
      status.textContent = 'Live: the list updates by itself.';
      render();
    } catch (e) {
      retry((s) => notice('error', `Cannot reach the server: ${errorText(e)}. Retrying in ${s}s…`));
    }
  };
  void connect();
  return () => resources.release();
};
