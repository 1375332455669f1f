import { err, ok, type Result } from '../util/result.js';

/**
 * A bounded parser for the subset of Hjson that visualizer lines use: JSON plus unquoted object
 * keys (`{t:0,create:{id:1}}`), single-quoted strings, trailing commas, newlines as separators
 * and `#`, `//`, `/* *\/` comments.
 *
 * Why our own: there is no `hjson` package in the shared install, and the part of Hjson that a
 * one-line event can use is small. Left out on purpose: quoteless string *values* and `'''`
 * multi-line strings. In real Hjson a quoteless value runs to the end of the line, so on a one-line
 * event (`{log:{line:hi}}`) it would swallow the closing braces and fail there too; refusing it with
 * a clear error is both safer and equivalent. Objects are built without a prototype, so keys like
 * `__proto__` are plain data.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export const HJSON_ERROR_CODES = [
  'hjson/unexpected-end',
  'hjson/unexpected-char',
  'hjson/bad-string',
  'hjson/bad-number',
  'hjson/quoteless-value',
  'hjson/duplicate-key',
  'hjson/too-deep',
  'hjson/too-long',
  'hjson/trailing-text',
] as const;
export type HjsonErrorCode = (typeof HJSON_ERROR_CODES)[number];

export interface HjsonError {
  readonly code: HjsonErrorCode;
  /** Character offset where the problem was found. */
  readonly at: number;
  readonly message: string;
}

export interface HjsonLimits {
  /** Input longer than this many characters is refused before parsing. */
  readonly maxChars: number;
  /** Objects and arrays nested deeper than this are refused (the stack stays small). */
  readonly maxDepth: number;
}

export const DEFAULT_HJSON_LIMITS: HjsonLimits = { maxChars: 1 << 20, maxDepth: 32 };

class HjsonFailure extends Error {
  constructor(readonly detail: HjsonError) {
    super(detail.message);
  }
}

/** Characters that end an unquoted key (Hjson: no braces, brackets, comma, colon or space). */
const KEY_STOP = /[\s,:[\]{}"']/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

export function parseHjson(text: string, limits: HjsonLimits = DEFAULT_HJSON_LIMITS): Result<JsonValue, HjsonError> {
  if (text.length > limits.maxChars) {
    return err({ code: 'hjson/too-long', at: limits.maxChars, message: `input longer than ${limits.maxChars} characters` });
  }
  const parser = new Parser(text, limits.maxDepth);
  try {
    return ok(parser.document());
  } catch (e) {
    if (e instanceof HjsonFailure) return err(e.detail);
    throw e;
  }
}

class Parser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  document(): JsonValue {
    this.skipSpace();
    const value = this.value(0);
    this.skipSpace();
    if (this.pos < this.text.length) this.fail('hjson/trailing-text', 'unexpected text after the value');
    return value;
  }

  private fail(code: HjsonErrorCode, message: string, at = this.pos): never {
    throw new HjsonFailure({ code, at, message: `${message} at character ${at}` });
  }

  /** Skips blanks and comments; reports whether a newline was crossed (a member separator in Hjson). */
  private skipSpace(): boolean {
    let newline = false;
    const text = this.text;
    while (this.pos < text.length) {
      const c = text[this.pos]!;
      if (c === '\n') {
        newline = true;
        this.pos++;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
      } else if (c === '#' || (c === '/' && text[this.pos + 1] === '/')) {
        while (this.pos < text.length && text[this.pos] !== '\n') this.pos++;
      } else if (c === '/' && text[this.pos + 1] === '*') {
        const end = text.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('hjson/unexpected-end', 'unterminated comment');
        if (text.slice(this.pos, end).includes('\n')) newline = true;
        this.pos = end + 2;
      } else break;
    }
    return newline;
  }

  private value(depth: number): JsonValue {
    const c = this.text[this.pos];
    if (c === undefined) this.fail('hjson/unexpected-end', 'unexpected end of input');
    if (c === '{') return this.object(depth + 1);
    if (c === '[') return this.array(depth + 1);
    if (c === '"' || c === "'") return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of KEYWORDS) {
      if (this.text.startsWith(word, this.pos) && !this.isWordChar(this.pos + word.length)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.fail('hjson/quoteless-value', 'quoteless strings are not accepted; quote the value');
  }

  private isWordChar(at: number): boolean {
    const c = this.text[at];
    return c !== undefined && !KEY_STOP.test(c) && c !== '#' && c !== '/';
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) this.fail('hjson/too-deep', `nesting deeper than ${this.maxDepth}`);
  }

  private object(depth: number): JsonObject {
    this.enter(depth);
    this.pos++; // '{'
    const result: JsonObject = Object.create(null) as JsonObject;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return result;
      }
      const keyAt = this.pos;
      const key = this.key();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.expected("':'");
      this.pos++;
      this.skipSpace();
      if (Object.prototype.hasOwnProperty.call(result, key)) {
        this.fail('hjson/duplicate-key', `duplicate key ${JSON.stringify(key)}`, keyAt);
      }
      result[key] = this.value(depth);
      this.separator('}');
    }
  }

  private array(depth: number): JsonValue[] {
    this.enter(depth);
    this.pos++; // '['
    const result: JsonValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return result;
      }
      result.push(this.value(depth));
      this.separator(']');
    }
  }

  /** After a member: a comma, a newline, or the closing bracket. */
  private separator(close: '}' | ']'): void {
    const newline = this.skipSpace();
    const c = this.text[this.pos];
    if (c === ',') this.pos++;
    else if (c !== close && !newline) this.expected(`',' or '${close}'`);
  }

  private expected(what: string): never {
    if (this.pos >= this.text.length) this.fail('hjson/unexpected-end', `expected ${what} but the input ended`);
    return this.fail('hjson/unexpected-char', `expected ${what}, found ${JSON.stringify(this.text[this.pos])}`);
  }

  private key(): string {
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string();
    const start = this.pos;
    while (this.pos < this.text.length && !KEY_STOP.test(this.text[this.pos]!)) this.pos++;
    if (this.pos === start) this.expected('a key');
    return this.text.slice(start, this.pos);
  }

  private string(): string {
    const quote = this.text[this.pos]!;
    const start = this.pos;
    this.pos++;
    let out = '';
    let runStart = this.pos;
    const text = this.text;
    for (;;) {
      if (this.pos >= text.length) this.fail('hjson/unexpected-end', 'unterminated string', start);
      const c = text[this.pos]!;
      if (c === quote) {
        out += text.slice(runStart, this.pos);
        this.pos++;
        return out;
      }
      if (c < ' ') this.fail('hjson/bad-string', 'control character in string');
      if (c === '\\') {
        out += text.slice(runStart, this.pos);
        out += this.escape();
        runStart = this.pos;
      } else this.pos++;
    }
  }

  private escape(): string {
    const c = this.text[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case '"':
      case "'":
      case '\\':
      case '/':
        return c;
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('hjson/bad-string', 'bad \\u escape');
        this.pos += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail('hjson/bad-string', 'bad escape in string', this.pos - 2);
    }
  }

  private number(): number {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match || match[0] === '-') this.fail('hjson/bad-number', 'bad number');
    const end = this.pos + match[0].length;
    if (this.isWordChar(end)) {
      // `1abc` is a quoteless string in Hjson, which we do not accept.
      this.fail('hjson/bad-number', 'bad number');
    }
    this.pos = end;
    const value = Number(match[0]);
    if (!Number.isFinite(value)) this.fail('hjson/bad-number', 'number out of range');
    return value;
  }
}

const KEYWORDS: readonly (readonly [string, JsonValue])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
