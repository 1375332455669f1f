import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { CocodOptions } from './cocod-app.js';
import { DEFAULT_LIMITS } from '../gateways/server-limits.js';
import type { HistoryStore } from '../store/history-store.js';
import { historyLabel, openHistoryStore } from '../store/open-history-store.js';
import { systemClock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import { ClusterHub, type HubEvent, type HubRequest } from '../cluster/hub.js';
import { ipcChannel } from '../cluster/ipc-channel.js';
import { serveHistoryStore, type RemoteStoreReply, type RemoteStoreRequest } from '../cluster/remote-store.js';
import { serveTournamentStore, type RemoteTournamentReply, type RemoteTournamentRequest } from '../cluster/remote-tournament-store.js';
import { MemoryTournamentStore, type TournamentStore } from '../store/tournament-store.js';
import { recordLost } from '../cluster/node-failure.js';
import { serveArenaStore, type RemoteArenaReply, type RemoteArenaRequest } from '../cluster/remote-arena-store.js';
import { openArenaStore } from '../arena/open-arena-store.js';
import type { ArenaStore } from '../arena/arena-store.js';

export { NODE_FAILURE_REASON } from '../cluster/node-failure.js';

/** What the primary gives each node process (as JSON in its environment). */
export interface NodeConfig {
  readonly node: string;
  /** Only the first node serves the TCP game ports (their rooms and pairings are node-local). */
  readonly tcpPorts: boolean;
  readonly options: Omit<CocodOptions, 'log' | 'clock' | 'extraGames'>;
  /**
   * With --redis --postgres: the node is a node of the Redis cluster like one on another machine,
   * and so records into PostgreSQL itself, its writes fenced by its own lease (docs/deployment.md,
   * "Fencing"). The URL comes in a message (NodeHistory) after the fork, never in its environment.
   */
  readonly ownHistory: boolean;
}

/** The history a node with `ownHistory` opens: sent over IPC when it asks ('history?'), as the URL may hold a password. */
export interface NodeHistory {
  readonly postgres: string;
}

export const NODE_CONFIG_ENV = 'COCOD_NODE_CONFIG';

/** What a node tells the primary once it listens. */
export interface NodeReady {
  readonly url: string;
  readonly port: number;
  readonly clobberPort: number | null;
  readonly sochaPort: number | null;
}

export interface RunningPrimary {
  readonly url: string;
  readonly ready: NodeReady;
  /** Stops every node (each ends its matches as "server shutdown"), then closes the history. */
  stop(): Promise<void>;
}

interface Slot {
  readonly index: number;
  generation: number;
  worker: Worker | null;
  name: string;
}

/**
 * `cocod --nodes N`: this process forks N node processes that share the listening ports (the
 * cluster module hands each new connection to one of them), holds the hub through which they
 * share one lobby (hub.ts), and owns the history store they all record into (remote-store.ts).
 * A node that dies has its running matches recorded as ended by NODE_FAILURE_REASON, and is
 * replaced; the other nodes' matches go on.
 */
export async function startPrimary(options: Omit<CocodOptions, 'log'>, nodes: number, log: Log): Promise<RunningPrimary> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  let verificationPassword = options.verificationPassword;
  if (verificationPassword === null) {
    verificationPassword = randomBytes(12).toString('base64url');
    log.info(`verification password: ${verificationPassword}`);
  }
  const store: HistoryStore = await openHistoryStore(options, {
    retention: { maxBytes: limits['history-max-bytes'], maxAgeDays: limits['history-max-age-days'] },
    backlogMaxBytes: limits['history-backlog-max-bytes'],
    clock: options.clock ?? systemClock,
    log,
  });
  // The nodes' server tournaments (src/tournament/shared-tournaments.ts): in PostgreSQL when the
  // history is, so that nodes of other machines share them too; else in this process's memory.
  const tournaments: TournamentStore =
    options.postgres !== undefined
      ? await (await import('../store/postgres-tournament-store.js')).PostgresTournamentStore.open(options.postgres, (error) => log.warn(`a connection of the tournament store was lost while idle: ${error.message}`))
      : new MemoryTournamentStore();
  // The arena's ratings, beside the history (as the nodes record into it), for whichever node pairs the arena.
  const arena: ArenaStore = await openArenaStore(options);
  const hub = new ClusterHub(options.clock ?? systemClock);
  // Nodes of a Redis cluster whose history is PostgreSQL record themselves, each fenced by its lease
  // and numbered by the database's sequence, as a node of another machine: a node of this machine
  // paused past its lease and woken is refused like any other. (The store opened above then only
  // checks at start that the database answers.)
  const ownHistory = options.redis !== undefined && options.postgres !== undefined;
  const { extraGames: _extra, clock: _clock, postgres: _postgres, ...plain } = options as CocodOptions;
  // The nodes record through this process and never open the history: they get its name to log,
  // not the PostgreSQL URL (which may hold a password, and would sit in their environment).
  const nodeOptions = { ...plain, verificationPassword, database: historyLabel(options) };
  cluster.setupPrimary({ exec: fileURLToPath(new URL('./node-main.js', import.meta.url)), serialization: 'advanced' });

  let stopping = false;
  const slots: Slot[] = Array.from({ length: nodes }, (_, index) => ({ index, generation: 0, worker: null, name: '' }));
  const readyOnce = new Map<number, (ready: NodeReady) => void>();

  const fork = (slot: Slot): Promise<NodeReady> => {
    slot.generation++;
    slot.name = `node-${slot.index + 1}.${slot.generation}`;
    const config: NodeConfig = { node: slot.name, tcpPorts: slot.index === 0, options: nodeOptions, ownHistory };
    // COCOD_POSTGRES emptied: the environment is one more place a password could be read. A node
    // that records itself gets the URL in a message instead.
    const worker = cluster.fork({ [NODE_CONFIG_ENV]: JSON.stringify(config), COCOD_POSTGRES: '' });
    // Sent when the node asks (it listens by then: a message sent earlier could be lost).
    if (ownHistory) {
      worker.on('message', (message: { cocod?: string }) => {
        if (message?.cocod === 'history?' && worker.isConnected()) worker.send({ cocod: 'history', body: { postgres: options.postgres! } satisfies NodeHistory });
      });
    }
    slot.worker = worker;
    log.info(`node ${slot.name} started (pid ${worker.process.pid})`);
    const name = slot.name;
    const toNode = ipcChannel<HubRequest, HubEvent>(worker, 'hub');
    toNode.receive(
      hub.connect(name, (event: HubEvent) => {
        if (worker.isConnected()) toNode.send(event);
      }),
    );
    if (!ownHistory) {
      serveHistoryStore(store, ipcChannel<RemoteStoreRequest, RemoteStoreReply>(worker, 'store'));
      serveTournamentStore(tournaments, ipcChannel<RemoteTournamentRequest, RemoteTournamentReply>(worker, 'tournaments'));
    }
    serveArenaStore(arena, ipcChannel<RemoteArenaRequest, RemoteArenaReply>(worker, 'arena'));
    const ready = new Promise<NodeReady>((resolve, reject) => {
      readyOnce.set(worker.id, resolve);
      worker.once('exit', (code, signal) => reject(new Error(`node ${name} exited (${signal ?? code}) before it listened`)));
    });
    worker.on('message', (message: { cocod?: string; body?: NodeReady }) => {
      if (message?.cocod !== 'ready') return;
      readyOnce.get(worker.id)?.(message.body!);
      readyOnce.delete(worker.id);
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return void hub.down(name);
      if (options.redis !== undefined) {
        // A Redis node: a surviving node (on this machine or another) records its running
        // matches once its lease runs out; the primary only replaces it.
        log.error(`node ${name} exited (${signal ?? `code ${code}`}): the cluster cleans up after it when its lease runs out`);
        fork(slot).then(
          () => log.info(`node ${slot.name} replaces ${name}`),
          (error: unknown) => log.error(`node ${slot.name} could not start: ${String(error)}`),
        );
        return;
      }
      const lost = hub.entriesOf(name);
      log.error(`node ${name} exited (${signal ?? `code ${code}`}): ${lost.length} of its matches are gone`);
      // Recorded before the other nodes are told: a player who hears its match ended can read why.
      void recordLost(store, lost, log).then(() => {
        hub.down(name);
        if (stopping) return;
        fork(slot).then(
          () => log.info(`node ${slot.name} replaces ${name}`),
          (error: unknown) => log.error(`node ${slot.name} could not start: ${String(error)}`),
        );
      });
    });
    return ready;
  };

  // The first node first: if it cannot start (a busy port, a bad games folder) nothing else is tried.
  const first = await fork(slots[0]!);
  await Promise.all(slots.slice(1).map((slot) => fork(slot)));
  log.info(`listening on ${first.url} (${nodes} nodes, history: ${historyLabel(options)})`);

  return {
    url: first.url,
    ready: first,
    async stop() {
      stopping = true;
      const exits = slots.map((slot) => {
        const worker = slot.worker;
        if (!worker || worker.isDead()) return Promise.resolve();
        return new Promise<void>((resolve) => {
          worker.once('exit', () => resolve());
          worker.process.kill('SIGTERM');
        });
      });
      await Promise.all(exits);
      await tournaments.close();
      await arena.close();
      await store.close();
    },
  };
}
