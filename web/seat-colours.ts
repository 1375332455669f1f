import type { VisEvent } from '../src/protocol/vis-event.js';
import type { Shape } from '../src/protocol/vis-shape.js';

/**
 * Each seat's colour as the board draws it, for the legend beside the picture: read from the
 * picture itself, since a game draws who is who but does not declare it apart (and the page names
 * no game). Pure, so that it is tested under Node.
 *
 * A game writes a player's name in its picture (whole, or shortened with "…"), and beside it what
 * that player plays with. In order, the first that applies to the create holding the name:
 * 1. a filled circle in the same object, the one nearest the name (dama, royalur: a token beside
 *    the name);
 * 2. a chess piece glyph leading the name (chess: "♔ ann" plays White);
 * 3. a colour word in the name's text, `black` or `white` (quoridor: "ann (black)"), unless the
 *    seat's name is later drawn with the other word (a match of several games that swap colours);
 * 4. the name's own colour, when each seat's name is in a colour of its own (roshambo,
 *    hase-und-igel).
 * An external game's game server does not know its players' names: where a seat's name is never
 * drawn, a text `Player N` (N the seat's number from 1, as the game-server protocol numbers them)
 * names seat N in these rules (lowest-unique: "Player 2" in the object of its disc).
 * A seat whose picture says none of these has no colour in the legend (a disc with no text in its
 * object): the legend shows nothing rather than a guess.
 */
export interface SeatColour {
  /** `#rrggbb`. */
  readonly css: string;
  /** What the colour is called when a word says it (White, Black), else null. */
  readonly word: string | null;
}

const WHITE: SeatColour = { css: '#f4f4f4', word: 'White' };
const BLACK: SeatColour = { css: '#1e1e1e', word: 'Black' };
const WHITE_GLYPHS = /^[\u2654-\u2659]/;
const BLACK_GLYPHS = /^[\u265a-\u265f]/;
/** A name shortened by a drawing keeps at least this many characters before its "…". */
const MIN_SHORT_CHARS = 3;
/** Fully transparent or nearly: not a colour anyone sees. */
const MIN_ALPHA = 0x40;

type Text = Extract<Shape, { text: unknown }>['text'];
type Circle = Extract<Shape, { circle: unknown }>['circle'];

function css(hex: string | undefined): string | null {
  if (hex === undefined || !/^[0-9a-fA-F]{8}$/.test(hex) || parseInt(hex.slice(6), 16) < MIN_ALPHA) return null;
  return `#${hex.slice(0, 6).toLowerCase()}`;
}

const WORD_CHAR = /[\p{L}\p{N}_$]/u;

/** Whether `text` holds `name` whole (not inside a longer word), or shortened to "nam…". */
export function namesPlayer(text: string, name: string): boolean {
  if (name === '') return false;
  const whole = (needle: string, endBoundary: boolean): boolean => {
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
      const before = at === 0 ? '' : text[at - 1]!;
      const after = text[at + needle.length] ?? '';
      if (!WORD_CHAR.test(before) && (!endBoundary || !WORD_CHAR.test(after))) return true;
    }
    return false;
  };
  if (whole(name, true)) return true;
  const chars = [...name];
  for (let k = chars.length - 1; k >= MIN_SHORT_CHARS; k--) if (whole(`${chars.slice(0, k).join('')}…`, false)) return true;
  return false;
}

interface NameTag {
  readonly text: Text;
  readonly circles: readonly Circle[];
}

/**
 * The first drawn text naming each seat, with the circles of the object it is in. A seat whose
 * name is never drawn is named by `Player N` (N its seat number from 1) as an external game's
 * picture says it (the game-server protocol numbers the players so, in seat order; its game server
 * is never told their names).
 */
function nameTags(players: readonly string[], events: readonly VisEvent[]): (NameTag | null)[] {
  const byName = firstTags(players, events);
  if (byName.every((tag) => tag !== null)) return byName;
  const byNumber = firstTags(players.map((_, seat) => `Player ${seat + 1}`), events);
  return byName.map((tag, seat) => tag ?? byNumber[seat]!);
}

