import { err, ok, type Result } from '../../util/result.js';
import type { GameListEntry, LiveSeat, MatchData, MatchInfo, Outcome, Reply, Request } from './messages.js';

/**
 * JSON text frames of the coco protocol, written exactly as the reference (serde_json) writes
 * them: compact, fields in declaration order, f64 values always with a decimal point (`30.0`).
 */

/** A number that serde would write as an f64. */
class F64 {
  constructor(readonly value: number) {}
}

type JsonOut = string | number | boolean | null | F64 | readonly JsonOut[] | { readonly [key: string]: JsonOut };

function formatF64(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  return Number.isInteger(value) && Math.abs(value) < 1e16 ? `${value}.0` : String(value);
}

function write(value: JsonOut): string {
  if (value instanceof F64) return formatF64(value.value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  const entries = Object.entries(value as Record<string, JsonOut>);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${write(item)}`).join(',')}}`;
}

function matchInfoJson(info: MatchInfo): JsonOut {
  return {
    players: info.players,
    bots: info.bots,
    timeout: new F64(info.timeout),
    args: { ...info.args },
    id: info.id,
    name: info.name,
    game: info.game,
    running: info.running,
    time: info.time,
    connected: [...info.connected],
    spectators: info.spectators,
    password: info.password,
    verified: info.verified,
  };
}

function outcomeJson<T>(outcome: Outcome<T>, body: (value: T) => JsonOut): JsonOut {
  return 'Ok' in outcome ? { Ok: body(outcome.Ok) } : { Err: outcome.Err };
}

function matchDataJson(data: MatchData): JsonOut {
  return {
    id: data.id,
    game_name: data.game_name,
    args: { ...data.args },
    players: [...data.players],
    bot_count: data.bot_count,
    history: Array.from(data.history),
  };
}

function replyBody(reply: Reply, version: number): JsonOut {
  switch (reply.type) {
    case 'Handshake':
      return { magic: reply.magic, version: reply.version };
    case 'GameList':
      return version >= 2
        ? { games: reply.games.map((g) => ({ name: g.name, args: Object.fromEntries(Object.entries(g.args).map(([k, a]) => [k, { description: a.description, regex: a.regex }])) })) }
        : { games: reply.games.map((g) => g.name) };
    case 'GameDescription':
      return { description: reply.description };
    case 'GameNew':
    case 'LobbyDeletedMatch':
      return { id: outcomeJson(reply.id, (id) => id) };
    case 'LobbyList':
      return { info: reply.info.map(matchInfoJson) };
    case 'LobbySubscribed':
      return { seed: reply.seed.map(matchInfoJson) };
    case 'LobbyJoinedMatch':
    case 'SpectateJoined':
      return { info: outcomeJson(reply.info, matchInfoJson) };
    case 'LobbyNew':
    case 'LobbyUpdate':
      return { info: matchInfoJson(reply.info) };
    case 'LobbyDelete':
      return { id: reply.id };
    case 'HistoryMatchList':
      return [...reply.ids];
    case 'HistoryMatch':
      return 'Ok' in reply.data ? { Ok: matchDataJson(reply.data.Ok) } : { Err: reply.data.Err };
    case 'VisSubscribed':
      return { info: outcomeJson(reply.info, () => null) };
    case 'VisEvents':
      return { id: reply.id, events: reply.events as JsonOut[] };
    case 'VisEnded':
      return { id: reply.id };
    case 'VisSeats':
      return { id: reply.id, now: reply.now, seats: reply.seats.map((seat) => ({ name: seat.name, turn: seat.turn === null ? null : [...seat.turn], closed: seat.closed })) };
    case 'NameRegistered':
    case 'NameRotated':
      return { name: reply.name, token: outcomeJson(reply.token, (token) => token) };
    case 'NameReleased':
      return { name: reply.name, result: outcomeJson(reply.result, () => null) };
    case 'ArenaEntered':
      return { info: outcomeJson(reply.info, (info) => ({ game: info.game, name: info.name, args: { ...info.args }, players: info.players })) };
    case 'ArenaPaired':
      return { id: reply.id, password: reply.password, players: [...reply.players] };
    case 'ArenaResult': {
      const r = reply.result;
      return { id: r.id, players: [...r.players], scores: r.scores === null ? null : r.scores.map((x) => new F64(x)), outcome: r.outcome, rating: r.rating === null ? null : new F64(r.rating), reason: r.reason };
    }
    case 'ArenaHeld':
      return { until: reply.until, reason: reply.reason };
    case 'ArenaLeft':
    case 'LobbyUnsubscribed':
    case 'LobbyLeavedMatch':
    case 'MatchStarted':
    case 'MatchEnded':
    case 'SpectateStarted':
    case 'SpectateSynced':
    case 'SpectateEnded':
    case 'SpectateLeaved':
      return {};
  }
}

/** A reply as the text of one WebSocket frame, for a client speaking `version`. */
export function encodeReply(reply: Reply, version: number): string {
  return `{${JSON.stringify(reply.type)}:${write(replyBody(reply, version))}}`;
}

/**
 * A `VisEvents` reply made from the events' JSON text as stored (`eventsJson`: the elements of an
 * array, comma separated), without parsing and writing them again: byte for byte what
 * `encodeReply` writes for those events, since the visualizer's JSON is stored as
 * `JSON.stringify` writes it and `write` writes parsed JSON the same way (json-codec.test.ts
 * checks both on the events of every game).
 */
export function encodeVisEventsFrame(id: string, eventsJson: Uint8Array): Buffer {
  const head = Buffer.from(`{"VisEvents":{"id":${JSON.stringify(id)},"events":[`, 'utf8');
  const frame = Buffer.allocUnsafe(head.length + eventsJson.length + VIS_EVENTS_TAIL.length);
  head.copy(frame, 0);
  frame.set(eventsJson, head.length);
  frame.set(VIS_EVENTS_TAIL, head.length + eventsJson.length);
  return frame;
}

const VIS_EVENTS_TAIL = Buffer.from(']}}', 'utf8');

// ---- requests: decoded strictly at the edge, typed from there on ----

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Fields = { readonly [key: string]: Json | undefined };

class FieldError extends Error {}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(fields: Fields, key: string): string {
  const value = fields[key];
  if (typeof value !== 'string') throw new FieldError(`field "${key}" must be a string`);
  return value;
}

function optStr(fields: Fields, key: string): string | null {
  const value = fields[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new FieldError(`field "${key}" must be a string or null`);
  return value;
}

function uint(fields: Fields, key: string): number {
  const value = fields[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new FieldError(`field "${key}" must be an unsigned integer`);
  }
  return value;
}

function optUint(fields: Fields, key: string): number | null {
  return fields[key] === undefined || fields[key] === null ? null : uint(fields, key);
}

function optFloat(fields: Fields, key: string): number | null {
  const value = fields[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FieldError(`field "${key}" must be a number or null`);
  return value;
}

/** One seat of a VisSeats reply: a turn is three numbers (the answer and the limit may be null). */
function toLiveSeat(value: Json): LiveSeat {
  if (!isObject(value)) throw new FieldError('a VisSeats seat must be an object');
  const turn = value['turn'];
  const time = (v: Json | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const asked = Array.isArray(turn) ? time(turn[0]) : null;
  return {
    name: str(value, 'name'),
    turn: Array.isArray(turn) && asked !== null ? [asked, time(turn[1]), time(turn[2])] : null,
    closed: optStr(value, 'closed'),
  };
}

function stringMap(fields: Fields, key: string): Record<string, string> {
  const value = fields[key];
  if (!isObject(value)) throw new FieldError(`field "${key}" must be an object of strings`);
  const map: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new FieldError(`field "${key}.${k}" must be a string`);
    map[k] = v;
  }
  return map;
}

function object(fields: Fields, key: string): Fields {
  const value = fields[key];
  if (!isObject(value)) throw new FieldError(`field "${key}" must be an object`);
  return value;
}

const FIELDLESS = new Set(['GameList', 'LobbyList', 'LobbySubscribe', 'LobbyUnsubscribe', 'LobbyLeaveMatch', 'SpectateLeave', 'HistoryMatchList', 'ArenaLeave']);

function requestFrom(variant: string, fields: Fields): Request {
  switch (variant) {
    case 'Handshake':
      return { type: 'Handshake', magic: str(fields, 'magic'), version: uint(fields, 'version') };
    case 'GameDescription':
      return { type: 'GameDescription', name: str(fields, 'name') };
    case 'GameNew': {
      const params = object(fields, 'params');
      return {
        type: 'GameNew',
        name: str(fields, 'name'),
        game: str(fields, 'game'),
        params: { players: optUint(params, 'players'), bots: uint(params, 'bots'), timeout: optFloat(params, 'timeout') },
        args: stringMap(fields, 'args'),
        password: optStr(fields, 'password'),
        verification: optStr(fields, 'verification'),
      };
    }
    case 'LobbyJoinMatch': {
      // `token` is our extension: a join without one decodes as the reference client's does.
      const token = optStr(fields, 'token');
      return { type: 'LobbyJoinMatch', id: str(fields, 'id'), name: str(fields, 'name'), password: optStr(fields, 'password'), ...(token !== null && { token }) };
    }
    case 'NameRegister':
      return { type: 'NameRegister', name: str(fields, 'name') };
    case 'NameRotate':
      return { type: 'NameRotate', name: str(fields, 'name'), token: str(fields, 'token') };
    case 'NameRelease':
      return { type: 'NameRelease', name: str(fields, 'name'), verification: str(fields, 'verification') };
    case 'LobbyDeleteMatch':
      return { type: 'LobbyDeleteMatch', id: str(fields, 'id'), verification: optStr(fields, 'verification') };
    case 'SpectateJoin':
      return { type: 'SpectateJoin', id: str(fields, 'id') };
    case 'HistoryMatch':
      return { type: 'HistoryMatch', id: str(fields, 'id') };
    case 'VisSubscribe':
      return { type: 'VisSubscribe', id: str(fields, 'id') };
    case 'ArenaEnter':
      return { type: 'ArenaEnter', game: str(fields, 'game'), name: str(fields, 'name'), token: optStr(fields, 'token'), concurrency: optUint(fields, 'concurrency') ?? 1 };
    default:
      if (FIELDLESS.has(variant)) return { type: variant } as Request;
      throw new FieldError(`unknown request "${variant}"`);
  }
}

/** Decodes one text frame from a client; the error says what is wrong, for the server's log. */
export function decodeRequest(text: string): Result<Request> {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    return err('not valid JSON');
  }
  try {
    if (typeof json === 'string') {
      if (!FIELDLESS.has(json)) throw new FieldError(`unknown request "${json}"`);
      return ok({ type: json } as Request);
    }
    if (!isObject(json)) return err('a request must be a JSON object');
    const keys = Object.keys(json);
    if (keys.length !== 1) return err(`a request must have exactly one variant, got ${keys.length}`);
    const variant = keys[0]!;
    const body = json[variant];
    if (!isObject(body)) {
      if (body === null && FIELDLESS.has(variant)) return ok({ type: variant } as Request);
      return err(`the body of "${variant}" must be an object`);
    }
    return ok(requestFrom(variant, body));
  } catch (error) {
    if (error instanceof FieldError) return err(error.message);
    throw error;
  }
}

/** Encodes a request as the reference client does. */
export function encodeRequest(request: Request): string {
  const { type, ...fields } = request as Request & Record<string, unknown>;
  if (type === 'HistoryMatchList') return '"HistoryMatchList"';
  if (type === 'GameNew') {
    const r = request as Extract<Request, { type: 'GameNew' }>;
    return write({
      GameNew: {
        name: r.name,
        game: r.game,
        params: { players: r.params.players, bots: r.params.bots, timeout: r.params.timeout === null ? null : new F64(r.params.timeout) },
        args: { ...r.args },
        password: r.password,
        verification: r.verification,
      },
    });
  }
  // A join without a token is written as the reference client writes it (no `token` field).
  if (type === 'LobbyJoinMatch' && (fields['token'] === undefined || fields['token'] === null)) delete fields['token'];
  return write({ [type]: fields as JsonOut });
}

// ---- replies, decoded by our own client ----

function toInfo(value: Json | undefined): MatchInfo {
  if (!isObject(value)) throw new FieldError('MatchInfo must be an object');
  return {
    players: uint(value, 'players'),
    bots: uint(value, 'bots'),
    timeout: optFloat(value, 'timeout') ?? 0,
    args: stringMap(value, 'args'),
    id: str(value, 'id'),
    name: str(value, 'name'),
    game: str(value, 'game'),
    running: value['running'] === true,
    time: uint(value, 'time'),
    connected: Array.isArray(value['connected']) ? value['connected'].map(String) : [],
    spectators: uint(value, 'spectators'),
    password: value['password'] === true,
    verified: value['verified'] === true,
  };
}

function toOutcome<T>(value: Json | undefined, body: (v: Json | undefined) => T): Outcome<T> {
  if (!isObject(value)) throw new FieldError('Result must be an object');
  if ('Err' in value) return { Err: String(value['Err']) };
  return { Ok: body(value['Ok']) };
}

function toGames(value: Json | undefined): GameListEntry[] {
  if (!Array.isArray(value)) throw new FieldError('games must be a list');
  return value.map((entry) => {
    if (typeof entry === 'string') return { name: entry, args: {} };
    if (!isObject(entry)) throw new FieldError('a game must be an object');
    const args: Record<string, { description: string; regex: string }> = {};
    const raw = entry['args'];
    if (isObject(raw)) {
      for (const [k, v] of Object.entries(raw)) {
        if (isObject(v)) args[k] = { description: String(v['description'] ?? ''), regex: String(v['regex'] ?? '') };
      }
    }
    return { name: str(entry, 'name'), args };
  });
}

/** Decodes a text frame from the server (our client's side). */
export function decodeReply(text: string): Result<Reply> {
  let json: Json;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    return err('not valid JSON');
  }
  try {
    if (!isObject(json) || Object.keys(json).length !== 1) return err('a reply must be an object with one variant');
    const type = Object.keys(json)[0]!;
    const body = json[type];
    const fields: Fields = isObject(body) ? body : {};
    switch (type) {
      case 'Handshake':
        return ok({ type, magic: str(fields, 'magic'), version: uint(fields, 'version') });
      case 'GameList':
        return ok({ type, games: toGames(fields['games']) });
      case 'GameDescription':
        return ok({ type, description: optStr(fields, 'description') });
      case 'GameNew':
      case 'LobbyDeletedMatch':
        return ok({ type, id: toOutcome(fields['id'], (v) => String(v)) });
      case 'LobbyList':
        return ok({ type, info: (Array.isArray(fields['info']) ? fields['info'] : []).map(toInfo) });
      case 'LobbySubscribed':
        return ok({ type, seed: (Array.isArray(fields['seed']) ? fields['seed'] : []).map(toInfo) });
      case 'LobbyJoinedMatch':
      case 'SpectateJoined':
        return ok({ type, info: toOutcome(fields['info'], toInfo) });
      case 'LobbyNew':
      case 'LobbyUpdate':
        return ok({ type, info: toInfo(fields['info']) });
      case 'LobbyDelete':
      case 'VisEnded':
        return ok({ type, id: str(fields, 'id') });
      case 'HistoryMatchList':
        return ok({ type, ids: Array.isArray(body) ? body.map(String) : [] });
      case 'HistoryMatch': {
        if (isObject(body) && 'Err' in body) return ok({ type, data: { Err: String(body['Err']) as never } });
        const data = isObject(body) ? body['Ok'] : undefined;
        if (!isObject(data)) throw new FieldError('HistoryMatch must hold Ok or Err');
        const history = Array.isArray(data['history']) ? Uint8Array.from(data['history'] as number[]) : new Uint8Array();
        return ok({
          type,
          data: {
            Ok: {
              id: str(data, 'id'),
              game_name: str(data, 'game_name'),
              args: stringMap(data, 'args'),
              players: Array.isArray(data['players']) ? data['players'].map(String) : [],
              bot_count: uint(data, 'bot_count'),
              history,
            },
          },
        });
      }
      case 'VisSubscribed':
        return ok({ type, info: toOutcome(fields['info'], () => null) });
      case 'NameRegistered':
      case 'NameRotated':
        return ok({ type, name: str(fields, 'name'), token: toOutcome(fields['token'], (v) => String(v)) });
      case 'NameReleased':
        return ok({ type, name: str(fields, 'name'), result: toOutcome(fields['result'], () => null) });
      case 'VisEvents':
        return ok({ type, id: str(fields, 'id'), events: Array.isArray(fields['events']) ? fields['events'] : [] });
      case 'VisSeats':
        return ok({ type, id: str(fields, 'id'), now: optFloat(fields, 'now') ?? 0, seats: Array.isArray(fields['seats']) ? fields['seats'].map(toLiveSeat) : [] });
      case 'ArenaEntered':
        return ok({
          type,
          info: toOutcome(fields['info'], (v) => {
            if (!isObject(v)) throw new FieldError('ArenaEntered must hold the entry');
            return { game: str(v, 'game'), name: str(v, 'name'), args: stringMap(v, 'args'), players: uint(v, 'players') };
          }),
        });
      case 'ArenaPaired':
        return ok({ type, id: str(fields, 'id'), password: str(fields, 'password'), players: Array.isArray(fields['players']) ? fields['players'].map(String) : [] });
      case 'ArenaResult': {
        const outcome = str(fields, 'outcome');
        if (outcome !== 'win' && outcome !== 'draw' && outcome !== 'loss' && outcome !== 'none') throw new FieldError(`unknown outcome "${outcome}"`);
        const scores = fields['scores'];
        return ok({
          type,
          result: {
            id: str(fields, 'id'),
            players: Array.isArray(fields['players']) ? fields['players'].map(String) : [],
            scores: Array.isArray(scores) ? scores.map(Number) : null,
            outcome,
            rating: optFloat(fields, 'rating'),
            reason: str(fields, 'reason'),
          },
        });
      }
      case 'ArenaHeld':
        return ok({ type, until: optFloat(fields, 'until') ?? 0, reason: str(fields, 'reason') });
      case 'ArenaLeft':
      case 'LobbyUnsubscribed':
      case 'LobbyLeavedMatch':
      case 'MatchStarted':
      case 'MatchEnded':
      case 'SpectateStarted':
      case 'SpectateSynced':
      case 'SpectateEnded':
      case 'SpectateLeaved':
        return ok({ type });
      default:
        return err(`unknown reply "${type}"`);
    }
  } catch (error) {
    if (error instanceof FieldError) return err(error.message);
    throw error;
  }
}
