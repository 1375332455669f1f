/**
 * A small, safe Markdown to HTML renderer for game descriptions: headings (ATX and setext),
 * paragraphs, bullet and numbered lists (nested), block quotes, fenced and indented code, tables,
 * horizontal rules, inline code, emphasis, links and autolinks.
 *
 * Safety: every character of the source reaches the output through `escapeHtml` (raw HTML is
 * shown as text), the only tags are the ones written here, and a link keeps its target only
 * when it is http, https, mailto or relative. Work is bounded: the input is cut at `maxChars`
 * and nesting (lists, quotes, emphasis) stops at a fixed depth.
 */
export interface MarkdownOptions {
  /** Added to heading levels (a description's `#` becomes `<h2>` with 1); capped at 6. */
  readonly headingOffset?: number;
  /** Longer input is cut, so a huge description cannot stall the page. */
  readonly maxChars?: number;
}

const MAX_BLOCK_DEPTH = 8;
const MAX_INLINE_DEPTH = 12;
const DEFAULT_MAX_CHARS = 200_000;
/** Longest link label or target looked for; an unclosed `[` costs at most this much. */
const MAX_LINK_CHARS = 1000;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** The link target if it is safe to follow, else null. */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  // Browsers ignore control characters and spaces inside schemes ("java\tscript:"), so refuse them.
  if (trimmed === '' || /[\u0000-\u0020\u007f]/.test(trimmed)) return null;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(trimmed);
  if (scheme && !['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase())) return null;
  return trimmed;
}

export function renderMarkdown(source: string, options: MarkdownOptions = {}): string {
  const text = source.slice(0, options.maxChars ?? DEFAULT_MAX_CHARS).replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
  return new Renderer(options.headingOffset ?? 0).blocks(text.split('\n'), 0, false);
}

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])( +|$)(.*)$/;
const TABLE_RULE = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const BLANK = /^[ \t]*$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

class Renderer {
  constructor(private readonly headingOffset: number) {}

  private heading(level: number, html: string): string {
    const n = Math.min(6, Math.max(1, level + this.headingOffset));
    return `<h${n}>${html}</h${n}>`;
  }