/** The first drawn text holding each of `names`, with the circles of the object it is in. */
function firstTags(names: readonly string[], events: readonly VisEvent[]): (NameTag | null)[] {
  const tags: (NameTag | null)[] = names.map(() => null);
  let missing = names.length;
  for (const event of events) {
    if (missing === 0) break;
    if (!('create' in event)) continue;
    const geom = event.create.geom ?? [];
    const circles = geom.flatMap((shape) => ('circle' in shape ? [shape.circle] : []));
    for (const shape of geom) {
      if (!('text' in shape)) continue;
      names.forEach((name, seat) => {
        if (tags[seat] !== null || !namesPlayer(shape.text.v, name)) return;
        // A text naming every player ("ann against bob") says nothing of one seat.
        if (names.length > 1 && names.every((other) => namesPlayer(shape.text.v, other))) return;
        tags[seat] = { text: shape.text, circles };
        missing--;
      });
    }
  }
  return tags;
}

/** Each seat's colour, or null where the picture does not say it. */
export function seatColours(players: readonly string[], events: readonly VisEvent[]): (SeatColour | null)[] {
  const tags = nameTags(players, events);
  const colours: (SeatColour | null)[] = tags.map((tag, seat) => {
    if (tag === null) return null;
    const y = tag.text.p?.[1] ?? 0;
    const nearest = [...tag.circles]
      .filter((circle) => css(circle.f) !== null)
      .sort((a, b) => Math.abs((a.p?.[1] ?? 0) - y) - Math.abs((b.p?.[1] ?? 0) - y))[0];
    if (nearest) return { css: css(nearest.f)!, word: null };
    if (WHITE_GLYPHS.test(tag.text.v)) return WHITE;
    if (BLACK_GLYPHS.test(tag.text.v)) return BLACK;
    const word = colourWord(tag.text.v);
    if (word !== null && !swapsColour(players[seat]!, word, events)) return word;
    return null;
  });
  // Rule 4: the names' own colours, only when each named seat has one of its own.
  const textColours = tags.map((tag) => (tag ? css(tag.text.s) : null));
  const named = textColours.filter((c): c is string => c !== null);
  if (named.length >= 2 && new Set(named).size === named.length) {
    return colours.map((colour, seat) => colour ?? (textColours[seat] ? { css: textColours[seat]!, word: null } : null));
  }
  return colours;
}

function colourWord(text: string): SeatColour | null {
  if (/\bwhite\b/i.test(text)) return WHITE;
  if (/\bblack\b/i.test(text)) return BLACK;
  return null;
}

/** Whether `name` is drawn somewhere with a colour word other than `word`'s. */
function swapsColour(name: string, word: SeatColour, events: readonly VisEvent[]): boolean {
  for (const event of events) {
    if (!('create' in event)) continue;
    for (const shape of event.create.geom ?? []) {
      if (!('text' in shape) || !namesPlayer(shape.text.v, name)) continue;
      const other = colourWord(shape.text.v);
      if (other !== null && other !== word) return true;
    }
  }
  return false;
}

/** A seat's colour from some time of the match on (a game of a series, a piece played). */
interface ColourChange {
  readonly t: number;
  readonly seat: number;
  readonly colour: SeatColour;
}

/**
 * Each seat's colour at each time of the match. What `seatColours` finds for the whole match
 * stands; a seat it finds none for takes its colour at the time shown from what the picture says
 * then (the earliest such, before the first):
 * 5. a colour word just before the seat's name, or the one colour word of a text naming only that
 *    seat, in the latest such text drawn (quoridor "ann (black)", clobber "black: ann   white: bob":
 *    both swap colours between the games of a match);
 * 6. a log line naming exactly one seat (its name, or "Player N" as external games say it), at the
 *    very time of the one create of one filled circle (connect four: "Player 1 plays column 3" as
 *    its disc drops): that circle's fill is the seat's.
 */
