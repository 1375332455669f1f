// One node of `cocod --nodes N`, forked by the primary (primary.ts): a whole server (lobby, games,
// front doors) that shares its ports with the other nodes, publishes its matches through the hub
// and records into the primary's history store; with --redis --postgres a node of the Redis
// cluster that records into PostgreSQL itself, fenced by its own lease (NodeConfig.ownHistory).
import { startCocod, type StopOptions } from './cocod-app.js';
import { NODE_FAILURE_REASON } from '../cluster/node-failure.js';
import { pinoLog, prefixedLog } from '../util/log.js';
import { HubLink, type HubEvent, type HubRequest } from '../cluster/hub.js';
import { ipcChannel, type IpcEnd } from '../cluster/ipc-channel.js';
import { NODE_CONFIG_ENV, type NodeConfig, type NodeHistory, type NodeReady } from './primary.js';
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
// A node that records itself asks for the database's URL (never put in its environment).
const history = config.ownHistory
  ? await new Promise<NodeHistory>((resolve) => {
      const take = (message: { cocod?: string; body?: NodeHistory }): void => {
        if (message?.cocod !== 'history') return;
        process.off('message', take);
        resolve(message.body!);
      };
      process.on('message', take);
      process.send!({ cocod: 'history?' });
    })
  : null;
const store = history ? null : new RemoteHistoryStore(ipcChannel<RemoteStoreReply, RemoteStoreRequest>(toPrimary, 'store'));
// The server tournaments every node shares (src/tournament/shared-tournaments.ts), kept by the
// primary; a node that records itself keeps them in PostgreSQL, as a node of another machine does.
const tournaments = history ? null : new RemoteTournamentStore(ipcChannel<RemoteTournamentReply, RemoteTournamentRequest>(toPrimary, 'tournaments'));
// The arena's ratings, kept by the primary (in PostgreSQL when it has one) for whichever node pairs the arena.
const arena = new RemoteArenaStore(ipcChannel<RemoteArenaReply, RemoteArenaRequest>(toPrimary, 'arena'));
const { clobberPort, sochaPort, ...shared } = config.options;
const server = await startCocod({
  ...shared,
  ...(history && { postgres: history.postgres }),
  ...(config.tcpPorts && clobberPort !== undefined && { clobberPort }),
  ...(config.tcpPorts && sochaPort !== undefined && { sochaPort }),
  log,
  cluster: { ...(link && { link }), ...(store && { store }), ...(tournaments && { tournaments }), arena },
  // Its running matches were recorded as lost by another node: they end here as that record says.
  // It exits 1, as a single cocod declared dead does.
  onEvicted: () => stop('declared dead by the cluster', { drain: false, reason: NODE_FAILURE_REASON }, 1),
});
const ready: NodeReady = { url: server.url, port: server.port, clobberPort: server.clobberPort, sochaPort: server.sochaPort };
process.send({ cocod: 'ready', body: ready });

let stopping = false;
const stop = (why: string, how: StopOptions = {}, exitCode = 0): void => {
  if (stopping) return;
  stopping = true;
  log.info(`${why}: stopping this node`);
  setTimeout(() => process.exit(1), (server.limits['shutdown-seconds'] + server.limits['shutdown-drain-seconds']) * 1000).unref();
  server.stop(how).then(
    () => process.exit(exitCode),
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
  store?.fail('the primary process is gone');
  tournaments?.fail('the primary process is gone');
  arena.fail('the primary process is gone');
  // Their bytes crossed the primary: nothing is left to drain.
  stop('primary gone', { drain: false });
});
