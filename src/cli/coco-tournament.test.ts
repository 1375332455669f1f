import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTournament } from './coco-tournament.js';
import { SPRT_DEFAULTS } from '../tournament/sprt.js';

const TWO = ['--player', 'a=./a --fast', '--player', 'b=python3 b.py'];

test('tournament options: defaults, players in order with the bot last, game arguments', () => {
  const settings = parseTournament(['roshambo', ...TWO, '--bot', 'house', '-a', 'rounds=3']);
  assert.equal(settings.game, 'roshambo');
  assert.equal(settings.format, 'round-robin');
  assert.equal(settings.rounds, 1);
  assert.equal(settings.concurrency, 1);
  assert.deepEqual(settings.entrants, [
    { name: 'a', command: './a --fast' },
    { name: 'b', command: 'python3 b.py' },
    { name: 'house', command: null },
  ]);
  assert.deepEqual(settings.args, { rounds: '3' });
  assert.equal(settings.resultsPath, null);
  assert.equal(settings.sprt, null);
  assert.equal(settings.timeout, null);
  assert.equal(parseTournament(['roshambo', ...TWO, '-t', '2.5']).timeout, 2.5);
});

test('--sprt takes the KEY=VALUE words after it, and none is needed', () => {
  assert.deepEqual(parseTournament(['roshambo', '--sprt', 'elo1=10', 'beta=0.1', ...TWO]).sprt, { ...SPRT_DEFAULTS, elo1: 10, beta: 0.1 });
  assert.deepEqual(parseTournament(['roshambo', ...TWO, '--sprt']).sprt, SPRT_DEFAULTS);
  assert.deepEqual(parseTournament(['roshambo', ...TWO, '--sprt', '--rounds', '7']).rounds, 7);
});

test('tournament options are refused with what is wrong', () => {
  assert.throws(() => parseTournament([...TWO]), /needs the name of a game/);
  assert.throws(() => parseTournament(['roshambo', '--player', 'a']), /--player takes NAME=COMMAND/);
  assert.throws(() => parseTournament(['roshambo', '--player', 'a$=x', '--player', 'b=y']), /not a valid player name/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '--rounds', '0']), /--rounds must be a whole number from 1/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '--concurrency', 'x']), /--concurrency must be/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '--sprt', 'elo1=-5']), /elo1 must be above elo0/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '--bogus']), /Unknown option/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '-t', '0']), /--timeout takes seconds/);
});

test('--on-server: several --bot NAME[=BOT], the password, and no local-only option', () => {
  const settings = parseTournament(['roshambo', '--on-server', '-v', 'pw', '--bot', 'ann', '--bot', 'bob=greedy', '--concurrency', '4']);
  assert.deepEqual(settings.onServer, { verification: 'pw', entrants: [{ name: 'ann', bot: null }, { name: 'bob', bot: 'greedy' }] });
  assert.equal(settings.concurrency, 4);
  assert.equal(parseTournament(['roshambo', ...TWO]).onServer, null);
  assert.throws(() => parseTournament(['roshambo', '--on-server', '--bot', 'a', '--bot', 'b']), /needs the server's verification password/);
  assert.throws(() => parseTournament(['roshambo', '--on-server', '-v', 'pw', '--bot', 'a', ...TWO]), /server bots only/);
  assert.throws(() => parseTournament(['roshambo', '--on-server', '-v', 'pw', '--bot', 'a', '--bot', 'b', '--results', 'f']), /--results and --sprt are for a local tournament/);
  assert.throws(() => parseTournament(['roshambo', '--on-server', '-v', 'pw', '--bot', 'a', '--bot', 'a=x']), /two players are named "a"/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '--bot', 'x', '--bot', 'y']), /only one --bot takes part in a local tournament/);
  assert.throws(() => parseTournament(['roshambo', ...TWO, '-v', 'pw']), /-v is for --on-server/);
});

test('-n/--players: the seats of each match; at least that many entrants; --sprt only for 2-player matches of 2', () => {
  const THREE = [...TWO, '--player', 'c=./c'];
  assert.equal(parseTournament(['roshambo', ...TWO]).players, null);
  assert.equal(parseTournament(['lowest-unique', ...THREE, '-n', '3']).players, 3);
  assert.equal(parseTournament(['lowest-unique', ...THREE, '--bot', 'house', '--players', '4']).players, 4);
  assert.equal(parseTournament(['lowest-unique', '--on-server', '-v', 'pw', '--bot', 'a', '--bot', 'b', '--bot', 'c', '-n', '3']).players, 3);
  assert.throws(() => parseTournament(['lowest-unique', ...TWO, '-n', '3']), /a tournament of 3-player matches needs at least 3 players/);
  assert.throws(() => parseTournament(['lowest-unique', ...THREE, '-n', '1']), /--players counts the players of a match, from 2/);
  assert.throws(() => parseTournament(['lowest-unique', ...THREE, '-n', 'x']), /--players must be a whole number/);
  assert.throws(() => parseTournament(['lowest-unique', ...THREE, '-n', '3', '--sprt']), /--sprt is for 2-player matches, not 3-player ones/);
  assert.throws(() => parseTournament(['roshambo', ...THREE, '--sprt']), /--sprt compares exactly 2 players/);
});
