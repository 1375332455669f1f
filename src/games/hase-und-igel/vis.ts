import type { MatchContext } from '../../match/game.js';
import type { VisEventInput } from '../../protocol/vis-event.js';
import type { Shape } from '../../protocol/vis-shape.js';
import type { FieldType } from './board.js';
import { performAction, type Action, type CardType, type GameState, type Move, type PlayerState } from './rules.js';

/** Seconds of replay time per move. */
export const VIS_SECONDS_PER_MOVE = 1;
/** A move has at most 4 actions, so all of them fit in one move's second, in time order. */
const ACTION_SECONDS = 0.2;

const FIELD_STYLE: Readonly<Record<FieldType, { color: string; label: string; meaning: string }>> = {
  START: { color: 'b0b0b0ff', label: 'S', meaning: 'start' },
  CARROT: { color: 'f0962eff', label: 'C', meaning: 'carrot' },
  HARE: { color: 'd9b88cff', label: 'H', meaning: 'hare (card)' },
  SALAD: { color: '6cc24aff', label: 'L', meaning: 'salad' },
  HEDGEHOG: { color: '7a5a3cff', label: 'I', meaning: 'hedgehog' },
  POSITION_1: { color: '6ec6e8ff', label: '1', meaning: 'position 1' },
  POSITION_2: { color: 'a98be0ff', label: '2', meaning: 'position 2' },
  GOAL: { color: 'ffd23fff', label: 'G', meaning: 'goal' },
};
/** The legend of the field symbols and card letters, inside the ring below the text panel. */
const LEGEND_ID = 90;

const PLAYER_COLORS = ['d62828ff', '1d4ed8ff'] as const;
const PLAYER_OFFSET = 0.011;
const CARD_LETTERS: Readonly<Record<CardType, string>> = {
  TAKE_OR_DROP_CARROTS: 'T',
  EAT_SALAD: 'E',
  HURRY_AHEAD: 'H',
  FALL_BACK: 'F',
};

const FIELD_ID_BASE = 1;
const PLAYER_IDS = [80, 81] as const;
const FIRST_INFO_ID = 100;

/**
 * Field i on the track around the square, clockwise from the top left corner: 16 fields a side,
 * the corners being fields 0, 16, 32 and 48; the last side is one step shorter per field so that
 * the goal (64) ends just below the start.
 */
export function fieldPosition(index: number): [number, number] {
  const margin = 0.06;
  const side = 1 - 2 * margin;
  const edge = Math.min(3, Math.floor(index / 16));
  const step = index - edge * 16;
  switch (edge) {
    case 0:
      return [margin + (step * side) / 16, margin];
    case 1:
      return [1 - margin, margin + (step * side) / 16];
    case 2:
      return [1 - margin - (step * side) / 16, 1 - margin];
    default:
      return [margin, 1 - margin - (step * side) / 17];
  }
}

/** The fields' symbols in two columns of four, then the cards' letters on two lines. */
function legend(): Shape[] {
  const geom: Shape[] = [{ text: { v: 'Fields', p: [0.5, 0.53], t: 0.026, s: '222222ff' } }];
  (Object.values(FIELD_STYLE) as { color: string; label: string; meaning: string }[]).forEach((style, i) => {
    const x = i < 4 ? 0.2 : 0.54;
    const y = 0.58 + (i % 4) * 0.055;
    geom.push(
      { circle: { p: [x, y], r: 0.02, f: style.color, s: '333333ff', t: 0.002 } },
      { text: { v: style.label, p: [x, y], t: 0.02, s: '222222ff' } },
      // Centred text: each meaning's centre sits a little right of its symbol, by its length.
      { text: { v: style.meaning, p: [x + 0.035 + style.meaning.length * 0.0065, y], t: 0.024, s: '222222ff' } },
    );
  });
  const cards = Object.entries(CARD_LETTERS).map(([card, letter]) => `${letter} ${card.toLowerCase().replaceAll('_', ' ')}`);
  geom.push(
    { text: { v: `Cards: ${cards.slice(0, 2).join(', ')}`, p: [0.5, 0.82], t: 0.022, s: '222222ff' } },
    { text: { v: cards.slice(2).join(', '), p: [0.5, 0.855], t: 0.022, s: '222222ff' } },
  );
  return geom;
}

function tokenPosition(index: number, seat: 0 | 1): [number, number] {
  const [x, y] = fieldPosition(index);
  return [x + (seat === 0 ? -PLAYER_OFFSET : PLAYER_OFFSET), y];
}

