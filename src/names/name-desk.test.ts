import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PasswordAttempts } from '../lobby/lobby.js';
import { MemoryNameTable } from '../store/memory-name-table.js';
import { ManualClock } from '../util/clock.js';
import type { SecretName } from '../util/secret.js';
import { StoredNameClaims, claimRefusal } from './name-claims.js';
import { nameDesk } from './name-desk.js';

const LIMITS = { 'name-registrations-per-hour': 2, 'name-registrations-per-hour-per-network': 10, 'tracked-addresses': 100 };
const WHO = { address: '10.0.0.1', network: '10.0.0.0/24' };

/** The back-off as the lobby's requester gives it: refused after `free` wrong passwords, counted per secret. */
function attempts(free = 2): PasswordAttempts & { readonly log: string[] } {
  const wrong = new Map<SecretName, number>();
  const log: string[] = [];
  return {
    log,
    refusal: (secret) => ((wrong.get(secret) ?? 0) >= free ? 'Too many wrong passwords from your address: try again in 1 s' : null),
    failed: (secret) => {
      wrong.set(secret, (wrong.get(secret) ?? 0) + 1);
      log.push(`failed ${secret}`);
    },
    succeeded: (secret) => {
      wrong.delete(secret);
      log.push(`succeeded ${secret}`);
    },
  };
}

test('register answers the token, or why not; a bad or taken name spends none of the quota', async () => {
  const desk = nameDesk(new StoredNameClaims(new MemoryNameTable()), LIMITS, new ManualClock(), 'master');
  const first = await desk.register('alice', WHO);
  assert.ok('Ok' in first);
  assert.deepEqual(await desk.register('alice', WHO), { Err: 'Name "alice" is already claimed' });
  assert.deepEqual(await desk.register('no spaces', WHO), { Err: '"no spaces" is not a valid username' });
  assert.ok('Ok' in (await desk.register('bob', WHO)));
  const third = await desk.register('carol', WHO);
  assert.ok('Err' in third && /^Too many names registered: at most 2 an hour per address; try again in 1800 s$/.test(third.Err), JSON.stringify(third));
  assert.equal(await desk.check('alice', first.Ok), null);
  assert.equal(await desk.check('alice', null), claimRefusal.noToken('alice'));
});

test('rotate answers the new token, or that the token or the name is wrong', async () => {
  const desk = nameDesk(new StoredNameClaims(new MemoryNameTable()), LIMITS, new ManualClock(), 'master');
  const first = await desk.register('alice', WHO);
  assert.ok('Ok' in first);
  assert.deepEqual(await desk.rotate('alice', 'nope'), { Err: 'Wrong token for name "alice"' });
  assert.deepEqual(await desk.rotate('zed', first.Ok), { Err: 'Name "zed" is not claimed' });
  const second = await desk.rotate('alice', first.Ok);
  assert.ok('Ok' in second && second.Ok !== first.Ok);
});

test('release takes the master password, counts wrong ones in its back-off, and is refused while that holds', async () => {
  const desk = nameDesk(new StoredNameClaims(new MemoryNameTable()), LIMITS, new ManualClock(), 'master');
  assert.ok('Ok' in (await desk.register('alice', WHO)));
  const tries = attempts(2);
  const wrong = await desk.release('alice', 'guess', tries);
  assert.ok('Err' in wrong && wrong.Err.startsWith('Wrong verification password'), JSON.stringify(wrong));
  assert.ok(!JSON.stringify(wrong).includes('guess'), 'the attempt is not quoted back');
  await desk.release('alice', 'guess2', tries);
  // Past the free attempts even the right password waits: guessing gains nothing.
  assert.deepEqual(await desk.release('alice', 'master', tries), { Err: 'Too many wrong passwords from your address: try again in 1 s' });
  assert.deepEqual(tries.log, ['failed master', 'failed master']);
  const fresh = attempts(2);
  assert.deepEqual(await desk.release('alice', 'master', fresh), { Ok: null });
  assert.deepEqual(fresh.log, ['succeeded master']);
  assert.equal(await desk.check('alice', null), null);
  assert.deepEqual(await desk.release('alice', 'master', fresh), { Err: 'Name "alice" is not claimed' });
});
