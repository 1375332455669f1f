import { recallDecision } from '../../match/decision-log.js';
import type { MatchContext, MatchResult } from '../../match/game.js';
import { Random } from '../../match/random.js';
import type { PlayerSeat } from '../../match/seat.js';
import { generateBoard, parseBoardCode, type Board } from './board.js';
import {
  CLOSE_CONNECTION,
  NOT_YOUR_TURN,
  renderCloseConnection,
  renderError,
  renderJoined,
  renderLeft,
  renderMemento,
  renderMoveRequest,
  renderObserved,
  renderResult,
  renderWelcome,
  violationMessage,
  type PlayerScore,
} from './messages.js';
import { PlayedRoomEvents, RecalledRoomEvents, roomEventDecision, type RoomEvents } from './room-events.js';
import { offenceText, scoresFor, type LeaveWhy, type Offence } from './scores.js';
import { RoomGate, type RoomDirectory } from './room-control.js';
import { winCondition, type WinCondition } from './game-end.js';
import { COLORS, colorIndex, initialState, playMove, sortActions, type GameState } from './rules.js';
import { parseMove } from './state-xml.js';
import { HaseVis } from './vis.js';
import { attr, child, type XmlElement } from './xml/xml-element.js';
import { STREAM_CLOSING, STREAM_OPENING } from './xml/xml-writer.js';

export interface HaseConfig {
  /** Seconds after a move request within which the move must arrive; judged when it arrives. */
  readonly softTimeout: number;
  /** Seconds after a move request after which the game ends without waiting for the move. */
  readonly hardTimeout: number;
  /** Per seat (RED, BLUE): whether the time limits apply (an admin's `canTimeout`). */
  readonly canTimeout: readonly [boolean, boolean];
  /** The room id players and observers see; a fresh UUID when null. */
  readonly room: string | null;
  /** A board code (board.ts) to play on, or null to deal one. */
  readonly board: string | null;
  /** A seed to deal the board from, or null to use the match's random source. */
  readonly seed: string | null;
  /** RED's and BLUE's display names in the XML; null: the seat's player name. */
  readonly displayNames: readonly [string | null, string | null];
  /** Start paused (effective only where a front door can unpause through a RoomDirectory). */
  readonly paused: boolean;
  /** Minimum seconds between moves, for watching bots. */
  readonly pace: number;
}

export interface RoomDeps {
  /** Where the room registers its gate, so admin commands (pause, step, cancel) can reach it. */
  readonly rooms?: RoomDirectory;
}

/** Elements a player may send besides moves that are tolerated and ignored (a join before the game). */
const TOLERATED = new Set(['join', 'joinPrepared']);
/** Enough for a join sent more than once; more is a flood. */
const MAX_TOLERATED = 4;
/**
 * Administrator requests of the room protocol. The real server ignores them from a client that has
 * not authenticated, as every player: so does the game, before its join and during the game.
 */
export const ADMIN_REQUESTS: ReadonlySet<string> = new Set(['prepare', 'observe', 'pause', 'step', 'cancel', 'testMode', 'scoreForPlayer', 'freeReservation']);
/** How many administrator requests one player may send to be ignored; more is a flood. */
export const MAX_IGNORED_ADMIN_REQUESTS = 100;
const CLOSE_ELEMENTS = new Set(['close', CLOSE_CONNECTION]);
/**
 * How long a room waits for its players' joins before the game starts anyway. The game starts
 * when each player has sent its join (or any first message), as on the real server, where a client
 * connects only once its program is ready: a program that starts slowly (the official neural
 * client takes 20 s) thus keeps its first move, and never gets the game's start before its join.
 * A player that has sent nothing by then is asked for its moves all the same, and loses by the
 * time limits if it does not answer.
 */
export const JOIN_WAIT_SECONDS = 60;

type Phase =
  /** Before the start: waiting for the players' joins (their first messages). */
  | { readonly kind: 'joining'; readonly cancelTimer: () => void }
  | { readonly kind: 'gate' }
  | { readonly kind: 'awaiting'; readonly request: number; readonly since: number; readonly cancelTimer: () => void };

