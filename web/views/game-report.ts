import { artifactPath } from '../api.js';
import { h } from '../dom.js';
import { GAME_REPORT_ARTIFACT, readGameReport, type GameReport, type HistoryMatch } from '../wire.js';

/**
 * What an external game's controller kept about a match (the `report.json` artifact): the errors
 * its game server reported against each player, the visualizer events it refused, and the scores
 * as printed. Null for a match without that artifact (built-in games) or when it cannot be read:
 * the rest of the page does not depend on it.
 */
export async function fetchGameReport(match: HistoryMatch): Promise<GameReport | null> {
  if (!match.artifacts.includes(GAME_REPORT_ARTIFACT)) return null;
  try {
    const response = await fetch(artifactPath(match.id, GAME_REPORT_ARTIFACT));
    if (!response.ok) return null;
    return readGameReport(JSON.parse(await response.text()));
  } catch {
    return null;
  }
}

/** The report's card, or null when it has nothing to say beyond the result. */
export function gameReportCard(match: HistoryMatch, report: GameReport): HTMLElement | null {
  const sections: HTMLElement[] = [];
  const players = [...new Set(report.playerErrors.map((error) => error.player))].sort((a, b) => a - b);
  if (players.length > 0) {
    sections.push(
      h('h3', {}, 'Player errors'),
      h(
        'ul',
        { class: 'player-errors' },
        players.map((player) => {
          const texts = report.playerErrors.filter((error) => error.player === player).map((error) => error.text);
          const total = report.playerErrorCounts[player - 1] ?? texts.length;
          const name = match.players[player - 1] ?? `player ${player}`;
          return h(
            'li',
            {},
            h('strong', {}, name),
            report.dropped.includes(player) ? ' (dropped)' : '',
            h('ul', {}, texts.map((text) => h('li', { class: 'mono' }, text))),
            total > texts.length ? h('p', { class: 'muted' }, `and ${total - texts.length} more`) : null,
          );
        }),
      ),
    );
  }
  if (report.visRefusedCount > 0) {
    sections.push(
      h('h3', {}, `Refused visualizer events (${report.visRefusedCount})`),
      h(
        'ul',
        { class: 'vis-refused' },
        report.visRefused.map((refusal) => h('li', {}, h('span', { class: 'mono' }, refusal.line), h('br'), h('span', { class: 'error-text' }, refusal.why))),
      ),
    );
    const unlisted = report.visRefusedCount - report.visRefused.length;
    if (unlisted > 0) sections.push(h('p', { class: 'muted' }, `and ${unlisted} more`));
  }
  if (sections.length === 0) return null;
  return h('section', { class: 'card game-report-card' }, h('h2', {}, 'Game server report'), sections);
}
