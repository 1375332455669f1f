import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lobby, START_GATE_MS, type MatchMember, type MatchWatcher } from './lobby.js';
import { InlineCompute } from '../match/compute.js';
import { roshambo } from '../games/roshambo/roshambo.js';
import { MemoryHistoryStore } from '../store/memory-history-store.js';
import type { MatchInfo } from '../protocol/coco/messages.js';
import type { Seat } from '../match/seat.js';
import type { NewMatchRequest } from './lobby.js';
import type { GameDefinition, NewMatchParams } from '../match/game.js';
import { ManualClock } from '../util/clock.js';

/** A lobby on a clock the test moves by hand: expiry and match times never depend on the machine's speed. */
function makeLobby(expirySeconds = 600, maxMatches = 1000) {
  const store = new MemoryHistoryStore();
  const clock = new ManualClock();
  const lobby = new Lobby({ games: [roshambo], store, compute: new InlineCompute(), verificationPassword: 'master', expirySeconds, maxMatches, seeds: () => 'seed', clock });
  return { lobby, store, clock };
}

function request(overrides: Partial<NewMatchRequest> = {}): NewMatchRequest {
  return { name: 'Test', game: 'roshambo', params: { players: null, bots: 0, timeout: null }, args: { pace: '0' }, password: null, verification: null, ...overrides };
}

