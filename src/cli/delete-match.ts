/**
 * `coco delete ID`: removes a waiting match from the lobby (LobbyDeleteMatch, an extension of
 * the coco protocol: docs/protocol.md). The server lets the address that made the match delete
 * it, and the master password delete any; `coco tournament` uses it to take back the matches it
 * made when it is stopped before they start.
 */
import { CocoClient } from '../client/coco-client.js';
import { CliError, EXIT } from './exit-status.js';
import { refused } from './refusals.js';

/**
 * How long `coco tournament`, once stopped, waits for the server to take back its unstarted
 * matches (connection and each answer): Ctrl-C must not hang on a server that went away; what is
 * left then expires on the server.
 */
export const CLEANUP_WAIT_MS = 3_000;

/** The connection closed instead of answering: a server without the extension (the reference) closes on a request it does not know. */
export const NO_DELETE = 'this server does not delete matches (it has no LobbyDeleteMatch: a reference server?); the match expires on its own';

/** Deletes waiting match `id` over `client`: its id as the server spells it, or the refusal (status 3). */
export async function deleteMatch(client: CocoClient, id: string, verification: string | null): Promise<string> {
  let reply;
  try {
    reply = await client.request({ type: 'LobbyDeleteMatch', id, verification }, 'LobbyDeletedMatch');
  } catch (error) {
    if (client.closedBecause.startsWith('the server closed the connection')) throw new CliError(NO_DELETE, EXIT.error);
    throw error;
  }
  if ('Err' in reply.id) throw refused(reply.id.Err, id);
  return reply.id.Ok;
}

/**
 * Deletes what `coco tournament` made and did not play, each on its own connection's request;
 * what cannot be deleted (it started meanwhile, it is gone, the server cannot) is left to the
 * server, which ends or expires it. Returns the ids deleted.
 */
export async function deleteOwnMatches(url: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  let client: CocoClient;
  try {
    client = await CocoClient.connect(url, { connectMs: CLEANUP_WAIT_MS, replyMs: CLEANUP_WAIT_MS });
  } catch {
    return [];
  }
  const deleted: string[] = [];
  try {
    for (const id of ids) {
      try {
        deleted.push(await deleteMatch(client, id, null));
      } catch (error) {
        if (client.closedBecause !== '') break;
        if (!(error instanceof CliError && error.status === EXIT.refused)) throw error;
      }
    }
  } catch {
    // Best effort: the matches expire on the server anyway.
  } finally {
    client.close();
  }
  return deleted;
}
