import { artifactPath, fetchGamesHelp } from '../api.js';
import { isChessRecord, latestMoveTimes, moveTimes, readChessStream, type MoveTime } from '../chess-record.js';
import type { Player } from '../player.js';
import { Timeline, type LogLine } from '../timeline.js';
import type { PlayerLegend } from '../player-legend.js';
import { SeatColourTimeline } from '../seat-colours.js';
import { CLOCK_ARTIFACT, clocksAt, drawnByTimes, eventsShown, readClockRecord } from '../seat-clocks.js';
import { seatStatusTimeline } from '../seat-status.js';
import type { HistoryMatch } from '../wire.js';
import type { Resources } from './view.js';

/**
 * What a finished match's record adds to its picture, on the live page once it has ended and on
 * the replay page: the legend's seats in order with their scores, each seat's colour on the board,
 * its status at the step shown (from its transcript and the reason), and for chess each side's
 * time on its latest move.
 */
export function showRecordDetails(match: HistoryMatch, player: Player, legend: PlayerLegend, resources: Resources, options: { readonly timeout: number | null }): void {
  legend.showSeats(match.players, match.scores);
  // Colours may change between the games of a match (quoridor, clobber): each step shows its own.
  const colours = new SeatColourTimeline(match.players, match.vis);
  player.onStepShown((_, t, atEnd) => legend.showColours(colours.at(atEnd ? Infinity : t)));
  void showStatuses(match, player, legend, resources);
  void showClocks(match, player, legend, resources);
  if (isChessRecord(match)) void showMoveTimes(match, player, legend, resources, options.timeout);
}

/** The seats' transcripts (null where the record has none), fetched in parallel; a failed fetch counts as none. */
async function fetchTranscripts(match: HistoryMatch): Promise<(string | null)[]> {
  return Promise.all(
    match.players.map(async (_, seat) => {
      const name = `transcript-${seat}.txt`;
      if (!match.artifacts.includes(name)) return null;
      try {
        const response = await fetch(artifactPath(match.id, name));
        return response.ok ? await response.text() : null;
      } catch {
        return null;
      }
    }),
  );
}

async function showStatuses(match: HistoryMatch, player: Player, legend: PlayerLegend, resources: Resources): Promise<void> {
  const transcripts = await fetchTranscripts(match);
  if (resources.isReleased) return;
  const timeline = seatStatusTimeline(match.players, match.reason, transcripts);
  player.onStepShown((_, t, atEnd) => legend.showStatuses(timeline.at(t, atEnd)));
}

/** Each seat's clock at the step shown, from the record's clock.json (none in older records). */
async function showClocks(match: HistoryMatch, player: Player, legend: PlayerLegend, resources: Resources): Promise<void> {
  if (!match.artifacts.includes(CLOCK_ARTIFACT)) return;
  let text: string | null = null;
  try {
    const response = await fetch(artifactPath(match.id, CLOCK_ARTIFACT));
    text = response.ok ? await response.text() : null;
  } catch {
    text = null;
  }
  const clock = readClockRecord(text);
  if (clock === null || resources.isReleased) return;
  // A turn is placed by the events drawn before it; the last step is the end of the game, every clock stopped.
  const times = drawnByTimes(match.vis);
  player.onStepShown((_, t, atEnd) => legend.showClocks(clocksAt(clock, eventsShown(times, t), atEnd)));
}

/** The pace a chess match is played at: its argument, else the game's default (GET /api/games), else 0. */
export async function chessPace(match: { readonly game: string; readonly args: Readonly<Record<string, string>> }): Promise<number> {
  const given = Number.parseFloat(match.args['pace'] ?? '');
  if (Number.isFinite(given)) return given;
  try {
    const game = (await fetchGamesHelp()).find((g) => g.name === match.game);
    const fallback = Number.parseFloat(game?.args.find((arg) => arg.name === 'pace')?.default ?? '');
    return Number.isFinite(fallback) ? fallback : 0;
  } catch {
    return 0;
  }
}

/**
 * Chess has no game clock: each move has its own limit (the match's timeout, known on the live
 * page, not kept in the record). So each side shows what it has at the step shown: the time its
 * latest move took, and, where the limit is known, how much of it was left, as lichess shows a
 * clock per side.
 */
export function chessTimeNotes(logs: readonly LogLine[], pace: number, timeout: number | null, step: number): Record<'white' | 'black', string> {
  const latest = latestMoveTimes(moveTimes(logs, pace), step);
  const describe = (time: MoveTime | null): string => {
    if (time === null) return 'no move yet';
    const took = `${logs[time.line]!.line}: ${time.seconds.toFixed(1)} s`;
    return timeout === null ? took : `${took}, ${Math.max(0, timeout - time.seconds).toFixed(1)} s of ${timeout} s per move left`;
  };
  return { white: describe(latest.white), black: describe(latest.black) };
}

async function showMoveTimes(match: HistoryMatch, player: Player, legend: PlayerLegend, resources: Resources, timeout: number | null): Promise<void> {
  const game = readChessStream(match.spectatorStream, match.players, match.scores);
  if (!game) return;
  const pace = await chessPace(match);
  if (resources.isReleased) return;
  const white = match.players.indexOf(game.white);
  const black = game.white === game.black ? match.players.lastIndexOf(game.black) : match.players.indexOf(game.black);
  if (white === -1 || black === -1) return;
  // The record's own log lines, in the player's order: on the live page the last of them may still be on their way.
  const logs = new Timeline(match.vis).logs;
  player.onStepShown((step) => {
    const times = chessTimeNotes(logs, pace, timeout, step);
    const notes: (string | null)[] = match.players.map(() => null);
    notes[white] = times.white;
    notes[black] = times.black;
    legend.showNotes(notes);
  });
}
