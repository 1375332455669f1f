import { SaxesParser } from 'saxes';
import type { XmlElement } from './xml-element.js';

/*
 * A bounded streaming XML reader for the Software-Challenge wire format: one root element (normally
 * <protocol>) left open for the whole connection, its children being the messages, with no delimiter
 * between them.
 *
 * saxes (a well-kept streaming, non-validating SAX parser) does the XML: it tokenises, decodes the
 * predefined entities and character references, and checks well-formedness. It has no notion of a
 * connection-long root whose children are messages, nor of limits, so this thin layer adds the
 * protocol's part: the message framing (each child of the root becomes one XmlElement with the offset
 * just past its end; start tags are reported before their element is complete), a named limit on
 * every size and on the depth, the refusal of any DOCTYPE (saxes never expands entities a DTD defines,
 * but we refuse DTDs outright), and stable error codes in place of saxes's messages.
 *
 * Limits hold while the text streams in, not once a token is complete: saxes keeps an unfinished
 * token (a tag, a text run, a comment) in memory, so the input goes to it in slices no longer than the
 * current token and message may still grow, and every limit (names and references included) is
 * checked after each slice. A client can make saxes hold at most one character more than the token or
 * message limit allows.
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
  readonly attributes: readonly (readonly [string, string])[];
  readonly children: XmlElement[];
  text: string;
}

/** Thrown from inside saxes's callbacks to abandon the chunk it is reading once the reader stops. */
const STOP = Symbol('xml-reader-stop');

/** How much of a pending token is looked at: enough for '<!DOCTYPE' and '<![CDATA['. */
const HEAD_CHARS = 9;
/** Longest body of a reference ('&...;'): '#x10FFFF' and the five predefined names are shorter. */
const MAX_REFERENCE_CHARS = 11;
/** Characters that can never be in a name (ASCII outside [-.0-9:A-Z_a-z]). */
const NOT_NAME_CHAR = /[\x00-\x2c\x2f\x3b-\x40\x5b-\x5e\x60\x7b-\x7f]/;
const CHARACTER_REFERENCE_PREFIX = /^#(x[0-9a-fA-F]{0,6}|[0-9]{0,7})$/;

const isSpace = (c: string): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r';
const isBlank = (text: string): boolean => /^[ \t\n\r]*$/.test(text);

/** saxes's error messages, by a fragment of their text; any other is 'xml/malformed'. */
const SAXES_ERRORS: readonly (readonly [string, XmlError])[] = [
  ['doctype', 'xml/doctype-forbidden'],
  ['undefined entity', 'xml/unknown-entity'],
  ['malformed character entity', 'xml/bad-character-reference'],
  ['unexpected close tag', 'xml/mismatched-tag'],
  ['unmatched closing tag', 'xml/mismatched-tag'],
  ['duplicate attribute', 'xml/duplicate-attribute'],
  ['text data outside of root node', 'xml/text-outside-element'],
];

function classifySaxesError(message: string): XmlError {
  for (const [fragment, code] of SAXES_ERRORS) if (message.includes(fragment)) return code;
  return 'xml/malformed';
}

/**
 * The name and the reference saxes is in the middle of reading: saxes 6 holds them in its `name` and
 * `entity` fields until they end (its types mark them private). Reading them lets a long name or a
 * stray '&' fail at once; were they renamed, these reads give '', the token limit still bounds them,
 * and the tests on long names and stray '&' fail.
 */
function pendingBuffers(parser: SaxesParser): { name: string; reference: string } {
  const fields = parser as unknown as { readonly name?: unknown; readonly entity?: unknown };
  return {
    name: typeof fields.name === 'string' ? fields.name : '',
    reference: typeof fields.entity === 'string' ? fields.entity : '',
  };
}

/** The error an unfinished reference body is already bound to end in, or null while it may still be valid. */
function badReference(body: string): XmlError | null {
  if (body === '') return null;
  if (body.startsWith('#')) return CHARACTER_REFERENCE_PREFIX.test(body) ? null : 'xml/bad-character-reference';
  if (NOT_NAME_CHAR.test(body)) return 'xml/malformed';
  return body.length > MAX_REFERENCE_CHARS ? 'xml/unknown-entity' : null;
}

