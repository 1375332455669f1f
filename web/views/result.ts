import { h } from '../dom.js';
import { formatDate, formatScore, formatSpan, timestampMs } from '../format.js';
import { href } from '../routes.js';
import type { HistorySummary } from '../wire.js';

/**
 * Player names with their scores, best first marked; bots are the last `bots` seats, named by the
 * server. `printed`: the scores as an external game server printed them, shown where the stored
 * value is not the number printed (`inf`, `NaN`).
 */
export function resultTable(match: HistorySummary, printed: readonly string[] | null = null): HTMLElement {
  const scores = match.scores;
  const best = scores && scores.length > 0 ? Math.max(...scores.filter(Number.isFinite)) : null;
  const rows = match.players.map((player, i) => {
    const score = scores?.[i];
    const winner = best !== null && score === best && scores!.filter((s) => s === best).length < scores!.length;
    return h(
      'tr',
      { class: winner ? 'winner' : null },
      h('td', {}, winner ? h('span', { class: 'crown', title: 'best score' }, '★ ') : '', player),
      h('td', { class: 'num' }, scoreText(score, printed?.[i])),
    );
  });
  return h('table', { class: 'table compact result-table' }, h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', { class: 'num' }, 'Score'))), h('tbody', {}, rows));
}

export function matchFacts(match: HistorySummary): HTMLElement {
  const started = timestampMs(match.startedAt);
  const ended = timestampMs(match.endedAt);
  const facts: [string, Node | string][] = [
    ['Game', h('a', { href: href.game(match.game) }, match.game)],
    ['Started', formatDate(match.startedAt)],
    ['Duration', Number.isFinite(started) && Number.isFinite(ended) ? formatSpan((ended - started) / 1000) : '?'],
    ['Server bots', String(match.bots)],
  ];
  const args = Object.entries(match.args);
  if (args.length > 0) facts.push(['Arguments', args.map(([k, v]) => `${k}=${v}`).join(' ')]);
  if (match.reason) facts.push(['Result', match.reason]);
  if (match.error) facts.push(['Error', h('span', { class: 'error-text' }, match.error)]);
  return h('dl', { class: 'facts' }, facts.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

function scoreText(score: number | undefined, printed: string | undefined): string {
  if (printed !== undefined && !Number.isFinite(Number(printed))) return printed;
  return score === undefined ? '—' : formatScore(score);
}
