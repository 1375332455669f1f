import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { isSafeUrl, renderMarkdown, splitTitle, summaryLine } from './markdown.js';

// markdown-it's own test suite covers CommonMark; these tests cover what the page changes and
// relies on. The sanitizer (DOMPurify) needs a DOM: test/browser/web-page.test.ts checks it.

/** The game descriptions, from the sources (this file runs from dist/web-test/web/). */
const GAMES = new URL('../../../src/games/', import.meta.url);
const description = (game: string): string => readFileSync(new URL(`${game}/description.md`, GAMES), 'utf8');

test('headings move down by the offset, capped at h6', () => {
  assert.equal(renderMarkdown('# A\n## B\n###### F', { headingOffset: 1 }), '<h2>A</h2>\n<h3>B</h3>\n<h6>F</h6>\n');
  assert.equal(renderMarkdown('# Title'), '<h1>Title</h1>\n');
});

test('raw HTML in a description is shown as text, in blocks and inline', () => {
  const evil = '<script>alert(1)</script> <img src=x onerror=alert(1)>';
  for (const text of [evil, `# ${evil}`, `- ${evil}`, `> ${evil}`, `| ${evil} |\n|---|\n| ${evil} |`, `*${evil}*`, `<div onclick="x()">\n\nhi\n\n</div>`]) {
    const html = renderMarkdown(text);
    assert.doesNotMatch(html, /<(script|img|div)/, html);
  }
  assert.match(renderMarkdown(evil), /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

test('links keep http, https, mailto and relative targets; links that leave the page open in a new tab', () => {
  assert.equal(renderMarkdown('[docs](https://example.org/a?b=1&c=2)'), '<p><a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>\n');
  assert.equal(renderMarkdown('[home](#/games)'), '<p><a href="#/games">home</a></p>\n');
  for (const target of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,hi', 'vbscript:x', 'file:///etc/passwd']) {
    assert.doesNotMatch(renderMarkdown(`[x](${target})`), /<a /, target);
  }
  assert.doesNotMatch(renderMarkdown('<javascript:alert(1)>'), /<a /);
  assert.match(renderMarkdown('<https://example.org>'), /<a href="https:\/\/example.org" target="_blank" rel="noopener noreferrer">/);
  assert.equal(isSafeUrl('java\tscript:x'), false);
  assert.equal(isSafeUrl('mailto:a@b.c'), true);
  assert.equal(isSafeUrl('../docs/protocol.md'), true);
});

test('images are not rendered: the page may not load pictures from elsewhere', () => {
  assert.doesNotMatch(renderMarkdown('![logo](https://example.org/x.png)'), /<img/);
});

test('table columns are aligned by class, never by a style attribute', () => {
  const html = renderMarkdown('| name | default | mid |\n|:-----|--------:|:--:|\n| `rounds` | 10 | x |\n| pace | 1 \\| 2 | y |');
  assert.doesNotMatch(html, /style=/);
  assert.match(html, /<th class="align-left">name<\/th>/);
  assert.match(html, /<td class="align-right">1 \| 2<\/td>/);
  assert.match(html, /<td class="align-center">x<\/td>/);
  assert.match(html, /<td class="align-left"><code>rounds<\/code><\/td>/);
});

test('code blocks keep their text verbatim and escaped, with the fence language as a class', () => {
  assert.equal(renderMarkdown('```\nPlayer0\n<b>x</b>\n```'), '<pre><code>Player0\n&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n');
  assert.equal(renderMarkdown('```python\nprint("hi")\n```'), '<pre><code class="language-python">print(&quot;hi&quot;)\n</code></pre>\n');
});

test('size and nesting are bounded', () => {
  assert.equal(renderMarkdown('abcdef', { maxChars: 3 }), '<p>abc</p>\n');
  assert.ok(renderMarkdown('> '.repeat(500) + 'x').length > 0);
  assert.ok(renderMarkdown('*'.repeat(50_000) + 'a').length > 0);
});

test('every game description renders; the ones with tables keep them, with no style attribute', () => {
  for (const game of readdirSync(GAMES)) {
    let text: string;
    try {
      text = description(game);
    } catch {
      continue;
    }
    const html = renderMarkdown(text, { headingOffset: 1 });
    assert.match(html, /^<h2>/, game);
    assert.doesNotMatch(html, /style=|<script|<img/, game);
    if (/^\|.*\|\s*$/m.test(text)) assert.match(html, /<table>/, game);
  }
  const roshambo = renderMarkdown(description('roshambo'), { headingOffset: 1 });
  assert.match(roshambo, /^<h2>roshambo \(Rock Paper Scissors\)<\/h2>/);
  assert.match(roshambo, /<h3>Implementation details<\/h3>/);
  assert.match(roshambo, /<li>paper wins over rock<\/li>/);
  assert.match(roshambo, /<pre><code>Player0\nPlayer1\n42\n<\/code><\/pre>/);
});

test("a description's summary is the first sentence of its first paragraph, as plain text", () => {
  assert.equal(summaryLine('# x\n\nIt has `code` and *stress*.\nA second sentence.'), 'It has code and stress.');
  assert.equal(summaryLine('# only a heading'), '');
  assert.equal(summaryLine('No full stop here'), 'No full stop here');
  const long = summaryLine(`${'word '.repeat(100)}end.`);
  assert.ok(long.length <= 201 && long.endsWith('word…'), long);
  assert.equal(summaryLine(description('roshambo')), 'Rock Paper Scissors (also called roshambo) is one of the most basic hand games.');
});

test("a description's first-line title is split off as plain text, for the game page's heading", () => {
  assert.deepEqual(splitTitle('# roshambo (`Rock` Paper *Scissors*)\n\nText.\n'), { title: 'roshambo (Rock Paper Scissors)', rest: '\nText.\n' });
  assert.deepEqual(splitTitle('Title\n=====\nText.'), { title: 'Title', rest: 'Text.' });
  assert.deepEqual(splitTitle('Text first.\n\n# Later'), { title: null, rest: 'Text first.\n\n# Later' });
  assert.deepEqual(splitTitle('## Not level one'), { title: null, rest: '## Not level one' });
});
