import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readGameReport } from './wire.js';

test("an external game's report.json is read field by field, and a broken one reads as empty", () => {
  // As reportArtifactText (src/games/external/match-report.ts) writes it.
  const text = JSON.stringify({
    dropped: [1],
    player_errors: [{ player: 1, text: 'not your turn' }],
    player_error_counts: [3, 0],
    printed_scores: ['inf', 'NaN'],
    vis_refused: [{ line: '{t:1}', why: 'vis/bad-event: no event' }],
    vis_refused_count: 2,
  });
  assert.deepEqual(readGameReport(JSON.parse(text)), {
    printedScores: ['inf', 'NaN'],
    playerErrors: [{ player: 1, text: 'not your turn' }],
    playerErrorCounts: [3, 0],
    dropped: [1],
    visRefused: [{ line: '{t:1}', why: 'vis/bad-event: no event' }],
    visRefusedCount: 2,
  });
  assert.deepEqual(readGameReport({ printed_scores: null, player_errors: 'x' }), {
    printedScores: null,
    playerErrors: [],
    playerErrorCounts: [],
    dropped: [],
    visRefused: [],
    visRefusedCount: 0,
  });
});
