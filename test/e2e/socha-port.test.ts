import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { renderClientMove } from '../../src/games/hase-und-igel/bot.js';
import { GAME_TYPE } from '../../src/games/hase-und-igel/messages.js';
import { attr, child, type XmlElement } from '../../src/games/hase-und-igel/xml/xml-element.js';
import { ROOT, coco, startCoco, startServer, type ServerProcess } from '../support/processes.js';
import { JOIN, SochaPeer, causes, joinPrepared, points, randomMoves, type Answer } from '../support/socha-peer.js';

const PASSWORD = 'secret';
const SOCHA_CLIENT = join(ROOT, 'dist/src/games/hase-und-igel/socha-client-cli.js');

async function sochaServer(args: readonly string[]): Promise<{ server: ServerProcess; port: number }> {
  const server = await startServer(['-d', ':memory:', '--socha-port', '0', ...args]);
  const [, port] = await server.waitForLog(/socha port listening on [^:]+:(\d+)/);
  return { server, port: Number(port) };
}

/** An administrator connection, authenticated. */
function admin(port: number): SochaPeer {
  return SochaPeer.open(port, `<protocol>\n  <authenticate passphrase="${PASSWORD}"/>\n`);
}

/** Prepares a room for alice (slot 1, RED) and bob; resolves with the room id and the two codes. */
async function prepare(root: SochaPeer, paused: boolean): Promise<{ roomId: string; codes: string[] }> {
  const before = root.messages.filter((m) => m.name === 'prepared').length;
  root.send(
    `  <prepare gameType="${GAME_TYPE}">\n` +
      `    <slot displayName="alice" canTimeout="true" shouldBePaused="${paused}"/>\n` +
      `    <slot displayName="bob" canTimeout="true" shouldBePaused="${paused}"/>\n  </prepare>\n`,
  );
  const prepared = await root.until((ms) => ms.filter((m) => m.name === 'prepared')[before], '<prepared>');
  return { roomId: attr(prepared, 'roomId')!, codes: prepared.children.map((c) => c.text) };
}

const turnOf = (memento: XmlElement): number => Number(attr(child(memento, 'state')!, 'turn'));

/**
 * Waits until the server has handled everything sent to it so far and its answers arrived: one
 * request with a reply (a prepared room nobody joins) through the administrator connection, then a
 * few turns of this process's event loop for what the server wrote to the other connections before
 * that reply. What a paused room has not sent by then, it did not send when it should have: an
 * event to wait for, rather than a pause that a busy machine can make too short.
 */
async function serverCaughtUp(root: SochaPeer): Promise<void> {
  await prepare(root, true);
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}
const never: Answer = () => null;
/** What the real server writes to a connection it refuses. */
const REFUSED = '<protocol>\n  <sc.protocol.responses.CloseConnection/>\n</protocol>';

