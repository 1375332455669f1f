import type { Random } from '../../../src/match/random.js';
import { TRANSCRIPT_LIMITS } from '../../../src/match/seat-transcript.js';
import { attackerAddress } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { CocoPeer, gameNew } from '../coco-peer.js';
import { getJson, http } from '../http-client.js';
import { inParallel, wsSend } from '../net.js';

const KiB = 1024;
const MiB = 1 << 20;
/** A seat's transcript may be a little over its limit: the closing note and an unfinished line's marker. */
const TRANSCRIPT_BOUND = TRANSCRIPT_LIMITS.maxBytes + 64 * KiB;

/** A game as a hostile player sees it: what a well-behaved player would send. */
export interface SeatGame {
  readonly game: string;
  readonly args: Readonly<Record<string, string>>;
  /** A line a player of this game could send (floods repeat it). */
  readonly move: string;
  /** What a player sends first, if anything (the XML stream's root, connect4's `ready`). */
  readonly opening: string;
  readonly framing: 'lines' | 'text';
}

/**
 * What the hostile player does once its match has started. Every mode but `silent` ends with the
 * player leaving (closing its WebSocket, or cutting it), so every hostile match ends.
 */
const LINE_MODES = ['long-line', 'endless-line', 'invalid-utf8', 'binary-junk', 'flood', 'silent', 'mid-line-disconnect'] as const;
const XML_MODES = ['comments-forever', 'deep-nesting', 'huge-attribute', 'doctype', 'invalid-utf8', 'binary-junk', 'silent', 'mid-tag-disconnect'] as const;
export type Mode = (typeof LINE_MODES)[number] | (typeof XML_MODES)[number];

/** Frames of at most this size: what a client program's output turns into. */
const FRAME = 64 * KiB;

function* repeated(text: string, totalBytes: number, frameBytes = FRAME): Generator<Buffer> {
  const unit = Buffer.from(text);
  const frame = Buffer.alloc(Math.max(unit.length, Math.floor(frameBytes / unit.length) * unit.length));
  for (let i = 0; i < frame.length; i += unit.length) unit.copy(frame, i);
  for (let sent = 0; sent < totalBytes; sent += frame.length) yield frame;
}

function junk(random: Random, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = random.int(256);
  return bytes;
}

/** The frames a mode sends, after the opening; `scale` grows the large ones with the budget. */
function* payload(game: SeatGame, mode: Mode, random: Random, context: AttackContext): Generator<Buffer> {
  const move = Buffer.from(`${game.move}\n`);
  switch (mode) {
    case 'long-line':
      yield Buffer.concat([Buffer.alloc(context.scale(1, 15) * MiB, 0x41), Buffer.from('\n')]);
      return;
    case 'endless-line':
      yield* repeated('A', context.scale(4, 64) * MiB);
      return;
    case 'invalid-utf8':
      yield move;
      yield Buffer.from(random.pick([[0xff, 0xfe, 0x0a], [0xc0, 0xaf, 0x0a], [0xed, 0xa0, 0x80, 0x0a], [0xf4, 0x90, 0x80, 0x80, 0x0a], [0x52, 0x4f, 0xe2, 0x82]]));
      return;
    case 'binary-junk':
      for (let i = 0; i < context.scale(16, 256); i++) yield junk(random, 16 * KiB);
      return;
    case 'flood':
      yield* repeated(`${game.move}\n`, context.scale(2, 64) * MiB);
      return;
    case 'silent':
      return;
    case 'mid-line-disconnect':
      yield move.subarray(0, Math.max(1, move.length >> 1));
      return;
    case 'comments-forever':
      // Complete comments, each valid, with no line break ever: the stream never ends a line.
      yield* repeated(`<!-- ${'c'.repeat(40)} -->`, context.scale(24, 1024) * MiB, 8 * KiB);
      return;
    case 'deep-nesting':
      yield Buffer.from('<room roomId="x">'.repeat(10_000));
      return;
    case 'huge-attribute':
      yield Buffer.from(`<room roomId="${'x'.repeat(context.scale(1, 15) * MiB)}">`);
      return;
    case 'doctype':
      yield Buffer.from('<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><room roomId="&lol2;"/>');
      return;
    case 'mid-tag-disconnect':
      yield Buffer.from('<room roomId="x"><data class="mo');
      return;
  }
}

export interface HostileOutcome {
  readonly mode: Mode;
  readonly id: string | null;
  /** What went wrong for the invariants, if anything. */
  readonly unrecorded: string | null;
  readonly largestTranscript: number;
}

