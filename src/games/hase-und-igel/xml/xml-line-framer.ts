import { PLAYER_XML_LIMITS, XmlStreamReader, type XmlLimits } from './xml-reader.js';

/**
 * Makes a client's XML stream line-friendly without changing its meaning: a line break is put
 * after every complete message (child of the root) that is not already followed by one.
 *
 * Why: Software-Challenge clients (XStream) write a line break *before* each element, so the last
 * line of a move has none after it; a transport that hands a game lines would hold that line back
 * until the next message, which never comes. A front door that feeds a line-based seat passes the
 * client's text through this first. White space between messages is not content, so the game
 * reads the same messages. Input is never dropped: after an XML error it passes through as it is
 * (the game's own reader refuses it).
 */
export class XmlLineFramer {
  private readonly reader: XmlStreamReader;
  /** Characters of input before the current chunk. */
  private offset = 0;

  constructor(limits: XmlLimits = PLAYER_XML_LIMITS) {
    this.reader = new XmlStreamReader(limits);
  }

  push(chunk: string): string {
    const start = this.offset;
    this.offset += chunk.length;
    const cuts = this.reader
      .push(chunk)
      .flatMap((event) => (event.kind === 'message' ? [event.end - start] : []))
      // At the very end of a chunk the next character is unknown: break at once rather than hold
      // the line back (an empty line between messages is harmless).
      .filter((at) => chunk[at] !== '\n' && chunk[at] !== '\r');
    if (cuts.length === 0) return chunk;
    let out = '';
    let from = 0;
    for (const at of cuts) {
      out += `${chunk.slice(from, at)}\n`;
      from = at;
    }
    return out + chunk.slice(from);
  }
}
