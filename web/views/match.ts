import { fetchHistoryMatch } from '../api.js';
import { rustResult } from '../coco-socket.js';
import { copyText, h } from '../dom.js';
import { matchSeatCount } from '../../src/lobby/seat-count.js';
import { connectCommand, formatTimeout, lobbyTiming, serverFlagFor } from '../format.js';
import { Player } from '../player.js';
import { PlayerLegend } from '../player-legend.js';
import { href } from '../routes.js';
import { readMatchInfo, readVisEvents, type MatchInfo } from '../wire.js';
import { recordDownloads } from './record-downloads.js';
import { LiveChessTimes } from './live-chess-times.js';
import { CLOCK_TICK_MS, LiveSeatLegend } from './live-seat-legend.js';
import { showRecordDetails } from './record-details.js';
import { matchFacts, resultTable } from './result.js';
import { StreamPanel } from './stream-panel.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

type Phase = 'connecting' | 'waiting' | 'running' | 'finished' | 'missing';

const PHASE_LABEL: Readonly<Record<Phase, string>> = {
  connecting: 'Connecting',
  waiting: 'Waiting for players',
  running: 'Running',
  finished: 'Finished',
  missing: 'Not found',
};

/** After the end, the record may take a moment to be stored: ask again after these delays. */
const RESULT_RETRY_MS = [300, 1000, 3000, 8000];
/**
 * A match leaves the lobby once its record is stored: the page asks for the record then, or after
 * this long without the lobby's word (no lobby connection, another node's slow bus).
 */
const RECORD_WAIT_MS = 5000;

/**
 * `#/match/<id>`: live spectating. Three connections, each with one job: the spectator stream
 * (SpectateJoin), the visualizer events (VisSubscribe) and the lobby (for the seats while waiting).
 */
