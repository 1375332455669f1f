import type { HistoryStore } from '../store/history-store.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { Log } from '../util/log.js';
import type { DirectoryEntry } from './seams.js';

/** The reason recorded for a running match whose node died. */
export const NODE_FAILURE_REASON = 'node failure';

/**
 * Running matches of a dead node go into the history as ended by its failure (no scores; the
 * players, game, arguments and start time its directory entry carried); waiting ones just go.
 * Whoever notices the death calls it: the primary of `cocod --nodes N`, or the Redis node that
 * claimed the dead node's clean-up.
 */
export async function recordLost(store: HistoryStore, lost: readonly DirectoryEntry[], log: Log, clock: Clock = systemClock): Promise<void> {
  const now = clock.now();
  for (const entry of lost) {
    const { info } = entry;
    if (!info.running) continue;
    try {
      await store.record({
        id: info.id,
        game: info.game,
        name: info.name,
        args: info.args,
        players: entry.seats ?? info.connected,
        bots: info.bots,
        scores: null,
        reason: NODE_FAILURE_REASON,
        error: null,
        seed: '',
        verified: info.verified,
        startedAt: entry.startedAt ?? info.time * 1000,
        endedAt: now,
        spectatorStream: Buffer.alloc(0),
        visJson: '[]',
        artifacts: {},
      });
      log.info(`match ${info.id} recorded as ended by ${NODE_FAILURE_REASON}`);
    } catch (error) {
      log.error(`match ${info.id} could not be recorded: ${String(error)}`);
    }
  }
}
