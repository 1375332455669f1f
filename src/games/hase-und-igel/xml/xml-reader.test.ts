import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAYER_XML_LIMITS, XmlStreamReader, type XmlEvent, type XmlLimits } from './xml-reader.js';
import { attr, type XmlElement } from './xml-element.js';

function feed(chunks: readonly string[], limits: XmlLimits = PLAYER_XML_LIMITS, end = false): XmlEvent[] {
  const reader = new XmlStreamReader(limits);
  const events = chunks.flatMap((chunk) => reader.push(chunk));
  if (end) events.push(...reader.end());
  return events;
}

const messages = (events: readonly XmlEvent[]): XmlElement[] =>
  events.flatMap((e) => (e.kind === 'message' ? [e.element] : []));
const errors = (events: readonly XmlEvent[]): string[] => events.flatMap((e) => (e.kind === 'error' ? [e.code] : []));

const MOVE_STREAM =
  '<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>\n  <room roomId="r1">\n    <data class="move">\n' +
  '      <advance order="0" distance="1"/>\n      <card order="1" type="EAT_SALAD" value="0"/>\n' +
  '      <hint content="a &amp; b &lt;c&gt; &#228;&#x20AC;"/>\n    </data>\n  </room>';

test('a continuous stream yields each child of the root as one message, with attributes in order', () => {
  const events = feed([MOVE_STREAM]);
  assert.deepEqual(events[0], { kind: 'root-open', name: 'protocol', attributes: [] });
  const [join, room] = messages(events);
  assert.equal(join!.name, 'join');
  assert.deepEqual(join!.attributes, [['gameType', 'swc_2018_hase_und_igel']]);
  const data = room!.children[0]!;
  assert.deepEqual(data.children.map((c) => c.name), ['advance', 'card', 'hint']);
  assert.deepEqual(data.children[1]!.attributes, [['order', '1'], ['type', 'EAT_SALAD'], ['value', '0']]);
  assert.equal(attr(data.children[2]!, 'content'), 'a & b <c> ä€');
});

test('the same stream cut into single characters gives the same messages', () => {
  const whole = messages(feed([MOVE_STREAM]));
  const bytewise = messages(feed([...MOVE_STREAM]));
  assert.deepEqual(bytewise, whole);
});

test('line breaks inside tags and attribute values are content, normalised to spaces in attributes', () => {
  const events = feed(['<protocol><room\n roomId="a\nb"\n>\n<data\nclass="move"/></room>']);
  const [room] = messages(events);
  assert.equal(attr(room!, 'roomId'), 'a b');
  assert.equal(attr(room!.children[0]!, 'class'), 'move');
  assert.equal(attr(messages(feed(['<p><x v="a&#10;b"/>']))[0]!, 'v'), 'a\nb');
});

test('start tags are reported before their message is complete', () => {
  const events = feed(['<protocol>\n  <room roomId="r">\n    <data class="sc.framework.plugins.protocol.MoveRequest"/>\n']);
  assert.deepEqual(
    events.filter((e) => e.kind === 'open').map((e) => (e.kind === 'open' ? [e.depth, e.name] : null)),
    [[1, 'room'], [2, 'data']],
  );
  assert.equal(messages(events).length, 0);
});

test('comments, processing instructions and CDATA are understood', () => {
  const events = feed(['<?xml version="1.0"?><!-- hi --><protocol><!-- x --><a><![CDATA[<b>&]]>t</a>']);
  assert.equal(messages(events)[0]!.text, '<b>&t');
});

test('closing the root ends the stream', () => {
  const events = feed(['<protocol><a/></protocol><b/>']);
  assert.deepEqual(events.map((e) => e.kind), ['root-open', 'open', 'message', 'root-close']);
});

test('a DOCTYPE is refused, even split across chunks (no entity definitions, no external entities)', () => {
  assert.deepEqual(errors(feed(['<!DOCTYPE lolz [<!ENTITY lol "lol">]><protocol>'])), ['xml/doctype-forbidden']);
  assert.deepEqual(errors(feed(['<!DOC', 'TYPE x SYSTEM "file:///etc/passwd">'])), ['xml/doctype-forbidden']);
  assert.deepEqual(errors(feed(['<protocol><!DOCTYPE x>'])), ['xml/doctype-forbidden']);
});

test('entities other than the five predefined ones are refused', () => {
  assert.deepEqual(errors(feed(['<protocol><a v="&lol9;"/>'])), ['xml/unknown-entity']);
  assert.deepEqual(errors(feed(['<protocol><a>&xxe;</a>'])), ['xml/unknown-entity']);
  assert.deepEqual(errors(feed(['<protocol><a v="&#0;"/>'])), ['xml/bad-character-reference']);
  assert.deepEqual(errors(feed(['<protocol><a v="& b"/>'])), ['xml/malformed']);
});