export function describeAction(action: Action): string {
  switch (action.type) {
    case 'advance':
      return `advance ${action.distance}`;
    case 'card':
      return action.card === 'TAKE_OR_DROP_CARROTS' ? `card ${action.card} ${action.value}` : `card ${action.card}`;
    case 'exchangeCarrots':
      return `exchange ${action.value} carrots`;
    case 'eatSalad':
      return 'eat salad';
    case 'fallBack':
      return 'fall back';
    case 'skip':
      return 'skip';
  }
}

function playerLine(player: PlayerState, name: string): string {
  const cards = player.cards.map((card) => CARD_LETTERS[card]).join('') || '-';
  return `${player.color} ${name}: field ${player.index}, ${player.carrots} carrots, ${player.salads} salads, cards ${cards}`;
}

/** Draws one match: the board once, the two hares moved action by action, and a text panel per move. */
export class HaseVis {
  private nextInfoId = FIRST_INFO_ID;
  private infoId: number | null = null;

  constructor(
    private readonly emit: (event: VisEventInput) => void,
    private readonly names: readonly [string, string],
  ) {}

  static forMatch(ctx: MatchContext, names: readonly [string, string]): HaseVis {
    return new HaseVis((event) => ctx.vis(event), names);
  }

  start(state: GameState): void {
    state.board.forEach((type, index) => {
      const style = FIELD_STYLE[type];
      this.emit({
        t: 0,
        create: {
          id: FIELD_ID_BASE + index,
          p: fieldPosition(index),
          z: 1,
          geom: [
            { circle: { r: 0.024, f: style.color, s: '333333ff', t: 0.002 } },
            // Symbol and number share the circle about equally: the number at 0.011 was ~4 px on a
            // phone's 366 px board (issue 29); the colour already tells the field's kind.
            { text: { v: style.label, p: [0, -0.008], t: 0.016, s: '222222ff' } },
            { text: { v: String(index), p: [0, 0.011], t: 0.016, s: '222222ff' } },
          ],
        },
      });
    });
    state.players.forEach((player, seat) => {
      this.emit({
        t: 0,
        create: { id: PLAYER_IDS[seat as 0 | 1], p: tokenPosition(player.index, seat as 0 | 1), z: 5, geom: [{ circle: { r: 0.012, f: PLAYER_COLORS[seat as 0 | 1], s: 'ffffffff', t: 0.003 } }] },
      });
    });
    this.emit({ t: 0, create: { id: LEGEND_ID, z: 1, geom: legend() } });
    this.panel(state, 0);
  }

  /** Animates `move` from `before` (the move is legal there) and shows `after`. */
  move(before: GameState, move: Move, after: GameState): void {
    const t = before.turn * VIS_SECONDS_PER_MOVE;
    const seat = (before.turn % 2) as 0 | 1;
    let me = before.players[seat];
    const other = before.players[1 - seat]!;
    this.emit({ t, log: { line: `${before.turn + 1}. ${me.color} ${this.names[seat]}: ${move.actions.map(describeAction).join(', ')}` } });
    move.actions.forEach((action, i) => {
      const performed = performAction(before.board, me, other, action);
      if (!performed.ok) return;
      const [x0, y0] = tokenPosition(me.index, seat);
      const [x1, y1] = tokenPosition(performed.value.index, seat);
      if (x0 !== x1 || y0 !== y1) {
        this.emit({ t: t + i * ACTION_SECONDS, transform: { id: PLAYER_IDS[seat], d: ACTION_SECONDS * 0.9, f: 'easeinout', mv: [x1 - x0, y1 - y0] } });
      }
      me = performed.value;
    });
    this.panel(after, t + move.actions.length * ACTION_SECONDS);
  }

  end(text: string, turn: number): void {
    this.emit({ t: turn * VIS_SECONDS_PER_MOVE + 0.9, log: { line: text } });
  }

  private panel(state: GameState, t: number): void {
    if (this.infoId !== null) this.emit({ t, destroy: { id: this.infoId } });
    const id = this.nextInfoId++;
    this.infoId = id;
    this.emit({
      t,
      create: {
        id,
        p: [0.5, 0.4],
        z: 3,
        geom: [
          { text: { v: `Hase und Igel - move ${state.turn} of 60`, p: [0, -0.06], t: 0.03, s: '222222ff' } },
          { text: { v: playerLine(state.players[0], this.names[0]), p: [0, 0], t: 0.022, s: PLAYER_COLORS[0] } },
          { text: { v: playerLine(state.players[1], this.names[1]), p: [0, 0.04], t: 0.022, s: PLAYER_COLORS[1] } },
        ],
      },
    });
  }
}
