import { historyMatchPath } from '../api.js';
import { chessPgn, isChessRecord, readChessStream } from '../chess-record.js';
import { h } from '../dom.js';
import { href } from '../routes.js';
import type { HistoryMatch } from '../wire.js';

/**
 * The links that save a finished match's record: the JSON the server keeps (players, scores,
 * reason, spectator stream, visualizer events), and for chess its PGN (chess-record.ts), named
 * after the game and the match so that a folder of downloads stays readable. The JSON is served
 * from the same origin, so the `download` attribute is honoured; the PGN is made here, from the
 * record, as a blob that `release` (the view's) revokes.
 */
export function recordDownloads(match: HistoryMatch, release: (revoke: () => void) => void): HTMLElement[] {
  const links: HTMLElement[] = [
    h(
      'a',
      { class: 'button record-json', href: historyMatchPath(match.id), download: `${match.game}-${match.id}.json`, title: 'The whole record of this match as JSON' },
      'Download JSON',
    ),
  ];
  if (isChessRecord(match)) {
    const game = readChessStream(match.spectatorStream, match.players, match.scores);
    if (game) {
      const site = new URL(href.replay(match.id), location.href).href;
      const pgn = chessPgn(game, { ...match, site });
      const url = URL.createObjectURL(new Blob([pgn], { type: 'application/x-chess-pgn' }));
      release(() => URL.revokeObjectURL(url));
      links.push(h('a', { class: 'button record-pgn', href: url, download: `${match.game}-${match.id}.pgn`, title: 'The game in PGN: players, result and moves in SAN' }, 'Download PGN'));
    }
  }
  return links;
}