function member(log: string[] = []): MatchMember & { seat: Seat | null; infos: MatchInfo[] } {
  const m = {
    seat: null as Seat | null,
    infos: [] as MatchInfo[],
    updated: (info: MatchInfo) => void m.infos.push(info),
    expired: (id: string) => void log.push(`expired ${id}`),
    started: (seat: Seat) => {
      m.seat = seat;
      log.push(`started ${seat.name}`);
    },
  };
  return m;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('GameNew is validated in the reference order with its error texts', () => {
  const { lobby } = makeLobby();
  const error = (r: Partial<NewMatchRequest>) => {
    const result = lobby.create(request(r));
    return result.ok ? 'ok' : result.error;
  };
  assert.equal(error({ name: '' }), '"" is not a valid game name');
  assert.equal(error({ name: 'x'.repeat(25) }), `"${'x'.repeat(25)}" is not a valid game name`);
  assert.equal(error({ name: 'tab\there' }), '"tab\there" is not a valid game name');
  assert.equal(error({ password: 'has space' }), '"has space" is not a valid password');
  assert.equal(error({ password: 'p'.repeat(33) }), `"${'p'.repeat(33)}" is not a valid password`);
  assert.equal(error({ verification: 'guess' }), '"guess" is the wrong verification password');
  assert.equal(error({ game: 'chess' }), 'Game not found');
  assert.equal(error({ params: { players: 3, bots: 3, timeout: null } }), 'Cannot create game: Cannot create game with 3 players');
  assert.equal(error({ params: { players: 2, bots: 2, timeout: null } }), 'Cannot have all server bots');
  assert.equal(error({ params: { players: null, bots: 0, timeout: 0.05 } }), 'Timeout 0.05 out of allowed range [0.1; 600]');
  assert.equal(error({ params: { players: null, bots: 0, timeout: 601 } }), 'Timeout 601 out of allowed range [0.1; 600]');
  assert.equal(error({ args: { rounds: 'x' } }), 'Cannot create game: Invaid number of rounds: invalid digit found in string');
  assert.equal(error({ args: { rounds: '0' } }), 'Cannot create game: Invalid number of rounds');
  assert.equal(error({ password: '' }), 'ok');
});

test('a server at capacity refuses new matches', () => {
  const { lobby } = makeLobby(600, 2);
  assert.ok(lobby.create(request()).ok);
  assert.ok(lobby.create(request()).ok);
  assert.deepEqual(lobby.create(request()), { ok: false, error: 'Server is at maximum capacity' });
});

test('a verified match is marked verified, and creating does not join its creator', () => {
  const { lobby, clock } = makeLobby();
  const created = lobby.create(request({ verification: 'master', password: 'pw' }));
  assert.ok(created.ok);
  const info = lobby.find(created.value)!;
  assert.equal(info.verified, true);
  assert.equal(info.password, true);
  assert.deepEqual(info.connected, []);
  assert.equal(info.time, Math.floor(clock.now() / 1000) + 600, 'a waiting match shows when it expires');
});

test('joining is checked with the reference texts', () => {
  const { lobby } = makeLobby();
  const created = lobby.create(request({ password: 'pw' }));
  assert.ok(created.ok);
  const id = created.value;
  const join = (i: string, name: string, pw: string | null) => {
    const result = lobby.join(i, name, pw, member());
    return result.ok ? 'ok' : result.error;
  };
  assert.equal(join('0000000000000', 'bob', 'pw'), 'Game "0000000000000" does not exists');
  assert.equal(join(id, 'Server$Bot', 'pw'), '"Server$Bot" is not a valid username');
  assert.equal(join(id, 'has space', 'pw'), '"has space" is not a valid username');
  assert.equal(join(id, 'x'.repeat(17), 'pw'), `"${'x'.repeat(17)}" is not a valid username`);
  assert.equal(join(id, 'bob', 'wrong'), 'Wrong password');
  assert.equal(join(id.toUpperCase(), 'bob', 'pw'), 'ok');
  assert.equal(join(id, 'bob', 'pw'), 'Username "bob" already taken');
});

test('a full match starts: members get their seats, then it runs, is recorded and deleted', async () => {
  const { lobby, store } = makeLobby();
  const created = lobby.create(request({ args: { pace: '0', rounds: '1' } }));
  assert.ok(created.ok);
  const events: string[] = [];
  const listener = { created: () => {}, updated: (i: MatchInfo) => events.push(`update ${i.running}`), deleted: (id: string) => events.push(`delete ${id}`) };
  lobby.subscribe(listener);
  const a = member(events);
  const b = member(events);
  const joinedA = lobby.join(created.value, 'alice', null, a);
  assert.ok(joinedA.ok);
  assert.deepEqual(joinedA.value.connected, [], 'the reply shows the match before the join');
  assert.ok(lobby.join(created.value, 'bob', null, b).ok);
  await settle();
  assert.ok(a.seat && b.seat);
  assert.equal(lobby.find(created.value)?.running, true);
  for (const m of [a, b]) {
    m.seat!.attach({ send: () => {}, close: () => {} });
    m.seat!.receive(Buffer.from('ROCK\n'));
  }
  await lobby.idle();
  assert.equal(lobby.find(created.value), null);
  const record = await store.get(created.value);
  assert.ok(record);
  assert.deepEqual(record.scores, [0, 0]);
  assert.equal(record.spectatorStream.toString().split('\n').slice(3).join('\n'), 'ROCK\nROCK\n');
  assert.equal(events.at(-1), `delete ${created.value}`);
});

test('with a start gate (a cluster\'s directory), players hear that their match started only once the gate has taken it running, or after START_GATE_MS', async () => {
  const { lobby, clock } = makeLobby();
  const taken: MatchInfo[] = [];
  let open: () => void = () => {};
  lobby.gateStarts((info) => {
    taken.push(info);
    return new Promise<void>((resolve) => (open = resolve));
  });
  const startPair = async (): Promise<{ id: string; events: string[] }> => {
    const created = lobby.create(request({ args: { pace: '0', rounds: '1' } }));
    assert.ok(created.ok);
    const events: string[] = [];
    assert.ok(lobby.join(created.value, 'alice', null, member(events)).ok);
    assert.ok(lobby.join(created.value, 'bob', null, member(events)).ok);
    await settle();
    return { id: created.value, events };
  };
  const first = await startPair();
  assert.deepEqual(first.events, [], 'nobody is told before the gate has taken the match');
  assert.equal(taken.at(-1)?.id, first.id);
  assert.equal(taken.at(-1)?.running, true, 'the gate is given the match as running');
  open();
  await settle();
  assert.deepEqual(first.events.sort(), ['started alice', 'started bob']);
  // A gate that never answers holds the match up for START_GATE_MS at most.
  const second = await startPair();
  assert.deepEqual(second.events, []);
  await clock.advance(START_GATE_MS - 1);
  await settle();
  assert.deepEqual(second.events, []);
  await clock.advance(1);
  await settle();
  assert.deepEqual(second.events.sort(), ['started alice', 'started bob']);
});

test('the record keeps the arguments in effect, defaults included, as the reference; the lobby shows what was given', async () => {
  const { lobby, store } = makeLobby();
  const created = lobby.create(request({ args: { pace: '0' } }));
  assert.ok(created.ok);
  assert.deepEqual(lobby.find(created.value)?.args, { pace: '0' });
  const [a, b] = [member(), member()];
  assert.ok(lobby.join(created.value, 'alice', null, a).ok);
  assert.ok(lobby.join(created.value, 'bob', null, b).ok);
  await settle();
  for (const m of [a, b]) {
    m.seat!.attach({ send: () => {}, close: () => {} });
    m.seat!.receive(Buffer.from('ROCK\n'.repeat(10)));
  }
  await lobby.idle();
  const record = await store.get(created.value);
  assert.ok(record);
  assert.deepEqual(record.args, { rounds: '10', pace: '0' });
});

test('a spectator of a waiting match gets the whole stream once it starts', async () => {
  const { lobby } = makeLobby();
  const created = lobby.create(request({ params: { players: 2, bots: 1, timeout: null }, args: { pace: '0', rounds: '2' } }));
  assert.ok(created.ok);
  let stream = '';
  let phase = 'waiting';
  const watcher: MatchWatcher = {
    updated: () => {},
    started: (history) => {
      phase = 'started';
      stream += history.toString();
    },
    data: (bytes) => void (stream += Buffer.from(bytes).toString()),
    ended: () => void (phase = 'ended'),
  };
  const joined = lobby.spectate(created.value, watcher);
  assert.ok(joined.ok);
  assert.equal(joined.value.spectators, 0, 'the reply shows the match before this spectator came');
  assert.equal(lobby.find(created.value)?.spectators, 1);
  const human = member();
  lobby.join(created.value, 'human', null, human);
  await settle();
  human.seat!.attach({ send: () => {}, close: () => {} });
  human.seat!.receive(Buffer.from('PAPER\nPAPER\n'));
  await lobby.idle();
  assert.equal(phase, 'ended');
  assert.equal(stream.split('\n').length, 3 + 4 + 1);
});

test('a waiting match expires after the expiry time, and each join or leave resets it', async () => {
  const { lobby, clock } = makeLobby(10);
  const created = lobby.create(request());
  assert.ok(created.ok);
  const log: string[] = [];
  const alice = member(log);
  await clock.advance(9_000);
  lobby.join(created.value, 'alice', null, alice);
  assert.equal(lobby.find(created.value)?.time, Math.floor(clock.now() / 1000) + 10, 'the shown expiry moved with the join');
  await clock.advance(9_000);
  assert.notEqual(lobby.find(created.value), null, 'the join reset the expiry');
  lobby.leave(created.value, alice);
  await clock.advance(9_999);
  assert.notEqual(lobby.find(created.value), null, 'the leave reset the expiry');
  lobby.join(created.value, 'alice', null, alice);
  await clock.advance(9_999);
  assert.notEqual(lobby.find(created.value), null, 'not a millisecond early');
  assert.deepEqual(log, []);
  await clock.advance(1);
  assert.equal(lobby.find(created.value), null);
  assert.deepEqual(log, [`expired ${created.value}`]);
});

test('waiting matches share one expiry timer, and each expires on its own time', async () => {
  const { lobby, clock } = makeLobby(10);
  const first = lobby.create(request({ name: 'First' }));
  await clock.advance(4_000);
  const second = lobby.create(request({ name: 'Second' }));
  assert.ok(first.ok && second.ok);
  assert.equal(clock.pending, 1, 'one timer for both countdowns');
  await clock.advance(6_000);
  assert.equal(lobby.find(first.value), null, 'the first expired 10 s after its creation');
  assert.notEqual(lobby.find(second.value), null);
  await clock.advance(3_999);
  assert.notEqual(lobby.find(second.value), null);
  await clock.advance(1);
  assert.equal(lobby.find(second.value), null, 'the second 10 s after its own');
  assert.equal(clock.pending, 0, 'no timer is left behind');
});

test('a match that started does not expire, and it is recorded with the times of the lobby clock', async () => {
  const { lobby, store, clock } = makeLobby(10);
  const created = lobby.create(request({ params: { players: 2, bots: 1, timeout: null }, args: { pace: '0', rounds: '1' } }));
  assert.ok(created.ok);
  const human = member();
  lobby.join(created.value, 'human', null, human);
  await settle();
  assert.ok(human.seat, 'the match started');
  // Past the expiry time, within the player's timeout (30 s).
  await clock.advance(20_000);
  assert.equal(lobby.find(created.value)?.running, true, 'a running match outlives the expiry time');
  human.seat.attach({ send: () => {}, close: () => {} });
  human.seat.receive(Buffer.from('ROCK\n'));
  await lobby.idle();
  const record = await store.get(created.value);
  assert.ok(record);
  assert.equal(record.endedAt - record.startedAt, 20_000, 'the match lasted as long as the clock moved');
});

test('a match created with a seat order seats its members in that order, whoever joins first', async () => {
  const { lobby } = makeLobby();
  for (const joinOrder of [['bob', 'alice'], ['alice', 'bob']]) {
    const created = lobby.create(request({ seatOrder: ['alice', 'bob'] }));
    assert.ok(created.ok);
    const members = new Map(joinOrder.map((name) => [name, member()]));
    for (const [name, m] of members) assert.ok(lobby.join(created.value, name, null, m).ok);
    await settle();
    assert.deepEqual([members.get('alice')!.seat!.index, members.get('bob')!.seat!.index], [0, 1], `joined as ${joinOrder.join(', ')}`);
    for (const m of members.values()) m.seat!.close('removed');
  }
  await lobby.shutdown();
});

test('the @seats argument names the seat order (a bot included), is hidden from the game and the lobby, and is checked', async () => {
  const { lobby } = makeLobby();
  for (const joinOrder of [['bob', 'alice'], ['alice', 'bob']]) {
    const created = lobby.create(request({ args: { pace: '0', '@seats': 'bob alice' } }));
    assert.ok(created.ok);
    assert.deepEqual(lobby.find(created.value)?.args, { pace: '0' });
    const members = new Map(joinOrder.map((name) => [name, member()]));
    for (const [name, m] of members) assert.ok(lobby.join(created.value, name, null, m).ok);
    await settle();
    assert.deepEqual([members.get('bob')!.seat!.index, members.get('alice')!.seat!.index], [0, 1], `joined as ${joinOrder.join(', ')}`);
    for (const m of members.values()) m.seat!.close('removed');
  }
  // The server's bot in the first seat, the player in the second.
  const withBot = lobby.create(request({ args: { pace: '0', '@seats': 'ServerBot$0 carol' }, params: { players: null, bots: 1, timeout: null } }));
  assert.ok(withBot.ok);
  const carol = member();
  assert.ok(lobby.join(withBot.value, 'carol', null, carol).ok);
  await settle();
  assert.equal(carol.seat!.index, 1);
  carol.seat!.close('removed');
  const error = (seats: string): string => {
    const result = lobby.create(request({ args: { pace: '0', '@seats': seats } }));
    return result.ok ? 'ok' : result.error;
  };
  assert.equal(error('a b c'), '@seats: 3 names for 2 seats');
  assert.equal(error('a a'), '@seats: "a" is named twice');
  assert.equal(error('a$x b'), '@seats: "a$x" is not a player name (give the names in seat order, separated by spaces)');
  assert.equal(error(' a  '), 'ok');
  await lobby.shutdown();
});

test('the lobby\'s own seat limits: all bots, more than 100 players', () => {
  // A game that accepts any seat count, so that the lobby's checks are the ones that speak.
  const open: GameDefinition<null> = {
    ...roshambo,
    name: 'open',
    args: {},
    configure: (params: NewMatchParams) => ({ ok: true, value: { players: params.players ?? 2, bots: params.bots, timeout: params.timeout ?? 30, args: {}, config: null } }),
  } as unknown as GameDefinition<null>;
  const lobby = new Lobby({ games: [open], store: new MemoryHistoryStore(), compute: new InlineCompute(), verificationPassword: 'master' });
  const create = (players: number, bots: number) => {
    const result = lobby.create(request({ game: 'open', args: {}, params: { players, bots, timeout: null } }));
    return result.ok ? 'ok' : result.error;
  };
  assert.equal(create(3, 3), 'Cannot have all server bots');
  assert.equal(create(101, 0), 'Too many players: 101 > 100');
  assert.equal(create(100, 99), 'ok');
});

/** Roshambo with two named server bots, "rock" and "paper"; `chose` hears which each bot seat was given. */
function pickyGame(chose: (seat: number, choice: string | null) => void): GameDefinition<any> {
  return {
    ...roshambo,
    name: 'picky',
    botChoices: ['rock', 'paper'],
    playBot: async (io, config, env) => {
      chose(env.seat, env.choice);
      return roshambo.playBot(io, config, env);
    },
  };
}

test('a bot lineup: a match of server bots only starts at once, seats in the order asked, each seat its named bot', async () => {
  const chosen: (string | null)[] = [];
  const picky = pickyGame((seat, choice) => (chosen[seat] = choice));
  const store = new MemoryHistoryStore();
  const lobby = new Lobby({ games: [roshambo, picky], store, compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed' });
  const lineup = (game: string, botLineup: (string | null)[], bots = botLineup.length) =>
    lobby.create(request({ game, args: { pace: '0', rounds: '2' }, params: { players: 2, bots, timeout: null }, botLineup }));
  assert.deepEqual(lineup('picky', ['rock', 'lizard']), { ok: false, error: 'Game picky has no server bot named "lizard"' });
  assert.deepEqual(lineup('roshambo', ['rock', null]), { ok: false, error: 'Game roshambo has no server bot named "rock"' });
  assert.deepEqual(lineup('picky', ['rock', 'paper'], 1), { ok: false, error: 'A lineup of 2 server bots needs as many players and bots' });
  const created = lineup('picky', ['paper', 'rock']);
  assert.ok(created.ok);
  // The start is queued behind the creation's announcement, before anything else can happen.
  await Promise.resolve();
  assert.equal(lobby.find(created.value)?.running, true, 'nobody joins: it runs at once');
  await lobby.idle();
  assert.deepEqual(chosen, ['paper', 'rock']);
  const record = await store.get(created.value);
  assert.deepEqual(record?.players, ['ServerBot$0', 'ServerBot$1']);
  assert.equal(record?.scores?.length, 2);
});

test('bot choices: a match with players seats each server bot as the named bot asked (the arena\'s named anchors); an unknown one is refused', async () => {
  const chosen: (string | null)[] = [];
  const picky = pickyGame((_seat, choice) => void chosen.push(choice));
  const lobby = new Lobby({ games: [picky], store: new MemoryHistoryStore(), compute: new InlineCompute(), verificationPassword: 'master', seeds: () => 'seed' });
  const create = (botChoices: (string | null)[]) => lobby.create(request({ game: 'picky', args: { pace: '0', rounds: '1' }, params: { players: 2, bots: 1, timeout: null }, botChoices }));
  assert.deepEqual(create(['lizard']), { ok: false, error: 'Game picky has no server bot named "lizard"' });
  assert.deepEqual(create(['rock', 'paper']), { ok: false, error: 'The bot choices of 2 server bots need as many bots' });
  const created = create(['paper']);
  assert.ok(created.ok);
  const human = member();
  lobby.join(created.value, 'human', null, human);
  await settle();
  human.seat!.attach({ send: () => {}, close: () => {} });
  human.seat!.receive(Buffer.from('ROCK\n'));
  await lobby.idle();
  assert.deepEqual(chosen, ['paper']);
});

test('abort ends a running match now, recorded without scores and with the reason; a waiting one is removed; an unknown id is false', async () => {
  const { lobby, store } = makeLobby();
  // A long match of server bots: it would run for 1000 rounds at a 10 s pace on this clock.
  const running = lobby.create(request({ args: { pace: '10', rounds: '1000' }, params: { players: 2, bots: 2, timeout: null }, botLineup: [null, null] }));
  assert.ok(running.ok);
  await Promise.resolve();
  assert.equal(lobby.find(running.value)?.running, true);
  assert.equal(lobby.abort(running.value, 'the tournament was stopped'), true);
  await lobby.idle();
  assert.equal(lobby.find(running.value), null);
  const record = await store.get(running.value);
  assert.equal(record?.reason, 'the tournament was stopped');
  assert.equal(record?.scores, null);

  const log: string[] = [];
  const waiting = lobby.create(request());
  assert.ok(waiting.ok);
  await lobby.join(waiting.value, 'alice', null, member(log));
  assert.equal(lobby.abort(waiting.value, 'gone'), true);
  assert.equal(lobby.find(waiting.value), null);
  assert.deepEqual(log, [`expired ${waiting.value}`]);
  assert.equal(await store.get(waiting.value), null, 'a match that never ran leaves no record');
  assert.equal(lobby.abort('nope', 'gone'), false);
});

test('delete: the maker (its owner key) removes its waiting match, members and listeners hear LobbyDelete; others, running and unknown ids are refused', async () => {
  const { lobby } = makeLobby();
  const ann = { owner: '10.0.0.1' };
  const mine = lobby.create(request(), 'coco', ann);
  assert.ok(mine.ok);
  const log: string[] = [];
  const deletedIds: string[] = [];
  lobby.subscribe({ created: () => {}, updated: () => {}, deleted: (id) => void deletedIds.push(id) });
  await lobby.join(mine.value, 'alice', null, member(log));
  // Someone else's address, or no address at all (a front door that names none), may not.
  assert.deepEqual(lobby.delete(mine.value, null, { owner: '10.0.0.2' }), { ok: false, error: `Game "${mine.value}" was made from another address: only its maker or the server's master password may delete it` });
  assert.equal(lobby.delete(mine.value, null).ok, false);
  assert.equal(lobby.find(mine.value)?.running, false, 'still waiting');
  // Any case of the id, as every request takes it.
  assert.deepEqual(lobby.delete(mine.value.toUpperCase(), null, ann), { ok: true, value: mine.value });
  assert.equal(lobby.find(mine.value), null);
  assert.deepEqual(log, [`expired ${mine.value}`]);
  assert.deepEqual(lobby.waitingOf(ann.owner), 0, 'the quota is free again');
  assert.deepEqual(lobby.delete(mine.value, null, ann), { ok: false, error: `Game "${mine.value}" does not exists` });
  assert.deepEqual(lobby.delete('not an id', null, ann).ok, false);

  const running = lobby.create(request({ params: { players: 2, bots: 1, timeout: null }, args: { pace: '10', rounds: '1000' } }), 'coco', ann);
  assert.ok(running.ok);
  await lobby.join(running.value, 'bob', null, member());
  await settle();
  assert.equal(lobby.find(running.value)?.running, true);
  assert.deepEqual(lobby.delete(running.value, null, ann), { ok: false, error: `Game "${running.value}" is already running` });
  assert.deepEqual(lobby.delete(running.value, 'master', ann), { ok: false, error: `Game "${running.value}" is already running` }, 'not even with the master password: stop-tournament and shutdown end running matches');
  lobby.abort(running.value, 'test over');
  await lobby.idle();
  assert.deepEqual(deletedIds.slice(0, 1), [mine.value]);
});

test('delete with the master password removes anyone\'s waiting match; a wrong one is refused and counts as a failed attempt', () => {
  const { lobby } = makeLobby();
  const made = lobby.create(request(), 'coco', { owner: '10.0.0.1' });
  assert.ok(made.ok);
  const attempts: string[] = [];
  const stranger = {
    owner: '10.0.0.9',
    passwords: { refusal: () => null, failed: (secret: string) => void attempts.push(`failed ${secret}`), succeeded: (secret: string) => void attempts.push(`ok ${secret}`) },
  };
  assert.deepEqual(lobby.delete(made.value, 'guess', stranger), { ok: false, error: '"guess" is the wrong verification password' });
  assert.deepEqual(lobby.delete(made.value, 'master', stranger), { ok: true, value: made.value });
  assert.deepEqual(attempts, ['failed master', 'ok master']);
  assert.equal(lobby.find(made.value), null);
});

test('a lineup of server bots with names: the seats, the game and the record use them; bad names are refused', async () => {
  const { lobby, store } = makeLobby();
  const lineup = (botNames: string[]) =>
    lobby.create(request({ args: { pace: '0', rounds: '3' }, params: { players: 2, bots: 2, timeout: null }, botLineup: [null, null], botNames }));
  const refusal = 'The names of a lineup of 2 server bots must be as many valid player names, no two alike';
  assert.deepEqual(lineup(['ann']), { ok: false, error: refusal });
  assert.deepEqual(lineup(['ann', 'ann']), { ok: false, error: refusal });
  assert.deepEqual(lineup(['ann', 'bot$1']), { ok: false, error: refusal });
  const created = lineup(['ann', 'bob']);
  assert.ok(created.ok);
  await settle();
  await lobby.idle();
  const record = await store.get(created.value);
  assert.deepEqual(record?.players, ['ann', 'bob']);
  assert.doesNotMatch(record?.reason ?? '', /ServerBot/);
});

test('reserved seats (the arena\'s matches): only the names of the seat order may join, with the password', async () => {
  const { lobby } = makeLobby();
  const created = lobby.create(request({ args: { pace: '0', '@seats': 'bob alice' }, password: 'pw', reservedSeats: true }));
  assert.ok(created.ok);
  const id = created.value;
  const stranger = lobby.join(id, 'mallory', 'pw', member());
  assert.deepEqual(stranger, { ok: false, error: `The seats of match "${id}" are reserved for bob, alice` });
  assert.deepEqual(lobby.join(id, 'alice', 'wrong', member()), { ok: false, error: 'Wrong password' });
  assert.ok(lobby.join(id, 'alice', 'pw', member()).ok);
  assert.ok(lobby.join(id, 'bob', 'pw', member()).ok);
  // Without reservedSeats, the seat order alone lets anyone join (the Software-Challenge port's use).
  const open = lobby.create(request({ args: { pace: '0', '@seats': 'bob alice' } }));
  assert.ok(open.ok && lobby.join(open.value, 'mallory', null, member()).ok);
  await lobby.shutdown();
});

test('shutdown with finishWithinMs (a node of several machines stopping): waiting matches go at once, running ones may finish, those still running then end as the reason says', async () => {
  const { lobby, store, clock } = makeLobby();
  const log: string[] = [];
  const slowMoves = { players: null, bots: 0, timeout: 600 };
  const ids: string[] = [];
  const seats: Seat[] = [];
  for (let i = 0; i < 2; i++) {
    const created = lobby.create(request({ args: { pace: '0', rounds: '1' }, params: slowMoves }));
    assert.ok(created.ok);
    ids.push(created.value);
    const members = [member(log), member(log)];
    for (const [i, m] of members.entries()) assert.ok(lobby.join(created.value, ['ann', 'bob'][i]!, null, m).ok);
    await settle();
    for (const m of members) if (m.seat) seats.push(m.seat);
  }
  const waiting = lobby.create(request());
  assert.ok(waiting.ok);
  assert.ok(lobby.join(waiting.value, 'cid', null, member(log)).ok);
  await settle();
  assert.equal(seats.length, 4, 'both matches started');
  const stopped = lobby.shutdown(undefined, 'server shutdown', 5000);
  await settle();
  assert.ok(log.includes(`expired ${waiting.value}`), 'the waiting match is removed at once');
  assert.equal(lobby.create(request()).ok, false, 'no new match while stopping');
  // The first match plays out during the grace; the second one's players stay silent.
  for (const seat of seats.slice(0, 2)) seat.receive(Buffer.from('ROCK\n'));
  await (async () => {
    for (let turn = 0; turn < 1000 && (await store.get(ids[0]!)) === null; turn++) await settle();
  })();
  assert.equal((await store.get(ids[0]!))?.reason.includes('server shutdown'), false, 'the first match played out');
  assert.equal(await store.get(ids[1]!), null, 'the second still runs within the grace');
  clock.advance(5000);
  await stopped;
  assert.equal((await store.get(ids[1]!))?.reason, 'server shutdown', 'past the grace the rest end with the reason');
});
