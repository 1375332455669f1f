import type { Compute } from './compute.js';
import { InlineCompute } from './compute.js';
import type { BotIO, GameDefinition, NewMatchParams } from './game.js';
import { connectBot } from './bot-connection.js';
import { Match, lineupOf, type MatchOutcome } from './match.js';
import { deriveRecordDrawing } from './record-vis.js';
import { CLOCK_RECORD } from './seat-clocks.js';
import { SpectatorFeed } from './spectator-feed.js';
import { parseVisReplayNote } from './vis-replay.js';
import type { VisEvent } from '../protocol/vis-event.js';
import type { Clock } from '../util/clock.js';

/**
 * A player program run in-process: it gets the same line stream a real program would. `sendBytes`
 * sends bytes as they are, for a player that writes what is not text (invalid UTF-8).
 */
export type LocalPlayer = (io: BotIO, sendBytes: (bytes: Uint8Array) => void) => Promise<void>;

export interface LocalMatchOptions {
  readonly game: GameDefinition<any>;
  readonly params?: Partial<NewMatchParams>;
  readonly players: readonly { readonly name: string; readonly play: LocalPlayer }[];
  readonly seed?: string;
  readonly compute?: Compute;
  /** Where the match's time comes from (a ManualClock in tests of time limits); the system clock by default. */
  readonly clock?: Clock;
  /** Given the match once it is made, for a test that stops it as the server's shutdown does. */
  readonly made?: (match: Match<any>) => void;
}

export interface LocalMatchRecord {
  readonly outcome: MatchOutcome;
  /** Everything the spectators received. */
  readonly spectatorStream: string;
  /** Per human player: everything the player received. */
  readonly received: readonly string[];
  /** Per human player: everything the player sent. */
  readonly sent: readonly string[];
  readonly vis: readonly VisEvent[];
  /** The visualizer events as the record keeps them: the text of one JSON array. */
  readonly visJson: string;
  /**
   * The record's clock.json as a reader gets it (null: none), its turns placed among `vis`: for a
   * game whose pictures are derived from its input, `outcome.artifacts` holds it unplaced.
   */
  readonly clock: string | null;
}

/**
 * Plays a whole match without sockets: the in-process transport of the runtime, for tests and
 * tools. Throws if the game rejects the parameters.
 */
export async function playLocalMatch(options: LocalMatchOptions): Promise<LocalMatchRecord> {
  const { game } = options;
  const configured = game.configure({
    players: options.params?.players ?? options.players.length + (options.params?.bots ?? 0),
    bots: options.params?.bots ?? 0,
    timeout: options.params?.timeout ?? null,
    args: options.params?.args ?? {},
  });
  if (!configured.ok) throw new Error(`game rejected the parameters: ${configured.error}`);
  const spectators = new SpectatorFeed();
  const compute = options.compute ?? new InlineCompute();
  const match = new Match({
    game,
    settings: configured.value,
    lineup: lineupOf(options.players.map((player) => player.name), configured.value.bots),
    seed: options.seed ?? 'local',
    spectators,
    compute,
    ...(options.clock && { clock: options.clock }),
    // A game under test that draws something invalid fails loudly instead of being logged.
    onVisReject: (error) => {
      throw new Error(`visualizer event refused: ${error.code}: ${error.message}`);
    },
  });
  options.made?.(match);
  const received = options.players.map(() => '');
  const sent = options.players.map(() => '');
  const programs = options.players.map((player, index) => {
    const seat = match.seats[index]!;
    const io = connectBot(seat, {
      received: (bytes) => (received[index] += Buffer.from(bytes).toString('utf8')),
      sent: (text) => (sent[index] += text),
    });
    const sendBytes = (bytes: Uint8Array): void => {
      sent[index] += Buffer.from(bytes).toString('latin1');
      seat.receive(bytes);
    };
    return player.play(io, sendBytes).finally(() => seat.receiveEnd());
  });
  const outcome = await match.run();
  await Promise.allSettled(programs);
  // As a replay of the record shows them: derived from the seats' input when the game drew nothing as it played.
  let visJson = match.recordVis().toString('utf8');
  let clock = outcome.artifacts[CLOCK_RECORD.artifact] ?? null;
  const note = parseVisReplayNote(visJson);
  if (note) {
    const record = { args: configured.value.args, players: outcome.seats.map((seat) => seat.name), bots: configured.value.bots, seed: outcome.seed, artifacts: outcome.artifacts };
    const drawing = await deriveRecordDrawing(game, record, note);
    visJson = drawing.events.toString('utf8');
    if (drawing.clock !== null) clock = drawing.clock.toString('utf8');
  }
  return {
    outcome,
    spectatorStream: spectators.history().toString('utf8'),
    received,
    sent,
    vis: JSON.parse(visJson) as VisEvent[],
    visJson,
    clock,
  };
}
