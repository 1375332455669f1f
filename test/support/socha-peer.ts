import { connect, type Socket } from 'node:net';
import { CLIENT_CLOSING, SochaClientState, renderClientMove } from '../../src/games/hase-und-igel/bot.js';
import { GAME_TYPE } from '../../src/games/hase-und-igel/messages.js';
import { legalMoves } from '../../src/games/hase-und-igel/moves.js';
import type { GameState } from '../../src/games/hase-und-igel/rules.js';
import { attr, child, type XmlElement } from '../../src/games/hase-und-igel/xml/xml-element.js';
import { SERVER_XML_LIMITS, XmlStreamReader } from '../../src/games/hase-und-igel/xml/xml-reader.js';
import { Random } from '../../src/match/random.js';

/** What a player does when asked for a move: text to send (now or later), or null to stay silent. */
export type Answer = (state: GameState, roomId: string) => string | null | Promise<string | null>;

export const JOIN = `<protocol>\n  <join gameType="${GAME_TYPE}"/>\n`;
export const joinPrepared = (code: string): string => `<protocol>\n  <joinPrepared reservationCode="${code}"/>\n`;

/**
 * A plain TCP client of the Software-Challenge port for tests: it records the server's raw text and
 * every message (child of the server's root), and, as a player, answers move requests.
 */
export class SochaPeer {
  text = '';
  readonly messages: XmlElement[] = [];
  /** How many move requests this client received. */
  requests = 0;
  readonly client = new SochaClientState();
  readonly closed: Promise<void>;
  private readonly reader = new XmlStreamReader(SERVER_XML_LIMITS);
  private readonly waiters = new Set<() => void>();
  private isClosed = false;

  private constructor(
    readonly socket: Socket,
    private readonly answer: Answer | null,
    private readonly politeClose: boolean,
  ) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onText(chunk));
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        this.wake();
        resolve();
      }),
    );
  }

  /** Connects and sends `opening`; `answer` makes it a player, null only listens (an administrator). */
  static open(port: number, opening: string | Buffer, answer: Answer | null = null, politeClose = true): SochaPeer {
    const socket = connect(port, '127.0.0.1');
    const peer = new SochaPeer(socket, answer, politeClose);
    socket.write(opening);
    return peer;
  }

  send(text: string): void {
    if (!this.socket.destroyed) this.socket.write(text);
  }

  /** Waits until `look` finds something in the messages so far; rejects if the connection closes first. */
  async until<T>(look: (messages: readonly XmlElement[]) => T | undefined, what: string): Promise<T> {
    for (;;) {
      const found = look(this.messages);
      if (found !== undefined) return found;
      if (this.isClosed) throw new Error(`connection closed before ${what}; received:\n${this.text}`);
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /** The first message named `name`. */
  message(name: string): Promise<XmlElement> {
    return this.until((messages) => messages.find((m) => m.name === name), `<${name}>`);
  }

  /** The `data` element of the room message number `nth` (from 0) of class `cls`. */
  data(cls: string, nth = 0): Promise<XmlElement> {
    return this.until(() => this.all(cls)[nth], `<data class="${cls}"> number ${nth}`);
  }

  /** The `data` elements of every room message of class `cls` so far. */
  all(cls: string): XmlElement[] {
    return this.messages.flatMap((m) => roomData(m, cls) ?? []);
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }

  private onText(chunk: string): void {
    this.text += chunk;
    for (const event of this.reader.push(chunk)) if (event.kind === 'message') this.messages.push(event.element);
    const asked = this.client.push(chunk);
    for (let i = 0; i < asked; i++) {
      this.requests++;
      if (this.answer && this.client.state && this.client.roomId) {
        const reply = this.answer(this.client.state, this.client.roomId);
        void Promise.resolve(reply).then((text) => text !== null && this.send(text));
      }
    }
    if (this.client.finished && this.answer && this.politeClose && !this.socket.writableEnded) this.socket.end(CLIENT_CLOSING);
    this.wake();
  }
}

/** The `data` child of a `<room>` message if its class is `cls`. */
export function roomData(message: XmlElement, cls: string): XmlElement | null {
  if (message.name !== 'room') return null;
  const data = child(message, 'data');
  return data && attr(data, 'class') === cls ? data : null;
}

/** Answers with seeded random legal moves. */
export function randomMoves(seed: string): Answer {
  const random = Random.fromSeed(seed);
  return (state, roomId) => renderClientMove(roomId, random.pick(legalMoves(state)));
}

/** The causes of the two scores of a result (RED first). */
export function causes(result: XmlElement): string[] {
  return result.children.filter((c) => c.name === 'score').map((score) => attr(score, 'cause') ?? '');
}

/** The match points of the two scores of a result (RED first). */
export function points(result: XmlElement): number[] {
  return result.children.filter((c) => c.name === 'score').map((score) => Number(score.children[0]?.text));
}
