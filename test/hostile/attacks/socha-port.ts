import type { Socket } from 'node:net';
import type { Random } from '../../../src/match/random.js';
import { ATTACKER, attackerAddress } from '../addresses.js';
import type { Attack, AttackContext } from '../attack.js';
import { FORGED_LINE } from '../checks.js';

/** The forged line as it must stand inside an XML attribute. */
const FORGED_IN_XML = FORGED_LINE.replaceAll('"', '&quot;');
import { inParallel, tcpWrite, whenClosed } from '../net.js';
import { SOCHA_PASSWORD, WRONG_PASSWORD_PREFIX } from '../server.js';
import { recordedMatch, seatChecks, type HostileOutcome } from './seats.js';

const KiB = 1024;
const MiB = 1 << 20;
const JOIN = '<protocol>\n  <join gameType="swc_2018_hase_und_igel"/>\n';

async function connect(context: AttackContext, address = ATTACKER): Promise<Socket | null> {
  try {
    return await context.net.tcp(context.server.sochaPort, address);
  } catch {
    return null;
  }
}

/**
 * Routes the port's log lines to the connection they name (by the client's port): every first
 * request the port judges is logged with the client's address and port.
 */
class PortLines {
  private readonly handlers = new Map<string, (text: string) => void>();
  private readonly off: () => void;

  constructor(context: AttackContext) {
    this.off = context.server.onLine((line) => {
      const found = /^socha port (\S+:\d+): (.*)$/.exec(line);
      if (found) this.handlers.get(found[1]!)?.(found[2]!);
    });
  }

  /** Resolves with the first log line about `socket`, or null when the socket closes first. */
  next(socket: Socket): Promise<string | null> {
    const key = `${socket.localAddress}:${socket.localPort}`;
    return new Promise((resolve) => {
      this.handlers.set(key, (text) => {
        this.handlers.delete(key);
        resolve(text);
      });
      socket.once('close', () => {
        this.handlers.delete(key);
        resolve(null);
      });
    });
  }

  close(): void {
    this.off();
  }
}

/**
 * Sends an opening the port must refuse and waits for it to close the connection (at once, or at
 * its byte limit, never by a timeout). An opening the port takes is counted and ended by the attacker.
 */
async function refused(context: AttackContext, lines: PortLines, opening: string | Buffer, address = ATTACKER): Promise<'refused' | 'accepted'> {
  const socket = await connect(context, address);
  context.tried();
  if (!socket) return 'refused';
  socket.resume();
  const judged = lines.next(socket);
  const bytes = typeof opening === 'string' ? Buffer.from(opening) : opening;
  // In pieces: a port that refuses at its limit stops reading, and the rest need not be sent.
  for (let at = 0; at < bytes.length && !socket.destroyed && socket.writable; at += 64 * KiB) await tcpWrite(socket, bytes.subarray(at, at + 64 * KiB));
  const verdict = await judged;
  // (A refusal's line may be split by a line break the client smuggled in: look for what acceptance says.)
  const accepted = verdict !== null && /joined room|took a reserved seat|administrator authenticated/.test(verdict);
  if (accepted) socket.end();
  await whenClosed(socket);
  return accepted ? 'accepted' : 'refused';
}

/** Runs `count` refusals; notes any opening the port took. */
async function refusals(context: AttackContext, count: number, opening: (i: number) => string | Buffer): Promise<void> {
  const lines = new PortLines(context);
  let accepted = 0;
  try {
    await inParallel(count, 8, async (i) => {
      if ((await refused(context, lines, opening(i))) === 'accepted') accepted++;
    });
  } finally {
    lines.close();
  }
  if (accepted) context.note(`${accepted} of ${count} openings were taken`);
}

