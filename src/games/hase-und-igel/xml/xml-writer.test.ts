import { test } from 'node:test';
import assert from 'node:assert/strict';
import { el } from './xml-element.js';
import { escapeAttribute, escapeText, prerendered, renderElement, renderMessage } from './xml-writer.js';
import { XmlStreamReader } from './xml-reader.js';

test('escaping follows XStream: markup characters, CR and control characters as references', () => {
  assert.equal(escapeAttribute(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&apos;f');
  assert.equal(escapeAttribute('x\ny\tz\r'), 'x&#xa;y&#x9;z&#xd;');
  assert.equal(escapeText('x\ny\tz\r'), 'x\ny\tz&#xd;');
  assert.equal(escapeText('\u0001\u007f'), '&#x1;&#x7f;');
  assert.equal(escapeText('Feldnummer ∅ äöü'), 'Feldnummer ∅ äöü');
});

test('elements are pretty-printed with two spaces, empty ones self-closed, text ones on one line', () => {
  const tree = el('a', { x: 1, skip: null }, [el('b', {}, [el('c', { y: 'z' })]), el('type', {}, [], 'EAT_SALAD'), el('cards')]);
  assert.equal(renderElement(tree, 0), '<a x="1">\n  <b>\n    <c y="z"/>\n  </b>\n  <type>EAT_SALAD</type>\n  <cards/>\n</a>');
});

test('a message starts with a line break and is indented inside the open root, with no line break after it', () => {
  assert.equal(renderMessage(el('room', { roomId: 'r' }, [el('data', { class: 'x' })])), '\n  <room roomId="r">\n    <data class="x"/>\n  </room>');
});

test('what the writer writes, the reader reads back unchanged', () => {
  const tree = el('room', { roomId: 'a"b&c\nd' }, [el('data', { class: 'move' }, [el('hint', { content: "<'tab'\there>" })])]);
  const reader = new XmlStreamReader();
  const events = reader.push(`<protocol>${renderMessage(tree)}`);
  const message = events.find((e) => e.kind === 'message');
  assert.deepEqual(message?.kind === 'message' ? message.element : null, tree);
});

test('an element written ahead of time is written the same at its depth, and afresh at any other depth', () => {
  const board = el('board', {}, [el('fields', { index: 0, type: 'START' }), el('fields', { index: 1, type: 'CARROT' })]);
  const ahead = prerendered(board, 4);
  assert.equal(renderElement(ahead, 4), renderElement(board, 4));
  assert.equal(renderElement(el('state', {}, [ahead]), 3), renderElement(el('state', {}, [board]), 3));
  assert.equal(renderElement(ahead, 2), renderElement(board, 2));
  assert.notEqual(renderElement(board, 2), renderElement(board, 4));
});
