import type { GameDefinition } from './game.js';
import { transcriptName } from './match.js';
import { CLOCK_RECORD } from './seat-clocks.js';
import { firstCodeUnits, playerLinesOf, playerPiecesOf } from './seat-transcript.js';
import { VisFeed } from './vis-feed.js';
import { VisReplay, type VisReplayNote } from './vis-replay.js';
import { DecisionLog } from './decision-log.js';

/** What a record holds that the replay needs (a MatchRecord has it all). */
export interface ReplayableRecord {
  readonly args: Readonly<Record<string, string>>;
  /** Seat names in seat order, bots last. */
  readonly players: readonly string[];
  readonly bots: number;
  readonly seed: string;
  readonly artifacts: Readonly<Record<string, string>>;
}

/** What a replay of a recorded match draws: what the record would have kept had the game drawn as it was played. */
export interface DerivedDrawing {
  /** The visualizer events, as the text of one JSON array. */
  readonly events: Buffer;
  /** The record's clock.json with its turns placed among those events (seat-clocks.ts), or null when the record has none. */
  readonly clock: Buffer | null;
  /** Events the visualizer feed refused (past its limits), as the match's own feed would have: they are left out. */
  readonly refused: number;
}

/**
 * The visualizer events of a recorded match of `game`, and its clock placed among them: the game
 * is played again on the lines its transcripts say each seat sent, as many as the note says the
 * game read.
 */
export async function deriveRecordDrawing(
  game: GameDefinition<any>,
  record: ReplayableRecord,
  note: VisReplayNote,
  /** `readsPerTurn`: lines the replay reads before it lets the event loop turn (by default it reads on). */
  options: { readonly readsPerTurn?: number } = {},
): Promise<DerivedDrawing> {
  const players = record.players.length;
  const configured = game.configure({ players, bots: record.bots, timeout: note.timeout, args: record.args });
  if (!configured.ok) throw new Error(`the record's settings no longer configure ${game.name}: ${configured.error}`);
  // What the match's own feed would have refused is refused here too, and the drawing is what it
  // would have kept: past the feed's limit on events nothing more is, and the replay stops there.
  let full = false;
  let replay: VisReplay | null = null;
  let refused = 0;
  const vis = new VisFeed(() => 0, {
    onReject: (error) => {
      refused++;
      if (error.code !== 'vis/too-many-events') return;
      full = true;
      replay?.stop();
    },
  });
  const decisions = new DecisionLog(note.decisions);
  decisions.end();
  replay = new VisReplay({
    game,
    settings: configured.value,
    lineup: record.players.map((name, index) => ({ name, isBot: index >= players - record.bots })),
    seed: record.seed,
    vis,
    stopped: () => note.stopped ?? null,
    decisions,
    ...(options.readsPerTurn !== undefined && { readsPerTurn: options.readsPerTurn }),
  });
  replay.seats.forEach((seat, index) => {
    const transcript = record.artifacts[transcriptName(index)] ?? '';
    const taken = note.taken[index] ?? 0;
    for (const line of game.framing === 'text' ? firstCodeUnits(playerPiecesOf(transcript), taken) : playerLinesOf(transcript, taken)) seat.push(line);
    seat.end(note.ends?.[index] ?? null);
  });
  if (full) replay.stop();
  replay.endAll();
  await replay.done;
  if (replay.failure !== null) throw new Error(`replaying ${game.name} failed: ${replay.failure}`);
  vis.end();
  const kept = record.artifacts[CLOCK_RECORD.artifact];
  const placed = kept === undefined ? null : replay.places.place(kept);
  return { events: vis.jsonBytes(), clock: placed === null ? null : Buffer.from(placed), refused };
}
