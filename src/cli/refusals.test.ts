import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXIT } from './exit-status.js';
import { noSuchMatch, refused, withHint } from './refusals.js';
import { startFailure } from './start-failure.js';

test("the server's refusal text comes first and unchanged, coco's hint after it", () => {
  assert.equal(withHint('Game "abc" does not exists'), 'Game "abc" does not exists (coco lobby lists the waiting and running matches, coco history the finished ones)');
  assert.equal(withHint('Game "abc" is already running', 'abc'), 'Game "abc" is already running (watch it with coco connect -s abc)');
  assert.equal(withHint('Something new'), 'Something new');
  assert.equal(refused('Wrong password').status, EXIT.refused);
});

test('a refused match name keeps the reference text and adds the rule it broke and its length', () => {
  const long = 'x'.repeat(30);
  assert.equal(withHint(`"${long}" is not a valid game name`), `"${long}" is not a valid game name (a match name is 1 to 24 printable ASCII characters, spaces allowed; this one has 30 characters)`);
  assert.match(withHint('"a b" is not a valid password'), /\(a password is 0 to 32 printable ASCII characters, no spaces\)$/);
});

test('every command says the same of an unknown match id: the lobby text', () => {
  assert.match(noSuchMatch('zz').message, /^Game "zz" does not exists \(/);
});

test('a busy port is one line that says what to do', () => {
  const busy = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:8088'), { code: 'EADDRINUSE', address: '127.0.0.1', port: 8088 });
  assert.equal(startFailure(busy), 'cannot listen on 127.0.0.1:8088: it is in use (another cocod?); choose another port with -p PORT');
  assert.equal(startFailure(new Error('first\n    at stack')), 'cannot start: first');
});