export class XmlStreamReader {
  private readonly parser = new SaxesParser();
  /** Events of the push under way. */
  private events: XmlEvent[] = [];
  private done = false;
  /** Characters given to saxes so far: offsets below count from the start of the input. */
  private fed = 0;
  /** Where the token being read began (a tag's '<', a text run's first character). */
  private tokenStart = 0;
  /** The first characters of the token being read after any leading white space; '' while it is blank. */
  private head = '';
  private rootName: string | null = null;
  /** Open elements below the root; the first is the message. */
  private readonly stack: Building[] = [];
  /** The '<' of the current message, from the moment its name is read; null between messages. */
  private messageStart: number | null = null;
  private messageElements = 0;
  private attributes: (readonly [string, string])[] = [];
  /**
   * A close tag saxes reported, not yet applied: on a mismatched close tag saxes first reports the
   * open element as closed and only then the error, so a close counts once nothing else followed.
   */
  private pendingClose: number | null = null;

  constructor(private readonly limits: XmlLimits = PLAYER_XML_LIMITS) {
    const parser = this.parser;
    parser.on('opentagstart', (tag) => this.openTagStart(tag.name));
    parser.on('attribute', (attribute) => this.attribute(attribute.name, attribute.value));
    parser.on('opentag', (tag) => this.openTag(tag.name));
    parser.on('closetag', () => this.closeTag());
    // saxes reports a text run when it reads the '<' after it.
    parser.on('text', (text) => this.characters(text, this.parser.position - 1));
    parser.on('cdata', (text) => this.characters(text, this.parser.position, true));
    // saxes reports a comment at its '--'; the '>' follows.
    parser.on('comment', () => this.tokenEnds(this.parser.position + 1));
    parser.on('processinginstruction', () => this.tokenEnds(this.parser.position));
    parser.on('xmldecl', () => this.tokenEnds(this.parser.position));
    // A DOCTYPE could define entities (billion laughs) or name external ones: never allowed.
    parser.on('doctype', () => this.fail('xml/doctype-forbidden'));
    parser.on('error', (error) => this.saxesError(error.message));
  }

  /** Whether the reader has stopped (root closed, input ended or an error). */
  get finished(): boolean {
    return this.done;
  }

  /** Whether a message has begun and is not complete yet. */
  get insideMessage(): boolean {
    return this.stack.length > 0;
  }

  push(chunk: string): XmlEvent[] {
    if (this.done) return [];
    this.events = [];
    try {
      for (let offset = 0; offset < chunk.length; ) {
        const slice = chunk.slice(offset, offset + this.room() + 1);
        const sliceStart = this.fed;
        this.fed += slice.length;
        this.parser.write(slice);
        this.settle();
        this.checkPending(slice, sliceStart);
        offset += slice.length;
      }
    } catch (thrown) {
      if (thrown !== STOP) throw thrown;
    }
    return this.events;
  }

  /** The input ended. */
  end(): XmlEvent[] {
    if (this.done) return [];
    this.done = true;
    if (this.stack.length > 0 || (this.rootName !== null && this.head !== '')) return [{ kind: 'error', code: 'xml/unterminated' }];
    return [{ kind: 'end' }];
  }

  private fail(code: XmlError): never {
    this.events.push({ kind: 'error', code });
    this.done = true;
    throw STOP;
  }

  /** How many more characters the token being read, and the message, may take. */
  private room(): number {
    let room = this.limits.maxTokenChars - Math.max(0, this.fed - this.tokenStart);
    if (this.messageStart !== null) room = Math.min(room, this.limits.maxMessageChars - (this.fed - this.messageStart));
    return Math.max(room, 0);
  }

