import { PLAYER_XML_LIMITS, XmlStreamReader, type XmlEvent } from '../games/hase-und-igel/xml/xml-reader.js';
import type { XmlElement } from '../games/hase-und-igel/xml/xml-element.js';

/**
 * What a Software-Challenge client sent before its first request was complete: `more` to wait,
 * `refused` with the reason (bad XML, bad UTF-8, too much, the stream closed), or the request with
 * the reader events that followed it in the same chunk (an administrator's next requests).
 */
export type OpeningStep =
  | { readonly kind: 'more' }
  | { readonly kind: 'refused'; readonly why: string }
  | { readonly kind: 'request'; readonly element: XmlElement; readonly rest: readonly XmlEvent[] };

/**
 * Reads a client's stream up to its first request (`<protocol>` and one child) with the game's
 * bounded XML reader, keeping every raw byte: a player's bytes all go on to its seat, where the
 * game reads the stream again from the start. An administrator's connection goes on with `text`
 * and `reader`.
 */
export class SochaOpening {
  readonly reader = new XmlStreamReader(PLAYER_XML_LIMITS);
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly chunks: Buffer[] = [];
  private bytes = 0;

  /**
   * `ignored`: a request that is no first request and is passed over, as the real server ignores
   * an administrator's request from a client that has not authenticated (it stays in `received()`).
   */
  constructor(
    private readonly maxBytes: number,
    private readonly ignored: (element: XmlElement) => boolean = () => false,
  ) {}

  /** Every byte received so far, in order. */
  received(): Buffer {
    return Buffer.concat(this.chunks, this.bytes);
  }

  /** Decodes a chunk of the stream; null for invalid UTF-8 (a character may span chunks). */
  text(chunk: Buffer): string | null {
    try {
      return this.decoder.decode(chunk, { stream: true });
    } catch {
      return null;
    }
  }

  push(chunk: Buffer): OpeningStep {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    // Comments and white space before the request are not bounded by the reader's message limits.
    if (this.bytes > this.maxBytes) return { kind: 'refused', why: `more than ${this.maxBytes} bytes before the first request` };
    const text = this.text(chunk);
    if (text === null) return { kind: 'refused', why: 'invalid UTF-8' };
    const events = this.reader.push(text);
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      switch (event.kind) {
        case 'error':
          return { kind: 'refused', why: `unreadable XML (${event.code})` };
        case 'root-close':
        case 'end':
          return { kind: 'refused', why: 'the stream ended before a request' };
        case 'message':
          if (this.ignored(event.element)) break;
          return { kind: 'request', element: event.element, rest: events.slice(i + 1) };
        default:
          break;
      }
    }
    return { kind: 'more' };
  }
}
