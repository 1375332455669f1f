import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NewMatchRequest } from '../lobby/lobby.js';
import { SEAT_ORDER_ARG } from '../lobby/seat-order-arg.js';
import type { EndedMatch } from '../tournament/server-tournament.js';
import { ManualClock } from '../util/clock.js';
import { silentLog } from '../util/log.js';
import { err, ok, type Result } from '../util/result.js';
import { Arena, ANCHOR_NAME, PAIRING_INTERVAL_MS, type ArenaEntrant, type ArenaLimits, type ArenaPairing, type ArenaReport, type ArenaGameSettings } from './arena.js';
import { MemoryArenaStore } from './memory-arena-store.js';
import { PAIRING_WINDOW } from './pairing.js';

/** The match host as the arena sees it, played by the test: it ends each match when told. */
class FakeHost {
  readonly created: { id: string; request: NewMatchRequest }[] = [];
  readonly aborted: string[] = [];
  readonly started = new Set<string>();
  private readonly endings = new Map<string, (ended: EndedMatch | null) => void>();
  refuse: string | null = null;

  create(request: NewMatchRequest): Result<string> {
    if (this.refuse) return err(this.refuse);
    const id = `m${this.created.length + 1}`;
    this.created.push({ id, request });
    return ok(id);
  }
  ended(id: string): Promise<EndedMatch | null> {
    return new Promise((resolve) => this.endings.set(id, resolve));
  }
  abort(id: string): void {
    this.aborted.push(id);
    this.endings.get(id)?.(null);
  }
  running(id: string): boolean {
    return this.started.has(id);
  }
  readonly joinedNames = new Map<string, string[]>();
  joined(id: string): readonly string[] {
    return this.joinedNames.get(id) ?? [];
  }
  /** Ends match `id` with `scores`; `closures` marks seats closed early (crash, disconnect). */
  end(id: string, scores: number[] | null, closures: (string | null)[] = scores?.map(() => null) ?? []): void {
    this.endings.get(id)!({ scores, reason: 'done', error: null, closures });
  }
  seats(id: string): string[] {
    return this.created.find((c) => c.id === id)!.request.args[SEAT_ORDER_ARG]!.split(' ');
  }
}

/** An entrant that keeps what it was told. */
class Told implements ArenaEntrant {
  readonly pairings: ArenaPairing[] = [];
  readonly reports: ArenaReport[] = [];
  readonly holds: { until: number; why: string }[] = [];
  paired(pairing: ArenaPairing): void {
    this.pairings.push(pairing);
  }
  finished(report: ArenaReport): void {
    this.reports.push(report);
  }
  held(until: number, why: string): void {
    this.holds.push({ until, why });
  }
}

const LIMITS: ArenaLimits = { entries: 10, perName: 4, perAddress: 3, joinSeconds: 30, failures: 2, holdSeconds: 300, carriedWaitSeconds: 60 };
const ROSHAMBO: ArenaGameSettings = { game: 'roshambo', seats: 2, args: { rounds: '5' }, timeout: null, anchorGames: 0 };

function arenaOf(options: { games?: ArenaGameSettings[]; limits?: Partial<ArenaLimits>; claimed?: Record<string, string>; store?: MemoryArenaStore; clock?: ManualClock } = {}) {
  const clock = options.clock ?? new ManualClock();
  const host = new FakeHost();
  const store = options.store ?? new MemoryArenaStore();
  const claimed = options.claimed ?? {};
  const arena = new Arena({
    host,
    store,
    clock,
    log: silentLog,
    checkName: async (name, token) => (claimed[name] !== undefined && claimed[name] !== token ? `The name "${name}" is claimed: give its token` : null),
    games: options.games ?? [ROSHAMBO],
    limits: { ...LIMITS, ...options.limits },
    passwords: () => 'secret',
  });
  return { arena, host, store, clock };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('arena: two entrants are paired into a match with reserved seats and the arena\'s arguments; the result is rated and told to both', async () => {
  const { arena, host, store, clock } = arenaOf();
  const amy = new Told();
  const bob = new Told();
  assert.ok((await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'a1' }, amy)).ok);
  assert.ok((await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'a2' }, bob)).ok);
  await settle();
  assert.equal(host.created.length, 1);
  const { id, request } = host.created[0]!;
  assert.equal(request.reservedSeats, true);
  assert.equal(request.password, 'secret');
  assert.equal(request.args['rounds'], '5');
  assert.deepEqual(host.seats(id), ['amy', 'bob']);
  assert.deepEqual(amy.pairings, [{ id, password: 'secret', players: ['amy', 'bob'] }]);
  assert.deepEqual(bob.pairings, amy.pairings);
  assert.deepEqual(arena.view('roshambo')!.live.map((g) => g.id), [id]);
  host.end(id, [3, 1]);
  await settle();
  assert.deepEqual([amy.reports[0]!.outcome, bob.reports[0]!.outcome], ['win', 'loss']);
  assert.ok(amy.reports[0]!.rating! > bob.reports[0]!.rating!);
  assert.deepEqual((await store.board('roshambo', 10)).map((r) => [r.player, r.games, r.wins]), [['amy', 1, 1], ['bob', 1, 0]]);
  // Both are free again: they meet again once the rematch delay has passed, in swapped seats.
  assert.equal(host.created.length, 1);
  await clock.advance(PAIRING_WINDOW.rematchAfterMs);
  await settle();
  assert.equal(host.created.length, 2);
  assert.deepEqual(host.seats('m2'), ['bob', 'amy']);
});

