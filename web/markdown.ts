import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';

/**
 * Game descriptions (Markdown, CommonMark with GitHub's tables) to HTML, by markdown-it: a
 * maintained, spec-tested parser instead of a hand-written one. Pure, so it is tested under Node;
 * the page still passes the HTML through DOMPurify (safe-html.ts) before it reaches the document.
 *
 * What is changed from markdown-it's defaults, and why:
 * - raw HTML in the source is shown as text (`html: false`): a description has no need for it;
 * - images are off: the page's Content-Security-Policy allows no image from elsewhere;
 * - links keep http, https, mailto and relative targets only; one that leaves the page opens in
 *   a new tab;
 * - table alignment is a class (`align-right`), not a style attribute, which the policy forbids;
 * - headings move down by `headingOffset`, so a description's `#` fits under the page's own h1.
 */
export interface MarkdownOptions {
  /** Added to heading levels (a description's `#` becomes `<h2>` with 1); capped at 6. */
  readonly headingOffset?: number;
  /** Longer input is cut, so a huge description cannot stall the page. */
  readonly maxChars?: number;
}

const DEFAULT_MAX_CHARS = 200_000;
/** Deeper nesting (quotes in lists in quotes...) is left unparsed: the parser's work stays bounded. */
const MAX_NESTING = 20;

/** What one render call passes to the rules (markdown-it's `env`). */
type RenderEnv = { headingOffset: number };

/** Whether a link target is safe to follow: http, https, mailto, or relative (no scheme). */
export function isSafeUrl(url: string): boolean {
  const trimmed = url.trim();
  // Browsers ignore control characters and spaces inside schemes ("java\tscript:"), so refuse them.
  if (trimmed === '' || /[\u0000-\u0020\u007f]/.test(trimmed)) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(trimmed);
  return scheme === null || ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}

function makeRenderer(): MarkdownIt {
  const md = markdownIt('default', { html: false, linkify: false, typographer: false, maxNesting: MAX_NESTING });
  md.disable('image');
  md.validateLink = isSafeUrl;
  md.core.ruler.push('colosseum_headings_and_tables', (state) => {
    const offset = (state.env as Partial<RenderEnv>).headingOffset ?? 0;
    for (const token of state.tokens) {
      if ((token.type === 'heading_open' || token.type === 'heading_close') && offset !== 0) {
        token.tag = `h${Math.min(6, Math.max(1, Number(token.tag.slice(1)) + offset))}`;
      }
      if (token.type === 'th_open' || token.type === 'td_open') alignAsClass(token);
    }
  });
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    const token = tokens[i]!;
    if (/^(https?:|mailto:)/i.test(String(token.attrGet('href') ?? ''))) {
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer');
    }
    return defaultLinkOpen(tokens, i, options, env, self);
  };
  return md;
}

/** markdown-it writes a column's alignment as `style="text-align:right"`; the page uses classes. */
function alignAsClass(token: Token): void {
  const align = /^text-align:(left|center|right)$/.exec(String(token.attrGet('style') ?? ''));
  if (!token.attrs) return;
  token.attrs = token.attrs.filter(([name]) => name !== 'style');
  if (align) token.attrJoin('class', `align-${align[1]}`);
}

const renderer = makeRenderer();

export function renderMarkdown(source: string, options: MarkdownOptions = {}): string {
  const env: RenderEnv = { headingOffset: options.headingOffset ?? 0 };
  return renderer.render(source.slice(0, options.maxChars ?? DEFAULT_MAX_CHARS), env);
}

/** The longest summary line; a longer first sentence is cut at a word. */
const SUMMARY_MAX_CHARS = 200;

/** An inline token's text without its markup (`code` and *stress* lose their marks). */
function plainText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'softbreak' || child.type === 'hardbreak' ? ' ' : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A description's own title (its first line, when that is a level-1 heading) as plain text, and
 * the rest of the source: a game's page shows the title as its heading.
 */
export function splitTitle(source: string): { readonly title: string | null; readonly rest: string } {
  const text = source.slice(0, DEFAULT_MAX_CHARS);
  const tokens = renderer.parse(text, { headingOffset: 0 });
  const first = tokens[0];
  if (first?.type !== 'heading_open' || first.tag !== 'h1' || !first.map) return { title: null, rest: source };
  return { title: plainText(tokens[1]), rest: text.split('\n').slice(first.map[1]).join('\n') };
}

/**
 * A description's one-line summary, for the list of games: the first sentence of its first
 * paragraph, as plain text. Empty when the description has no paragraph.
 */
export function summaryLine(source: string): string {
  const tokens = renderer.parse(source.slice(0, DEFAULT_MAX_CHARS), { headingOffset: 0 });
  const at = tokens.findIndex((token) => token.type === 'paragraph_open');
  if (at < 0) return '';
  const text = plainText(tokens[at + 1]);
  const sentence = /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  if (sentence.length <= SUMMARY_MAX_CHARS) return sentence;
  const cut = sentence.slice(0, SUMMARY_MAX_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1)).replace(/[,;:]$/, '')}…`;
}