function openings(random: Random, kind: 'deep' | 'huge' | 'entity' | 'comments', context: AttackContext): string {
  const big = (): number => context.scale(1, 15) * MiB;
  switch (kind) {
    case 'deep': {
      const depth = random.pick([9, 100, 10_000, 100_000]);
      return random.bit() ? `<protocol>${'<a>'.repeat(depth)}` : `<protocol><join gameType="swc_2018_hase_und_igel">${'<x k="v">'.repeat(depth)}`;
    }
    case 'huge':
      return random.pick([
        () => `<protocol><join gameType="${'x'.repeat(big())}"/>`,
        () => `<protocol><join>${'t'.repeat(big())}</join>`,
        () => `<protocol><${'n'.repeat(big())}/>`,
        () => `<protocol><join ${Array.from({ length: 10_000 }, (_, i) => `a${i}="v"`).join(' ')}/>`,
        () => `<protocol><join gameType="swc_2018_hase_und_igel"><![CDATA[${'c'.repeat(big())}]]></join>`,
      ])();
    case 'entity':
      return random.pick([
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><protocol><join gameType="&lol3;"/>',
        '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><protocol><join gameType="&xxe;"/>',
        '<protocol><join gameType="&undefined;"/>',
        '<protocol><join gameType="&#0;"/>',
        '<protocol><join gameType="&#xD800;"/>',
        '<protocol><join gameType="&#x110000;"/>',
        `<protocol><join gameType="${'&amp;'.repeat(20_000)}"/>`,
        '<protocol><!DOCTYPE protocol><join gameType="swc_2018_hase_und_igel"/>',
        '<?xml-stylesheet href="x"?><protocol><?pi data?><join gameType="swc_2018_hase_und_igel&#9;"/>',
      ]);
    case 'comments':
      return `<protocol>${`<!-- ${'c'.repeat(40)} -->`.repeat(Math.ceil(context.scale(1, 16) * MiB / 49))}`;
  }
}

function refusalAttack(name: string, kind: 'deep' | 'huge' | 'entity' | 'comments', summary: string, base: number): Attack {
  return {
    name,
    door: 'socha port',
    summary,
    async run(context) {
      await refusals(context, context.scale(base, 50 * base), () => openings(context.random, kind, context));
    },
  };
}

export const sochaDeepNesting = refusalAttack('socha-deep-nesting', 'deep', 'first requests nested 9 to 100,000 levels deep', 20);
export const sochaHugeTokens = refusalAttack('socha-huge-tokens', 'huge', 'first requests with megabytes of attribute, text, name or CDATA, or 10,000 attributes', 12);
export const sochaEntityTricks = refusalAttack('socha-entity-tricks', 'entity', 'DOCTYPEs (billion laughs, external entities), unknown entities, bad character references', 30);
export const sochaCommentsBefore = refusalAttack('socha-comments-before-request', 'comments', 'XML comments instead of a first request, megabytes of them', 8);

export const sochaUnclosedTags: Attack = {
  name: 'socha-unclosed-tags',
  door: 'socha port',
  summary: '300 connections whose first request never ends (an open tag, attribute, comment or declaration), left open',
  async run(context) {
    const partial = ['<protocol><join gameType="swc_2018_hase_und_igel"', '<protocol><join gameType="swc_', '<protocol><!-- never closed', '<?xml version="1.0"', '<protocol', '<protocol><join>', ''];
    let open = 0;
    await inParallel(context.scale(300, 3000), 32, async (i) => {
      const socket = await connect(context);
      context.tried();
      if (!socket) return;
      await tcpWrite(socket, partial[i % partial.length]!);
      if (!socket.destroyed) open++;
    });
    context.note(`${open} left open`);
  },
};

export const sochaWrongPasswords: Attack = {
  name: 'socha-wrong-passwords',
  door: 'socha port',
  summary: 'authenticate with wrong passphrases at high rate from one address; then an administrator from another address',
  async run(context) {
    const variants = (random: Random, i: number): string => {
      const guess = `${WRONG_PASSWORD_PREFIX}socha-${i}-${random.uint32().toString(36)}`;
      return random.pick([
        `<protocol><authenticate passphrase="${guess}"/>`,
        `<protocol>\n  <authenticate passphrase="${guess}"/>\n`,
        `<protocol><authenticate passphrase="${guess}&#10;${FORGED_IN_XML}"/>`,
        `<protocol><authenticate passphrase="${guess}" passphrase="${guess}"/>`,
        `<protocol><authenticate passphrase="${guess}${'x'.repeat(60 * KiB)}"/>`,
        `<protocol><authenticate passphrase="${guess}"><prepare gameType="swc_2018_hase_und_igel"/></authenticate>`,
      ]);
    };
    await refusals(context, context.scale(500, 20_000), (i) => variants(context.random, i));
    // The right passphrase from elsewhere must still work: a flood from one address locks out nobody else.
    const admin = await connect(context, attackerAddress(200));
    let text = '';
    const accepted = await new Promise<boolean>((resolve) => {
      if (!admin) return resolve(false);
      const off = context.server.onLine((line) => {
        if (line.includes(`socha port ${attackerAddress(200)}:${admin.localPort}: `)) {
          off();
          resolve(line.includes('administrator authenticated'));
        }
      });
      admin.on('data', (chunk: Buffer) => (text += chunk.toString()));
      admin.once('close', () => resolve(false));
      admin.write(`<protocol><authenticate passphrase="${SOCHA_PASSWORD}"/>`);
    });
    admin?.end('</protocol>');
    context.check('an administrator from another address still authenticates after the flood', accepted, accepted ? '' : `refused${text ? `: ${text.slice(0, 100)}` : ''}`);
  },
};

