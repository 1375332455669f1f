import { matchSeatCount } from '../../src/lobby/seat-count.js';
import { h, lockIcon } from '../dom.js';
import { formatTimeout, lobbyTiming } from '../format.js';
import { href } from '../routes.js';
import { readMatchInfo, type MatchInfo } from '../wire.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

/** A lobby cell: its column's label (the card layout of narrow screens shows it) and content. */
interface Column {
  readonly key: string;
  readonly label: string;
  readonly align: 'center' | 'num' | null;
  readonly cell: (m: MatchInfo, now: number) => Node | string;
}

/** The columns of `coco lobby`. */
const COLUMNS: readonly Column[] = [
  { key: 'id', label: 'ID', align: null, cell: (m) => h('a', { class: 'mono', href: href.match(m.id) }, m.id) },
  { key: 'verified', label: 'Verified', align: 'center', cell: (m) => (m.verified ? h('span', { class: 'check', title: 'verified' }, '✓') : '') },
  { key: 'name', label: 'Name', align: null, cell: (m) => m.name },
  { key: 'game', label: 'Game', align: null, cell: (m) => h('a', { href: href.game(m.game) }, m.game) },
  { key: 'players', label: 'Players', align: null, cell: (m) => h('span', { title: m.connected.join(', ') }, matchSeatCount(m)) },
  { key: 'spectators', label: 'Spectators', align: 'num', cell: (m) => String(m.spectators) },
  { key: 'timeout', label: 'Timeout', align: 'num', cell: (m) => formatTimeout(m.timeout) },
  { key: 'password', label: 'Password', align: 'center', cell: (m) => (m.password ? lockIcon('password protected') : '') },
  { key: 'timing', label: 'Timing', align: null, cell: (m, now) => lobbyTiming(m, now) },
];

/** Retry delays after the lobby connection drops. */
const RECONNECT_MS = [1000, 2000, 5000, 10000];

/**
 * `#/`: the matches waiting for players and running, like `coco lobby`, kept live. Rows stay in
 * the order the page first saw the matches, which is the order the server made them in (its list
 * comes oldest first; new matches arrive as they are made): a new match goes below the others, and
 * an update rewrites its row's cells in place, so that no row moves under the reader's pointer and
 * a focused row keeps the focus.
 */
export const lobbyView: View = (root, context) => {
  const resources = new Resources();
  const matches = new Map<string, MatchInfo>();
  const rows = new Map<string, HTMLTableRowElement>();
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
        COLUMNS.map((column) => h('th', { scope: 'col', class: `col-${column.key} ${column.align ?? ''}`.trim() }, column.label)),
      ),
    ),
    body,
  );
  const empty = h('div', { class: 'empty' }, h('p', {}, 'No match is waiting or running.'), h('a', { class: 'button', href: href.newMatch() }, 'Create a match'));
  root.append(pageHead('Lobby', h('a', { class: 'button primary', href: href.newMatch() }, 'New match')), status, h('div', { class: 'table-wrap' }, table), empty);

  const cells = (m: MatchInfo, now: number): HTMLTableCellElement[] =>
    COLUMNS.map((column) => h('td', { class: `col-${column.key} ${column.align ?? ''}`.trim(), 'data-label': column.label }, column.cell(m, now)));

  const newRow = (id: string): HTMLTableRowElement => {
    const row = h('tr', { tabindex: 0 });
    row.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('a')) return;
      context.navigate(href.match(id));
    });
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') context.navigate(href.match(id));
    });
    return row;
  };

  const showEmpty = (): void => {
    table.hidden = matches.size === 0;
    empty.hidden = matches.size > 0;
  };

  const upsert = (m: MatchInfo): void => {
    matches.set(m.id, m);
    let row = rows.get(m.id);
    if (!row) {
      row = newRow(m.id);
      rows.set(m.id, row);
      body.append(row);
    }
    row.className = m.running ? 'is-running' : 'is-waiting';
    row.title = m.running ? 'Watch this match' : 'Open this match';
    row.replaceChildren(...cells(m, Date.now() / 1000));
    showEmpty();
  };

  const remove = (id: string): void => {
    matches.delete(id);
    rows.get(id)?.remove();
    rows.delete(id);
    showEmpty();
  };

  showEmpty();
  resources.interval(() => {
    const now = Date.now() / 1000;
    for (const [id, row] of rows) {
      const m = matches.get(id);
      const cell = row.querySelector('.col-timing');
      if (m && cell) cell.textContent = lobbyTiming(m, now);
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
      const update = (p: unknown): void => {
        const info = readMatchInfo((p as { info?: unknown } | null)?.info);
        if (info.id !== '') upsert(info);
      };
      socket.on('LobbyNew', update);
      socket.on('LobbyUpdate', update);
      socket.on('LobbyDelete', (p) => remove(String((p as { id?: unknown } | null)?.id)));
      socket.onClosed((reason) => retry((s) => `Disconnected (${reason}); reconnecting in ${s}s…`));
      const reply = (await socket.request({ LobbySubscribe: {} }, 'LobbySubscribed')) as { seed?: unknown } | null;
      attempt = 0;
      // After a reconnection the seed is the whole lobby: what it lacks has gone meanwhile.
      const seed = (Array.isArray(reply?.seed) ? reply.seed : []).map(readMatchInfo).filter((m) => m.id !== '');
      const present = new Set(seed.map((m) => m.id));
      for (const id of [...matches.keys()]) if (!present.has(id)) remove(id);
      for (const m of seed) upsert(m);
      status.textContent = 'Live: the list updates by itself.';
    } catch (e) {
      retry((s) => notice('error', `Cannot reach the server: ${errorText(e)}. Retrying in ${s}s…`));
    }
  };
  void connect();
  return () => resources.release();
};
