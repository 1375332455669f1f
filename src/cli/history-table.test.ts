import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDate, formatHistoryTable } from './history-table.js';

test('coco history prints id, game, date, players and result in columns, in the order given', () => {
  const ended = new Date(2026, 10, 24, 9, 5).getTime();
  const table = formatHistoryTable([
    { id: 'newer', game: 'chess', name: 'x', players: ['a', 'b'], scores: [0.5, 0.5], reason: 'draw', error: null, ended_at: ended },
    { id: 'older1', game: 'roshambo', name: 'y', players: ['alice', 'ServerBot$0'], scores: null, reason: 'server shutdown', error: null, ended_at: ended },
  ]);
  assert.equal(
    table,
    [
      'ID      Game      Date              Players             Result',
      '------  --------  ----------------  ------------------  ---------------------------',
      'newer   chess     2026-11-24 09:05  a, b                0.5-0.5 (draw)',
      'older1  roshambo  2026-11-24 09:05  alice, ServerBot$0  no result (server shutdown)',
    ].join('\n'),
  );
  assert.equal(formatDate(ended), '2026-11-24 09:05');
});