  /** Renders lines as blocks; in a tight list item, paragraphs lose their `<p>`. */
  blocks(lines: readonly string[], depth: number, tight: boolean): string {
    const out: string[] = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      if (BLANK.test(line)) {
        i++;
        continue;
      }
      let m: RegExpExecArray | null;
      if ((m = FENCE.exec(line))) {
        const indent = m[1]!.length;
        const fence = m[2]!;
        const language = m[3]!;
        const body: string[] = [];
        i++;
        while (i < lines.length) {
          const l = lines[i]!;
          const trimmed = l.trim();
          if (indentOf(l) < 4 && trimmed.startsWith(fence) && /^[`~]+$/.test(trimmed) && trimmed[0] === fence[0]) {
            i++;
            break;
          }
          body.push(l.slice(Math.min(indent, indentOf(l))));
          i++;
        }
        const cls = language ? ` class="language-${escapeHtml(language)}"` : '';
        out.push(`<pre><code${cls}>${escapeHtml(body.join('\n'))}${body.length > 0 ? '\n' : ''}</code></pre>`);
        continue;
      }
      if ((m = HEADING.exec(line))) {
        out.push(this.heading(m[1]!.length, this.inline(m[2] ?? '', 0)));
        i++;
        continue;
      }
      if (RULE.test(line)) {
        out.push('<hr>');
        i++;
        continue;
      }
      if (QUOTE.test(line)) {
        const body: string[] = [];
        while (i < lines.length && !BLANK.test(lines[i]!)) {
          const q = QUOTE.exec(lines[i]!);
          body.push(q ? q[1]! : lines[i]!);
          i++;
        }
        const inner = depth < MAX_BLOCK_DEPTH ? this.blocks(body, depth + 1, false) : `<p>${this.inline(body.join('\n'), 0)}</p>`;
        out.push(`<blockquote>${inner}</blockquote>`);
        continue;
      }
      if (ITEM.test(line)) {
        i = this.list(lines, i, depth, out);
        continue;
      }
      if (indentOf(line) >= 4) {
        const body: string[] = [];
        while (i < lines.length && (indentOf(lines[i]!) >= 4 || BLANK.test(lines[i]!))) {
          body.push(lines[i]!.slice(4));
          i++;
        }
        while (body.length > 0 && BLANK.test(body[body.length - 1]!)) body.pop();
        out.push(`<pre><code>${escapeHtml(body.join('\n'))}\n</code></pre>`);
        continue;
      }
      if (line.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]!) && lines[i + 1]!.includes('|')) {
        i = this.table(lines, i, out);
        continue;
      }
      // A paragraph: until a blank line or the start of another block.
      const body: string[] = [line.trim()];
      i++;
      let setext = 0;
      while (i < lines.length) {
        const l = lines[i]!;
        if (BLANK.test(l)) break;
        const s = SETEXT.exec(l);
        if (s) {
          setext = s[1]![0] === '=' ? 1 : 2;
          i++;
          break;
        }
        if (FENCE.test(l) || HEADING.test(l) || RULE.test(l) || QUOTE.test(l)) break;
        const item = ITEM.exec(l);
        // As in CommonMark, only a bullet or a list starting at 1 interrupts a paragraph.
        if (item && item[4] !== '' && (/^[-*+]$/.test(item[2]!) || /^1[.)]$/.test(item[2]!))) break;
        body.push(l.trim());
        i++;
      }
      const html = this.inline(body.join('\n'), 0);
      if (setext) out.push(this.heading(setext, html));
      else out.push(tight ? html : `<p>${html}</p>`);
    }
    return out.join('\n');
  }

  /** A list starting at lines[start]; returns the index after it. */
  private list(lines: readonly string[], start: number, depth: number, out: string[]): number {
    const first = ITEM.exec(lines[start]!)!;
    const ordered = /\d/.test(first[2]!);
    const marker = ordered ? first[2]!.slice(-1) : first[2]!;
    const items: string[][] = [];
    let loose = false;
    let i = start;
    let pendingBlank = false;
    while (i < lines.length) {
      const m = ITEM.exec(lines[i]!);
      const sameKind = m !== null && (ordered ? /\d/.test(m[2]!) && m[2]!.endsWith(marker) : m[2] === marker);
      if (!sameKind) break;
      if (pendingBlank) loose = true;
      const spaces = m[3]!.length;
      const contentIndent = m[1]!.length + m[2]!.length + (spaces > 4 || spaces === 0 ? 1 : spaces);
      const body: string[] = [m[4]!];
      i++;
      pendingBlank = false;
      while (i < lines.length) {
        const l = lines[i]!;
        if (BLANK.test(l)) {
          pendingBlank = true;
          body.push('');
          i++;
          continue;
        }
        if (indentOf(l) >= contentIndent) {
          if (pendingBlank && body.some((b) => b !== '')) loose = loose || !ITEM.test(l.slice(contentIndent));
          body.push(l.slice(contentIndent));
          pendingBlank = false;
          i++;
          continue;
        }
        // A lazy continuation line of the item's paragraph.
        if (!pendingBlank && !ITEM.test(l) && !FENCE.test(l) && !HEADING.test(l) && !RULE.test(l) && !QUOTE.test(l)) {
          body.push(l.trim());
          i++;
          continue;
        }
        break;
      }
      while (body.length > 0 && body[body.length - 1] === '') body.pop();
      items.push(body);
      if (pendingBlank && i < lines.length && !ITEM.test(lines[i]!)) break;
    }
    const tag = ordered ? 'ol' : 'ul';
    const startNumber = ordered ? parseInt(first[2]!, 10) : 1;
    const open = ordered && startNumber !== 1 ? `<ol start="${startNumber}">` : `<${tag}>`;
    const rendered = items.map((body) => {
      const inner = depth < MAX_BLOCK_DEPTH ? this.blocks(body, depth + 1, !loose) : this.inline(body.join('\n'), 0);
      return `<li>${inner}</li>`;
    });
    out.push(`${open}\n${rendered.join('\n')}\n</${tag}>`);
    return i;
  }

  private table(lines: readonly string[], start: number, out: string[]): number {
    const header = splitRow(lines[start]!);
    const aligns = splitRow(lines[start + 1]!).map((cell) => {
      const left = cell.startsWith(':');
      const right = cell.endsWith(':');
      return left && right ? 'center' : right ? 'right' : left ? 'left' : '';
    });
    const cell = (tag: string, text: string, col: number): string => {
      // A class, not a style attribute: the page's Content-Security-Policy allows no inline styles.
      const align = aligns[col] ? ` class="align-${aligns[col]}"` : '';
      return `<${tag}${align}>${this.inline(text, 0)}</${tag}>`;
    };
    let i = start + 2;
    const rows: string[] = [];
    while (i < lines.length && !BLANK.test(lines[i]!) && lines[i]!.includes('|')) {
      const cells = splitRow(lines[i]!);
      rows.push(`<tr>${header.map((_, c) => cell('td', cells[c] ?? '', c)).join('')}</tr>`);
      i++;
    }
    const head = `<thead><tr>${header.map((text, c) => cell('th', text, c)).join('')}</tr></thead>`;
    out.push(`<table>${head}<tbody>${rows.join('')}</tbody></table>`);
    return i;
  }

  inline(text: string, depth: number): string {
    if (depth > MAX_INLINE_DEPTH) return escapeHtml(text);
    // A search for a closing run that failed from some position fails from any later one too:
    // remembering that keeps a line full of unmatched `*` or backticks linear, not quadratic.
    const failedFrom = new Map<string, number>();
    const search = (key: string, from: number, find: () => number): number => {
      if ((failedFrom.get(key) ?? Infinity) <= from) return -1;
      const found = find();
      if (found < 0) failedFrom.set(key, from);
      return found;
    };
    const lastBracket = text.lastIndexOf(']');
    let out = '';
    let i = 0;
    const n = text.length;
    while (i < n) {
      const c = text[i]!;
      if (c === '\\' && i + 1 < n) {
        const next = text[i + 1]!;
        if (next === '\n') {
          out += '<br>\n';
          i += 2;
          continue;
        }
        if (/[!-/:-@[-`{-~]/.test(next)) {
          out += escapeHtml(next);
          i += 2;
          continue;
        }
      }
      if (c === '`') {
        let k = 1;
        while (text[i + k] === '`') k++;
        const close = search(`\`${k}`, i + k, () => findRun(text, '`', k, i + k));
        if (close < 0) {
          out += '`'.repeat(k);
          i += k;
          continue;
        }
        let code = text.slice(i + k, close).replace(/\n/g, ' ');
        if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
        out += `<code>${escapeHtml(code)}</code>`;
        i = close + k;
        continue;
      }
      if (c === '[' && i < lastBracket) {
        const link = parseLink(text, i);
        if (link) {
          const label = this.inline(link.label, depth + 1);
          const href = safeUrl(link.url);
          out += href === null ? label : anchor(href, label);
          i = link.end;
          continue;
        }
      }
      if (c === '<') {
        const auto = /^<((?:https?|mailto):[^\s<>]+)>/i.exec(text.slice(i, i + 2048));
        if (auto) {
          const href = safeUrl(auto[1]!);
          if (href !== null) {
            out += anchor(href, escapeHtml(auto[1]!));
            i += auto[0].length;
            continue;
          }
        }
      }
      if (c === '*' || c === '_') {
        let k = 1;
        while (text[i + k] === c) k++;
        const run = Math.min(k, 3);
        const opens = i + k < n && !/\s/.test(text[i + k]!) && (c === '*' || i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1]!));
        const close = opens ? search(`${c}${run}`, i + k, () => findClosingEmphasis(text, c, run, i + k)) : -1;
        if (close >= 0) {
          const inner = this.inline(text.slice(i + run, close), depth + 1);
          const extra = c.repeat(k - run);
          const wrapped = run === 1 ? `<em>${inner}</em>` : run === 2 ? `<strong>${inner}</strong>` : `<strong><em>${inner}</em></strong>`;
          // With a run longer than 3, the extra markers stay literal before the emphasis.
          out += escapeHtml(extra) + wrapped;
          i = close + run;
          continue;
        }
        out += escapeHtml(c.repeat(k));
        i += k;
        continue;
      }
      out += HTML_ESCAPES[c] ?? c;
      i++;
    }
    return out;
  }
}

