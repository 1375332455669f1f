import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchQueue } from './search-queue.js';
import { botTimeCapMs, searchForMove } from './bot-time.js';
import { InlineCompute, type Compute, type TimedSearch } from './compute.js';

/**
 * Runs a one-worker pool by hand: each search taken runs exactly the time it was given (a search
 * stops at its budget), on a manual time line. Returns when each search answered, by name.
 */
function simulate(queue: SearchQueue<string>, workers: number, start: number): Map<string, { ranMs: number; answeredAt: number }> {
  const answers = new Map<string, { ranMs: number; answeredAt: number }>();
  const free = Array.from({ length: workers }, () => start);
  for (;;) {
    const worker = free.indexOf(Math.min(...free));
    const taken = queue.take(free[worker]!);
    if (!taken) return answers;
    const answeredAt = free[worker]! + taken.runMs;
    answers.set(taken.job, { ranMs: taken.runMs, answeredAt });
    free[worker] = answeredAt;
  }
}

test('four bots asked at once on one worker share the time: each answers within its deadline, not one after another in full', () => {
  // The case: 4 quoridor matches with -t 2, one worker, the bots wanting 1 s each.
  const budget = Math.min(1000, botTimeCapMs(2));
  const queue = new SearchQueue<string>(1);
  for (const name of ['a', 'b', 'c', 'd']) queue.add(name, 0, budget);
  const answers = simulate(queue, 1, 0);
  for (const [name, { ranMs, answeredAt }] of answers) {
    assert.ok(answeredAt <= budget, `${name} answered at ${answeredAt} ms, after its deadline`);
    assert.equal(ranMs, 250, `${name} thought for a fair share`);
  }
});

test('a search that waited gets only what is left of its time, counted from when it was asked', () => {
  const queue = new SearchQueue<string>(1);
  queue.add('asked-first', 0, 1000);
  // Taken up 700 ms later (the worker was busy): 300 ms are left, not 1000.
  const taken = queue.take(700)!;
  assert.deepEqual([taken.job, taken.runMs, taken.waitedMs], ['asked-first', 300, 700]);
  queue.add('late', 700, 1000);
  assert.equal(queue.take(2000)!.runMs, 0, 'past its deadline it runs with no time: the search answers with its first iteration');
});

test('the earliest deadline goes first, whatever the order of asking; untimed searches keep their turn', () => {
  const queue = new SearchQueue<string>(2);
  queue.add('long', 0, 5000);
  queue.add('short', 10, 500);
  queue.add('untimed', 20, null);
  queue.add('short-too', 30, 500);
  assert.equal(queue.take(40)!.job, 'untimed', 'an untimed search is due when asked');
  const short = queue.take(40)!;
  // Two workers, three timed searches waiting: a share of two thirds of what is left.
  assert.deepEqual([short.job, short.runMs], ['short', Math.floor((510 - 40) * (2 / 3))]);
  assert.equal(queue.take(40)!.job, 'short-too');
  assert.deepEqual([queue.take(40)!.runMs, queue.length], [4960, 0], 'the last one alone gets all it has left');
});

test('thirty searches in flight on one worker at the default timeout all answer in time', () => {
  const budget = botTimeCapMs(30);
  assert.equal(budget, 29_000);
  const queue = new SearchQueue<string>(1);
  for (let i = 0; i < 30; i++) queue.add(`bot${i}`, i * 5, Math.min(1000, budget));
  const answers = simulate(queue, 1, 0);
  assert.equal(answers.size, 30);
  for (const [name, { answeredAt }] of answers) {
    const askedAt = Number(name.slice(3)) * 5;
    assert.ok(answeredAt <= askedAt + 1000, `${name} asked at ${askedAt} answered at ${answeredAt}`);
  }
});

test('a bot\'s time is capped below the move\'s limit: a quarter of a short limit, a second of a long one', () => {
  assert.equal(botTimeCapMs(2), 1500);
  assert.equal(botTimeCapMs(10), 9000);
  assert.equal(botTimeCapMs(Infinity), Infinity);
  assert.equal(botTimeCapMs(0.1), 75);
});

test('searchForMove gives a timed search its capped budget and a node-bounded one none', async () => {
  const seen: unknown[] = [];
  const compute: Compute = {
    run: async <T>(_module: string, _fn: string, args: readonly unknown[]): Promise<T> => {
      seen.push(['run', ...args]);
      return null as T;
    },
    runTimed: async <T>(_module: string, _fn: string, search: TimedSearch): Promise<T> => {
      seen.push(['timed', search.budgetMs, ...search.args(123)]);
      return null as T;
    },
    close: async () => {},
  };
  await searchForMove(compute, 'm', 'f', 1000, 2, (ms) => [ms]);
  await searchForMove(compute, 'm', 'f', undefined, 2, (ms) => [ms]);
  await searchForMove(new InlineCompute(), new URL('./search-queue.test.js', import.meta.url).href, 'echo', 5000, 4, (ms) => [ms]).then((value) => seen.push(value));
  assert.deepEqual(seen, [['timed', 1000, 123], ['run', undefined], 3000]);
});

/** For the inline run above: what the search was given. */
export function echo(ms: number): number {
  return ms;
}

test('the worker pool measures each search\'s time from its request, on the pool\'s clock', async () => {
  const { WorkerCompute } = await import('./compute.js');
  const { ManualClock } = await import('../util/clock.js');
  const clock = new ManualClock();
  const pool = new WorkerCompute(1, clock);
  // A "search" that answers with the time it was given.
  const module = 'data:text/javascript,export function given(ms) { return ms; }';
  try {
    const search = (budgetMs: number): TimedSearch => ({ budgetMs, args: (ms) => [ms] });
    // The worker busy, three asked at once, the clock standing still: the first taken up gets a
    // third of its time (two more wait), the second half, the last all it has left.
    const busy = pool.run<string>(module, 'given', ['busy']);
    const answers = Promise.all([1200, 1200, 1200].map((budget) => pool.runTimed<number>(module, 'given', search(budget))));
    assert.equal(await busy, 'busy');
    assert.deepEqual(await answers, [400, 600, 1200]);
    // Asked while the worker is busy (held on a shared flag), taken up 700 ms later: those 700 ms are gone.
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const holding = 'data:text/javascript,export function hold(buffer) { Atomics.wait(new Int32Array(buffer), 0, 0); return "held"; }';
    const blocker = pool.run<string>(holding, 'hold', [flag.buffer]);
    const late = pool.runTimed<number>(module, 'given', search(1000));
    await clock.advance(700);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    assert.equal(await blocker, 'held');
    assert.equal(await late, 300);
  } finally {
    await pool.close();
  }
});