describe('the Software-Challenge port with an administrator password', () => {
  let server: ServerProcess;
  let port: number;
  // These tests are about the protocol and the admin commands; wide time limits keep a busy
  // machine from turning a slow answer into a lost game (the limits have tests of their own below).
  before(async () => ({ server, port } = await sochaServer(['--socha-password', PASSWORD, '--socha-soft-timeout', '300', '--socha-hard-timeout', '600'])));
  after(async () => server?.stop());

  test('two plain TCP clients join and play a whole game, listed in the lobby, watched through coco and recorded', async () => {
    const first = SochaPeer.open(port, JOIN, randomMoves('a'));
    const [, roomId, matchId] = await server.waitForLog(/player1 joined room (\S+) \(match ([0-9a-v]{13})\)/);
    // `joined` comes at once, as from the real server, long before the game begins.
    assert.equal(attr(await first.message('joined'), 'roomId'), roomId);
    assert.equal(first.text, `<protocol>\n  <joined roomId="${roomId}"/>`);
    const lobby = await coco(server.url, ['lobby']);
    assert.match(lobby.stdout, new RegExp(`^${matchId}\\s+no\\s+socha port\\s+hase-und-igel\\s+1/2`, 'm'));
    const spectator = startCoco(server.url, ['connect', '-s', matchId!]);
    await spectator.waitForOutput(/> spectating/);
    const second = SochaPeer.open(port, JOIN, randomMoves('b'));
    await Promise.all([first.closed, second.closed]);
    for (const peer of [first, second]) {
      assert.equal(attr(await peer.message('joined'), 'roomId'), roomId);
      assert.ok(peer.text.startsWith('<protocol>'), 'the game opens the stream');
      assert.ok(peer.text.endsWith('</protocol>'), 'and closes it');
      assert.equal(peer.all('result').length, 1);
    }
    const colors = [first, second].map((p) => attr(p.all('welcomeMessage')[0]!, 'color'));
    assert.deepEqual(colors, ['red', 'blue'], 'the first to join plays RED, as in the real server');
    for (const peer of [first, second]) {
      assert.equal(peer.messages.filter((m) => m.name === 'joined').length, 1, 'joined once');
      const state = child(peer.all('memento')[0]!, 'state')!;
      assert.deepEqual([attr(child(state, 'red')!, 'displayName'), attr(child(state, 'blue')!, 'displayName')], ['Unknown', 'Unknown']);
    }
    assert.deepEqual(points(first.all('result')[0]!).sort(), [0, 2]);
    const watched = await spectator.done;
    assert.ok(watched.stdout.includes(`<observed roomId="${roomId}"/>`), watched.stdout);
    assert.ok(watched.stdout.includes('<data class="result">'));
    await server.recorded(matchId!);
    const history = await coco(server.url, ['history', matchId!]);
    assert.ok(history.stdout.includes(`<observed roomId="${roomId}"/>`) && history.stdout.includes('<data class="result">'), history.stdout);
  });

  test('an administrator prepares a room: reserved clients sit in slot order, observe streams it, a paused room moves by step and resumes', async () => {
    const root = admin(port);
    const { roomId, codes } = await prepare(root, true);
    assert.equal(codes.length, 2);
    root.send(`  <observe roomId="${roomId}"/>\n`);
    const bob = SochaPeer.open(port, joinPrepared(codes[1]!), randomMoves('bob'));
    const [, matchId] = await server.waitForLog(new RegExp(`bob took a reserved seat in room ${roomId} \\(match (\\w+)\\)`));
    const lobby = await coco(server.url, ['lobby']);
    assert.match(lobby.stdout, /\s+no\s+socha prepared\s+hase-und-igel\s+1\/2\s+\d+\s+600\s+yes/, 'listed, with a password: only codes get in');
    assert.equal(attr(await root.message('observed'), 'roomId'), roomId, 'observed at once, before the room begins');
    const alice = SochaPeer.open(port, joinPrepared(codes[0]!), randomMoves('alice'));
    await server.waitForLog(new RegExp(`match ${matchId} of hase-und-igel started: alice, bob`));
    await serverCaughtUp(root);
    for (const peer of [alice, bob, root]) assert.equal(peer.all('memento').length, 0, 'a room prepared paused sends nothing before the first step');
    assert.equal(alice.messages.length + bob.messages.length, 0, 'not even joined: that comes when the game begins');
    root.send(`  <step roomId="${roomId}" forced="false"/>\n`);
    assert.equal(attr(await alice.data('welcomeMessage'), 'color'), 'red', 'the first slot plays RED, whoever came first');
    assert.equal(attr(await bob.data('welcomeMessage'), 'color'), 'blue');
    const red = child(child(await alice.data('memento'), 'state')!, 'red')!;
    assert.equal(attr(red, 'displayName'), 'alice');
    assert.equal(turnOf(await bob.data('memento', 1)), 1, 'one step: RED moved');
    await serverCaughtUp(root);
    assert.equal(bob.requests, 0, 'still paused after the step');
    root.send(`  <pause roomId="${roomId}" pause="false"/>\n`);
    await Promise.all([alice.closed, bob.closed]);
    const result = await root.data('result');
    const moves = alice.requests + bob.requests;
    assert.equal(root.all('memento').length, moves + 1, 'the observer saw every memento');
    assert.deepEqual(points(result).sort(), [0, 2]);
    await root.message('left');
    root.socket.end('</protocol>');
    await root.closed;
    assert.ok(root.text.startsWith('<protocol>') && root.text.endsWith('</protocol>'));
    assert.equal(root.messages.filter((m) => m.name === 'protocol').length, 0, 'the observed stream is not opened twice');
  });

  test('cancel ends a running room: both players get left and the end of their stream', async () => {
    const root = admin(port);
    const { roomId, codes } = await prepare(root, false);
    const alice = SochaPeer.open(port, joinPrepared(codes[0]!), never);
    const bob = SochaPeer.open(port, joinPrepared(codes[1]!), never);
    await Promise.all([alice.data('memento'), bob.data('memento')]);
    root.send(`  <cancel roomId="${roomId}"/>\n`);
    await Promise.all([alice.closed, bob.closed]);
    for (const peer of [alice, bob]) {
      assert.equal(attr(await peer.message('left'), 'roomId'), roomId);
      assert.equal(peer.all('result').length, 0);
      assert.ok(peer.text.endsWith('</protocol>'), JSON.stringify(peer.text.slice(-300)));
    }
    await server.waitForLog(/ended: 0 0 \(the game was cancelled by an administrator\)/);
    root.socket.end();
  });

  test('a rule violation: the offender gets the error and the close, the other player wins with RULE_VIOLATION marked', async () => {
    const root = admin(port);
    const { roomId, codes } = await prepare(root, false);
    root.send(`  <observe roomId="${roomId}"/>\n`);
    const tooFar = `  <room roomId="${roomId}">\n    <data class="move">\n      <advance order="0" distance="40"/>\n    </data>\n  </room>\n`;
    const alice = SochaPeer.open(port, joinPrepared(codes[0]!), () => tooFar, false);
    const bob = SochaPeer.open(port, joinPrepared(codes[1]!), never);
    await Promise.all([alice.closed, bob.closed]);
    const error = await alice.data('error');
    assert.match(attr(error, 'message') ?? '', /^Ungueltiger Zug von 'alice'\.\n.*40/);
    assert.ok(alice.text.includes(`message="Ungueltiger Zug von &apos;alice&apos;.&#xa;`), 'the bytes of the real server');
    assert.equal(child(error, 'originalRequest')?.children[0]?.name, 'advance');
    assert.ok(alice.text.endsWith('<sc.protocol.responses.CloseConnection/>\n</protocol>'), alice.text.slice(-200));
    assert.equal(alice.all('result').length, 0, 'the offender gets no result');
    const result = await bob.data('result');
    assert.deepEqual(causes(result), ['RULE_VIOLATION', 'REGULAR']);
    assert.deepEqual(points(result), [0, 2]);
    assert.equal(child(await root.data('error'), 'originalRequest'), undefined, 'observers get the bare reason');
    root.socket.end();
  });

  test('a move out of turn ends the game: the sender loses with LEFT', async () => {
    const root = admin(port);
    const { roomId, codes } = await prepare(root, false);
    const alice = SochaPeer.open(port, joinPrepared(codes[0]!), never);
    const bob = SochaPeer.open(port, joinPrepared(codes[1]!), never);
    await bob.data('memento');
    bob.send(`  <room roomId="${roomId}">\n    <data class="move">\n      <advance order="0" distance="1"/>\n    </data>\n  </room>\n`);
    await Promise.all([alice.closed, bob.closed]);
    const result = await alice.data('result');
    assert.deepEqual(causes(result), ['REGULAR', 'LEFT']);
    assert.deepEqual(points(result), [2, 0]);
    const error = await bob.data('error');
    assert.equal(attr(error, 'message'), "It's not your turn yet.");
    assert.equal(child(error, 'originalRequest')?.children[0]?.name, 'advance');
    assert.ok(bob.text.endsWith('\n  <sc.protocol.responses.CloseConnection/>\n</protocol>'), bob.text.slice(-200));
    assert.equal(bob.all('result').length, 0);
    root.socket.end();
  });

  test('hostile XML inside a game ends only that game: the sender loses with LEFT, a game beside it goes on', async () => {
    const root = admin(port);
    const hostile = await prepare(root, false);
    const calm = await prepare(root, false);
    const calmPlayers = calm.codes.map((code, i) => SochaPeer.open(port, joinPrepared(code), randomMoves(`calm${i}`)));
    const alice = SochaPeer.open(port, joinPrepared(hostile.codes[0]!), () => '<!DOCTYPE x [<!ENTITY a "&a;&a;">]>\n', false);
    const bob = SochaPeer.open(port, joinPrepared(hostile.codes[1]!), never);
    await Promise.all([alice.closed, bob.closed]);
    const result = await bob.data('result');
    assert.deepEqual(causes(result), ['LEFT', 'REGULAR']);
    await Promise.all(calmPlayers.map((peer) => peer.closed));
    for (const peer of calmPlayers) assert.deepEqual(causes(await peer.data('result')), ['REGULAR', 'REGULAR']);
    root.socket.end();
  });

  test('unknown codes, a wrong password, hostile or unreadable XML and other first requests close only that connection', async () => {
    const waiting = SochaPeer.open(port, JOIN, randomMoves('w'));
    // A refused request gets the close message in a whole stream, as from the real server (a
    // client that gets nothing logs an exception); anything else the empty stream.
    const bad = [
      { opening: joinPrepared('no-such-code'), log: /unknown reservation code; connection closed/, reply: REFUSED },
      { opening: `<protocol><authenticate passphrase="wrong"/>`, log: /wrong admin password; connection closed/, reply: REFUSED },
      {
        opening: '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n<protocol><join gameType="&lol2;"/>',
        log: /unreadable XML \(xml\/doctype-forbidden\); connection closed/,
        reply: '<protocol/>',
      },
      { opening: `<protocol>\n  <join gameType="${GAME_TYPE}"<<>>\n`, log: /unreadable XML \(xml\/malformed\); connection closed/, reply: '<protocol/>' },
      { opening: Buffer.from([0x3c, 0x70, 0xff, 0xfe, 0x3e]), log: /invalid UTF-8; connection closed/, reply: '<protocol/>' },
      { opening: `<protocol><room roomId="x"><data class="move"/></room>`, log: /expected join, joinPrepared or authenticate first, got <room>/, reply: REFUSED },
      { opening: `<protocol><join gameType="swc_2019_piranhas"/>`, log: /unknown game type "swc_2019_piranhas"/, reply: REFUSED },
      { opening: `<protocol><hello/>`, log: /first request <hello> refused \(request\/unknown\)/, reply: '<protocol/>' },
    ];
    for (const { opening, log, reply } of bad) {
      const peer = SochaPeer.open(port, opening);
      await peer.closed;
      assert.equal(peer.text, reply, String(log));
      await server.waitForLog(log);
    }
    const partner = SochaPeer.open(port, JOIN, randomMoves('p'));
    await Promise.all([waiting.closed, partner.closed]);
    assert.deepEqual(points(await waiting.data('result')).sort(), [0, 2], 'the waiting client played its game undisturbed');
  });

  test('cancel of a room that has not begun leaves it playable: its codes still seat their players', async () => {
    const root = admin(port);
    const { roomId, codes } = await prepare(root, false);
    root.send(`  <cancel roomId="${roomId}"/>\n`);
    await server.waitForLog(new RegExp(`cancel of room ${roomId} that has not begun ignored`));
    const players = codes.map((code, i) => SochaPeer.open(port, joinPrepared(code), randomMoves(`c${i}`)));
    await Promise.all(players.map((peer) => peer.closed));
    for (const peer of players) assert.deepEqual(causes(await peer.data('result')), ['REGULAR', 'REGULAR']);
    root.socket.end();
  });

  test('freeReservation voids an unused code and keeps the admin connection open, as on 18.2.6; the code is then refused', async () => {
    const root = admin(port);
    const { codes } = await prepare(root, false);
    root.send(`  <freeReservation reservation="${codes[0]}"/>\n`);
    // The next request is answered on the same connection.
    await prepare(root, false);
    assert.ok(!root.text.includes('CloseConnection'), root.text.slice(-200));
    const late = SochaPeer.open(port, joinPrepared(codes[0]!));
    await late.closed;
    assert.equal(late.text, REFUSED);
    root.socket.end();
  });

  test('observe of an unknown room ends the admin connection with the close message', async () => {
    const root = admin(port);
    root.send('  <observe roomId="no-such-room"/>\n');
    await root.closed;
    assert.equal(root.text, `<protocol>${'\n  <sc.protocol.responses.CloseConnection/>\n</protocol>'}`);
  });

  test('a prepared slot with bot="true" seats the server bot: one code, and the client plays against it', async () => {
    const root = admin(port);
    root.send(
      `  <prepare gameType="${GAME_TYPE}">\n    <slot displayName="Hase-Bot" canTimeout="true" shouldBePaused="false" bot="true"/>\n` +
        `    <slot displayName="me" canTimeout="true" shouldBePaused="false"/>\n  </prepare>\n`,
    );
    const prepared = await root.message('prepared');
    assert.equal(prepared.children.length, 1, 'a code for the client only');
    const me = SochaPeer.open(port, joinPrepared(prepared.children[0]!.text), randomMoves('me'));
    await me.closed;
    assert.equal(attr(me.all('welcomeMessage')[0]!, 'color'), 'blue', 'the bot has the first slot: RED');
    const state = child(me.all('memento')[0]!, 'state')!;
    assert.equal(attr(child(state, 'red')!, 'displayName'), 'Hase-Bot');
    assert.deepEqual(causes(await me.data('result')), ['REGULAR', 'REGULAR']);
    await server.waitForLog(/started: ServerBot\$0, me/);
    root.socket.end();
  });

  test("the official TestClient's conversation runs to its end: testMode, prepare, observe, scores, close", async () => {
    // The bytes the 18.2.6 TestClient (XStream) sends, in its order; its players are reserved
    // clients that swap slots each game, as it starts them.
    const root = SochaPeer.open(port, `<protocol>\n  <authenticate passphrase="${PASSWORD}"/>\n  <testMode testMode="true"/>`);
    await root.message('testing');
    assert.equal(root.text, '<protocol>\n  <testing testMode="true"/>');
    const games = 2;
    for (let game = 0; game < games; game++) {
      const names = game % 2 === 0 ? ['player1', 'player2'] : ['player2', 'player1'];
      root.send(
        `\n  <prepare gameType="${GAME_TYPE}">` +
          names.map((name) => `\n    <slot displayName="${name}" canTimeout="true" shouldBePaused="false"/>`).join('') +
          '\n  </prepare>',
      );
      const prepared = await root.until((ms) => ms.filter((m) => m.name === 'prepared')[game], '<prepared>');
      const roomId = attr(prepared, 'roomId')!;
      root.send(`\n  <observe roomId="${roomId}"/>`);
      const codes = prepared.children.map((c) => c.text);
      const players = [codes[game % 2]!, codes[(game + 1) % 2]!].map((code, i) => SochaPeer.open(port, joinPrepared(code), randomMoves(`t${game}${i}`)));
      await root.data('result', game);
      root.send('\n  <scoreForPlayer displayName="player1"/>\n  <scoreForPlayer displayName="player2"/>');
      await Promise.all(players.map((peer) => peer.closed));
      await root.until((ms) => ms.filter((m) => m.name === 'playerScore')[2 * game + 1], '<playerScore>');
    }
    root.send('\n  <sc.protocol.responses.CloseConnection/>');
    await root.closed;
    assert.ok(root.text.endsWith('</protocol>'));
    const scores = root.messages.filter((m) => m.name === 'playerScore').map((m) => child(m, 'score')!);
    assert.deepEqual(
      scores.map((score) => [attr(score, 'displayName'), attr(score, 'numberOfTests')]),
      [
        ['player1', '1'],
        ['player2', '1'],
        ['player1', '2'],
        ['player2', '2'],
      ],
    );
    const gewinner = (score: XmlElement): number => Number(child(score.children[0]!, 'value')!.text);
    assert.equal(gewinner(scores[2]!) + gewinner(scores[3]!), 2 * games, 'two match points a game');
    assert.equal(attr(child(child(scores[0]!, 'values')!, 'fragment')!, 'name'), 'Gewinner');
  });

  test('the standalone socha client program plays a whole game against the port', async () => {
    const run = (): Promise<{ code: number | null; stdout: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [SOCHA_CLIENT, '-h', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.on('close', (code) => resolve({ code, stdout }));
      });
    const [a, b] = await Promise.all([run(), run()]);
    assert.equal(a.code, 0);
    assert.equal(b.code, 0);
    const outcomes = [a, b].map((r) => /^(RED|BLUE) (won|lost) in room \S+ after \d+ moves \(\d+ of ours\): \d+ \d+ \d+\n$/.exec(r.stdout)?.slice(1, 3).join(' '));
    assert.deepEqual([...outcomes].map((o) => o?.split(' ')[1]).sort(), ['lost', 'won'], JSON.stringify([a, b]));
  });
});

