import type { VisEvent } from '../../src/protocol/vis-event.js';
import { ApiError, artifactPath, fetchHistoryMatch } from '../api.js';
import { h } from '../dom.js';
import { Player } from '../player.js';
import { href } from '../routes.js';
import { GAME_REPORT_ARTIFACT, readVisEvents, type HistoryMatch } from '../wire.js';
import { PlayerLegend } from '../player-legend.js';
import { CLOCK_ARTIFACT } from '../seat-clocks.js';
import { recordDownloads } from './record-downloads.js';
import { showRecordDetails } from './record-details.js';
import { fetchGameReport, gameReportCard } from './game-report.js';
import { matchFacts, resultTable } from './result.js';
import { StreamPanel } from './stream-panel.js';
import { TranscriptPanel } from './transcript-panel.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

function replayPlayer(resources: Resources, events: readonly VisEvent[], autoplay = true, onStep?: (step: number) => void, legend?: HTMLElement): Player {
  const player = new Player({ live: false, autoplay, ...(onStep ? { onStep } : {}), ...(legend ? { legend } : {}) });
  resources.add(() => player.dispose());
  player.append(events);
  if (events.length === 0) player.setStatus('This match has no visualization.');
  return player;
}

/**
 * The files kept with a match: each seat's transcript, opened in the transcript panel beside the
 * board (the link still downloads it when opened in a new tab), and whatever the game attached,
 * opened as text in a new tab.
 */
function filesCard(match: HistoryMatch, transcripts: TranscriptPanel): HTMLElement {
  const label = (name: string): string => {
    const seat = /^transcript-(\d+)\.txt$/.exec(name);
    const player = seat ? match.players[Number(seat[1])] : undefined;
    if (name === GAME_REPORT_ARTIFACT) return 'Game server report (JSON)';
    if (name === CLOCK_ARTIFACT) return "Each seat's turns: asked, answered, limit (JSON, the clocks)";
    return player === undefined ? name : `Transcript of ${player} (what it received and sent)`;
  };
  return h(
    'section',
    { class: 'card files-card' },
    h('h2', {}, 'Files'),
    h(
      'ul',
      {},
      ...match.artifacts.map((name) => {
        const link = h('a', { href: artifactPath(match.id, name), target: '_blank', rel: 'noopener' }, label(name));
        if (/^transcript-\d+\.txt$/.test(name)) {
          link.addEventListener('click', (event) => {
            // A plain click reads it here; a modified click (new tab, download) keeps the browser's meaning.
            if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            void transcripts.open(name, label(name));
          });
        }
        return h('li', {}, link);
      }),
    ),
  );
}

/** How long the step in the URL may lag the step shown: browsers throttle frequent history updates. */
const URL_UPDATE_DELAY_MS = 250;

/**
 * Keeps `#/replay/<id>?step=N` in the address bar as the replay moves, without a history entry per
 * move and without a hashchange (which would rebuild the view): replaceState, at most once per
 * URL_UPDATE_DELAY_MS.
 */
function stepInUrl(resources: Resources, id: string): (step: number) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;
  resources.add(() => clearTimeout(timer));
  return (step) => {
    latest = step;
    timer ??= setTimeout(() => {
      timer = undefined;
      if (!resources.isReleased) history.replaceState(history.state, '', href.replay(id, latest));
    }, URL_UPDATE_DELAY_MS);
  };
}

/**
 * `#/replay/<id>`: a finished match from the history, its result, picture and spectator stream;
 * `#/replay/<id>?step=N` opens it paused at move N.
 */
