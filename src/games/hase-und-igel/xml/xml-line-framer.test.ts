import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XmlLineFramer } from './xml-line-framer.js';

const XSTREAM_STYLE =
  '<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>\n  <room roomId="r1">\n    <data class="move">\n' +
  '      <advance order="0" distance="1"/>\n    </data>\n  </room>';

test('a line break follows every message that lacked one, and nothing else changes', () => {
  assert.equal(new XmlLineFramer().push(XSTREAM_STYLE), `${XSTREAM_STYLE}\n`);
  assert.equal(new XmlLineFramer().push('<protocol><join gameType="g"/><close/>'), '<protocol><join gameType="g"/>\n<close/>\n');
});

test('messages that already end their line are left alone', () => {
  const text = '<protocol>\n<join gameType="g"/>\n<room roomId="r"><data class="move"/></room>\r\n';
  assert.equal(new XmlLineFramer().push(text), text);
});

test('however the input is cut, a message is followed by a line break at once (an extra blank line at worst)', () => {
  const framer = new XmlLineFramer();
  const pieces = [...XSTREAM_STYLE].map((c) => framer.push(c));
  assert.ok(pieces.at(-1)!.endsWith('>\n'), 'the last line is released with the message');
  assert.equal(pieces.join('').replace(/\n+/g, '\n'), `${XSTREAM_STYLE}\n`);
});

test('after an XML error the input passes through unchanged', () => {
  const framer = new XmlLineFramer();
  assert.equal(framer.push('<protocol><a></b>'), '<protocol><a></b>');
  assert.equal(framer.push('<c/>'), '<c/>');
});