/** Two joined clients; RED answers its first request with `first`, every other with a random move. */
async function game(port: number, first: (state: Parameters<Answer>[0], roomId: string) => Promise<string | null>): Promise<XmlElement> {
  const moves = randomMoves('t');
  const answer: Answer = (state, roomId) => (state.turn === 0 ? first(state, roomId) : moves(state, roomId));
  const a = SochaPeer.open(port, JOIN, answer);
  const b = SochaPeer.open(port, JOIN, answer);
  await Promise.all([a.closed, b.closed]);
  const result = a.all('result')[0] ?? b.all('result')[0];
  assert.ok(result, a.text + b.text);
  return result;
}

describe('the Software-Challenge port with a small soft limit and no administrator password', () => {
  let server: ServerProcess;
  let port: number;
  // The hard limit is far away, so that a late move is judged by the soft limit alone.
  before(async () => ({ server, port } = await sochaServer(['--socha-soft-timeout', '0.2', '--socha-hard-timeout', '300'])));
  after(async () => server?.stop());

  test('without --socha-password every authenticate is refused', async () => {
    const peer = SochaPeer.open(port, `<protocol><authenticate passphrase=""/>`);
    await peer.closed;
    assert.equal(peer.text, REFUSED);
    await server.waitForLog(/admin commands are off \(no --socha-password\); connection closed/);
  });

  test('a move after the soft limit is discarded and loses with SOFT_TIMEOUT', async () => {
    const result = await game(port, async (_state, roomId) => {
      // Being late is the behaviour under test: 0.5 s at least after the request, more on a busy
      // machine, is always past the 0.2 s soft limit and short of the 300 s hard limit.
      await delay(500);
      return renderClientMove(roomId, { actions: [{ type: 'advance', order: 0, distance: 1 }], hints: [] });
    });
    assert.deepEqual(causes(result), ['SOFT_TIMEOUT', 'REGULAR']);
    assert.deepEqual(points(result), [0, 2]);
  });
});

describe('the Software-Challenge port with a small hard limit', () => {
  let server: ServerProcess;
  let port: number;
  before(async () => ({ server, port } = await sochaServer(['--socha-soft-timeout', '0.2', '--socha-hard-timeout', '1'])));
  after(async () => server?.stop());

  test('no move within the hard limit loses with HARD_TIMEOUT without waiting for it', async () => {
    // RED never answers and keeps its connection open: only the hard limit can end this game.
    const result = await game(port, async () => null);
    assert.deepEqual(causes(result), ['HARD_TIMEOUT', 'REGULAR']);
  });
});
