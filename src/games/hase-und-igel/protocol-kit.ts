import type { LocalPlayer } from '../../match/local-match.js';
import { CLIENT_CLOSING, SochaClientState, renderClientMove } from './bot.js';
import { GAME_TYPE } from './messages.js';
import type { GameState, Move } from './rules.js';

/** What a scripted client does when asked for a move: text to send, or null to stay silent. */
export type Responder = (state: GameState, request: number, roomId: string) => string | null | Promise<string | null>;

export interface ScriptedClientOptions {
  /** Sent after `<protocol>`, as a real client sends its join (default: a join element). */
  readonly greeting?: string;
  /** Close politely after the game (default true). */
  readonly close?: boolean;
  /** Everything the client saw, for assertions. */
  readonly seen?: SochaClientState[];
}

/**
 * A Software-Challenge client for tests: it opens its stream, joins, and answers every move request
 * with what `respond` returns; after the game it sends the close element and `</protocol>`.
 */
export function scriptedClient(respond: Responder, options: ScriptedClientOptions = {}): LocalPlayer {
  return async (io) => {
    const client = new SochaClientState();
    options.seen?.push(client);
    io.write(`<protocol>\n${options.greeting ?? `  <join gameType="${GAME_TYPE}"/>\n`}`);
    let requests = 0;
    for (;;) {
      const line = await io.readLine();
      if (line === null) return;
      const asked = client.push(`${line}\n`);
      for (let i = 0; i < asked; i++) {
        const text = await respond(client.state!, ++requests, client.roomId!);
        if (text !== null) io.write(text);
      }
      if (client.finished) {
        if (options.close ?? true) io.write(CLIENT_CLOSING);
        return;
      }
    }
  };
}

/** A responder that plays `choose(state)` as a well-formed move. */
export function playing(choose: (state: GameState) => Move): Responder {
  return (state, _request, roomId) => renderClientMove(roomId, choose(state));
}