  /** After a slice: what saxes holds unfinished must already fit every limit. */
  private checkPending(slice: string, sliceStart: number): void {
    for (let i = Math.max(0, this.tokenStart - sliceStart); i < slice.length && this.head.length < HEAD_CHARS; i++) {
      const c = slice[i]!;
      // saxes skips a byte order mark at the very start.
      if (this.head === '' && (isSpace(c) || (c === '\uFEFF' && sliceStart + i === 0))) continue;
      this.head += c;
    }
    if (this.head === '<!DOCTYPE') this.fail('xml/doctype-forbidden');
    if (this.rootName !== null && this.stack.length === 0 && this.head !== '') {
      if (!this.head.startsWith('<') || this.head === '<![CDATA[') this.fail('xml/text-outside-element');
    }
    const { name, reference } = pendingBuffers(this.parser);
    if (name.length > this.limits.maxNameChars) this.fail('xml/name-too-long');
    const referenceError = badReference(reference);
    if (referenceError) this.fail(referenceError);
    if (this.fed - this.tokenStart > this.limits.maxTokenChars) this.fail('xml/token-too-large');
    if (this.messageStart !== null && this.fed - this.messageStart > this.limits.maxMessageChars) this.fail('xml/message-too-large');
  }

  /** A token ended just before `end`; the next one starts there. */
  private tokenEnds(end: number): void {
    this.settle();
    if (end - this.tokenStart > this.limits.maxTokenChars) this.fail('xml/token-too-large');
    this.tokenStart = end;
    this.head = '';
  }

  private saxesError(message: string): void {
    const code = classifySaxesError(message);
    if (code === 'xml/mismatched-tag') this.pendingClose = null;
    else this.settle();
    this.fail(code);
  }

  private openTagStart(name: string): void {
    this.settle();
    if (name.length > this.limits.maxNameChars) this.fail('xml/name-too-long');
    this.attributes = [];
    if (this.rootName === null) return;
    const depth = this.stack.length + 1;
    if (depth + 1 > this.limits.maxDepth) this.fail('xml/too-deep');
    if (depth === 1) {
      this.messageStart = this.tokenStart;
      this.messageElements = 0;
    }
    if (++this.messageElements > this.limits.maxElements) this.fail('xml/too-many-elements');
  }

  private attribute(name: string, value: string): void {
    if (name.length > this.limits.maxNameChars) this.fail('xml/name-too-long');
    if (this.attributes.some(([existing]) => existing === name)) this.fail('xml/duplicate-attribute');
    if (this.attributes.length >= this.limits.maxAttributes) this.fail('xml/too-many-attributes');
    this.attributes.push([name, value]);
  }

  private openTag(name: string): void {
    this.tokenEnds(this.parser.position);
    const attributes = this.attributes;
    if (this.rootName === null) {
      this.rootName = name;
      this.events.push({ kind: 'root-open', name, attributes });
      return;
    }
    this.events.push({ kind: 'open', depth: this.stack.length + 1, name, attributes });
    this.stack.push({ name, attributes, children: [], text: '' });
  }

  /** saxes reports a self-closing tag's close right after its open. */
  private closeTag(): void {
    const end = this.parser.position;
    this.tokenEnds(end);
    this.pendingClose = end;
  }

  private characters(text: string, end: number, cdata = false): void {
    this.tokenEnds(end);
    const top = this.stack[this.stack.length - 1];
    if (top) top.text += text;
    else if (cdata || !isBlank(text)) this.fail('xml/text-outside-element');
  }

  /** Applies the close tag saxes reported last, now that no mismatch followed it. */
  private settle(): void {
    const end = this.pendingClose;
    if (end === null) return;
    this.pendingClose = null;
    const building = this.stack.pop();
    if (!building) {
      this.events.push({ kind: 'root-close' });
      this.done = true;
      throw STOP;
    }
    // Indentation between child elements is not content.
    const text = building.children.length > 0 && isBlank(building.text) ? '' : building.text;
    const element: XmlElement = { name: building.name, attributes: building.attributes, children: building.children, text };
    const parent = this.stack[this.stack.length - 1];
    if (parent) {
      parent.children.push(element);
      return;
    }
    if (this.messageStart !== null && end - this.messageStart > this.limits.maxMessageChars) this.fail('xml/message-too-large');
    this.messageStart = null;
    this.events.push({ kind: 'message', element, end });
  }
}
