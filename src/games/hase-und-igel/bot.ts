import type { BotEnv, BotIO } from '../../match/game.js';
import { CLOSE_CONNECTION, GAME_TYPE, MOVE_REQUEST_CLASS, moveMessageElement } from './messages.js';
import { searchForMove } from '../../match/bot-time.js';
import type { GameState, Move } from './rules.js';
import type { SearchOptions } from './search.js';
import { parseState } from './state-xml.js';
import { attr, child, type XmlElement } from './xml/xml-element.js';
import { SERVER_XML_LIMITS, XmlStreamReader, type XmlEvent } from './xml/xml-reader.js';
import { renderElement, STREAM_OPENING } from './xml/xml-writer.js';

/** Search bounds of the server bot: a few milliseconds per move on average, far inside the 2 s soft limit. */
export const SERVER_BOT_SEARCH: SearchOptions = { maxDepth: 3, maxNodes: 20000 };
/**
 * The server bot's time bound per move, on top of its node budget: on a busy machine (other
 * matches' searches sharing the workers) the nodes alone could outlast the soft limit. Capped below
 * the soft limit and counted from the move request (match/bot-time.ts).
 */
export const SERVER_BOT_MILLIS = 1000;

const SEARCH_MODULE = new URL('./search.js', import.meta.url).href;

/**
 * A Software-Challenge client's view of the server's stream: the room, the latest state, when a
 * move is wanted and when the game is over. Fed with text chunks; shared by the server bot and the
 * standalone TCP client.
 */
export class SochaClientState {
  roomId: string | null = null;
  color: 'RED' | 'BLUE' | null = null;
  state: GameState | null = null;
  /** The result message, once it came. */
  result: XmlElement | null = null;
  /** An error message the server sent about one of our moves. */
  error: string | null = null;
  finished = false;
  private readonly reader = new XmlStreamReader(SERVER_XML_LIMITS);

  /** Feeds server output; returns how many move requests began in it. */
  push(chunk: string): number {
    return this.handle(this.reader.push(chunk));
  }

  end(): void {
    this.handle(this.reader.end());
    this.finished = true;
  }

  private handle(events: readonly XmlEvent[]): number {
    let requests = 0;
    for (const event of events) {
      switch (event.kind) {
        case 'open':
          // The server ends a message without a line break, so act on the request's start tag.
          if (event.depth === 2 && event.name === 'data' && event.attributes.some(([k, v]) => k === 'class' && v === MOVE_REQUEST_CLASS)) {
            requests++;
          }
          break;
        case 'message':
          this.onMessage(event.element);
          break;
        case 'root-close':
        case 'end':
        case 'error':
          this.finished = true;
          break;
        default:
          break;
      }
    }
    return requests;
  }

  private onMessage(element: XmlElement): void {
    if (element.name === 'joined') this.roomId = attr(element, 'roomId') ?? this.roomId;
    if (element.name === 'left' || element.name === CLOSE_CONNECTION) this.finished = true;
    if (element.name !== 'room') return;
    this.roomId = attr(element, 'roomId') ?? this.roomId;
    const data = child(element, 'data');
    switch (data && attr(data, 'class')) {
      case 'welcomeMessage':
        this.color = attr(data!, 'color')?.toUpperCase() === 'BLUE' ? 'BLUE' : 'RED';
        break;
      case 'memento': {
        const stateElement = child(data!, 'state');
        const parsed = stateElement ? parseState(stateElement) : null;
        if (parsed?.ok) this.state = parsed.value.state;
        break;
      }
      case 'result':
        this.result = data!;
        break;
      case 'error':
        this.error = attr(data!, 'message') ?? 'error';
        break;
      default:
        break;
    }
  }
}

/** A move as a client writes it, ended with a line break so that line-based transports pass it on at once. */
export function renderClientMove(roomId: string, move: Move): string {
  return `  ${renderElement(moveMessageElement(roomId, move), 1)}\n`;
}

/** What a client writes to leave: the close element and the end of its stream. */
export const CLIENT_CLOSING = `  <${CLOSE_CONNECTION}/>\n</protocol>\n`;

/**
 * The server bot: a Software-Challenge client on the seat's line stream, searching off the event
 * loop. It joins as a client does (the game starts once both players have). `limitSeconds` is the
 * time a move may take (the soft limit, or Infinity when the seat has none).
 */
export async function playHaseBot(io: BotIO, env: BotEnv, limitSeconds: number, search: SearchOptions = SERVER_BOT_SEARCH): Promise<void> {
  io.write(`${STREAM_OPENING}\n  <join gameType="${GAME_TYPE}"/>\n`);
  const client = new SochaClientState();
  for (;;) {
    const line = await io.readLine();
    if (line === null) return;
    const requests = client.push(`${line}\n`);
    if (requests > 0 && client.state && client.roomId) {
      const state = client.state;
      const move = await searchForMove<Move>(env.compute, SEARCH_MODULE, 'chooseMove', search.maxMillis ?? SERVER_BOT_MILLIS, limitSeconds, (ms) => [
        state,
        ms === undefined ? search : { ...search, maxMillis: ms },
      ]);
      io.write(renderClientMove(client.roomId, move));
    }
    if (client.finished) {
      io.write(CLIENT_CLOSING);
      return;
    }
  }
}