test('arena: a name is never paired with itself, whatever its concurrency', async () => {
  const { arena, host } = arenaOf();
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 2, address: 'a1' }, new Told());
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'a2' }, new Told());
  await settle();
  assert.equal(host.created.length, 0);
  await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 2, address: 'a3' }, new Told());
  await settle();
  assert.equal(host.created.length, 2);
  for (const { id } of host.created) assert.deepEqual([...host.seats(id)].sort(), ['amy', 'bob']);
});

test('arena: pairing runs on the clock, so a window that widens with waiting pairs distant ratings later', async () => {
  const { arena, host, store, clock } = arenaOf();
  // Make a strong and a weak name: far apart in mu.
  for (let i = 0; i < 6; i++) await store.record({ matchId: `s${i}`, game: 'roshambo', endedAt: i, standings: [{ player: 'strong', score: 1 }, { player: 'weak', score: 0 }] });
  await arena.enter({ game: 'roshambo', name: 'strong', concurrency: 1, address: 'a1' }, new Told());
  await arena.enter({ game: 'roshambo', name: 'weak', concurrency: 1, address: 'a2' }, new Told());
  await settle();
  assert.equal(host.created.length, 0, 'too far apart at once');
  await clock.advance(60 * PAIRING_INTERVAL_MS);
  await settle();
  assert.equal(host.created.length, 1, 'paired once the window has widened');
});

test('arena: a seat closed early loses the game; failures in a row hold the name out until the hold ends, and its entry stays', async () => {
  const { arena, host, clock } = arenaOf();
  const amy = new Told();
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'a1' }, amy);
  await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'a2' }, new Told());
  await settle();
  const crashSeat = host.seats('m1').indexOf('amy');
  host.end('m1', crashSeat === 0 ? [0, 1] : [1, 0], crashSeat === 0 ? ['disconnected', null] : [null, 'disconnected']);
  await settle();
  assert.equal(amy.reports[0]!.outcome, 'loss');
  assert.equal(amy.holds.length, 0);
  await clock.advance(PAIRING_WINDOW.rematchAfterMs);
  await settle();
  // The second game: amy never takes her seat (bob does); the join deadline calls it off.
  assert.equal(host.created.length, 2);
  host.joinedNames.set('m2', ['bob']);
  const deadline = host.created[1]!;
  await clock.advance(LIMITS.joinSeconds * 1000);
  await settle();
  assert.deepEqual(host.aborted, [deadline.id]);
  assert.equal(amy.reports[1]!.outcome, 'none');
  assert.match(amy.reports[1]!.reason, /not played/);
  assert.equal(amy.holds.length, 1, 'two failures in a row');
  assert.equal(amy.holds[0]!.until, clock.now() + LIMITS.holdSeconds * 1000);
  assert.equal(host.created.length, 2, 'held out of pairing');
  assert.equal(arena.view('roshambo')!.queue.find((q) => q.name === 'amy')!.heldUntil, amy.holds[0]!.until);
  await clock.advance(LIMITS.holdSeconds * 1000);
  await settle();
  assert.equal(host.created.length, 3, 'paired again after the hold');
});

test('arena: a started match is not called off at the join deadline', async () => {
  const { arena, host, clock } = arenaOf();
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'a1' }, new Told());
  await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'a2' }, new Told());
  await settle();
  host.started.add('m1');
  await clock.advance(LIMITS.joinSeconds * 1000);
  assert.deepEqual(host.aborted, []);
});

