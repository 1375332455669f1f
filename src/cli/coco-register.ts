import type { CocoClient } from '../client/coco-client.js';
import { CliError, EXIT, UsageError } from './exit-status.js';
import { refused } from './refusals.js';
import { forgetToken, loadToken, saveToken } from './token-store.js';

export const REGISTER_HELP = `  register NAME          claim player NAME on this server: only coco with its token
                         can play it from now on; the token is kept in your config
                         folder (~/.config/coco/tokens/, one file per server, mode 0600)
                         and sent by coco connect -n NAME on this server
      --rotate               replace NAME's token (the current one is needed: kept,
                             --token-file or COCO_TOKEN); the old one stops working
      --release              free NAME (the operator's: needs -v, the master password)
      -v, --verification PW  the server's master password, for --release
      --token-file FILE      write the new token to FILE (mode 0600) instead, and read
                             the current one from it for --rotate; for bots on other
                             machines, which read it with coco connect --token-file FILE
                             or the environment variable COCO_TOKEN
`;

export interface RegisterOptions {
  readonly url: string;
  readonly name: string;
  readonly mode: 'register' | 'rotate' | 'release';
  readonly verification?: string;
  readonly tokenFile?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the status lines go (coco's stdout, with the "> " coco puts before each). */
  readonly status: (line: string) => void;
}

/**
 * `coco register`: claims a name, rotates its token or releases it, through the coco protocol's
 * name requests (docs/protocol.md). A server without them (the reference) closes the connection
 * at the unknown request: said so in words.
 */
export async function register(client: CocoClient, options: RegisterOptions): Promise<void> {
  const { url, name, status } = options;
  const opts = { ...(options.tokenFile !== undefined && { tokenFile: options.tokenFile }), ...(options.env && { env: options.env }) };
  try {
    if (options.mode === 'register') {
      const { token } = await client.request({ type: 'NameRegister', name }, 'NameRegistered');
      if ('Err' in token) throw refused(token.Err);
      const where = await saveToken(url, name, token.Ok, opts);
      status(`registered "${name}" on ${url}; its token is in ${where}`);
      return;
    }
    if (options.mode === 'rotate') {
      const current = await loadToken(url, name, opts);
      if (current === undefined) throw new CliError(`no token of "${name}" for ${url} is kept here: give it with --token-file FILE or COCO_TOKEN`, EXIT.error);
      const { token } = await client.request({ type: 'NameRotate', name, token: current }, 'NameRotated');
      if ('Err' in token) throw refused(token.Err);
      const where = await saveToken(url, name, token.Ok, opts);
      status(`rotated the token of "${name}" on ${url}; the new one is in ${where} (the old one no longer plays it)`);
      return;
    }
    if (options.verification === undefined) throw new UsageError('--release needs the server\'s master password (-v PASSWORD)');
    const { result } = await client.request({ type: 'NameRelease', name, verification: options.verification }, 'NameReleased');
    if ('Err' in result) throw refused(result.Err);
    const forgot = await forgetToken(url, name, options.env);
    status(`released "${name}" on ${url}: anyone may play or register it now${forgot ? ' (the token kept here is removed)' : ''}`);
  } catch (error) {
    if (client.closedBecause !== '' && !(error instanceof CliError)) {
      throw new CliError(`the server closed the connection at the request (${client.closedBecause}): it may not know claimed names (a reference server)`, EXIT.connection);
    }
    throw error;
  }
}
