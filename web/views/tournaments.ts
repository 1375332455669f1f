import { getJson } from '../api.js';
import { h } from '../dom.js';
import { href } from '../routes.js';
import { stackOnPhone } from '../stack-table.js';
import { createTournament, parseEntrantLines, readTournament, readTournamentList, stopTournament, tournamentPath, TOURNAMENTS_PATH, type TournamentDetail, type TournamentList } from '../tournaments-api.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

/** How often the list refreshes itself (a tournament's own page follows it by long poll instead). */
const LIST_REFRESH_MS = 2000;
const FORMATS = ['round-robin', 'gauntlet', 'swiss'] as const;

const fixed = (value: number | null, digits = 1): string => (value === null || !Number.isFinite(value) ? '—' : value.toFixed(digits));
const percent = (value: number | null): string => (value === null ? '—' : `${(100 * value).toFixed(1)}%`);

function field(label: string, input: HTMLElement, hint: string | null): HTMLElement {
  return h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), input, hint ? h('span', { class: 'field-hint' }, hint) : null);
}

/** `KEY=VALUE` lines into game arguments. */
function argLines(text: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const eq = line.indexOf('=');
    if (eq > 0) args[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return args;
}

/** The create form: server bots only, the server's verification password. */
function createForm(list: TournamentList, navigate: (hash: string) => void): HTMLElement {
  const game = h('select', { name: 'game', required: true }, list.games.map((g) => h('option', { value: g.name }, g.name)));
  const format = h('select', { name: 'format' }, FORMATS.map((f) => h('option', { value: f }, f)));
  const rounds = h('input', { name: 'rounds', type: 'number', min: 1, step: 1, value: 1 });
  const players = h('input', { name: 'players', type: 'number', min: 2, step: 1, placeholder: 'the game\'s default' });
  const concurrency = h('input', { name: 'concurrency', type: 'number', min: 1, max: list.limits.concurrency, step: 1, value: 2 });
  const entrants = h('textarea', { name: 'entrants', rows: 4, placeholder: 'alpha\nbeta', autocomplete: 'off' });
  const args = h('textarea', { name: 'args', rows: 2, placeholder: 'rounds=10', autocomplete: 'off' });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'off', required: true });
  const bots = h('span', { class: 'field-hint' });
  const showBots = (): void => {
    const named = list.games.find((g) => g.name === game.value)?.bots ?? null;
    bots.textContent = named === null ? 'One entrant a line: NAME plays the game\'s bot.' : named.length === 0 ? 'This game has no server bots.' : `One entrant a line: NAME=BOT, BOT one of ${named.join(', ')} (NAME alone: one of them at random).`;
  };
  game.addEventListener('change', showBots);
  showBots();
  const result = h('div', { class: 'form-result' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Start tournament');
  const form = h(
    'form',
    { class: 'form card tournament-form', novalidate: true },
    h(
      'fieldset',
      {},
      h('legend', {}, 'New server tournament'),
      field('Game', game, null),
      field('Format', format, 'Each meeting is played in both seat orders; with more players, each table in every rotation of its seats.'),
      field('Players per match', players, 'Empty: the game\'s default. More than 2: tables of that many entrants.'),
      field('Rounds', rounds, `Round robin and gauntlet: each pair meets 2×rounds times (each table of k, k×rounds times). At most ${list.limits.matches} matches.`),
      field('Concurrency', concurrency, `Matches at once, at most ${list.limits.concurrency}.`),
      h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Entrants'), entrants, bots),
      field('Game arguments', args, 'KEY=VALUE, one a line.'),
      field('Verification password', password, 'The server\'s: its bots play on its own cores.'),
    ),
    h('div', { class: 'form-actions' }, submit),
    result,
  );
  submitToServer(
    form,
    submit,
    result,
    () =>
      createTournament({
        game: game.value,
        format: format.value,
        rounds: Number(rounds.value),
        concurrency: Number(concurrency.value),
        entrants: parseEntrantLines(entrants.value),
        args: argLines(args.value),
        players: players.value.trim() === '' ? null : Number(players.value),
        password: password.value,
      }),
    (created) => navigate(href.tournament(created.id)),
  );
  return form;
}

/**
 * Sends what `form` asks of the server when it is submitted: its button waits for the answer, a
 * refusal is shown in `result` with the server's reason, and an answer goes to `answered`.
 */
function submitToServer<T>(form: HTMLFormElement, submit: HTMLButtonElement, result: HTMLElement, send: () => Promise<T>, answered: (answer: T) => void): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    result.replaceChildren();
    send().then(
      (answer) => {
        submit.disabled = false;
        answered(answer);
      },
      (e: unknown) => {
        submit.disabled = false;
        result.replaceChildren(notice('error', `The server refused: ${errorText(e)}`));
      },
    );
  });
}

