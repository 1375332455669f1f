import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeReply, decodeRequest, encodeReply, encodeRequest } from './json-codec.js';
import type { MatchInfo, Reply, Request } from './messages.js';
import { decodeHistoryMatchReply, encodeHistoryMatchReply } from './bincode.js';
import { paceArgSpec } from '../../games/game-params.js';

const INFO: MatchInfo = {
  players: 2,
  bots: 1,
  timeout: 30,
  args: { rounds: '5' },
  id: '5p7gsrjtch5li',
  name: 'Test Match',
  game: 'roshambo',
  running: false,
  time: 1795361087,
  connected: ['alice'],
  spectators: 3,
  password: true,
  verified: false,
};

const INFO_JSON =
  '{"players":2,"bots":1,"timeout":30.0,"args":{"rounds":"5"},"id":"5p7gsrjtch5li","name":"Test Match","game":"roshambo",' +
  '"running":false,"time":1795361087,"connected":["alice"],"spectators":3,"password":true,"verified":false}';

test('MatchInfo is written with all 13 fields in the reference order and timeout as a float', () => {
  assert.equal(encodeReply({ type: 'LobbyNew', info: INFO }, 2), `{"LobbyNew":{"info":${INFO_JSON}}}`);
  assert.equal(encodeReply({ type: 'LobbyUpdate', info: { ...INFO, timeout: 0.5 } }, 2), `{"LobbyUpdate":{"info":${INFO_JSON.replace('30.0', '0.5')}}}`);
});

test('replies without fields are empty objects, Results are Ok/Err objects', () => {
  assert.equal(encodeReply({ type: 'MatchStarted' }, 2), '{"MatchStarted":{}}');
  assert.equal(encodeReply({ type: 'SpectateSynced' }, 2), '{"SpectateSynced":{}}');
  assert.equal(encodeReply({ type: 'GameNew', id: { Ok: 'abc' } }, 2), '{"GameNew":{"id":{"Ok":"abc"}}}');
  assert.equal(encodeReply({ type: 'GameNew', id: { Err: 'Game not found' } }, 2), '{"GameNew":{"id":{"Err":"Game not found"}}}');
  assert.equal(encodeReply({ type: 'LobbyJoinedMatch', info: { Err: 'Wrong password' } }, 2), '{"LobbyJoinedMatch":{"info":{"Err":"Wrong password"}}}');
  assert.equal(encodeReply({ type: 'HistoryMatchList', ids: ['a', 'b'] }, 2), '{"HistoryMatchList":["a","b"]}');
  assert.equal(encodeReply({ type: 'Handshake', magic: 'coco', version: 1 }, 1), '{"Handshake":{"magic":"coco","version":1}}');
});

test('GameList carries argument descriptions in version 2 and bare names in version 1', () => {
  const reply: Reply = { type: 'GameList', games: [{ name: 'roshambo', args: { rounds: { description: 'd', regex: 'r' } } }] };
  assert.equal(encodeReply(reply, 2), '{"GameList":{"games":[{"name":"roshambo","args":{"rounds":{"description":"d","regex":"r"}}}]}}');
  assert.equal(encodeReply(reply, 1), '{"GameList":{"games":["roshambo"]}}');
});

test("GameList sends only an argument's description and regex, whatever else a game describes for people", () => {
  const full = { ...paceArgSpec(1), hint: 'h', example: '2' };
  const reply: Reply = { type: 'GameList', games: [{ name: 'chess', args: { pace: full } }] };
  assert.equal(encodeReply(reply, 2), JSON.stringify({ GameList: { games: [{ name: 'chess', args: { pace: { description: full.description, regex: full.regex } } }] } }));
});