export const sochaForgedGameType: Attack = {
  name: 'socha-forged-game-type',
  door: 'socha port',
  summary: 'join with a game type holding line breaks (&#10; &#13;) and 60 KB of text, which the port names when it refuses',
  async run(context) {
    const types = [`x&#10;${FORGED_IN_XML}`, `x&#13;&#10;${FORGED_IN_XML}`, `x&#13;${FORGED_IN_XML}`, 'T'.repeat(60 * KiB), `${'T'.repeat(3000)}&#10;${FORGED_IN_XML}`];
    await refusals(context, context.scale(20, 500), (i) => `<protocol><join gameType="${types[i % types.length]}"/>`);
  },
};

/**
 * Two attackers join a room of the port; one then streams complete comments, never a line break,
 * and leaves; the other only reads. The comments go to a running seat (text framing).
 */
export const sochaPlayerComments: Attack = {
  name: 'socha-player-comments',
  door: 'socha port',
  summary: 'a player seated through the port streams 24 MiB (fuzz: budget times more) of XML comments, never a line break',
  async run(context) {
    const address = attackerAddress(7);
    const matchOf = new Map<number, (id: string) => void>();
    const off = context.server.onLine((line) => {
      const found = /socha port \S+:(\d+): player\d+ joined room \S+ \(match ([0-9a-v]{13})\)/.exec(line);
      if (found) matchOf.get(Number(found[1]))?.(found[2]!);
    });
    const join = async (): Promise<{ socket: Socket; id: Promise<string>; started: Promise<void> } | null> => {
      const socket = await connect(context, address);
      if (!socket) return null;
      const id = new Promise<string>((resolve) => matchOf.set(socket.localPort!, resolve));
      // The game's first bytes (`<protocol>`, `<joined .../>`) say the match has started.
      const started = new Promise<void>((resolve) => socket.once('data', () => resolve()));
      socket.resume();
      await tcpWrite(socket, JOIN);
      return { socket, id, started };
    };
    const streamer = await join();
    const reader = await join();
    if (!streamer || !reader) return off(), context.note('refused');
    const id = await Promise.race([streamer.id, whenClosed(streamer.socket).then(() => null)]);
    off();
    if (!id) return context.note('the streamer was never seated');
    // Bytes sent before the start would wait in the port's buffer and reach the seat all at once
    // (a flood the seat refuses): the attack would end before it began.
    await Promise.race([streamer.started, whenClosed(streamer.socket)]);
    const unit = Buffer.from(`<!-- ${'c'.repeat(40)} -->`.repeat(1337));
    const total = context.scale(24, 1024) * MiB;
    for (let sent = 0; sent < total && !streamer.socket.destroyed; sent += unit.length) {
      await tcpWrite(streamer.socket, unit);
      context.tried();
    }
    streamer.socket.end();
    await Promise.all([whenClosed(streamer.socket), whenClosed(reader.socket)]);
    const outcomes: HostileOutcome[] = [];
    outcomes.push((await context.watch.deleted(id)) ? await recordedMatch(context, id, address, 'comments-forever') : { mode: 'comments-forever', id, unrecorded: 'the match never ended', largestTranscript: 0 });
    seatChecks(context, outcomes);
  },
};

export const SOCHA_PORT_ATTACKS: readonly Attack[] = [
  sochaDeepNesting,
  sochaHugeTokens,
  sochaUnclosedTags,
  sochaCommentsBefore,
  sochaEntityTricks,
  sochaWrongPasswords,
  sochaForgedGameType,
  sochaPlayerComments,
];
