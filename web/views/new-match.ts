import type { ArgJson, GameArgsJson } from '../../src/protocol/games-json.js';
import { fetchGamesHelp } from '../api.js';
import { argHintText, argPlaceholder, argValueError } from '../arg-check.js';
import { rustResult } from '../coco-socket.js';
import { h } from '../dom.js';
import { href } from '../routes.js';
import { errorText, notice, pageHead, Resources, type View } from './view.js';

/** Limits of the reference server, checked here only to help; the server decides. */
const NAME_MAX = 24;
const PASSWORD_MAX = 32;
const PLAYERS_MAX = 100;
const TIMEOUT_MIN = 0.1;
const TIMEOUT_MAX = 600;

export interface GameNewRequest {
  readonly name: string;
  readonly game: string;
  readonly params: { readonly players: number | null; readonly bots: number; readonly timeout: number | null };
  readonly args: Readonly<Record<string, string>>;
  readonly password: string | null;
  readonly verification: string | null;
}

function field(label: string, input: HTMLElement, hint: string | null, error: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), input, hint ? h('span', { class: 'field-hint' }, hint) : null, error);
}

/** `#/new`: the GameNew form, with every parameter and each game's arguments. */
export const newMatchView = (wanted: string | null): View => (root, context) => {
  const resources = new Resources();
  const game = h('select', { name: 'game', required: true });
  const name = h('input', { name: 'name', type: 'text', required: true, maxlength: NAME_MAX, placeholder: 'My match', autocomplete: 'off' });
  const players = h('input', { name: 'players', type: 'number', min: 1, max: PLAYERS_MAX, step: 1, placeholder: 'game default' });
  const bots = h('input', { name: 'bots', type: 'number', min: 0, max: PLAYERS_MAX, step: 1, value: 0 });
  const timeout = h('input', { name: 'timeout', type: 'number', min: TIMEOUT_MIN, max: TIMEOUT_MAX, step: 'any', placeholder: 'game default' });
  const password = h('input', { name: 'password', type: 'text', maxlength: PASSWORD_MAX, placeholder: 'none', autocomplete: 'off' });
  const verification = h('input', { name: 'verification', type: 'password', placeholder: 'none', autocomplete: 'off' });
  const errors = {
    name: h('span', { class: 'field-error' }),
    players: h('span', { class: 'field-error' }),
    bots: h('span', { class: 'field-error' }),
    timeout: h('span', { class: 'field-error' }),
    password: h('span', { class: 'field-error' }),
    verification: h('span', { class: 'field-error' }),
    game: h('span', { class: 'field-error' }),
  };
  const argFields = h('div', { class: 'arg-fields' });
  const argInputs = new Map<string, { input: HTMLInputElement; error: HTMLElement; arg: ArgJson }>();
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Create match');
  const result = h('div', { class: 'form-result' });
  const form = h(
    'form',
    { class: 'form card', novalidate: true },
    h(
      'fieldset',
      {},
      h('legend', {}, 'Match'),
      field('Game', game, null, errors.game),
      field('Name', name, `1 to ${NAME_MAX} characters, shown in the lobby.`, errors.name),
    ),
    h(
      'fieldset',
      { class: 'grid-3' },
      h('legend', {}, 'Seats and time'),
      field('Players', players, `Seats, server bots included (at most ${PLAYERS_MAX}). Empty: the game's default.`, errors.players),
      field('Server bots', bots, 'How many seats the server fills with its bot.', errors.bots),
      field('Timeout (seconds)', timeout, `How long a player may think, ${TIMEOUT_MIN} to ${TIMEOUT_MAX}. Empty: the game's default.`, errors.timeout),
    ),
    h('fieldset', {}, h('legend', {}, 'Game arguments'), argFields),
    h(
      'fieldset',
      { class: 'grid-2' },
      h('legend', {}, 'Access'),
      field('Password', password, `Players need it to join (spectators do not). Up to ${PASSWORD_MAX} characters, no spaces.`, errors.password),
      field('Verification', verification, "The server's master password: marks the match as verified.", errors.verification),
    ),
    h('div', { class: 'form-actions' }, submit, result),
  );
  root.append(pageHead('New match'), form);

  let games: GameArgsJson[] = [];
  const showArgs = (): void => {
    argFields.replaceChildren();
    argInputs.clear();
    const selected = games.find((g) => g.name === game.value);
    // An empty Players field plays the game's default: the placeholder says how many that is.
    players.placeholder = selected?.default_players !== undefined ? String(selected.default_players) : 'game default';
    if (!selected || selected.args.length === 0) {
      argFields.append(h('p', { class: 'muted' }, selected ? 'This game takes no arguments.' : ''));
      return;
    }
    for (const arg of selected.args) {
      // An empty field plays the default: the placeholder shows it, as the hint states it.
      const input = h('input', { type: 'text', name: `arg-${arg.name}`, placeholder: argPlaceholder(arg), autocomplete: 'off' });
      const error = h('span', { class: 'field-error' });
      argInputs.set(arg.name, { input, error, arg });
      argFields.append(field(arg.name, input, argHintText(arg), error));
    }
  };
  game.addEventListener('change', showArgs);

  const intOrNull = (input: HTMLInputElement): number | null => (input.value.trim() === '' ? null : Number(input.value));

  const validate = (): GameNewRequest | null => {
    for (const e of Object.values(errors)) e.textContent = '';
    let ok = true;
    const fail = (error: HTMLElement, text: string): void => {
      error.textContent = text;
      ok = false;
    };
    if (!game.value) fail(errors.game, 'Choose a game.');
    const nameValue = name.value.trim();
    if (nameValue.length < 1 || nameValue.length > NAME_MAX) fail(errors.name, `Give a name of 1 to ${NAME_MAX} characters.`);
    const playersValue = intOrNull(players);
    if (playersValue !== null && (!Number.isInteger(playersValue) || playersValue < 1 || playersValue > PLAYERS_MAX)) {
      fail(errors.players, `A whole number from 1 to ${PLAYERS_MAX}.`);
    }
    const botsValue = intOrNull(bots) ?? 0;
    if (!Number.isInteger(botsValue) || botsValue < 0) fail(errors.bots, 'A whole number, 0 or more.');
    const timeoutValue = intOrNull(timeout);
    if (timeoutValue !== null && !(timeoutValue >= TIMEOUT_MIN && timeoutValue <= TIMEOUT_MAX)) {
      fail(errors.timeout, `From ${TIMEOUT_MIN} to ${TIMEOUT_MAX} seconds.`);
    }
    if (password.value !== '' && !/^[!-~]{1,32}$/.test(password.value)) fail(errors.password, `Up to ${PASSWORD_MAX} characters, no spaces.`);
    const args: Record<string, string> = {};
    for (const [argName, { input, error, arg }] of argInputs) {
      const value = input.value.trim();
      error.textContent = '';
      if (value === '') continue;
      const problem = argValueError(arg, value);
      if (problem !== null) fail(error, `${problem}.`);
      args[argName] = value;
    }
    if (!ok) return null;
    return {
      name: nameValue,
      game: game.value,
      params: { players: playersValue, bots: botsValue, timeout: timeoutValue },
      args,
      password: password.value === '' ? null : password.value,
      verification: verification.value === '' ? null : verification.value,
    };
  };

  void (async () => {
    try {
      const socket = await resources.open(context.socketUrl);
      games = [...(await fetchGamesHelp())].sort((a, b) => a.name.localeCompare(b.name));
      game.replaceChildren(h('option', { value: '' }, 'Choose a game…'), ...games.map((g) => h('option', { value: g.name }, g.name)));
      if (wanted !== null && games.some((g) => g.name === wanted)) game.value = wanted;
      else if (games.length === 1) game.value = games[0]!.name;
      showArgs();
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const request = validate();
        if (!request) return;
        submit.disabled = true;
        result.replaceChildren(h('span', { class: 'muted' }, 'Creating…'));
        socket.request({ GameNew: request }, 'GameNew').then(
          (reply) => {
            submit.disabled = false;
            const id = rustResult((reply as { id?: unknown } | null)?.id);
            if (id.ok) context.navigate(href.match(String(id.value)));
            else result.replaceChildren(notice('error', id.error));
          },
          (err: unknown) => {
            submit.disabled = false;
            result.replaceChildren(notice('error', errorText(err)));
          },
        );
      });
    } catch (e) {
      if (!resources.isReleased) result.replaceChildren(notice('error', `Cannot reach the server: ${errorText(e)}`));
    }
  })();
  return () => resources.release();
};
