import { err, ok, type Result } from '../../util/result.js';

/**
 * A minimal, bounded parser for the Hjson that `vis` lines use: JSON plus unquoted object keys
 * (`{t:0,create:{id:1}}`), single-quoted strings and trailing commas, on one line.
 *
 * Why it is here: src/protocol/ has no Hjson parser yet (one is being written in parallel); this
 * one stays private to external games and is used only through `parseVisPayload` in vis-line.ts,
 * so swapping it for the shared parser is a one-function change. Left out: quoteless string
 * values, comments and multi-line strings (a one-line event cannot use them without ambiguity).
 * Objects are built without a prototype, so a key like `__proto__` is plain data.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Nesting deeper than this is refused: a vis event needs about 6 levels. */
export const HJSON_MAX_DEPTH = 32;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const KEY = /[^\s,:[\]{}"']+/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  parseAll(): JsonValue {
    const value = this.value(0);
    this.space();
    if (this.at < this.text.length) this.fail('unexpected text after the value');
    return value;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at character ${this.at + 1}`);
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private value(depth: number): JsonValue {
    if (depth > HJSON_MAX_DEPTH) this.fail(`nesting deeper than ${HJSON_MAX_DEPTH}`);
    this.space();
    const c = this.text[this.at];
    if (c === undefined) this.fail('unexpected end');
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"' || c === "'") return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    return this.fail(`unexpected "${c}" (quoteless strings are not supported)`);
  }

  private object(depth: number): JsonValue {
    const out: { [key: string]: JsonValue } = Object.create(null) as { [key: string]: JsonValue };
    this.at++;
    for (;;) {
      this.space();
      if (this.text[this.at] === '}') {
        this.at++;
        return out;
      }
      const key = this.key();
      if (Object.hasOwn(out, key)) this.fail(`duplicate key "${key}"`);
      this.space();
      if (this.text[this.at] !== ':') this.fail('expected ":"');
      this.at++;
      out[key] = this.value(depth + 1);
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== '}') this.fail('expected "," or "}"');
    }
  }

  private array(depth: number): JsonValue {
    const out: JsonValue[] = [];
    this.at++;
    for (;;) {
      this.space();
      if (this.text[this.at] === ']') {
        this.at++;
        return out;
      }
      out.push(this.value(depth + 1));
      this.space();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== ']') this.fail('expected "," or "]"');
    }
  }

  private key(): string {
    const c = this.text[this.at];
    if (c === '"' || c === "'") return this.string();
    KEY.lastIndex = this.at;
    const match = KEY.exec(this.text);
    if (!match) this.fail('expected a key');
    this.at += match[0].length;
    return match[0];
  }

  private string(): string {
    const quote = this.text[this.at++];
    let out = '';
    for (;;) {
      const c = this.text[this.at++];
      if (c === undefined) this.fail('unterminated string');
      if (c === quote) return out;
      if (c === '\\') {
        const e = this.text[this.at++];
        if (e === 'u') {
          const hex = this.text.slice(this.at, this.at + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          this.at += 4;
        } else if (e !== undefined && ESCAPES[e] !== undefined) out += ESCAPES[e];
        else this.fail('bad escape');
      } else out += c;
    }
  }
}

/** Parses one Hjson (or JSON) value; the error says what and where. */
export function parseHjsonMini(text: string): Result<JsonValue> {
  try {
    return ok(new Parser(text).parseAll());
  } catch (error) {
    if (error instanceof SyntaxError) return err(error.message);
    throw error;
  }
}
