import type { NewMatchRecord } from '../src/store/history-store.js';

/** The finished match the replay-flood benchmarks replay: `rounds` of roshambo between server bots. */
export const FLOOD_MATCH_ID = '0123456789abc';

export function floodRecord(rounds: number, visJson: string): NewMatchRecord {
  return {
    id: FLOOD_MATCH_ID,
    game: 'roshambo',
    name: 'flood',
    args: { rounds: String(rounds) },
    players: ['ServerBot$0', 'ServerBot$1'],
    bots: 2,
    scores: [0, 0],
    reason: 'done',
    error: null,
    seed: 'flood',
    verified: false,
    startedAt: 0,
    endedAt: 1,
    spectatorStream: Buffer.alloc(0),
    visJson,
    artifacts: {},
  };
}
