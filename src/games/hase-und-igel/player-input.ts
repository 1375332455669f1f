import type { PlayerSeat } from '../../match/seat.js';
import { PLAYER_XML_LIMITS, XmlStreamReader, type XmlError, type XmlLimits } from './xml/xml-reader.js';
import type { XmlElement } from './xml/xml-element.js';

/** Why a player's input stream ended. */
export type InputEnd =
  | { readonly kind: 'eof' }
  | { readonly kind: 'root-close' }
  | { readonly kind: 'xml-error'; readonly code: XmlError };

export type PlayerInputEvent =
  | { readonly kind: 'message'; readonly seat: number; readonly element: XmlElement }
  | { readonly kind: 'ended'; readonly seat: number; readonly end: InputEnd };

/**
 * A player's continuous XML stream, read from its seat, which delivers text as it arrives (the
 * game's `text` framing), as the events of each piece of text. It ends when the stream ends, the
 * root closes, the XML is refused, or the seat is closed: the last event is then 'ended'.
 */
export class PlayerInput {
  private readonly reader: XmlStreamReader;
  private over = false;

  constructor(
    private readonly seat: PlayerSeat,
    private readonly seatIndex: number,
    limits: XmlLimits = PLAYER_XML_LIMITS,
  ) {
    this.reader = new XmlStreamReader(limits);
  }

  /** The events of the next piece of text the seat gives (none, one or several); null once the stream is over. */
  async next(): Promise<PlayerInputEvent[] | null> {
    if (this.over) return null;
    // The game judges time itself (soft and hard limits per move request), so reads have no deadline.
    const text = await this.seat.readLine({ timeoutSeconds: Number.POSITIVE_INFINITY });
    const events = text === null ? this.reader.end() : this.reader.push(text);
    const delivered: PlayerInputEvent[] = [];
    const seat = this.seatIndex;
    for (const event of events) {
      const end: InputEnd | null =
        event.kind === 'root-close' ? { kind: 'root-close' } : event.kind === 'error' ? { kind: 'xml-error', code: event.code } : event.kind === 'end' ? { kind: 'eof' } : null;
      if (end !== null) {
        delivered.push({ kind: 'ended', seat, end });
        this.over = true;
        return delivered;
      }
      if (event.kind === 'message') delivered.push({ kind: 'message', seat, element: event.element });
    }
    if (text === null) this.over = true;
    return delivered;
  }
}