test('every request round-trips through the encoder and the strict decoder', () => {
  const requests: Request[] = [
    { type: 'Handshake', magic: 'coco', version: 2 },
    { type: 'GameList' },
    { type: 'GameDescription', name: 'roshambo' },
    { type: 'GameNew', name: 'm', game: 'roshambo', params: { players: 2, bots: 1, timeout: 2.5 }, args: { rounds: '3' }, password: 'pw', verification: null },
    { type: 'GameNew', name: 'm', game: 'royalur', params: { players: null, bots: 0, timeout: null }, args: {}, password: null, verification: 'master' },
    { type: 'LobbyList' },
    { type: 'LobbySubscribe' },
    { type: 'LobbyUnsubscribe' },
    { type: 'LobbyJoinMatch', id: 'abc', name: 'bob', password: null },
    { type: 'LobbyLeaveMatch' },
    { type: 'LobbyDeleteMatch', id: 'abc', verification: null },
    { type: 'LobbyDeleteMatch', id: 'abc', verification: 'master' },
    { type: 'SpectateJoin', id: 'abc' },
    { type: 'SpectateLeave' },
    { type: 'HistoryMatchList' },
    { type: 'HistoryMatch', id: 'abc' },
    { type: 'VisSubscribe', id: 'abc' },
    { type: 'LobbyJoinMatch', id: 'abc', name: 'bob', password: null, token: 'secret' },
    { type: 'NameRegister', name: 'bob' },
    { type: 'NameRotate', name: 'bob', token: 'secret' },
    { type: 'NameRelease', name: 'bob', verification: 'master' },
  ];
  for (const request of requests) {
    assert.deepEqual(decodeRequest(encodeRequest(request)), { ok: true, value: request }, encodeRequest(request));
  }
  assert.equal(encodeRequest({ type: 'HistoryMatchList' }), '"HistoryMatchList"');
  assert.equal(encodeRequest({ type: 'GameList' }), '{"GameList":{}}');
});

test('every reply round-trips through the encoder and the client decoder', () => {
  const replies: Reply[] = [
    { type: 'Handshake', magic: 'coco', version: 2 },
    { type: 'GameList', games: [{ name: 'roshambo', args: { pace: { description: 'p', regex: 'x' } } }] },
    { type: 'GameDescription', description: '# hi' },
    { type: 'GameDescription', description: null },
    { type: 'GameNew', id: { Ok: 'abc' } },
    { type: 'LobbyList', info: [INFO] },
    { type: 'LobbySubscribed', seed: [INFO, { ...INFO, running: true }] },
    { type: 'LobbyJoinedMatch', info: { Ok: INFO } },
    { type: 'LobbyNew', info: INFO },
    { type: 'LobbyUpdate', info: INFO },
    { type: 'LobbyDelete', id: 'abc' },
    { type: 'LobbyUnsubscribed' },
    { type: 'LobbyLeavedMatch' },
    { type: 'LobbyDeletedMatch', id: { Ok: 'abc' } },
    { type: 'LobbyDeletedMatch', id: { Err: 'Game "abc" is already running' } },
    { type: 'MatchStarted' },
    { type: 'MatchEnded' },
    { type: 'SpectateJoined', info: { Err: 'nope' } },
    { type: 'SpectateStarted' },
    { type: 'SpectateSynced' },
    { type: 'SpectateEnded' },
    { type: 'SpectateLeaved' },
    { type: 'HistoryMatchList', ids: ['x'] },
    { type: 'HistoryMatch', data: { Err: 'FileNotFound' } },
    { type: 'VisSubscribed', info: { Ok: null } },
    { type: 'VisEvents', id: 'abc', events: [{ t: 0, log: { line: 'hi' } }] },
    { type: 'VisEnded', id: 'abc' },
    { type: 'VisSeats', id: 'abc', now: 12.5, seats: [{ name: 'ann', turn: [10, null, 30], closed: null }, { name: 'bob', turn: [2, 9.25, null], closed: 'timeout' }, { name: 'cy', turn: null, closed: null }] },
  ];
  for (const reply of replies) assert.deepEqual(decodeReply(encodeReply(reply, 2)), { ok: true, value: reply });
});

test('LobbyDeleteMatch and its answer, as docs/protocol.md writes them', () => {
  assert.equal(encodeRequest({ type: 'LobbyDeleteMatch', id: 'abc', verification: null }), '{"LobbyDeleteMatch":{"id":"abc","verification":null}}');
  assert.deepEqual(decodeRequest('{"LobbyDeleteMatch":{"id":"abc"}}'), { ok: true, value: { type: 'LobbyDeleteMatch', id: 'abc', verification: null } });
  assert.equal(decodeRequest('{"LobbyDeleteMatch":{}}').ok, false);
  assert.equal(encodeReply({ type: 'LobbyDeletedMatch', id: { Ok: 'abc' } }, 2), '{"LobbyDeletedMatch":{"id":{"Ok":"abc"}}}');
  assert.equal(encodeReply({ type: 'LobbyDeletedMatch', id: { Err: 'no' } }, 1), '{"LobbyDeletedMatch":{"id":{"Err":"no"}}}');
});

