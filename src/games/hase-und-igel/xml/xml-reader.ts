import type { XmlElement } from './xml-element.js';

/*
 * A bounded streaming XML reader for the Software-Challenge wire format: one root element (normally
 * <protocol>) left open for the whole connection, its children being the messages, with no delimiter
 * between them. No XML parser is installed in this project (node_modules has none); the npm package
 * we would add is `saxes` (a streaming, non-validating SAX parser that never expands external
 * entities). Until then this small reader covers the subset the protocol uses, and refuses the rest:
 * no DOCTYPE (so no entity definitions, no entity expansion, no external entities), only the five
 * predefined entities and character references, and a named limit on every size and on the depth.
 *
 * A state machine fed with text chunks: it holds at most one incomplete token, and reports complete
 * messages, start tags (for readers that must act before a message is closed) and stable error codes.
 */

export const XML_ERRORS = [
  'xml/malformed',
  'xml/doctype-forbidden',
  'xml/unknown-entity',
  'xml/bad-character-reference',
  'xml/mismatched-tag',
  'xml/duplicate-attribute',
  'xml/too-deep',
  'xml/message-too-large',
  'xml/token-too-large',
  'xml/too-many-attributes',
  'xml/too-many-elements',
  'xml/name-too-long',
  'xml/text-outside-element',
  'xml/unterminated',
] as const;
export type XmlError = (typeof XML_ERRORS)[number];

export interface XmlLimits {
  /** Deepest nesting, the root counting as level 1. */
  readonly maxDepth: number;
  /** Characters of one message (one child of the root) from its '<' to its closing '>'. */
  readonly maxMessageChars: number;
  /** Characters of one tag, text run, comment or CDATA section. */
  readonly maxTokenChars: number;
  readonly maxAttributes: number;
  readonly maxNameChars: number;
  /** Elements in one message, the message itself included. */
  readonly maxElements: number;
}

/** Limits for what a player sends: a move is a few hundred bytes; hints make it larger. */
export const PLAYER_XML_LIMITS: XmlLimits = {
  maxDepth: 8,
  maxMessageChars: 64 * 1024,
  maxTokenChars: 16 * 1024,
  maxAttributes: 16,
  maxNameChars: 128,
  maxElements: 256,
};

/** Limits for what a client reads from a server (mementos are a few kilobytes). */
export const SERVER_XML_LIMITS: XmlLimits = {
  maxDepth: 16,
  maxMessageChars: 1024 * 1024,
  maxTokenChars: 256 * 1024,
  maxAttributes: 64,
  maxNameChars: 256,
  maxElements: 4096,
};

export type XmlEvent =
  | { readonly kind: 'root-open'; readonly name: string; readonly attributes: readonly (readonly [string, string])[] }
  /** A start tag below the root; `depth` 1 is a message. Sent before the element is complete. */
  | { readonly kind: 'open'; readonly depth: number; readonly name: string; readonly attributes: readonly (readonly [string, string])[] }
  /** A complete child of the root; `end` is the offset just past its closing '>' in all input so far. */
  | { readonly kind: 'message'; readonly element: XmlElement; readonly end: number }
  | { readonly kind: 'root-close' }
  | { readonly kind: 'end' }
  | { readonly kind: 'error'; readonly code: XmlError };

interface Building {
  readonly name: string;
  readonly attributes: (readonly [string, string])[];
  readonly children: XmlElement[];
  text: string;
}