test('arena: leaving takes the entry out of the queue; its game in progress is still reported', async () => {
  const { arena, host } = arenaOf();
  const amy = new Told();
  const ticket = await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'a1' }, amy);
  await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'a2' }, new Told());
  await settle();
  assert.ok(ticket.ok);
  ticket.value.leave();
  assert.deepEqual(arena.view('roshambo')!.queue.map((q) => q.name), ['bob']);
  host.end('m1', [1, 1]);
  await settle();
  assert.equal(amy.reports[0]!.outcome, 'draw');
  assert.equal(host.created.length, 1, 'amy is not paired again');
});

test('arena: the limits on entries, entries per address and games per name refuse with their names', async () => {
  const { arena } = arenaOf({ limits: { entries: 3, perAddress: 2, perName: 3 } });
  assert.ok((await arena.enter({ game: 'roshambo', name: 'a', concurrency: 1, address: 'x' }, new Told())).ok);
  assert.ok((await arena.enter({ game: 'roshambo', name: 'b', concurrency: 1, address: 'x' }, new Told())).ok);
  const perAddress = await arena.enter({ game: 'roshambo', name: 'c', concurrency: 1, address: 'x' }, new Told());
  assert.ok(!perAddress.ok && perAddress.error.includes('arena-entries-per-address'));
  const perName = await arena.enter({ game: 'roshambo', name: 'a', concurrency: 3, address: 'y' }, new Told());
  assert.ok(!perName.ok && perName.error.includes('arena-games-per-name'));
  assert.ok((await arena.enter({ game: 'roshambo', name: 'c', concurrency: 1, address: 'y' }, new Told())).ok);
  const full = await arena.enter({ game: 'roshambo', name: 'd', concurrency: 1, address: 'z' }, new Told());
  assert.ok(!full.ok && full.error.includes('arena-entries'));
});

test('arena: a claimed name is refused without its token; an unknown game, a bot name and a bad concurrency are refused', async () => {
  const { arena } = arenaOf({ claimed: { amy: 'tok' } });
  const refused = await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'x' }, new Told());
  assert.ok(!refused.ok && refused.error.includes('claimed'));
  assert.ok((await arena.enter({ game: 'roshambo', name: 'amy', token: 'tok', concurrency: 1, address: 'x' }, new Told())).ok);
  assert.ok(!(await arena.enter({ game: 'chess', name: 'bob', concurrency: 1, address: 'x' }, new Told())).ok);
  assert.ok(!(await arena.enter({ game: 'roshambo', name: ANCHOR_NAME, concurrency: 1, address: 'x' }, new Told())).ok);
  assert.ok(!(await arena.enter({ game: 'roshambo', name: 'ServerBot$0', concurrency: 1, address: 'x' }, new Told())).ok);
  assert.ok(!(await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 0, address: 'x' }, new Told())).ok);
});

test('arena: an anchor plays a lone entrant as a server bot seat and is rated as ServerBot; anchors never play each other', async () => {
  const { arena, host } = arenaOf({ games: [{ ...ROSHAMBO, anchorGames: 2 }] });
  await settle();
  assert.equal(host.created.length, 0);
  const amy = new Told();
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'x' }, amy);
  await settle();
  assert.equal(host.created.length, 1);
  const { request, id } = host.created[0]!;
  assert.equal(request.params.bots, 1);
  assert.deepEqual([...host.seats(id)].sort(), ['ServerBot$0', 'amy']);
  assert.deepEqual([...amy.pairings[0]!.players].sort(), [ANCHOR_NAME, 'amy']);
  const botSeat = host.seats(id).indexOf('ServerBot$0');
  host.end(id, botSeat === 0 ? [2, 0] : [0, 2]);
  await settle();
  assert.equal(amy.reports[0]!.outcome, 'loss');
  assert.equal(arena.view('roshambo')!.queue.find((q) => q.anchor)!.name, ANCHOR_NAME);
});

test('arena: a game of 3 seats fills a table of 3; each name takes the first seat in turn', async () => {
  const { arena, host } = arenaOf({ games: [{ game: 'three', seats: 3, args: {}, timeout: null, anchorGames: 0 }] });
  for (const name of ['c', 'a', 'b', 'd']) await arena.enter({ game: 'three', name, concurrency: 1, address: name }, new Told());
  await settle();
  assert.equal(host.created.length, 1);
  assert.equal(host.seats('m1').length, 3);
  assert.equal(arena.view('three')!.queue.filter((q) => q.playing === 0).length, 1);
});