function anchor(href: string, label: string): string {
  const external = /^https?:/i.test(href) ? ' target="_blank" rel="noopener noreferrer"' : '';
  return `<a href="${escapeHtml(href)}"${external}>${label}</a>`;
}

/** Splits a table row on `|` that are not escaped or inside code. */
function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '|') {
      current += '|';
      i++;
    } else if (c === '`') {
      inCode = !inCode;
      current += c;
    } else if (c === '|' && !inCode) {
      cells.push(current.trim());
      current = '';
    } else current += c;
  }
  cells.push(current.trim());
  return cells;
}

/** Index of the next run of exactly `k` copies of `c` at or after `from`, or -1. */
function findRun(text: string, c: string, k: number, from: number): number {
  let i = text.indexOf(c, from);
  while (i >= 0) {
    let run = 1;
    while (text[i + run] === c) run++;
    if (run === k) return i;
    i = text.indexOf(c, i + run);
  }
  return -1;
}

/**
 * A closing emphasis run for an opening run of length `k`: not after a space, and for `_` not
 * before a letter. A run of exactly `k` is preferred, so that `*a **b** c*` nests as it should.
 */
function findClosingEmphasis(text: string, c: string, k: number, from: number): number {
  const exact = scanClosingEmphasis(text, c, k, from, true);
  return exact >= 0 ? exact : scanClosingEmphasis(text, c, k, from, false);
}