const NAME_START = /[A-Za-z_:\u0080-\uffff]/;
const NAME_CHAR = /[-A-Za-z0-9_:.\u0080-\uffff]/;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export class XmlStreamReader {
  private buffer = '';
  private pos = 0;
  /** Characters consumed before `buffer[0]`. */
  private consumed = 0;
  private rootName: string | null = null;
  private readonly stack: Building[] = [];
  private messageStart = 0;
  private messageElements = 0;
  private done = false;

  constructor(private readonly limits: XmlLimits = PLAYER_XML_LIMITS) {}

  /** Whether the reader has stopped (root closed, input ended or an error). */
  get finished(): boolean {
    return this.done;
  }

  /** Whether a message has begun and is not complete yet. */
  get insideMessage(): boolean {
    return this.stack.length > 0;
  }

  push(chunk: string): XmlEvent[] {
    const events: XmlEvent[] = [];
    if (this.done) return events;
    this.buffer = this.buffer.slice(this.pos) + chunk;
    this.consumed += this.pos;
    this.pos = 0;
    while (!this.done) {
      const step = this.next(events);
      if (step === 'more') break;
    }
    if (this.done) this.buffer = '';
    return events;
  }

  /** The input ended. */
  end(): XmlEvent[] {
    if (this.done) return [];
    this.done = true;
    const rest = this.buffer.slice(this.pos);
    this.buffer = '';
    if (this.stack.length > 0 || (rest.trim() !== '' && this.rootName !== null)) return [{ kind: 'error', code: 'xml/unterminated' }];
    return [{ kind: 'end' }];
  }

  private fail(events: XmlEvent[], code: XmlError): 'stop' {
    this.done = true;
    events.push({ kind: 'error', code });
    return 'stop';
  }

  /** Checks that a token of `length` characters starting at `pos` fits the limits. */
  private fits(events: XmlEvent[], length: number): boolean {
    if (length > this.limits.maxTokenChars) {
      this.fail(events, 'xml/token-too-large');
      return false;
    }
    if (this.stack.length > 0 && this.consumed + this.pos + length - this.messageStart > this.limits.maxMessageChars) {
      this.fail(events, 'xml/message-too-large');
      return false;
    }
    return true;
  }

  /** Waits for more input, unless what is pending already breaks a limit. */
  private more(events: XmlEvent[]): 'more' | 'stop' {
    return this.fits(events, this.buffer.length - this.pos) ? 'more' : 'stop';
  }

  private next(events: XmlEvent[]): 'more' | 'stop' | 'token' {
    const buf = this.buffer;
    const start = this.pos;
    if (start >= buf.length) return 'more';
    if (buf[start] !== '<') {
      const lt = buf.indexOf('<', start);
      if (lt === -1) return this.more(events);
      if (!this.fits(events, lt - start)) return 'stop';
      const decoded = decodeEntities(buf.slice(start, lt));
      if (typeof decoded !== 'string') return this.fail(events, decoded.error);
      this.pos = lt;
      return this.text(events, decoded);
    }
    if (buf.startsWith('<!--', start)) return this.skipUntil(events, '-->', start + 4);
    if (buf.startsWith('<![CDATA[', start)) {
      if (this.stack.length === 0) return this.fail(events, 'xml/text-outside-element');
      const close = buf.indexOf(']]>', start + 9);
      if (close === -1) return this.more(events);
      if (!this.fits(events, close + 3 - start)) return 'stop';
      this.pos = close + 3;
      return this.text(events, buf.slice(start + 9, close));
    }
    if (buf.startsWith('<!', start)) {
      const available = buf.slice(start, start + 9);
      if ('<!--'.startsWith(available) || '<![CDATA['.startsWith(available)) return this.more(events);
      // A DOCTYPE could define entities (billion laughs) or pull external ones: never allowed.
      if (available.toUpperCase().startsWith('<!DOCTYPE'.slice(0, available.length))) {
        return available.length < 9 ? this.more(events) : this.fail(events, 'xml/doctype-forbidden');
      }
      return this.fail(events, 'xml/malformed');
    }
    if (buf.startsWith('<?', start)) return this.skipUntil(events, '?>', start + 2);
    const close = findTagEnd(buf, start + 1);
    if (close === -1) return this.more(events);
    if (!this.fits(events, close + 1 - start)) return 'stop';
    this.pos = close + 1;
    return buf[start + 1] === '/' ? this.endTag(events, buf.slice(start + 2, close)) : this.startTag(events, buf.slice(start + 1, close));
  }

  private skipUntil(events: XmlEvent[], terminator: string, from: number): 'more' | 'stop' | 'token' {
    const end = this.buffer.indexOf(terminator, from);
    if (end === -1) return this.more(events);
    if (!this.fits(events, end + terminator.length - this.pos)) return 'stop';
    this.pos = end + terminator.length;
    return 'token';
  }

  private text(events: XmlEvent[], text: string): 'stop' | 'token' {
    const top = this.stack[this.stack.length - 1];
    if (top) top.text += text;
    else if (text.trim() !== '') return this.fail(events, 'xml/text-outside-element');
    return 'token';
  }

  private startTag(events: XmlEvent[], body: string): 'stop' | 'token' {
    const selfClosing = body.endsWith('/');
    const parsed = parseTagBody(selfClosing ? body.slice(0, -1) : body, this.limits);
    if (typeof parsed === 'string') return this.fail(events, parsed);
    const { name, attributes } = parsed;
    if (this.rootName === null) {
      this.rootName = name;
      events.push({ kind: 'root-open', name, attributes });
      if (selfClosing) {
        events.push({ kind: 'root-close' });
        this.done = true;
        return 'stop';
      }
      return 'token';
    }
    const depth = this.stack.length + 1;
    if (depth + 1 > this.limits.maxDepth) return this.fail(events, 'xml/too-deep');
    if (depth === 1) {
      this.messageStart = this.consumed + this.pos - body.length - 2;
      this.messageElements = 0;
    }
    if (++this.messageElements > this.limits.maxElements) return this.fail(events, 'xml/too-many-elements');
    events.push({ kind: 'open', depth, name, attributes });
    const building: Building = { name, attributes, children: [], text: '' };
    if (selfClosing) this.finishElement(events, building);
    else this.stack.push(building);
    return 'token';
  }

  private endTag(events: XmlEvent[], body: string): 'stop' | 'token' {
    const name = body.trimEnd();
    const top = this.stack.pop();
    if (!top) {
      if (name !== this.rootName) return this.fail(events, 'xml/mismatched-tag');
      events.push({ kind: 'root-close' });
      this.done = true;
      return 'stop';
    }
    if (top.name !== name) return this.fail(events, 'xml/mismatched-tag');
    this.finishElement(events, top);
    return 'token';
  }

  private finishElement(events: XmlEvent[], building: Building): void {
    // Indentation between child elements is not content.
    const text = building.children.length > 0 && building.text.trim() === '' ? '' : building.text;
    const element: XmlElement = { name: building.name, attributes: building.attributes, children: building.children, text };
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.children.push(element);
    else events.push({ kind: 'message', element, end: this.consumed + this.pos });
  }
}

