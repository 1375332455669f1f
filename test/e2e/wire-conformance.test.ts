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
