import { after, before } from 'node:test';
import { join } from 'node:path';
import { markTestProcesses } from '../../src/games/external/test-support.js';
import { ROOT, startCoco, startServer, type RunningCoco, type ServerProcess } from './processes.js';

/** A roshambo bot of a fixed strength (its argument, 0-3), as `coco arena` runs it. */
const LEVEL_BOT = join(ROOT, 'examples/arena/roshambo_level.py');
const ARGS = ['--nodes', '2', '--arena-arg', 'roshambo:rounds=10', '--arena-arg', 'roshambo:pace=0', '--limit', 'arena-lease-seconds=2', '--limit', 'arena-lease-refresh-seconds=0.5'];

/**
 * The arena of `cocod --nodes 2` (short games, a 2 s pairing lease) for the tests of one file:
 * started before them; stopped after them with every entrant they started, and whatever those left.
 */
export function arenaOnTwoNodes() {
  let server: ServerProcess | null = null;
  const entrants: RunningCoco[] = [];
  const sweep = markTestProcesses();
  before(async () => {
    server = await startServer(ARGS);
    await server.waitForLog(/listening on \S+ \(2 nodes/);
  });
  after(async () => {
    try {
      for (const entrant of entrants) entrant.child.kill('SIGKILL');
      await server?.stop();
    } finally {
      await sweep();
    }
  });
  const running = (): ServerProcess => {
    if (!server) throw new Error('the server is started before the tests');
    return server;
  };
  return {
    get server(): ServerProcess {
      return running();
    },
    /** `coco arena roshambo -n NAME -- python3 roshambo_level.py LEVEL`, on whichever node its connection lands. */
    enter(name: string, level: number): RunningCoco {
      const entrant = startCoco(running().url, ['arena', 'roshambo', '-n', name, '--', 'python3', LEVEL_BOT, String(level)]);
      entrants.push(entrant);
      return entrant;
    },
    /** The node that pairs under lease epoch `epoch`, once it says so. */
    async pairingNode(epoch: number): Promise<string> {
      return (await running().waitForLog(new RegExp(`(node-\\d+\\.\\d+): arena: this node pairs the cluster's queue \\(lease epoch ${epoch}\\)`)))[1]!;
    },
    /** kill -9 of node `node`'s process (the primary sees it go). */
    kill(node: string): void {
      const pid = Number(running().log().match(new RegExp(`node ${node.replace('.', '\\.')} started \\(pid (\\d+)\\)`))![1]);
      process.kill(pid, 'SIGKILL');
    },
  };
}