/** `#/tournaments`: the server's tournaments, newest first, and the form to start one. */
export const tournamentsView: View = (root, context) => {
  const resources = new Resources();
  const status = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const body = h('tbody');
  const table = h(
    'table',
    { class: 'table tournaments-table', hidden: true },
    h('thead', {}, h('tr', {}, ['Tournament', 'Game', 'Format', 'State'].map((c) => h('th', { scope: 'col' }, c)), ['Entrants', 'Finished', 'Running'].map((c) => h('th', { scope: 'col', class: 'num' }, c)))),
    body,
  );
  const formSlot = h('div');
  root.append(pageHead('Tournaments'), h('p', { class: 'muted' }, 'Tournaments the server plays between its own bots. Their matches are ordinary matches: watch them live, replay them when done.'), status, h('div', { class: 'table-wrap' }, stackOnPhone(table)), formSlot);
  let formShown = false;
  const load = (): void => {
    getJson(TOURNAMENTS_PATH).then(
      (answer) => {
        if (resources.isReleased) return;
        const list = readTournamentList(answer);
        body.replaceChildren(
          ...list.tournaments.map((t) =>
            h(
              'tr',
              { 'data-state': t.state },
              h('td', {}, h('a', { href: href.tournament(t.id) }, t.id)),
              h('td', {}, t.game),
              h('td', {}, t.format),
              h('td', {}, t.state),
              h('td', { class: 'num' }, String(t.entrants)),
              h('td', { class: 'num' }, `${t.finished}/${t.total}`),
              h('td', { class: 'num' }, String(t.running)),
            ),
          ),
        );
        table.hidden = list.tournaments.length === 0;
        status.replaceChildren(list.tournaments.length === 0 ? notice('info', 'No tournament yet.') : '');
        if (!formShown) {
          formShown = true;
          formSlot.append(createForm(list, (hash) => context.navigate(hash)));
        }
      },
      (e: unknown) => {
        if (!resources.isReleased) status.replaceChildren(notice('error', `Cannot load the tournaments: ${errorText(e)}`));
      },
    );
  };
  load();
  resources.interval(load, LIST_REFRESH_MS);
  return () => resources.release();
};

/** Points as they are (halves, from 2-player games), or to 2 decimals (thirds and the like, from more players). */
const pointsText = (points: number): string => (Number.isInteger(points * 2) ? String(points) : points.toFixed(2));

function standingsTable(t: TournamentDetail): HTMLTableElement {
  // With more than 2 players a match has places, and a win is first place alone: the mean place says more.
  const places = t.players > 2;
  return h(
    'table',
    { class: 'table standings-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, '#'), h('th', { scope: 'col' }, 'Entrant'), ['Elo', '±95%', 'LOS', 'Points', 'Games', 'W', 'D', 'L', ...(places ? ['Place'] : [])].map((c) => h('th', { scope: 'col', class: 'num' }, c)))),
    h(
      'tbody',
      {},
      t.standings.map((row, i) =>
        h(
          'tr',
          {},
          h('td', { class: 'num' }, String(i + 1)),
          h('td', {}, row.name),
          h('td', { class: 'num' }, fixed(row.elo)),
          h('td', { class: 'num' }, fixed(row.error95)),
          h('td', { class: 'num' }, percent(row.losNext)),
          h('td', { class: 'num' }, pointsText(row.points)),
          h('td', { class: 'num' }, String(row.games)),
          h('td', { class: 'num' }, String(row.wins)),
          h('td', { class: 'num' }, String(row.draws)),
          h('td', { class: 'num' }, String(row.losses)),
          ...(places ? [h('td', { class: 'num' }, row.place === null ? '–' : row.place.toFixed(2))] : []),
        ),
      ),
    ),
  );
}

/** The finished matches: seat 0, result, seat 1 for 2 players; the seats in order and their places for more. */
function finishedTable(t: TournamentDetail): HTMLTableElement {
  const replay = (match: string): HTMLElement => h('td', {}, h('a', { href: href.replay(match) }, 'replay'));
  const places = t.players > 2;
  const columns = places ? ['Seats in order', 'Places', 'Reason', 'Replay'] : ['Seat 0', 'Result', 'Seat 1', 'Reason', 'Replay'];
  return h(
    'table',
    { class: 'table finished-matches' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, '#'), columns.map((c) => h('th', { scope: 'col' }, c)))),
    h(
      'tbody',
      {},
      [...t.results].reverse().map((r) =>
        places
          ? h('tr', {}, h('td', { class: 'num' }, String(r.pairing)), h('td', {}, r.players.join(', ')), h('td', {}, r.outcome === '*' ? 'no result' : r.outcome), h('td', {}, r.reason), replay(r.match))
          : h('tr', {}, h('td', { class: 'num' }, String(r.pairing)), h('td', {}, r.players[0] ?? ''), h('td', {}, r.outcome), h('td', {}, r.players[1] ?? ''), h('td', {}, r.reason), replay(r.match)),
      ),
    ),
  );
}