test('a huge attribute is refused when the token limit is passed, before the tag is complete', () => {
  const reader = new XmlStreamReader(PLAYER_XML_LIMITS);
  reader.push('<protocol><room roomId="');
  let events: XmlEvent[] = [];
  for (let i = 0; i < 100 && events.length === 0; i++) events = reader.push('x'.repeat(1024));
  assert.deepEqual(errors(events), ['xml/token-too-large']);
  assert.ok(reader.finished);
});

test('a message larger than the limit is refused while it is still arriving', () => {
  const limits = { ...PLAYER_XML_LIMITS, maxMessageChars: 200 };
  const events = feed(['<protocol><room>', ...Array.from({ length: 20 }, () => '<hint content="0123456789"/>')], limits);
  assert.deepEqual(errors(events), ['xml/message-too-large']);
});

test('nesting deeper than the limit is refused', () => {
  assert.deepEqual(errors(feed(['<protocol>' + '<a>'.repeat(20)])), ['xml/too-deep']);
});

test('too many attributes, too many elements and long names are refused', () => {
  const attrs = Array.from({ length: 20 }, (_, i) => `a${i}="1"`).join(' ');
  assert.deepEqual(errors(feed([`<protocol><x ${attrs}/>`])), ['xml/too-many-attributes']);
  assert.deepEqual(errors(feed(['<protocol><x>' + '<y/>'.repeat(300)])), ['xml/too-many-elements']);
  assert.deepEqual(errors(feed([`<protocol><${'n'.repeat(200)}/>`])), ['xml/name-too-long']);
});

test('mismatched end tags, duplicate attributes and stray text are refused', () => {
  assert.deepEqual(errors(feed(['<protocol><a></b>'])), ['xml/mismatched-tag']);
  assert.deepEqual(errors(feed(['<protocol><a x="1" x="2"/>'])), ['xml/duplicate-attribute']);
  assert.deepEqual(errors(feed(['<protocol> hello <a/>'])), ['xml/text-outside-element']);
  assert.deepEqual(errors(feed(['<protocol><a x=1/>'])), ['xml/malformed']);
  assert.deepEqual(errors(feed(['<protocol><a x="<"/>'])), ['xml/malformed']);
});

test('an element left open when the input ends is unterminated; a root left open is a normal end', () => {
  assert.deepEqual(errors(feed(['<protocol><room roomId="r"><data'], PLAYER_XML_LIMITS, true)), ['xml/unterminated']);
  assert.deepEqual(feed(['<protocol><a/>'], PLAYER_XML_LIMITS, true).at(-1), { kind: 'end' });
});

test('after an error the reader reports nothing more', () => {
  const reader = new XmlStreamReader();
  reader.push('<protocol><a></b>');
  assert.deepEqual(reader.push('<c/>'), []);
  assert.deepEqual(reader.end(), []);
});

