import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchToMakeRoom, type Placed } from './make-room.js';

const waiting = (id: string, network: string | null): Placed & { id: string } => ({ id, network, running: null });
const running = (id: string, network: string): Placed & { id: string } => ({ id, network, running: {} });

test('the oldest waiting match of the network with the most goes, for a newcomer whose network has none', () => {
  const matches = [waiting('s1', 'small'), waiting('f1', 'flood'), waiting('f2', 'flood'), waiting('s2', 'small'), waiting('f3', 'flood')];
  assert.equal(matchToMakeRoom(matches, 'new')?.id, 'f1');
});

test('no room is made for a network that has a waiting match', () => {
  assert.equal(matchToMakeRoom([waiting('f1', 'flood'), waiting('f2', 'flood'), waiting('n1', 'new')], 'new'), null);
});

test('running matches, matches of no requester, and a network\'s only waiting match are never taken', () => {
  assert.equal(matchToMakeRoom([running('r1', 'flood'), running('r2', 'flood'), waiting('a', null), waiting('b', null), waiting('o1', 'one')], 'new'), null);
  assert.equal(matchToMakeRoom([running('r1', 'flood'), waiting('f1', 'flood'), waiting('f2', 'flood')], 'new')?.id, 'f1', 'a running match does not count as waiting');
});

test('on a tie, the network whose oldest is oldest gives up its oldest', () => {
  assert.equal(matchToMakeRoom([waiting('b1', 'b'), waiting('a1', 'a'), waiting('a2', 'a'), waiting('b2', 'b')], 'new')?.id, 'b1');
});