export class SeatColourTimeline {
  private readonly base: readonly (SeatColour | null)[];
  private readonly changes: readonly ColourChange[];

  constructor(players: readonly string[], events: readonly VisEvent[]) {
    this.base = seatColours(players, events);
    this.changes = [...wordChanges(players, events), ...pieceChanges(players, events)].sort((a, b) => a.t - b.t);
  }

  /** Each seat's colour at match time `t` (Infinity: the end). */
  at(t: number): (SeatColour | null)[] {
    return this.base.map((colour, seat) => {
      if (colour !== null) return colour;
      let found: SeatColour | null = null;
      for (const change of this.changes) {
        if (change.seat !== seat) continue;
        if (change.t > t && found !== null) break;
        found = change.colour;
        if (change.t > t) break;
      }
      return found;
    });
  }
}

/** Rule 5: colour words beside names, each at its text's time. */
function wordChanges(players: readonly string[], events: readonly VisEvent[]): ColourChange[] {
  const changes: ColourChange[] = [];
  for (const event of events) {
    if (!('create' in event)) continue;
    for (const shape of event.create.geom ?? []) {
      if (!('text' in shape)) continue;
      const v = shape.text.v;
      const named = players.map((name) => firstMention(v, name));
      players.forEach((_, seat) => {
        const at = named[seat]!;
        if (at === -1) return;
        const others = named.filter((other, i) => i !== seat && other !== -1);
        let colour: SeatColour | null;
        if (others.length === 0) {
          const white = /\bwhite\b/i.test(v);
          const black = /\bblack\b/i.test(v);
          colour = white === black ? null : white ? WHITE : BLACK;
        } else {
          // The words between the previous name drawn and this one say this seat's colour.
          const from = Math.max(0, ...others.filter((other) => other < at));
          colour = lastColourWord(v.slice(from, at));
        }
        if (colour !== null) changes.push({ t: event.t, seat, colour });
      });
    }
  }
  return changes;
}

/** Where `name` is first drawn in `text`, whole or shortened (namesPlayer), or -1. */
function firstMention(text: string, name: string): number {
  if (!namesPlayer(text, name)) return -1;
  const whole = text.indexOf(name);
  if (whole !== -1) return whole;
  const chars = [...name];
  for (let k = chars.length - 1; k >= MIN_SHORT_CHARS; k--) {
    const at = text.indexOf(`${chars.slice(0, k).join('')}…`);
    if (at !== -1) return at;
  }
  return -1;
}

function lastColourWord(text: string): SeatColour | null {
  const words = [...text.matchAll(/\b(white|black)\b/gi)];
  const last = words[words.length - 1]?.[1]?.toLowerCase();
  return last === 'white' ? WHITE : last === 'black' ? BLACK : null;
}

/** Rule 6: a piece created at the very time a log line names its one player. */
function pieceChanges(players: readonly string[], events: readonly VisEvent[]): ColourChange[] {
  const changes: ColourChange[] = [];
  const byTime = new Map<number, { pieces: string[]; creates: number; seats: number[] }>();
  for (const event of events) {
    let moment = byTime.get(event.t);
    if (moment === undefined) byTime.set(event.t, (moment = { pieces: [], creates: 0, seats: [] }));
    if ('create' in event) {
      moment.creates++;
      const geom = event.create.geom ?? [];
      const fill = geom.length === 1 && 'circle' in geom[0]! ? css(geom[0].circle.f) : null;
      if (fill !== null) moment.pieces.push(fill);
    } else if ('log' in event) {
      const line = event.log.line;
      const seats = players.flatMap((name, seat) => (namesPlayer(line, name) || namesPlayer(line, `Player ${seat + 1}`) ? [seat] : []));
      if (seats.length === 1) moment.seats.push(seats[0]!);
    }
  }
  for (const [t, moment] of byTime) {
    if (moment.creates !== 1 || moment.pieces.length !== 1 || new Set(moment.seats).size !== 1) continue;
    changes.push({ t, seat: moment.seats[0]!, colour: { css: moment.pieces[0]!, word: null } });
  }
  return changes;
}
