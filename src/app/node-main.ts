// One node of `cocod --nodes N`, forked by the primary (primary.ts): a whole server (lobby, games,
// front doors) that shares its ports with the other nodes, publishes its matches through the hub
// and records into the primary's history store.
import { startCocod } from './cocod-app.js';
import { pinoLog, prefixedLog } from '../util/log.js';
import { HubLink, type HubEvent, type HubRequest } from '../cluster/hub.js';
import { ipcChannel, type IpcEnd } from '../cluster/ipc-channel.js';
import { NODE_CONFIG_ENV, type NodeConfig, type NodeReady } from './primary.js';
import { RemoteHistoryStore, type RemoteStoreReply, type RemoteStoreRequest } from '../cluster/remote-store.js';
import { RemoteTournamentStore, type RemoteTournamentReply, type RemoteTournamentRequest } from '../cluster/remote-tournament-store.js';
import { RemoteArenaStore, type RemoteArenaReply, type RemoteArenaRequest } from '../cluster/remote-arena-store.js';

const config = JSON.parse(process.env[NODE_CONFIG_ENV] ?? 'null') as NodeConfig | null;
if (!config || !process.send) {
  process.stderr.write('cocod node: started without its primary (run cocod --nodes N)\n');
  process.exit(2);
}
const toPrimary: IpcEnd = { send: (message) => process.send!(message), on: (event, listener) => process.on(event, listener) };
const log = prefixedLog(pinoLog(), `${config.node}: `);
// With --redis each node is a node of the Redis cluster itself (startCocod joins it); the primary
// only supervises and serves the history file.
const link = config.options.redis === undefined ? new HubLink(config.node, ipcChannel<HubEvent, HubRequest>(toPrimary, 'hub')) : undefined;
const store = new RemoteHistoryStore(ipcChannel<RemoteStoreReply, RemoteStoreRequest>(toPrimary, 'store'));
// The server tournaments every node shares (src/tournament/shared-tournaments.ts), kept by the primary.
const tournaments = new RemoteTournamentStore(ipcChannel<RemoteTournamentReply, RemoteTournamentRequest>(toPrimary, 'tournaments'));
// The arena's ratings, kept by the primary beside the history the nodes record into.
const arena = new RemoteArenaStore(ipcChannel<RemoteArenaReply, RemoteArenaRequest>(toPrimary, 'arena'));
const { clobberPort, sochaPort, ...shared } = config.options;
const server = await startCocod({
  ...shared,
  ...(config.tcpPorts && clobberPort !== undefined && { clobberPort }),
  ...(config.tcpPorts && sochaPort !== undefined && { sochaPort }),
  log,
  cluster: { ...(link && { link }), store, tournaments, arena },
  onEvicted: () => stop('declared dead by the cluster'),
});
const ready: NodeReady = { url: server.url, port: server.port, clobberPort: server.clobberPort, sochaPort: server.sochaPort };
process.send({ cocod: 'ready', body: ready });

let stopping = false;
const stop = (why: string): void => {
  if (stopping) return;
  stopping = true;
  log.info(`${why}: stopping this node`);
  setTimeout(() => process.exit(1), server.limits['shutdown-seconds'] * 1000).unref();
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      log.error(`error while stopping: ${String(error)}`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
// Ctrl-C reaches every process of the group: the primary stops the nodes in order.
process.on('SIGINT', () => {});
// The primary is gone: nothing can be recorded any more, and the ports are its.
process.on('disconnect', () => {
  store.fail('the primary process is gone');
  tournaments.fail('the primary process is gone');
  arena.fail('the primary process is gone');
  stop('primary gone');
});
