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
 * Reads a player's continuous XML stream from its seat, which delivers text as it arrives (the
 * game's `text` framing). Runs until the stream ends, the root closes, the XML is refused, or the
 * seat is closed.
 */
export async function pumpPlayerInput(
  seat: PlayerSeat,
  seatIndex: number,
  deliver: (event: PlayerInputEvent) => void,
  limits: XmlLimits = PLAYER_XML_LIMITS,
): Promise<void> {
  const reader = new XmlStreamReader(limits);
  for (;;) {
    // The game judges time itself (soft and hard limits per move request), so reads have no deadline.
    const text = await seat.readLine({ timeoutSeconds: Number.POSITIVE_INFINITY });
    const events = text === null ? reader.end() : reader.push(text);
    for (const event of events) {
      switch (event.kind) {
        case 'message':
          deliver({ kind: 'message', seat: seatIndex, element: event.element });
          break;
        case 'root-close':
          deliver({ kind: 'ended', seat: seatIndex, end: { kind: 'root-close' } });
          return;
        case 'error':
          deliver({ kind: 'ended', seat: seatIndex, end: { kind: 'xml-error', code: event.code } });
          return;
        case 'end':
          deliver({ kind: 'ended', seat: seatIndex, end: { kind: 'eof' } });
          return;
        default:
          break;
      }
    }
    if (text === null) return;
  }
}