/** Cuts `text` into pieces of 1 to 7 characters, the same for a given seed. */
function pieces(text: string, seed: number): string[] {
  const out: string[] = [];
  let state = seed;
  for (let i = 0; i < text.length; ) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const size = 1 + (state % 7);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

const ends = (events: readonly XmlEvent[]): number[] => events.flatMap((e) => (e.kind === 'message' ? [e.end] : []));

test('a message reports the offset just past its closing ">", however the input is cut', () => {
  const stream = '\uFEFF<protocol>\r\n <a x="\u{1F600}">t\r\nu</a><!-- c --><b/>\n<?pi x?><c><d/></c ><e\r\n/>';
  const expected = ['</a>', '<b/>', '</c >', '\r\n/>'].map((tag) => stream.indexOf(tag) + tag.length);
  assert.deepEqual(ends(feed([stream])), expected);
  assert.deepEqual(ends(feed([...stream])), expected);
  for (let seed = 1; seed <= 20; seed++) assert.deepEqual(ends(feed(pieces(stream, seed))), expected);
});

test('the same stream cut at random places gives the same events', () => {
  const whole = feed([MOVE_STREAM]);
  for (let seed = 1; seed <= 20; seed++) assert.deepEqual(feed(pieces(MOVE_STREAM, seed)), whole);
});

test('a message of exactly the size limit is accepted and one character more is refused', () => {
  const message = '<room roomId="r"><data class="x">hi</data></room>';
  for (const cut of [(s: string) => [s], (s: string) => [...s]]) {
    const input = cut(`<protocol>\n  ${message}`);
    assert.equal(messages(feed(input, { ...PLAYER_XML_LIMITS, maxMessageChars: message.length })).length, 1);
    assert.deepEqual(errors(feed(input, { ...PLAYER_XML_LIMITS, maxMessageChars: message.length - 1 })), ['xml/message-too-large']);
  }
});

test('a tag or a text run of exactly the token limit is accepted and one character more is refused', () => {
  const tag = '<a v="0123456789"/>';
  const text = 'y'.repeat(tag.length);
  for (const body of [tag, `<a>${text}</a>`]) {
    for (const cut of [(s: string) => [s], (s: string) => [...s]]) {
      const input = cut(`<protocol><!-- x -->${body}`);
      assert.equal(messages(feed(input, { ...PLAYER_XML_LIMITS, maxTokenChars: tag.length })).length, 1);
      assert.deepEqual(errors(feed(input, { ...PLAYER_XML_LIMITS, maxTokenChars: tag.length - 1 })), ['xml/token-too-large']);
    }
  }
});

test('a token larger than the limit is refused in one huge chunk too', () => {
  assert.deepEqual(errors(feed([`<protocol><a v="${'x'.repeat(1 << 20)}`])), ['xml/token-too-large']);
  assert.deepEqual(errors(feed([`<protocol>${' '.repeat(1 << 20)}`])), ['xml/token-too-large']);
  assert.deepEqual(errors(feed([`<protocol><a>${'<b/>'.repeat(1 << 16)}`])), ['xml/too-many-elements']);
});

test('a long element or attribute name is refused while it is still arriving', () => {
  const reader = new XmlStreamReader(PLAYER_XML_LIMITS);
  reader.push('<protocol><');
  assert.deepEqual(errors(reader.push('n'.repeat(PLAYER_XML_LIMITS.maxNameChars))), []);
  assert.deepEqual(errors(reader.push('n')), ['xml/name-too-long']);
  assert.deepEqual(errors(feed(['<protocol><a ', 'n'.repeat(PLAYER_XML_LIMITS.maxNameChars + 1)])), ['xml/name-too-long']);
});

test('a reference that cannot end well is refused before its ";" arrives', () => {
  assert.deepEqual(errors(feed(['<protocol><a>& b'])), ['xml/malformed']);
  assert.deepEqual(errors(feed(['<protocol><a>&#q'])), ['xml/bad-character-reference']);
  assert.deepEqual(errors(feed(['<protocol><a>&abcdefghijkl'])), ['xml/unknown-entity']);
  assert.deepEqual(errors(feed(['<protocol><a>&am', 'p;&#x20A', 'C;</a>'])), []);
});

test('a DOCTYPE is refused as soon as its keyword has arrived, before its internal subset', () => {
  assert.deepEqual(errors(feed(['\n<!DOCTYPE x [', '<!ENTITY a "b">'.repeat(10)])), ['xml/doctype-forbidden']);
  assert.deepEqual(errors(feed(['<!DOC', 'TYPE'])), ['xml/doctype-forbidden']);
  // Not a DOCTYPE in XML (the keyword is upper case): plain bad markup.
  assert.deepEqual(errors(feed(['<!doctype x'])), ['xml/malformed']);
});

test('text or CDATA between messages is refused before it ends', () => {
  assert.deepEqual(errors(feed(['<protocol><a/> hel'])), ['xml/text-outside-element']);
  assert.deepEqual(errors(feed(['<protocol><![CDATA[]]>'])), ['xml/text-outside-element']);
  assert.deepEqual(errors(feed(['<protocol><![CDAT', 'A['])), ['xml/text-outside-element']);
  assert.deepEqual(errors(feed(['text<protocol>'])), ['xml/text-outside-element']);
});

test('a mismatched end tag completes nothing; messages before it in the same chunk are kept', () => {
  assert.deepEqual(feed(['<protocol><a></b>']).map((e) => e.kind), ['root-open', 'open', 'error']);
  const events = feed(['<protocol><a/><b></c>']);
  assert.deepEqual(messages(events).map((m) => m.name), ['a']);
  assert.deepEqual(errors(events), ['xml/mismatched-tag']);
  assert.deepEqual(errors(feed(['<protocol></b>'])), ['xml/mismatched-tag']);
});

test('an unfinished tag or comment between messages is unterminated; a byte order mark is allowed', () => {
  assert.deepEqual(errors(feed(['<protocol><a/><b'], PLAYER_XML_LIMITS, true)), ['xml/unterminated']);
  assert.deepEqual(errors(feed(['<protocol><!-- x'], PLAYER_XML_LIMITS, true)), ['xml/unterminated']);
  assert.deepEqual(feed(['\uFEFF<protocol><a/>\n'], PLAYER_XML_LIMITS, true).map((e) => e.kind), ['root-open', 'open', 'message', 'end']);
});

test('control characters and a late XML declaration are malformed; line ends in text become "\\n"', () => {
  assert.deepEqual(errors(feed(['<protocol><a>\u0001</a>'])), ['xml/malformed']);
  assert.deepEqual(errors(feed(['<protocol><?xml version="1.0"?>'])), ['xml/malformed']);
  assert.equal(messages(feed(['<protocol><a>x\r\ny\rz</a>']))[0]!.text, 'x\ny\nz');
});