/** The index of the '>' closing the tag that starts before `from`, skipping quoted values; -1 if not yet there. */
function findTagEnd(buf: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < buf.length; i++) {
    const c = buf[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return i;
    }
  }
  return -1;
}

function isName(name: string): boolean {
  if (name.length === 0 || !NAME_START.test(name[0]!)) return false;
  for (let i = 1; i < name.length; i++) if (!NAME_CHAR.test(name[i]!)) return false;
  return true;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r';

function parseTagBody(
  body: string,
  limits: XmlLimits,
): { name: string; attributes: (readonly [string, string])[] } | XmlError {
  let i = 0;
  while (i < body.length && !isSpace(body[i])) i++;
  const name = body.slice(0, i);
  if (name.length > limits.maxNameChars) return 'xml/name-too-long';
  if (!isName(name)) return 'xml/malformed';
  const attributes: (readonly [string, string])[] = [];
  for (;;) {
    const before = i;
    while (isSpace(body[i])) i++;
    if (i >= body.length) break;
    if (i === before) return 'xml/malformed';
    const nameStart = i;
    while (i < body.length && body[i] !== '=' && !isSpace(body[i])) i++;
    const key = body.slice(nameStart, i);
    if (key.length > limits.maxNameChars) return 'xml/name-too-long';
    if (!isName(key)) return 'xml/malformed';
    while (isSpace(body[i])) i++;
    if (body[i] !== '=') return 'xml/malformed';
    i++;
    while (isSpace(body[i])) i++;
    const quote = body[i];
    if (quote !== '"' && quote !== "'") return 'xml/malformed';
    const end = body.indexOf(quote, i + 1);
    if (end === -1) return 'xml/malformed';
    const raw = body.slice(i + 1, end);
    if (raw.includes('<')) return 'xml/malformed';
    // Attribute-value normalization: literal white space becomes a space; references keep theirs.
    const value = decodeEntities(raw.replace(/\r\n|[\t\n\r]/g, ' '));
    if (typeof value !== 'string') return value.error;
    if (attributes.some(([existing]) => existing === key)) return 'xml/duplicate-attribute';
    if (attributes.length >= limits.maxAttributes) return 'xml/too-many-attributes';
    attributes.push([key, value]);
    i = end + 1;
  }
  return { name, attributes };
}

/** Replaces the predefined entities and character references; anything else is refused. */
function decodeEntities(raw: string): string | { error: XmlError } {
  if (!raw.includes('&')) return raw;
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const amp = raw.indexOf('&', i);
    if (amp === -1) {
      out += raw.slice(i);
      break;
    }
    out += raw.slice(i, amp);
    const semi = raw.indexOf(';', amp + 1);
    if (semi === -1 || semi - amp > 12) return { error: 'xml/malformed' };
    const ref = raw.slice(amp + 1, semi);
    if (ref.startsWith('#')) {
      const code = /^#x[0-9a-fA-F]{1,6}$/.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]{1,7}$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN;
      if (!Number.isInteger(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return { error: 'xml/bad-character-reference' };
      }
      out += String.fromCodePoint(code);
    } else {
      const replacement = PREDEFINED[ref];
      if (replacement === undefined) return { error: 'xml/unknown-entity' };
      out += replacement;
    }
    i = semi + 1;
  }
  return out;
}