function render(t: TournamentDetail): (Node | string)[] {
  const progress = `${t.results.length} of ${t.total} matches played, ${t.running.length} running · ${t.format}, ${t.rounds} round${t.rounds === 1 ? '' : 's'}, ${t.concurrency} at once${t.players > 2 ? `, ${t.players} players a match` : ''}`;
  return [
    h('p', { class: 'tournament-state', 'data-state': t.state }, h('strong', {}, t.state), ` · ${progress}`),
    t.error ? notice(t.state === 'failed' ? 'error' : 'info', t.error) : '',
    h('h2', {}, 'Standings'),
    h('div', { class: 'table-wrap' }, stackOnPhone(standingsTable(t))),
    h('h2', {}, 'Running'),
    t.running.length === 0
      ? h('p', { class: 'muted' }, 'No match running.')
      : h('ul', { class: 'running-matches' }, t.running.map((r) => h('li', {}, `#${r.pairing} ${r.players.join(' vs ')} · `, h('a', { href: href.match(r.match) }, 'watch live')))),
    h('h2', {}, 'Finished'),
    t.results.length === 0
      ? h('p', { class: 'muted' }, 'No match finished yet.')
      : h('div', { class: 'table-wrap' }, stackOnPhone(finishedTable(t))),
  ];
}

/**
 * Stops the tournament with the server's verification password, as creating one needs. Outside
 * the live content, which each change redraws: a password being typed survives the redraws.
 */
function stopForm(id: string, stopped: (t: TournamentDetail) => void): HTMLFormElement {
  const password = h('input', { name: 'stop-password', type: 'password', autocomplete: 'off', required: true });
  const submit = h('button', { type: 'submit', class: 'button danger' }, 'Stop tournament');
  const result = h('div', { class: 'form-result' });
  const form = h(
    'form',
    { class: 'form card tournament-stop', novalidate: true, hidden: true },
    h('fieldset', {}, h('legend', {}, 'Stop this tournament'), field('Verification password', password, 'The server\'s. Running matches end now, unfinished; the standings stay.')),
    h('div', { class: 'form-actions' }, submit),
    result,
  );
  submitToServer(form, submit, result, () => stopTournament(id, password.value), stopped);
  return form;
}

/** `#/tournaments/ID`: the standings, the running matches to watch, the finished ones to replay; live by long poll. */
export const tournamentView = (id: string): View => (root) => {
  const resources = new Resources();
  const abort = new AbortController();
  resources.add(() => abort.abort());
  const content = h('div', { class: 'tournament' }, h('p', { class: 'muted' }, 'Loading…'));
  const show = (t: TournamentDetail): void => {
    if (resources.isReleased) return;
    content.replaceChildren(...render(t));
    stop.hidden = t.state !== 'running';
  };
  const stop = stopForm(id, show);
  root.append(pageHead(`Tournament ${id}`, h('a', { class: 'button', href: href.tournaments() }, 'All tournaments')), content, stop);
  const follow = async (): Promise<void> => {
    let after: number | undefined;
    for (;;) {
      const response = await fetch(tournamentPath(id, after), { headers: { accept: 'application/json' }, signal: abort.signal });
      const body: unknown = await response.json();
      if (!response.ok) throw new Error(typeof (body as { error?: unknown })?.error === 'string' ? (body as { error: string }).error : `${response.status}`);
      const t = readTournament(body);
      if (resources.isReleased) return;
      show(t);
      // A stopped tournament's matches take a moment to end: followed until none runs.
      if (t.state !== 'running' && t.running.length === 0) return;
      after = t.version;
    }
  };
  follow().catch((e: unknown) => {
    if (!resources.isReleased) content.replaceChildren(notice('error', `Cannot follow the tournament: ${errorText(e)}`));
  });
  return () => resources.release();
};