test('malformed requests are refused with a reason', () => {
  const bad = [
    'not json',
    '[]',
    '{}',
    '{"GameList":{},"LobbyList":{}}',
    '{"Nope":{}}',
    '"GameNew"',
    '{"Handshake":{"magic":"coco","version":"2"}}',
    '{"Handshake":{"magic":"coco","version":-1}}',
    '{"Handshake":{"magic":"coco","version":2.5}}',
    '{"GameNew":{"name":"m","game":"g","params":{"players":null,"bots":null,"timeout":null},"args":{},"password":null,"verification":null}}',
    '{"GameNew":{"name":"m","game":"g","params":{"bots":0},"args":{"a":1}}}',
    '{"LobbyJoinMatch":{"id":"x"}}',
    '{"SpectateJoin":5}',
  ];
  for (const text of bad) assert.equal(decodeRequest(text).ok, false, text);
});

test('a join without a token is written as the reference client writes it; with one, the token rides along', () => {
  assert.equal(encodeRequest({ type: 'LobbyJoinMatch', id: 'abc', name: 'bob', password: null, token: null }), '{"LobbyJoinMatch":{"id":"abc","name":"bob","password":null}}');
  assert.equal(encodeRequest({ type: 'LobbyJoinMatch', id: 'abc', name: 'bob', password: null, token: 't' }), '{"LobbyJoinMatch":{"id":"abc","name":"bob","password":null,"token":"t"}}');
  assert.deepEqual(decodeRequest('{"LobbyJoinMatch":{"id":"x","name":"n","password":null,"token":null}}'), { ok: true, value: { type: 'LobbyJoinMatch', id: 'x', name: 'n', password: null } });
  assert.equal(decodeRequest('{"LobbyJoinMatch":{"id":"x","name":"n","token":5}}').ok, false);
});

test('the replies about names round-trip, each with its outcome', () => {
  const replies: Reply[] = [
    { type: 'NameRegistered', name: 'bob', token: { Ok: 'tok' } },
    { type: 'NameRegistered', name: 'bob', token: { Err: 'Name "bob" is already claimed' } },
    { type: 'NameRotated', name: 'bob', token: { Ok: 'tok2' } },
    { type: 'NameReleased', name: 'bob', result: { Ok: null } },
    { type: 'NameReleased', name: 'bob', result: { Err: 'Name "bob" is not claimed' } },
  ];
  for (const reply of replies) assert.deepEqual(decodeReply(encodeReply(reply, 2)), { ok: true, value: reply }, encodeReply(reply, 2));
  assert.equal(encodeReply({ type: 'NameRegistered', name: 'bob', token: { Ok: 'tok' } }, 2), '{"NameRegistered":{"name":"bob","token":{"Ok":"tok"}}}');
});

test('optional fields may be absent and unknown fields are ignored', () => {
  assert.deepEqual(decodeRequest('{"LobbyJoinMatch":{"id":"x","name":"n","extra":1}}'), {
    ok: true,
    value: { type: 'LobbyJoinMatch', id: 'x', name: 'n', password: null },
  });
});

test('a binary HistoryMatch error is the documented bincode bytes', () => {
  assert.deepEqual([...encodeHistoryMatchReply({ Err: 'FileNotFound' })], [0x14, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
});

test('a binary HistoryMatch reply lays out MatchData as bincode and decodes back', () => {
  const data = { id: 'ab', game_name: 'g', args: { k: 'v' }, players: ['p'], bot_count: 1, history: Buffer.from('hi\n') };
  const bytes = encodeHistoryMatchReply({ Ok: data });
  const expected = Buffer.concat([
    Buffer.from([20, 0, 0, 0, 0, 0, 0, 0]),
    Buffer.from([2, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('ab'),
    Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('g'),
    Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]),
    Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('k'),
    Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('v'),
    Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]),
    Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('p'),
    Buffer.from([1, 0, 0, 0]), // bot_count: u32
    Buffer.from([3, 0, 0, 0, 0, 0, 0, 0]), Buffer.from('hi\n'),
  ]);
  assert.deepEqual(bytes, expected);
  assert.deepEqual(decodeHistoryMatchReply(bytes), { Ok: { ...data, history: Uint8Array.from(data.history) } });
});
