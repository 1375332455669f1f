import { fetchHistory } from '../api.js';
import { h } from '../dom.js';
import { formatDate, formatScore, formatSpan, timestampMs } from '../format.js';
import { href } from '../routes.js';
import { stackOnPhone } from '../stack-table.js';
import type { HistorySummary } from '../wire.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

const PAGE_SIZE = 50;

function players(match: HistorySummary): HTMLElement {
  const finite = match.scores?.filter(Number.isFinite) ?? [];
  const best = finite.length > 0 ? Math.max(...finite) : null;
  const tied = best !== null && match.scores!.every((s) => s === best);
  return h(
    'span',
    { class: 'players' },
    match.players.map((name, i) => {
      const score = match.scores?.[i];
      const winner = !tied && score !== undefined && score === best;
      return h(
        'span',
        { class: winner ? 'seat winner' : 'seat' },
        h('a', { href: href.history({ player: name }) }, name),
        score !== undefined && Number.isFinite(score) ? h('span', { class: 'score' }, formatScore(score)) : null,
      );
    }),
  );
}

/** `#/history`: finished matches, newest first, filtered by game and player, page by page. */
export const historyView = (game: string, player: string): View => (root, context) => {
  const resources = new Resources();
  const gameInput = h('input', { type: 'text', name: 'game', value: game, placeholder: 'any game', autocomplete: 'off' });
  const playerInput = h('input', { type: 'text', name: 'player', value: player, placeholder: 'any player', autocomplete: 'off' });
  const form = h(
    'form',
    { class: 'filters', role: 'search' },
    h('label', { class: 'field inline' }, h('span', { class: 'field-label' }, 'Game'), gameInput),
    h('label', { class: 'field inline' }, h('span', { class: 'field-label' }, 'Player'), playerInput),
    h('button', { type: 'submit', class: 'button primary' }, 'Filter'),
    game || player ? h('a', { class: 'button', href: href.history() }, 'Clear') : null,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    context.navigate(href.history({ game: gameInput.value.trim(), player: playerInput.value.trim() }));
  });
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'table history-table', hidden: true },
    h('thead', {}, h('tr', {}, ['Ended', 'Game', 'Name', 'Players and scores', 'Result', 'Duration', ''].map((c) => h('th', { scope: 'col' }, c)))),
    body,
  );
  const more = h('button', { type: 'button', class: 'button', hidden: true }, 'Older matches');
  const status = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  root.append(pageHead('History', h('a', { class: 'button', href: href.importLog() }, 'Show a replay log')), form, status, h('div', { class: 'table-wrap' }, stackOnPhone(table)), h('div', { class: 'center' }, more));

  let before: unknown = undefined;
  const load = async (): Promise<void> => {
    more.disabled = true;
    try {
      const matches = await fetchHistory({ game: game || undefined, player: player || undefined, limit: PAGE_SIZE, before });
      if (resources.isReleased) return;
      for (const m of matches) {
        const started = timestampMs(m.startedAt);
        const ended = timestampMs(m.endedAt);
        const row = h(
          'tr',
          { class: m.error ? 'has-error' : null },
          h('td', { class: 'nowrap' }, formatDate(m.endedAt)),
          h('td', {}, h('a', { href: href.history({ game: m.game, player }) }, m.game)),
          h('td', {}, m.name),
          h('td', {}, players(m)),
          h('td', { class: 'reason' }, m.error ? h('span', { class: 'error-text' }, m.error) : m.reason),
          h('td', { class: 'nowrap num' }, Number.isFinite(started) && Number.isFinite(ended) ? formatSpan((ended - started) / 1000) : ''),
          h('td', {}, h('a', { class: 'button small', href: href.replay(m.id) }, 'Replay')),
        );
        body.append(row);
      }
      if (matches.length > 0) before = matches[matches.length - 1]!.endedAt;
      table.hidden = body.childElementCount === 0;
      status.replaceChildren(body.childElementCount === 0 ? notice('info', game || player ? 'No finished match matches this filter.' : 'No finished match yet.') : '');
      more.hidden = matches.length < PAGE_SIZE;
    } catch (e) {
      if (!resources.isReleased) status.replaceChildren(notice('error', `Cannot load the history: ${errorText(e)}`));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', () => void load());
  void load();
  return () => resources.release();
};