test('arena: a match the lobby refuses leaves its entrants queued', async () => {
  const { arena, host } = arenaOf();
  host.refuse = 'Server is at maximum capacity';
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'x' }, new Told());
  await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'y' }, new Told());
  await settle();
  assert.equal(host.created.length, 0);
  host.refuse = null;
  await arena.close();
});

test('arena: a named bot anchors as ServerBot$BOT: its seat asks the lobby for that bot, and it is rated under that name', async () => {
  const { arena, host, store } = arenaOf({ games: [{ ...ROSHAMBO, anchorGames: 1, anchorBots: ['hard'] }] });
  const amy = new Told();
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'x' }, amy);
  await settle();
  const { request, id } = host.created[0]!;
  assert.deepEqual(request.botChoices, ['hard']);
  assert.deepEqual([...amy.pairings[0]!.players].sort(), ['ServerBot$hard', 'amy']);
  const botSeat = host.seats(id).indexOf('ServerBot$0');
  host.end(id, botSeat === 0 ? [2, 0] : [0, 2]);
  await settle();
  assert.deepEqual((await store.board('roshambo', 10)).map((r) => r.player), ['ServerBot$hard', 'amy']);
  assert.deepEqual(arena.view('roshambo')!.queue.filter((q) => q.anchor).map((q) => q.name), ['ServerBot$hard']);
  assert.ok(!(await arena.enter({ game: 'roshambo', name: 'ServerBot$hard', concurrency: 1, address: 'y' }, new Told())).ok, 'nobody enters as an anchor');
});

test('arena: a restarted arena goes on from its store: the seats go on alternating, failures go on counting, and a name held out stays held', async () => {
  const store = new MemoryArenaStore();
  const clock = new ManualClock();
  const restarted = async () => {
    const { arena, host } = arenaOf({ store, clock });
    const amy = new Told();
    await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 1, address: 'a1' }, amy);
    await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'a2' }, new Told());
    await settle();
    return { arena, host, amy };
  };
  const first = await restarted();
  assert.deepEqual(first.host.seats('m1'), ['amy', 'bob']);
  first.host.end('m1', [0, 1], ['disconnected', null]);
  await settle();
  assert.equal(first.amy.holds.length, 0, 'one failure of arena-failures=2');
  await first.arena.close();

  // The server restarts (or another node takes the pairing over): the same store, a fresh memory.
  const second = await restarted();
  assert.deepEqual(second.host.seats('m1'), ['bob', 'amy'], 'their second game: bob moves first');
  second.host.end('m1', [1, 0], [null, 'disconnected']);
  await settle();
  assert.equal(second.amy.holds.length, 1, 'the second failure in a row holds amy out');
  await second.arena.close();

  const third = await restarted();
  assert.deepEqual(third.amy.holds.map((hold) => hold.until), [second.amy.holds[0]!.until], 'still held, and told so on entry');
  assert.equal(third.host.created.length, 0);
  await clock.advance(LIMITS.holdSeconds * 1000);
  await settle();
  assert.deepEqual(third.host.seats('m1'), ['amy', 'bob'], 'their third game, once the hold is over');
  third.host.end('m1', [1, 0]);
  await third.arena.close();
});

test('arena: an entry queued again with what it carried waits from when it first queued, within arena-carried-wait-seconds, and keeps its rematch delay', async () => {
  const { arena, host, clock } = arenaOf({ limits: { carriedWaitSeconds: 60 } });
  await clock.advance(1_000_000);
  const now = clock.now();
  // A door ahead of this node's clock says -5 s; one that claims a day is believed for 60 s.
  await arena.enter({ game: 'roshambo', name: 'amy', concurrency: 2, address: 'a1' }, new Told(), { waitedMs: [86_400_000, -5_000], lastMet: ['bob'] });
  assert.deepEqual(arena.view('roshambo')!.queue.map((q) => q.waitingSince), [now - 60_000]);
  await arena.enter({ game: 'roshambo', name: 'bob', concurrency: 1, address: 'a2' }, new Told(), { waitedMs: [1_000], lastMet: ['amy'] });
  await settle();
  assert.equal(host.created.length, 0, 'bob met amy last and has waited 1 s of the 3 s rematch delay');
  await clock.advance(2 * PAIRING_INTERVAL_MS);
  await settle();
  assert.equal(host.created.length, 1, 'met again once both have waited 3 s, the time before the takeover included');
});
