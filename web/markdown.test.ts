import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { escapeHtml, renderMarkdown, safeUrl } from './markdown.js';

const md = (text: string): string => renderMarkdown(text);

test('headings, paragraphs and rules', () => {
  assert.equal(md('# Title\n\nSome text\non two lines.\n\n---\n\n### Sub ###'), '<h1>Title</h1>\n<p>Some text\non two lines.</p>\n<hr>\n<h3>Sub</h3>');
  assert.equal(renderMarkdown('# A\n## B\n###### F', { headingOffset: 1 }), '<h2>A</h2>\n<h3>B</h3>\n<h6>F</h6>');
  assert.equal(md('Title\n====='), '<h1>Title</h1>');
  assert.equal(md('#hashtag'), '<p>#hashtag</p>');
});

test('bullet and numbered lists, tight, loose and nested', () => {
  assert.equal(md('- a\n- b `c`'), '<ul>\n<li>a</li>\n<li>b <code>c</code></li>\n</ul>');
  assert.equal(md('1. one\n2. two'), '<ol>\n<li>one</li>\n<li>two</li>\n</ol>');
  assert.equal(md('3) three\n4) four'), '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>');
  assert.equal(md('- a\n\n- b'), '<ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>');
  assert.equal(md('- a\n  - b\n  - c\n- d'), '<ul>\n<li>a\n<ul>\n<li>b</li>\n<li>c</li>\n</ul></li>\n<li>d</li>\n</ul>');
  assert.equal(md('- a long item\ncontinued lazily'), '<ul>\n<li>a long item\ncontinued lazily</li>\n</ul>');
  assert.equal(md('Text\n- item'), '<p>Text</p>\n<ul>\n<li>item</li>\n</ul>');
  assert.equal(md('- `rounds`: the number;\n- `pace`: the time.'), '<ul>\n<li><code>rounds</code>: the number;</li>\n<li><code>pace</code>: the time.</li>\n</ul>');
});

test('code blocks keep their text verbatim and escaped', () => {
  assert.equal(md('```\nPlayer0\n<b>x</b>\n```'), '<pre><code>Player0\n&lt;b&gt;x&lt;/b&gt;\n</code></pre>');
  assert.equal(md('```python\nprint("hi")\n```'), '<pre><code class="language-python">print(&quot;hi&quot;)\n</code></pre>');
  assert.equal(md('para\n\n    indented\n    code\n\nafter'), '<p>para</p>\n<pre><code>indented\ncode\n</code></pre>\n<p>after</p>');
  assert.equal(md('~~~\n```\n~~~'), '<pre><code>```\n</code></pre>');
});

test('inline code, emphasis and escapes', () => {
  assert.equal(md('`a*b*` and *em* and **strong** and ***both***'), '<p><code>a*b*</code> and <em>em</em> and <strong>strong</strong> and <strong><em>both</em></strong></p>');
  assert.equal(md('_em_ but snake_case_name stays'), '<p><em>em</em> but snake_case_name stays</p>');
  assert.equal(md('*a **b** c*'), '<p><em>a <strong>b</strong> c</em></p>');
  assert.equal(md('2 * 3 * 4'), '<p>2 * 3 * 4</p>');
  assert.equal(md('\\*not em\\*'), '<p>*not em*</p>');
  assert.equal(md('``code with ` inside``'), '<p><code>code with ` inside</code></p>');
});

test('links keep safe targets only', () => {
  assert.equal(md('[docs](https://example.org/a?b=1&c=2)'), '<p><a href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>');
  assert.equal(md('[home](#/games)'), '<p><a href="#/games">home</a></p>');
  assert.equal(md('[x](javascript:alert(1))'), '<p>x</p>');
  assert.equal(md('[x](JaVaScRiPt:alert(1))'), '<p>x</p>');
  assert.equal(md('[x](data:text/html,hi)'), '<p>x</p>');
  assert.equal(md('[x]("onmouseover=alert(1))'), '<p><a href="&quot;onmouseover=alert(1)">x</a></p>');
  assert.equal(md('<https://example.org>'), '<p><a href="https://example.org" target="_blank" rel="noopener noreferrer">https://example.org</a></p>');
  assert.equal(md('[a *b*](/x "title")'), '<p><a href="/x"><em>b</em></a></p>'.replace('<em>b</em>', 'a <em>b</em>'));
  assert.equal(safeUrl('java\tscript:x'), null);
  assert.equal(safeUrl('mailto:a@b.c'), 'mailto:a@b.c');
});

test('raw HTML is shown as text everywhere', () => {
  const evil = '<script>alert(1)</script> <img src=x onerror=alert(1)>';
  for (const text of [evil, `# ${evil}`, `- ${evil}`, `> ${evil}`, `| ${evil} |\n|---|\n| ${evil} |`, `*${evil}*`]) {
    const html = md(text);
    assert.ok(!html.includes('<script') && !html.includes('<img'), html);
  }
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});

test('tables and block quotes', () => {
  assert.equal(
    md('| name | default |\n|:-----|--------:|\n| `rounds` | 10 |\n| pace | 1 \\| 2 |'),
    '<table><thead><tr><th class="align-left">name</th><th class="align-right">default</th></tr></thead>' +
      '<tbody><tr><td class="align-left"><code>rounds</code></td><td class="align-right">10</td></tr>' +
      '<tr><td class="align-left">pace</td><td class="align-right">1 | 2</td></tr></tbody></table>',
  );
  assert.equal(md('> quoted\n> **text**'), '<blockquote><p>quoted\n<strong>text</strong></p></blockquote>');
});

test('nesting and size are bounded', () => {
  const deep = '> '.repeat(50) + 'x';
  assert.ok(md(deep).includes('x'));
  const stars = '*'.repeat(5000) + 'a';
  assert.ok(md(stars).length > 0);
  assert.equal(renderMarkdown('abcdef', { maxChars: 3 }), '<p>abc</p>');
});

test('the roshambo description renders with its lists and code blocks', () => {
  const text = readFileSync(new URL('../../src/games/roshambo/description.md', import.meta.url), 'utf8');
  const html = renderMarkdown(text, { headingOffset: 1 });
  assert.match(html, /^<h2>roshambo \(Rock Paper Scissors\)<\/h2>/);
  assert.match(html, /<h3>Implementation details<\/h3>/);
  assert.match(html, /<li>paper wins over rock<\/li>/);
  assert.match(html, /<pre><code>Player0\nPlayer1\n42\n<\/code><\/pre>/);
  assert.match(html, /<li><code>rounds<\/code>: the number of rounds/);
});

test('unmatched markers cost linear time, not quadratic', () => {
  const started = Date.now();
  for (const unit of ['*a ', '_a ', '`a ', '[a ', '**a ']) renderMarkdown(unit.repeat(20000), { maxChars: 200000 });
  assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
});
