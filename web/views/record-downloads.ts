import { historyMatchPath } from '../api.js';
import { h } from '../dom.js';
import type { HistorySummary } from '../wire.js';

/**
 * The links that save a finished match's record: the JSON the server keeps (players, scores,
 * reason, spectator stream, visualizer events), named after the game and the match so that a
 * folder of downloads stays readable. Same origin, so the `download` attribute is honoured.
 */
export function recordDownloads(match: HistorySummary): HTMLElement[] {
  return [
    h(
      'a',
      { class: 'button record-json', href: historyMatchPath(match.id), download: `${match.game}-${match.id}.json`, title: 'The whole record of this match as JSON' },
      'Download JSON',
    ),
  ];
}