function scanClosingEmphasis(text: string, c: string, k: number, from: number, exact: boolean): number {
  let i = from;
  while (i < text.length) {
    if (text[i] === '`') {
      // Emphasis does not close inside a code span.
      let run = 1;
      while (text[i + run] === '`') run++;
      const close = findRun(text, '`', run, i + run);
      i = close < 0 ? i + run : close + run;
      continue;
    }
    if (text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text[i] === c) {
      let run = 1;
      while (text[i + run] === c) run++;
      const after = text[i + run];
      const closes =
        (exact ? run === k : run >= k) && !/\s/.test(text[i - 1] ?? ' ') && (c === '*' || after === undefined || !/[\p{L}\p{N}]/u.test(after));
      if (closes) return i;
      i += run;
      continue;
    }
    i++;
  }
  return -1;
}

/** `[label](url "title")` starting at `start`, with balanced brackets and parentheses. */
function parseLink(text: string, start: number): { label: string; url: string; end: number } | null {
  let depth = 0;
  let i = start;
  const labelEnd = Math.min(text.length, start + MAX_LINK_CHARS);
  for (; i < labelEnd; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) break;
  }
  if (i >= labelEnd || text[i + 1] !== '(') return null;
  const label = text.slice(start + 1, i);
  let parens = 0;
  let j = i + 2;
  const urlEnd = Math.min(text.length, j + MAX_LINK_CHARS);
  for (; j < urlEnd; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '(') parens++;
    else if (c === ')') {
      if (parens === 0) break;
      parens--;
    } else if (c === '\n') return null;
  }
  if (j >= urlEnd) return null;
  let url = text.slice(i + 2, j).trim();
  const titled = /^(\S+)\s+(".*"|'.*')$/.exec(url);
  if (titled) url = titled[1]!;
  if (url.startsWith('<') && url.endsWith('>')) url = url.slice(1, -1);
  return { label, url, end: j + 1 };
}