export const matchView = (id: string): View => (root, context) => {
  const resources = new Resources();
  let phase = 'connecting' as Phase;
  let info: MatchInfo | null = null;
  /** The record has told the legend the seats in order: the lobby's unordered names no longer replace them. */
  let seatsKnown = false;
  /**
   * The visualizer events still come: the end of the match (on the spectator connection) may
   * overtake the last of them (on their own connection), so the picture ends only at VisEnded.
   */
  let visFlowing = false;
  /** The lobby connection is up, and whether it has said the match left (its record is stored). */
  let lobbyWatching = false;
  let leftLobby = false;
  let whenRecorded: (() => void) | null = null;

  const title = h('span', {}, id);
  const pill = h('span', { class: 'pill' });
  const meta = h('p', { class: 'meta' });
  const messages = h('div', {});
  const command = connectCommand(id, serverFlagFor(context.socketUrl), false);
  const commandCode = h('code', {}, command);
  const copyButton = h('button', { type: 'button', class: 'button small' }, 'Copy');
  const seats = h('p', {});
  const expiry = h('p', { class: 'muted small' });
  const waiting = h(
    'section',
    { class: 'card waiting-panel', hidden: true },
    h('h2', {}, 'Waiting for players'),
    seats,
    h('p', {}, 'Take a seat with your program:'),
    h('div', { class: 'command' }, commandCode, copyButton),
    expiry,
  );
  copyButton.addEventListener('click', () => {
    void copyText(commandCode.textContent ?? '', commandCode).then((copied) => {
      copyButton.textContent = copied ? 'Copied' : 'Select and copy';
      resources.timeout(() => (copyButton.textContent = 'Copy'), 1500);
    });
  });
  const result = h('section', { class: 'card result-panel', hidden: true });
  const legend = new PlayerLegend();
  const player = new Player({ live: true, legend: legend.element });
  resources.add(() => player.dispose());
  player.setStatus('Connecting…');
  const stream = new StreamPanel('Spectator stream', false);
  // Before the record: the seats, colours, clocks and statuses as the server tells them while it plays.
  const liveSeats = new LiveSeatLegend(player, legend);
  resources.interval(() => liveSeats.tick(), CLOCK_TICK_MS);
  const chessTimes = new LiveChessTimes(player, (notes) => {
    if (!liveSeats.showNotesByName(notes) && !seatsKnown && info) legend.showJoined(info.connected, info.bots, notes);
  });

  const playerCard = h('section', { class: 'card player-card' }, player.element);
  // The board right under the title, sized to the window with its controls (style.css); the
  // result card under it, the legend on its side.
  /** The record's downloads, in the head once the match has ended and its record is stored. */
  const downloads = h('span', { class: 'record-downloads' });
  root.append(pageHead(title, pill, downloads), meta, messages, waiting, playerCard, result, stream.element);

  const render = (): void => {
    pill.textContent = PHASE_LABEL[phase];
    pill.className = `pill pill-${phase}`;
    waiting.hidden = phase !== 'waiting';
    playerCard.hidden = phase === 'missing';
    stream.element.hidden = phase === 'missing';
    if (!info) return;
    player.rememberFlipFor(info.game);
    title.textContent = info.name || id;
    document.title = `${info.name || id} — Code Colosseum`;
    const args = Object.entries(info.args).map(([k, v]) => `${k}=${v}`);
    meta.replaceChildren(
      h('a', { href: href.game(info.game) }, info.game),
      ` · ${info.players} seats (${info.bots} server ${info.bots === 1 ? 'bot' : 'bots'})`,
      ` · timeout ${formatTimeout(info.timeout)}`,
      ` · ${info.spectators} watching`,
      args.length > 0 ? ` · ${args.join(' ')}` : '',
      info.verified ? ' · verified' : '',
      ' · ',
      h('span', { class: 'mono' }, id),
    );
    chessTimes.matchInfo(info);
    if (!seatsKnown) legend.showJoined(info.connected, info.bots, chessTimes.notes);
    const connected = info.connected.length > 0 ? `; joined: ${info.connected.join(', ')}` : '';
    seats.textContent = `Seats taken: ${matchSeatCount(info)}${connected}.`;
    commandCode.textContent = connectCommand(id, serverFlagFor(context.socketUrl), info.password);
    expiry.textContent = info.running ? '' : `${lobbyTiming(info, Date.now() / 1000)} if nobody joins.`;
  };
  render();
  resources.interval(render, 1000);

  const setPhase = (next: Phase): void => {
    if (phase === 'finished' || phase === 'missing') return;
    phase = next;
    if (next === 'waiting') player.setStatus('The match starts when every seat is taken.');
    if (next === 'running') player.setStatus('');
    render();
  };

  const showResult = async (attempt = 0): Promise<void> => {
    try {
      const record = await fetchHistoryMatch(id);
      if (resources.isReleased) return;
      seatsKnown = true;
      liveSeats.stop();
      chessTimes.stop();
      showRecordDetails(record, player, legend, resources, { timeout: info?.timeout ?? null });
      downloads.replaceChildren(...recordDownloads(record, (revoke) => resources.add(revoke)));
      result.hidden = false;
      result.replaceChildren(
        h('h2', {}, 'Result'),
        h('div', { class: 'result-grid' }, resultTable(record), matchFacts(record)),
        h('p', {}, h('a', { class: 'button', href: href.replay(id) }, 'Open the replay')),
      );
    } catch {
      const delay = RESULT_RETRY_MS[attempt];
      if (delay !== undefined) resources.timeout(() => void showResult(attempt + 1), delay);
      else {
        result.hidden = false;
        result.replaceChildren(h('p', {}, 'The match is over. ', h('a', { href: href.replay(id) }, 'Replay')));
      }
    }
  };

  const finish = (): void => {
    if (phase === 'finished') return;
    phase = 'finished';
    if (!visFlowing) player.end();
    player.setStatus('');
    render();
    afterRecorded(() => void showResult());
  };

  /** Runs `then` once the match's record is stored, as far as the lobby tells (see RECORD_WAIT_MS). */
  const afterRecorded = (then: () => void): void => {
    if (leftLobby || !lobbyWatching) return then();
    whenRecorded = then;
    resources.timeout(() => {
      if (whenRecorded !== then) return;
      whenRecorded = null;
      then();
    }, RECORD_WAIT_MS);
  };

  // The spectator stream: joins the match and tells the phases.
  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      socket.onBinary((bytes) => {
        stream.appendBytes(bytes);
        chessTimes.streamBytes(bytes);
      });
      socket.on('SpectateStarted', () => setPhase('running'));
      socket.on('SpectateSynced', () => stream.mark('live from here'));
      socket.on('SpectateEnded', () => {
        stream.mark('end of the match');
        finish();
      });
      socket.onClosed((reason) => {
        if (phase !== 'finished' && phase !== 'missing') messages.replaceChildren(notice('error', `Connection lost: ${reason}. Reload to reconnect.`));
      });
      const reply = rustResult(((await socket.request({ SpectateJoin: { id } }, 'SpectateJoined')) as { info?: unknown } | null)?.info);
      if (!reply.ok) {
        // Not in the lobby: maybe it is over already.
        try {
          await fetchHistoryMatch(id);
          context.navigate(href.replay(id), { replace: true });
        } catch {
          phase = 'missing';
          player.setStatus('');
          messages.replaceChildren(notice('error', reply.error));
          render();
        }
        return;
      }
      info = readMatchInfo(reply.value);
      setPhase(info.running ? 'running' : 'waiting');
    } catch (e) {
      if (!resources.isReleased) messages.replaceChildren(notice('error', `Cannot reach the server: ${errorText(e)}`));
    }
  })();

  // The visualizer events.
  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      socket.on('VisEvents', (payload) => {
        const p = payload as { id?: unknown; events?: unknown } | null;
        if (p?.id !== undefined && p.id !== id) return;
        const events = readVisEvents(p?.events);
        player.append(events);
        liveSeats.events(events);
      });
      socket.on('VisSeats', (payload) => {
        const p = payload as { id?: unknown } | null;
        if (p?.id !== undefined && p.id !== id) return;
        liveSeats.seats(payload);
        if (liveSeats.seatsKnown) seatsKnown = true;
      });
      socket.on('VisEnded', () => {
        visFlowing = false;
        player.end();
      });
      socket.onClosed(() => {
        if (!visFlowing) return;
        visFlowing = false;
        if (phase === 'finished') player.end();
      });
      visFlowing = true;
      const reply = rustResult(((await socket.request({ VisSubscribe: { id } }, 'VisSubscribed')) as { info?: unknown } | null)?.info);
      if (!reply.ok) {
        visFlowing = false;
        if (phase === 'finished') player.end();
        if (phase !== 'missing') player.setStatus(`No visualization: ${reply.error}`);
      }
    } catch (e) {
      visFlowing = false;
      if (phase === 'finished') player.end();
      if (!resources.isReleased) player.setStatus(`No visualization: ${errorText(e)}`);
    }
  })();

  // The lobby, for the seats and the expiry while waiting.
  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      const update = (payload: unknown): void => {
        const next = readMatchInfo((payload as { info?: unknown } | null)?.info);
        if (next.id !== id) return;
        info = next;
        if (next.running) setPhase('running');
        render();
      };
      socket.on('LobbyNew', update);
      socket.on('LobbyUpdate', update);
      socket.on('LobbyDelete', (payload) => {
        if ((payload as { id?: unknown } | null)?.id !== id) return;
        leftLobby = true;
        const recorded = whenRecorded;
        whenRecorded = null;
        recorded?.();
        if (phase === 'waiting') {
          phase = 'missing';
          player.setStatus('');
          messages.replaceChildren(notice('info', 'This match expired before every seat was taken.'));
          render();
        }
      });
      const reply = (await socket.request({ LobbySubscribe: {} }, 'LobbySubscribed')) as { seed?: unknown } | null;
      lobbyWatching = true;
      socket.onClosed(() => {
        lobbyWatching = false;
        const recorded = whenRecorded;
        whenRecorded = null;
        recorded?.();
      });
      for (const entry of Array.isArray(reply?.seed) ? reply.seed : []) update({ info: entry });
    } catch {
      // The lobby only refreshes the seats; spectating works without it.
    }
  })();

  return () => resources.release();
};
