import type { MatchRecord } from '../../src/store/history-store.js';

/** A finished roshambo match between alice and bob, as a store keeps it; `fields` replace what a test needs. */
export function finishedMatch(id: string, fields: Partial<MatchRecord> = {}): MatchRecord {
  return {
    id,
    game: 'roshambo',
    name: `match ${id}`,
    args: {},
    players: ['alice', 'bob'],
    bots: 0,
    scores: [1, 0],
    reason: 'done',
    error: null,
    seed: 's',
    verified: false,
    startedAt: 1000,
    endedAt: 2000,
    spectatorStream: Buffer.from('alice\nbob\n'),
    visJson: '[]',
    artifacts: {},
    ...fields,
  };
}
