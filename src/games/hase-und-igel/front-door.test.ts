import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openGameArgs, parseClientRequest, preparedGameArgs, renderJoinedGameRoom, renderPlayerScore, renderPrepared, renderTesting } from './front-door.js';
import { XmlStreamReader } from './xml/xml-reader.js';
import type { XmlElement } from './xml/xml-element.js';

/** Reads the children of a client's `<protocol>` from raw text, as the front door will. */
function read(text: string): XmlElement[] {
  return new XmlStreamReader().push(text).flatMap((e) => (e.kind === 'message' ? [e.element] : []));
}

const readElement = (text: string): XmlElement => read(`<protocol>${text}`)[0]!;

test('join and joinPrepared are read from a client stream', () => {
  const [join, prepared] = read('<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>\n  <joinPrepared reservationCode="RC-1"/>\n');
  assert.deepEqual(parseClientRequest(join!), { ok: true, value: { kind: 'join', gameType: 'swc_2018_hase_und_igel' } });
  assert.deepEqual(parseClientRequest(prepared!), { ok: true, value: { kind: 'joinPrepared', reservationCode: 'RC-1' } });
});

test('authenticate and the admin commands prepare, observe, pause, step and cancel are read', () => {
  const elements = read(
    '<protocol><authenticate passphrase="examplepassword"/>' +
      '<prepare gameType="swc_2018_hase_und_igel">\n  <slot displayName="p1" canTimeout="false" shouldBePaused="true"/>\n' +
      '  <slot displayName="p2" canTimeout="true" shouldBePaused="false"/>\n</prepare>' +
      '<observe roomId="R"/><pause roomId="R" pause="false" /><step roomId="R" forced="false"/><cancel roomId="R"/>',
  );
  assert.deepEqual(
    elements.map((element) => {
      const request = parseClientRequest(element);
      return request.ok ? request.value : request.error;
    }),
    [
      { kind: 'authenticate', passphrase: 'examplepassword' },
      {
        kind: 'prepare',
        gameType: 'swc_2018_hase_und_igel',
        slots: [
          { displayName: 'p1', canTimeout: false, shouldBePaused: true, bot: false },
          { displayName: 'p2', canTimeout: true, shouldBePaused: false, bot: false },
        ],
      },
      { kind: 'observe', roomId: 'R' },
      { kind: 'pause', roomId: 'R', pause: false },
      { kind: 'step', roomId: 'R', forced: false },
      { kind: 'cancel', roomId: 'R' },
    ],
  );
});

test('close elements and room messages are recognised; the room message is kept whole for the seat', () => {
  const [close, closeConnection, room] = read('<protocol><close/><sc.protocol.responses.CloseConnection/><room roomId="R"><data class="move"/></room>');
  assert.deepEqual(parseClientRequest(close!), { ok: true, value: { kind: 'close' } });
  assert.deepEqual(parseClientRequest(closeConnection!), { ok: true, value: { kind: 'close' } });
  const parsed = parseClientRequest(room!);
  assert.ok(parsed.ok && parsed.value.kind === 'room' && parsed.value.element.children[0]!.name === 'data');
});

test('unknown requests, missing attributes, bad booleans and bad slots are refused with stable codes', () => {
  const codes = read(
    '<protocol><frobnicate/><join/><observe/><pause roomId="R" pause="perhaps"/>' +
      '<prepare gameType="g"><slot/><slot/><slot/></prepare><prepare gameType="g"><seat/></prepare>',
  ).map((element) => {
    const request = parseClientRequest(element);
    return request.ok ? 'ok' : request.error;
  });
  assert.deepEqual(codes, ['request/unknown', 'request/missing-attribute', 'request/missing-attribute', 'request/bad-boolean', 'request/bad-slot', 'request/bad-slot']);
});

test('the prepared reply lists the room and the reservation codes', () => {
  assert.equal(
    renderPrepared('871faccb-5190-4e44-82fc-6cdcbb493726', ['RC1', 'RC2']),
    '\n  <prepared roomId="871faccb-5190-4e44-82fc-6cdcbb493726">\n    <reservation>RC1</reservation>\n    <reservation>RC2</reservation>\n  </prepared>',
  );
  assert.equal(renderJoinedGameRoom('R', false), '\n  <joinedGameRoom roomId="R" existing="false"/>');
});

test('prepared slots become the game arguments of the room', () => {
  assert.deepEqual(
    preparedGameArgs('R', [
      { displayName: 'Team Rocket', canTimeout: false, shouldBePaused: true, bot: false },
      { displayName: 'p2', canTimeout: true, shouldBePaused: true, bot: false },
    ]),
    { room: 'R', canTimeout: 'false,true', paused: 'true', redName: 'Team Rocket', blueName: 'p2' },
  );
  assert.deepEqual(openGameArgs('R'), { room: 'R', redName: 'Unknown', blueName: 'Unknown' });
});

test('the test-mode requests are read, and answered with the exact bytes of the real server', () => {
  const parse = (xml: string) => {
    const request = parseClientRequest(readElement(xml));
    return request.ok ? request.value : request.error;
  };
  assert.deepEqual(parse('<testMode testMode="true"/>'), { kind: 'testMode', testMode: true });
  assert.deepEqual(parse('<scoreForPlayer displayName="player1"/>'), { kind: 'scoreForPlayer', displayName: 'player1' });
  assert.deepEqual(parse('<freeReservation reservation="RC"/>'), { kind: 'freeReservation', reservation: 'RC' });
  assert.equal(parse('<scoreForPlayer/>'), 'request/missing-attribute');
  assert.equal(renderTesting(true), '\n  <testing testMode="true"/>');
  const fragment = (name: string, aggregation: string) =>
    `\n        <fragment name="${name}">\n          <aggregation>${aggregation}</aggregation>\n          <relevantForRanking>true</relevantForRanking>\n        </fragment>`;
  const values = (name: string, aggregation: string, value: string) => `\n      <values>${fragment(name, aggregation)}\n        <value>${value}</value>\n      </values>`;
  assert.equal(
    renderPlayerScore({ displayName: 'player1', games: 2, values: [3, 30.5, 7] }),
    '\n  <playerScore>\n    <score displayName="player1" numberOfTests="2">' +
      values('Gewinner', 'SUM', '3') +
      values('∅ Feldnummer', 'AVERAGE', '30.500000') +
      values('∅ Karotten', 'AVERAGE', '7.000000') +
      '\n    </score>\n  </playerScore>',
  );
  // The real server's bytes: a mean with six decimals, and an unknown name's empty score.
  assert.match(renderPlayerScore({ displayName: 'p', games: 5, values: [1, 309.00006 / 5, 1] }), /<value>61\.800012<\/value>/);
  assert.equal(renderPlayerScore(null), '\n  <playerScore/>');
});

test('a slot marked bot="true" is for the server bot', () => {
  const request = parseClientRequest(readElement('<prepare gameType="g"><slot displayName="me"/><slot displayName="bot" bot="true"/></prepare>'));
  assert.ok(request.ok && request.value.kind === 'prepare');
  assert.deepEqual(
    request.value.slots.map((slot) => slot.bot),
    [false, true],
  );
});