/** One hostile player against a server bot in a match of its own, from an address of its own. */
export async function hostileMatch(context: AttackContext, game: SeatGame, mode: Mode, n: number): Promise<HostileOutcome> {
  const address = attackerAddress(n);
  const outcome = (unrecorded: string | null, id: string | null = null, largestTranscript = 0): HostileOutcome => ({ mode, id, unrecorded, largestTranscript });
  let client: CocoPeer;
  try {
    client = await CocoPeer.open(context.net, context.server.url, address);
  } catch {
    return outcome('the connection was refused');
  }
  // A silent player must be timed out; every other ends the match by leaving, so no timeout is needed.
  const created = await client.request(gameNew(game.game, `seat-${mode}`, { players: 2, bots: 1, timeout: mode === 'silent' ? 2 : 600, args: game.args }), 'GameNew');
  if (!('Ok' in created.id)) return outcome(`GameNew refused: ${created.id.Err}`);
  const id = created.id.Ok;
  const joined = await client.request({ type: 'LobbyJoinMatch', id, name: 'hostile', password: null }, 'LobbyJoinedMatch');
  if (!('Ok' in joined.info)) return outcome(`join refused: ${joined.info.Err}`, id);
  if (!(await client.until('MatchStarted'))) return outcome('closed before MatchStarted', id);
  context.tried();
  if (game.opening) await wsSend(client.ws, Buffer.from(game.opening));
  for (const frame of payload(game, mode, context.random, context)) {
    if (!client.isOpen) break;
    await wsSend(client.ws, frame, true);
  }
  if (mode === 'silent') await Promise.race([client.until('MatchEnded'), client.closed]);
  else if (mode === 'mid-line-disconnect' || mode === 'mid-tag-disconnect') client.terminate();
  else client.close();
  if (!(await context.watch.deleted(id))) return outcome('the match never ended (or the server is gone)', id);
  return recordedMatch(context, id, address, mode);
}

/** The hostile match is in the history, and the size of its largest seat transcript. */
export async function recordedMatch(context: AttackContext, id: string, address: string, mode: Mode): Promise<HostileOutcome> {
  const { status, json } = await getJson<{ artifacts: string[]; reason: string }>(context.server.wsPort, `/api/history/${id}`, address);
  if (!json) return { mode, id, unrecorded: `GET /api/history/${id} answered ${status}`, largestTranscript: 0 };
  let largest = 0;
  for (const name of json.artifacts.filter((a) => a.startsWith('transcript-'))) {
    const artifact = await http(context.server.wsPort, `/api/history/${id}/artifacts/${name}`, address);
    largest = Math.max(largest, artifact.body.length);
  }
  return { mode, id, unrecorded: null, largestTranscript: largest };
}

/** The checks every seat attack makes of its hostile matches: all recorded, no transcript over its limit. */
export function seatChecks(context: AttackContext, outcomes: readonly HostileOutcome[]): void {
  const unrecorded = outcomes.filter((o) => o.unrecorded);
  context.check(
    'every hostile match ended and was recorded',
    unrecorded.length === 0,
    unrecorded.map((o) => `${o.mode}: ${o.unrecorded}`).join('; ') || `${outcomes.length} matches`,
  );
  const largest = outcomes.reduce((max, o) => (o.largestTranscript > max.largestTranscript ? o : max), outcomes[0]!);
  context.check(
    `seat transcripts stay within ${TRANSCRIPT_LIMITS.maxBytes / MiB} MiB`,
    largest.largestTranscript <= TRANSCRIPT_BOUND,
    `largest: ${(largest.largestTranscript / MiB).toFixed(2)} MiB (${largest.mode})`,
  );
}

/**
 * Hostile matches of one game, one per mode (up to four per mode in the fuzz run, with other
 * inputs), at most eight at a time. `once`: a single match whatever the budget (the budget makes
 * its input larger instead).
 */
function seatAttack(game: SeatGame, modes: readonly Mode[], options: { name?: string; summary?: string; once?: boolean } = {}): Attack {
  return {
    name: options.name ?? `seat-${game.game}`,
    door: 'seat streams',
    summary: options.summary ?? `a ${game.game} player (against the server bot) sends ${modes.join(', ')}`,
    async run(context) {
      const runs = modes.flatMap((mode) => Array.from({ length: options.once ? 1 : context.scale(1, 4) }, () => mode));
      const outcomes: HostileOutcome[] = [];
      // Each hostile match draws its inputs from a source of its own, so running them at once stays deterministic.
      const sources = runs.map(() => context.random.fork());
      await inParallel(runs.length, 8, async (i) => {
        outcomes.push(await hostileMatch({ ...context, random: sources[i]! }, game, runs[i]!, i));
      });
      seatChecks(context, outcomes);
    },
  };
}

export const LINE_GAMES: readonly SeatGame[] = [
  { game: 'roshambo', args: { rounds: '50', pace: '0' }, move: 'ROCK', opening: '', framing: 'lines' },
  { game: 'royalur', args: { pace: '0' }, move: '0', opening: '', framing: 'lines' },
  { game: 'dama', args: { pace: '0' }, move: '6a 5b', opening: '', framing: 'lines' },
  { game: 'clobber', args: { columns: '4', rows: '4', games: '1', pace: '0' }, move: 'a 1 b 1', opening: 'play clobber hostile\n', framing: 'lines' },
  { game: 'quoridor', args: { size: '5', games: '1', pace: '0' }, move: '= C2', opening: '', framing: 'lines' },
  { game: 'connect4', args: {}, move: '3', opening: 'ready\n', framing: 'lines' },
];

export const HASE: SeatGame = { game: 'hase-und-igel', args: { pace: '0' }, move: '', opening: '<protocol><join gameType="swc_2018_hase_und_igel"/>', framing: 'text' };

export const SEAT_ATTACKS: readonly Attack[] = [
  ...LINE_GAMES.map((game) => seatAttack(game, LINE_MODES)),
  seatAttack(HASE, XML_MODES.filter((mode) => mode !== 'comments-forever')),
  seatAttack(HASE, ['comments-forever'], {
    name: 'seat-hase-und-igel-comments',
    summary: 'a hase-und-igel player sends 24 MiB (fuzz: budget times more) of complete XML comments in binary frames, never a line break',
    once: true,
  }),
];
