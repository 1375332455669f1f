import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RawClient } from '../support/raw-client.js';
import { newMatch, startServer, type ServerProcess } from '../support/processes.js';

let server: ServerProcess;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.stop();
});

const HELLO_V2 = '{"Handshake":{"magic":"coco","version":2}}';
const HELLO_V1 = '{"Handshake":{"magic":"coco","version":1}}';

test('a version 2 client gets version 2, argument descriptions and the history', async () => {
  const client = await RawClient.open(server.url);
  assert.equal(await client.ask(HELLO_V2), HELLO_V2);
  const list = await client.ask('{"GameList":{}}');
  assert.match(list!, /^\{"GameList":\{"games":\[\{"name":"[a-z-]+","args":\{/);
  assert.ok(list!.includes('{"name":"roshambo","args":{"rounds":{"description":'));
  assert.equal(await client.ask('"HistoryMatchList"'), '{"HistoryMatchList":[]}');
  client.send('{"HistoryMatch":{"id":"0000000000000"}}');
  const reply = await client.frame(3);
  assert.equal(reply?.text, null, 'HistoryMatch answers with a binary frame');
  assert.deepEqual([...reply!.bytes], [0x14, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
  client.close();
});

test('a version 1 client gets version 1 and bare game names; history requests close it', async () => {
  const client = await RawClient.open(server.url);
  assert.equal(await client.ask(HELLO_V1), HELLO_V1);
  const names = await client.ask('{"GameList":{}}');
  assert.match(names!, /^\{"GameList":\{"games":\["[a-z-]+"(,"[a-z-]+")*\]\}\}$/);
  assert.ok(names!.includes('"roshambo"'));
  client.send('"HistoryMatchList"');
  assert.equal(typeof (await client.closed), 'number');
});

test('a wrong handshake is answered with ours and then closed', async () => {
  const client = await RawClient.open(server.url);
  assert.equal(await client.ask('{"Handshake":{"magic":"ococ","version":2}}'), HELLO_V2);
  await client.closed;
  const late = await RawClient.open(server.url);
  assert.equal(await late.ask('{"Handshake":{"magic":"coco","version":3}}'), HELLO_V2);
  await late.closed;
  const other = await RawClient.open(server.url);
  other.send('{"GameList":{}}');
  await other.closed;
  assert.equal(other.frames.length, 0, 'anything but a handshake first closes without a reply');
});

test('creation and lobby replies are byte-exact; a request not valid in the state closes only that connection', async () => {
  const client = await RawClient.open(server.url);
  await client.ask(HELLO_V2);
  const before = Date.now();
  const created = await client.ask('{"GameNew":{"name":"exact","game":"roshambo","params":{"players":2,"bots":0,"timeout":5},"args":{"rounds":"4"},"password":"pw","verification":null}}');
  const after = Date.now();
  const id = /^\{"GameNew":\{"id":\{"Ok":"([0-9a-v]{13})"\}\}\}$/.exec(created!)![1]!;
  const listed = await client.ask('{"LobbyList":{}}');
  const expiry = Number(/"time":(\d+)/.exec(listed!)![1]);
  // The match was made while the request was out; it expires 600 s later, shown in whole seconds.
  assert.ok(expiry >= Math.floor((before + 600_000) / 1000) && expiry <= Math.floor((after + 600_000) / 1000), `expiry ${expiry}`);
  assert.ok(
    listed!.includes(
      `{"players":2,"bots":0,"timeout":5.0,"args":{"rounds":"4"},"id":"${id}","name":"exact","game":"roshambo","running":false,"time":${expiry},"connected":[],"spectators":0,"password":true,"verified":false}`,
    ),
  );
  const bystander = await RawClient.open(server.url);
  await bystander.ask(HELLO_V2);
  client.send('{"LobbyLeaveMatch":{}}');
  await client.closed;
  assert.match((await bystander.ask('{"LobbyList":{}}'))!, /^\{"LobbyList":/);
  bystander.close();
});

test('joining and subscribing follow the reference flow, pushes included', async () => {
  const id = await newMatch(server.url, ['roshambo', 'flow', '-a', 'rounds=1', '-a', 'pace=0']);
  const watcher = await RawClient.open(server.url);
  await watcher.ask(HELLO_V2);
  assert.match((await watcher.ask('{"LobbySubscribe":{}}'))!, /^\{"LobbySubscribed":\{"seed":\[/);
  const alice = await RawClient.open(server.url);
  await alice.ask(HELLO_V2);
  const joined = await alice.ask(`{"LobbyJoinMatch":{"id":"${id}","name":"alice","password":null}}`);
  assert.match(joined!, /^\{"LobbyJoinedMatch":\{"info":\{"Ok":\{"players":2,.*"connected":\[\],/);
  assert.match((await alice.frame(2))!.text!, /^\{"LobbyUpdate":\{"info":\{.*"connected":\["alice"\]/);
  const bob = await RawClient.open(server.url);
  await bob.ask(HELLO_V2);
  assert.equal(await bob.ask(`{"LobbyJoinMatch":{"id":"${id}","name":"alice","password":null}}`), '{"LobbyJoinedMatch":{"info":{"Err":"Username \\"alice\\" already taken"}}}');
  await bob.ask(`{"LobbyJoinMatch":{"id":"${id}","name":"bob","password":null}}`);
  // Both get MatchStarted, then the game stream as binary frames.
  for (const player of [alice, bob]) {
    let i = 0;
    while ((await player.frame(i))?.text !== '{"MatchStarted":{}}') i++;
    player.ws.send(Buffer.from('ROCK\n'), { binary: true });
  }
  for (const player of [alice, bob]) {
    let i = 0;
    while ((await player.frame(i))?.text !== '{"MatchEnded":{}}') i++;
    const stream = Buffer.concat(player.frames.filter((f) => f.text === null).map((f) => f.bytes)).toString();
    assert.match(stream, /^(alice\nbob|bob\nalice)\n1\nROCK\n$/);
  }
  let i = 0;
  while ((await watcher.frame(i))?.text !== `{"LobbyDelete":{"id":"${id}"}}`) i++;
  assert.equal(await watcher.ask('{"LobbyUnsubscribe":{}}'), '{"LobbyUnsubscribed":{}}');
  for (const c of [watcher, alice, bob]) c.close();
});

test('a history record is the reference\'s bincode MatchData: the humans named, the bots counted in a u32', async () => {
  const id = await newMatch(server.url, ['roshambo', 'history', '-b', '1', '-a', 'rounds=1', '-a', 'pace=0']);
  const alice = await RawClient.open(server.url);
  await alice.ask(HELLO_V2);
  await alice.ask(`{"LobbyJoinMatch":{"id":"${id}","name":"alice","password":null}}`);
  let i = 0;
  while ((await alice.frame(i))?.text !== '{"MatchStarted":{}}') i++;
  alice.ws.send(Buffer.from('ROCK\n'), { binary: true });
  while ((await alice.frame(i))?.text !== '{"MatchEnded":{}}') i++;
  alice.close();
  await server.recorded(id);

  const reader = await RawClient.open(server.url);
  await reader.ask(HELLO_V2);
  reader.send(`{"HistoryMatch":{"id":"${id.toUpperCase()}"}}`);
  const bytes = (await reader.frame(1))!.bytes;
  const u64 = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; };
  const str = (s: string) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
  const history = /^(alice\nServerBot\$0|ServerBot\$0\nalice)\n1\n[A-Z]+\n[A-Z]+\n$/;
  const head = Buffer.concat([
    Buffer.from([20, 0, 0, 0, 0, 0, 0, 0]), // HistoryMatch, Ok
    str(id), str('roshambo'),
    u64(2), str('rounds'), str('1'), str('pace'), str('0'), // as given
    u64(1), str('alice'), // the humans only
    Buffer.from([1, 0, 0, 0]), // bot_count: u32
  ]);
  assert.deepEqual(bytes.subarray(0, head.length), head);
  const length = Number(bytes.readBigUInt64LE(head.length));
  assert.equal(bytes.length, head.length + 8 + length, 'nothing after the history');
  assert.match(bytes.subarray(head.length + 8).toString(), history);
  // As the reference answers: an id with a character that is no letter or digit is InvalidID, one
  // of letters and digits that names no match is FileNotFound.
  reader.send('{"HistoryMatch":{"id":"not-an-id"}}');
  assert.deepEqual([...(await reader.frame(2))!.bytes], [0x14, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
  reader.send('{"HistoryMatch":{"id":"nosuchmatch"}}');
  assert.deepEqual([...(await reader.frame(3))!.bytes], [0x14, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
  reader.close();
});

test('malformed ids are refused in the reference decoder\'s words, and a spectator is counted after its reply', async () => {
  const client = await RawClient.open(server.url);
  await client.ask(HELLO_V2);
  assert.equal(await client.ask('{"SpectateJoin":{"id":"abc"}}'), '{"SpectateJoined":{"info":{"Err":"Invalid ID: invalid length at 2"}}}');
  assert.equal(
    await client.ask('{"LobbyJoinMatch":{"id":"0000000000001","name":"x","password":null}}'),
    '{"LobbyJoinedMatch":{"info":{"Err":"Invalid ID: non-zero trailing bits at 12"}}}',
  );
  const id = await newMatch(server.url, ['roshambo', 'counted']);
  const joined = await client.ask(`{"SpectateJoin":{"id":"${id}"}}`);
  assert.match(joined!, /^\{"SpectateJoined":\{"info":\{"Ok":\{.*"spectators":0,/);
  assert.match((await client.frame(4))!.text!, /^\{"LobbyUpdate":\{"info":\{.*"spectators":1,/);
  client.close();
});