/** A UUID-shaped room id from the match's random source (so a replay has the same id). */
export function roomIdFrom(random: Random): string {
  const hex = Array.from({ length: 4 }, () => random.uint32().toString(16).padStart(8, '0')).join('');
  const v = `${hex.slice(0, 12)}4${hex.slice(13, 16)}${'89ab'[random.int(4)]}${hex.slice(17)}`;
  return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20, 32)}`;
}

function dealBoard(ctx: MatchContext, config: HaseConfig): Board {
  if (config.board) {
    const parsed = parseBoardCode(config.board);
    if (parsed.ok) return parsed.value;
  }
  return generateBoard(config.seed ? Random.fromSeed(config.seed) : ctx.random);
}

/**
 * One game of Hase und Igel between seat 0 (RED) and seat 1 (BLUE), speaking the 2018 XML protocol.
 *
 * Its drawing is derived from its input (GameDefinition.visFromInput): what it decides by the
 * clock, the gate or the order its events come in (which seat's message came first, whether a
 * timer did, whether a move was late, whether the next request waits for the gate) is noted
 * (MatchContext.note), and a replay of the room recalls it instead, with no directory, timer or
 * gate of its own.
 */
export class HaseRoom {
  readonly roomId: string;
  private state: GameState;
  private readonly names: readonly [string, string];
  private readonly seats: readonly [PlayerSeat, PlayerSeat];
  private readonly events: RoomEvents;
  private readonly gate: RoomGate;
  private readonly deps: RoomDeps;
  /** Drawn only when someone wants to see it (GameDefinition.visFromInput): otherwise a move builds no event. */
  private readonly vis: HaseVis | null;
  private readonly connected = [true, true];
  /** Whether each player has sent its join (or any first message): the game starts when both have. */
  private readonly ready = [false, false];
  /** Whether each player has been sent `<protocol>` and `<joined>` (at once for a plain `join`). */
  private readonly joinedSent = [false, false];
  private tolerated = [0, 0];
  private ignoredAdminRequests = [0, 0];
  private requests = 0;
  /** Whether the opening messages went out (a room prepared paused holds them until a step). */
  private started = false;

  constructor(
    private readonly ctx: MatchContext,
    private readonly config: HaseConfig,
    deps: RoomDeps = {},
  ) {
    // A replay is no room an administrator reaches, nor one whose result counts.
    this.deps = ctx.recall ? {} : deps;
    this.seats = [ctx.seats[0]!, ctx.seats[1]!];
    this.names = [config.displayNames[0] ?? this.seats[0].name, config.displayNames[1] ?? this.seats[1].name];
    this.roomId = config.room ?? roomIdFrom(ctx.random);
    this.state = initialState(dealBoard(ctx, config));
    const recall = ctx.recall;
    this.events = recall ? new RecalledRoomEvents(this.seats, () => recallDecision(recall, 'hase und igel'), () => this.requests) : new PlayedRoomEvents(this.seats);
    this.gate = this.deps.rooms?.open(this.roomId, config.paused) ?? new RoomGate(false);
    this.gate.onCancel(() => this.events.push({ kind: 'gate', decision: 'cancel' }));
    this.vis = ctx.drawing ? HaseVis.forMatch(ctx, this.names) : null;
  }

  async play(): Promise<MatchResult> {
    try {
      return await this.run();
    } finally {
      this.deps.rooms?.close(this.roomId, this.gate);
    }
  }

  private async run(): Promise<MatchResult> {
    this.vis?.start(this.state);

    let phase: Phase = { kind: 'joining', cancelTimer: this.ctx.after(JOIN_WAIT_SECONDS, () => this.events.push({ kind: 'join-wait-over' })) };
    for (;;) {
      const event = await this.events.next();
      this.ctx.note?.(roomEventDecision(event, event.kind === 'hard-timeout' && phase.kind === 'awaiting' && phase.request === event.request));
      switch (event.kind) {
        case 'gate': {
          if (event.decision === 'cancel') {
            if (phase.kind === 'awaiting' || phase.kind === 'joining') phase.cancelTimer();
            return this.finishCancelled();
          }
          if (phase.kind === 'gate') phase = this.requestMove();
          break;
        }
        case 'join-wait-over':
          if (phase.kind === 'joining') phase = await this.start();
          break;
        case 'hard-timeout': {
          if (phase.kind === 'awaiting' && phase.request === event.request) return this.finishOffence(this.mover(), { kind: 'hard-timeout' });
          break;
        }
        case 'ended': {
          this.connected[event.seat] = false;
          const why: LeaveWhy = event.end.kind === 'xml-error' ? event.end.code : event.end.kind;
          if (phase.kind === 'awaiting' || phase.kind === 'joining') phase.cancelTimer();
          return this.finishOffence(event.seat, { kind: 'left', why });
        }
        case 'message': {
          if (phase.kind === 'joining') this.joining(event.seat, event.element);
          const outcome = await this.onMessage(event.seat, event.element, phase);
          if (outcome === 'ignored') {
            if (phase.kind === 'joining' && this.ready.every(Boolean)) {
              phase.cancelTimer();
              phase = await this.start();
            }
            break;
          }
          if (phase.kind === 'awaiting' || phase.kind === 'joining') phase.cancelTimer();
          if (outcome === 'moved') {
            const over = winCondition(this.state);
            if (over) return this.finishRegular(over);
            phase = await this.openGate(true);
            break;
          }
          return this.finishOffence(event.seat, outcome);
        }
      }
    }
  }

  /**
   * A player's first message makes it ready. A plain `join` is answered with `joined` at once, as
   * the real server does (the Software-Challenge port has written those very bytes already, and
   * drops them from the seat's output); otherwise `joined` comes with the game's start.
   */
  private joining(seat: number, element: XmlElement): void {
    if (this.ready[seat] || ADMIN_REQUESTS.has(element.name)) return;
    this.ready[seat] = true;
    if (element.name === 'join' && !this.gate.isPaused) this.sendJoined(seat);
  }

  private sendJoined(seat: number): void {
    if (this.joinedSent[seat]) return;
    this.joinedSent[seat] = true;
    this.seats[seat]!.write(STREAM_OPENING + renderJoined(this.roomId));
  }

  /**
   * Both players are ready (or the wait for them is over): the game begins. The real server sends
   * a room prepared paused nothing, not even its first memento, before the first step; otherwise
   * the opening goes out now, and the first move request with it.
   */
  private start(): Promise<Phase> {
    if (!this.gate.isPaused) this.open();
    return this.openGate(false);
  }

  /** The opening messages: joined, the welcome (with the color), the first memento. Once. */
  private open(): void {
    if (this.started) return;
    this.started = true;
    this.seats.forEach((_, i) => this.sendJoined(i));
    this.ctx.spectators.write(STREAM_OPENING + renderObserved(this.roomId));
    this.seats.forEach((seat, i) => seat.write(renderWelcome(this.roomId, COLORS[i]!)));
    this.broadcast(renderMemento(this.roomId, this.state, this.names));
  }

  private mover(): 0 | 1 {
    return (this.state.turn % 2) as 0 | 1;
  }

  /** The same message to both players and the spectators, encoded once. */
  private broadcast(text: string): void {
    const bytes = Buffer.from(text);
    for (const seat of this.seats) seat.writeBytes(bytes);
    this.ctx.spectators.write(bytes);
  }

  /**
   * Requests the next move at once when nothing holds it back, as the server does right after the
   * memento; otherwise waits (pace, pause) and the gate's decision arrives as an event.
   */
  private async openGate(afterMove: boolean): Promise<Phase> {
    const pace = afterMove ? this.config.pace : 0;
    if (await this.decided(() => pace === 0 && !this.gate.isPaused && !this.gate.isCancelled)) return this.requestMove();
    // In a replay the gate's decision is recalled as an event: nothing waits for it here.
    if (this.ctx.recall) return { kind: 'gate' };
    void this.ctx
      .sleep(pace)
      .then(() => this.gate.pass())
      .then((decision) => this.events.push({ kind: 'gate', decision }));
    return { kind: 'gate' };
  }

  private requestMove(): Phase {
    this.open();
    const mover = this.mover();
    const request = ++this.requests;
    // The clock shows the soft limit, the one the rules judge a move by.
    this.ctx.toMove?.(this.seats[mover].index, this.config.canTimeout[mover] ? this.config.softTimeout : Number.POSITIVE_INFINITY);
    this.seats[mover].write(renderMoveRequest(this.roomId));
    // The soft limit is judged on the match's clock, which tests move by hand (ManualClock).
    const since = this.ctx.elapsed();
    const cancelTimer = this.config.canTimeout[mover]
      ? this.ctx.after(this.config.hardTimeout, () => this.events.push({ kind: 'hard-timeout', request }))
      : () => {};
    return { kind: 'awaiting', request, since, cancelTimer };
  }

  /** Handles one message of a player: a move, something tolerated, or an offence. */
  private async onMessage(seat: number, element: XmlElement, phase: Phase): Promise<'moved' | 'ignored' | Offence> {
    if (TOLERATED.has(element.name)) {
      return ++this.tolerated[seat]! > MAX_TOLERATED ? { kind: 'left', why: 'flood' } : 'ignored';
    }
    if (ADMIN_REQUESTS.has(element.name)) {
      return ++this.ignoredAdminRequests[seat]! > MAX_IGNORED_ADMIN_REQUESTS ? { kind: 'left', why: 'flood' } : 'ignored';
    }
    if (CLOSE_ELEMENTS.has(element.name)) return { kind: 'left', why: 'close' };
    if (element.name !== 'room') return { kind: 'left', why: 'unexpected' };
    // The real server finds the room of a message by its id: for one it does not know it closes
    // the connection, and the player has left its own room. Never played in the sender's room.
    if (attr(element, 'roomId') !== this.roomId) return { kind: 'left', why: 'unknown-room' };
    const data = child(element, 'data');
    if (!data || element.children.length !== 1 || attr(data, 'class') !== 'move') return { kind: 'left', why: 'unexpected' };
    // As in the real server, a move is read before its turn is checked: one it cannot read is
    // unreadable XML whoever sent it.
    const move = parseMove(data);
    if (!move.ok) return { kind: 'left', why: 'unparseable' };
    if (phase.kind !== 'awaiting' || seat !== this.mover()) return { kind: 'out-of-turn', move: move.value };
    const mover = this.mover();
    // The soft limit is judged only now that the move is here: a late move is discarded.
    if (this.config.canTimeout[mover] && (await this.decided(() => this.ctx.elapsed() - phase.since > this.config.softTimeout))) return { kind: 'soft-timeout' };
    const before = this.state;
    const performed = playMove(before, move.value);
    if (!performed.ok) {
      // As on the real server, the actions before the broken rule stay applied (rules.ts, MoveOutcome).
      this.state = performed.partial;
      return { kind: 'violation', message: performed.error, move: { ...move.value, actions: sortActions(move.value.actions) } };
    }
    this.state = performed.value;
    this.broadcast(renderMemento(this.roomId, this.state, this.names));
    this.vis?.move(before, this.state.lastMove!, this.state);
    return 'moved';
  }

  private resultText(scores: readonly [PlayerScore, PlayerScore], winner: 0 | 1 | null): string {
    const winnerElement = winner === null ? null : { player: this.state.players[winner], displayName: this.names[winner] };
    return renderResult(this.roomId, scores, winnerElement);
  }

  private async finishRegular(over: WinCondition): Promise<MatchResult> {
    const scores = scoresFor(this.state, this.config, null, null, over);
    this.deps.rooms?.testScores.record(this.names, scores);
    const winner = over.winner === 'RED' ? 0 : 1;
    this.broadcast(this.resultText(scores, winner));
    this.broadcast(renderLeft(this.roomId));
    const how = over.reason === 'goal' ? 'reached the goal first' : 'was further ahead when the round limit was reached';
    const reason = `${this.describe(winner)} wins: ${how} (after ${this.state.turn} moves)`;
    this.vis?.end(reason, this.state.turn);
    await this.closing();
    return { scores: scores.map((score) => score.points), reason };
  }

  private async finishOffence(seat: number, offence: Offence): Promise<MatchResult> {
    // Whoever is told the end has seen the game's opening (a paused room may not have begun).
    this.open();
    // Only a broken move's valid first actions can have ended the game (in the goal): the real
    // server's result then says so, and names the player its goal check found (the offender) as
    // the winner, while the match points still go to the other player.
    const over = offence.kind === 'violation' ? winCondition(this.state) : null;
    const scores = scoresFor(this.state, this.config, seat, offence, over);
    this.deps.rooms?.testScores.record(this.names, scores);
    const other = (1 - seat) as 0 | 1;
    const offender = this.seats[seat]!;
    const resultText = this.resultText(scores, over ? colorIndex(over.winner) : other);
    if (offence.kind === 'violation') {
      offender.write(renderError(this.roomId, violationMessage(this.names[seat]!, offence.message), offence.move));
      offender.write(renderCloseConnection() + STREAM_CLOSING);
      this.ctx.spectators.write(renderError(this.roomId, offence.message, null));
      this.closeSeat(seat);
    } else if (offence.kind === 'out-of-turn') {
      // The move as it came, in element order: the real server judged the turn before performing it.
      offender.write(renderError(this.roomId, NOT_YOUR_TURN, offence.move));
      offender.write(renderCloseConnection() + STREAM_CLOSING);
      this.closeSeat(seat);
    } else if (offence.kind === 'left') {
      // The real server ends the stream of a player that leaves, whatever the way (it closed its
      // stream, disconnected, or wrote what it cannot read), before it closes the socket.
      offender.write(STREAM_CLOSING);
      this.closeSeat(seat);
    }
    for (const index of [0, 1]) {
      if (this.connected[index]) this.seats[index]!.write(resultText + renderLeft(this.roomId));
    }
    this.ctx.spectators.write(resultText + renderLeft(this.roomId));
    const reason = `${this.describe(other)} wins: ${this.describe(seat)} ${offenceText(offence)}`;
    this.vis?.end(reason, this.state.turn);
    await this.closing();
    return { scores: scores.map((score) => score.points), reason };
  }

  private async finishCancelled(): Promise<MatchResult> {
    this.open();
    this.broadcast(renderLeft(this.roomId));
    const reason = 'the game was cancelled by an administrator';
    this.vis?.end(reason, this.state.turn);
    await this.closing();
    return { scores: [0, 0], reason };
  }

  private closeSeat(seat: number): void {
    this.connected[seat] = false;
    this.seats[seat]!.close('removed');
  }

  /**
   * The game is over once the result is out: each player still there gets the end of its stream
   * now, and the match ends without waiting for anybody. When the stream's end reaches the client
   * is the front door's business: the real server writes it once the client closes its side and
   * leaves a client that stays open (the Software-Challenge port holds it back likewise,
   * socket-member.ts); a coco player's program reads it, then the end of its input.
   */
  private async closing(): Promise<void> {
    this.seats.forEach((seat, i) => {
      if (this.connected[i]) seat.write(STREAM_CLOSING);
    });
  }

  /**
   * What the room decided by the clock or the gate (`played`, asked only when played), noted for
   * the record; in a replay, what the played room decided, recalled.
   */
  private async decided(played: () => boolean): Promise<boolean> {
    if (this.ctx.recall) return (await recallDecision(this.ctx.recall, 'hase und igel')) === 1;
    const decision = played();
    this.ctx.note?.(decision ? 1 : 0);
    return decision;
  }

  private describe(seat: number): string {
    return `${COLORS[seat]} (${this.names[seat]})`;
  }
}