export const replayView = (id: string, step: number | null = null): View => (root) => {
  const resources = new Resources();
  const title = h('span', {}, id);
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading the match…'));
  const downloads = h('span', { class: 'record-downloads' });
  root.append(pageHead(title, downloads, h('a', { class: 'button', href: href.history() }, 'History')), body);

  void (async () => {
    try {
      const match = await fetchHistoryMatch(id);
      const report = await fetchGameReport(match);
      if (resources.isReleased) return;
      title.textContent = match.name || id;
      document.title = `${match.name || id} (replay) — Code Colosseum`;
      const legend = new PlayerLegend();
      downloads.replaceChildren(...recordDownloads(match, (revoke) => resources.add(revoke)));
      const player = replayPlayer(resources, match.vis, step === null, stepInUrl(resources, id), legend.element);
      player.rememberFlipFor(match.game);
      // The record does not keep the match's timeout: the chess sides show the time their moves took.
      showRecordDetails(match, player, legend, resources, { timeout: null });
      if (step !== null) player.goToStep(step);
      const transcripts = new TranscriptPanel(match.id);
      const stream = new StreamPanel('Spectator stream', match.vis.length === 0);
      stream.appendText(match.spectatorStream);
      body.replaceChildren(
        // The board first, sized to the window with its controls (style.css), as on lichess; the
        // result is on the board's side (the legend's scores) and in full under it.
        // The board and the transcript panel: side by side on a wide screen, the panel under the
        // board on a narrow one (style.css).
        h('div', { class: 'replay-stage' }, h('section', { class: 'card player-card' }, player.element), transcripts.element),
        h('section', { class: 'card' }, h('div', { class: 'result-grid' }, resultTable(match, report?.printedScores ?? null), matchFacts(match))),
        stream.element,
        ...(report ? [gameReportCard(match, report)].filter((card): card is HTMLElement => card !== null) : []),
        ...(match.artifacts.length > 0 ? [filesCard(match, transcripts)] : []),
      );
    } catch (e) {
      if (resources.isReleased) return;
      const missing = e instanceof ApiError && e.status === 404;
      body.replaceChildren(notice('error', missing ? `No finished match "${id}": ${errorText(e)}` : `Cannot load the match: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};

/**
 * `#/demo`: the fixture scene (web/fixtures/scene.json), to see the visualizer without a match.
 * `#/demo?t=3.5` shows it paused at that time (for browser tests and screenshots).
 */
export const demoView = (at: number | null): View => (root) => {
  const resources = new Resources();
  const body = h('div', {}, h('p', { class: 'muted' }, 'Loading the demo scene…'));
  root.append(
    pageHead('Visualizer demo'),
    h('p', { class: 'muted' }, 'A small scene exercising every shape, easing, rotation, scaling, destruction and log lines.'),
    body,
  );
  void (async () => {
    try {
      const response = await fetch('/static/fixtures/scene.json');
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const events = readVisEvents(await response.json());
      if (resources.isReleased) return;
      const player = replayPlayer(resources, events, at === null);
      if (at !== null) player.seek(at);
      body.replaceChildren(h('section', { class: 'card player-card' }, player.element));
    } catch (e) {
      if (!resources.isReleased) body.replaceChildren(notice('error', `Cannot load the demo scene: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};

/**
 * `#/import`: a replay log in the reference platform's format (`SSS.UUUUUU > line` / `< line`),
 * pasted or read from a file, shown with the same visualizer. The server turns the log into
 * visualizer events (POST /api/replay-log), with the validator every game's events go through.
 */
export const importView: View = (root) => {
  const resources = new Resources();
  const file = h('input', { type: 'file', name: 'file', accept: '.log,.txt,text/plain' });
  const text = h('textarea', { name: 'log', rows: 8, class: 'mono', placeholder: '000.001234 < vis {t:0,create:{id:1,geom:[{circle:{r:0.1}}]}}' });
  const show = h('button', { type: 'submit', class: 'button primary' }, 'Show');
  const body = h('div', {});
  const form = h(
    'form',
    { class: 'card import-form' },
    h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Replay log file'), file),
    h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'or paste it'), text),
    h('div', { class: 'form-actions' }, show),
  );
  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    if (chosen) void chosen.text().then((content) => (text.value = content));
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    show.disabled = true;
    void (async () => {
      try {
        const response = await fetch('/api/replay-log', { method: 'POST', body: text.value, headers: { 'content-type': 'text/plain' } });
        const reply = (await response.json()) as { vis?: unknown; error?: string };
        if (!response.ok) throw new Error(reply.error ?? `${response.status} ${response.statusText}`);
        if (resources.isReleased) return;
        const player = replayPlayer(resources, readVisEvents(reply.vis));
        body.replaceChildren(h('section', { class: 'card player-card' }, player.element));
      } catch (e) {
        if (!resources.isReleased) body.replaceChildren(notice('error', `Cannot show this log: ${errorText(e)}`));
      } finally {
        show.disabled = false;
      }
    })();
  });
  root.append(pageHead('Show a replay log', h('a', { class: 'button', href: href.history() }, 'History')), form, body);
  return () => resources.release();
};
