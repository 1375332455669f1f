import { test, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { BotIO } from '../../match/game.js';
import { playLocalMatch, type LocalPlayer } from '../../match/local-match.js';
import { killTaggedProcesses } from '../../util/process-sweep.js';
import { ManualClock } from '../../util/clock.js';
import { transcriptName } from '../../match/match.js';
import {
  drain,
  fixtureGame,
  groupAndSession,
  isAlive,
  listener,
  livingChildren,
  markTestProcesses,
  processesWithTag,
  readUntil,
  scripted,
} from './test-support.js';

afterEach(() => {
  assert.deepEqual(livingChildren(), [], 'a child process outlived its match');
});

// Whatever a failing test leaves running (an orphan in a session of its own) is killed at the end.
after(markTestProcesses());

function reasonOf(record: Awaited<ReturnType<typeof playLocalMatch>>): string {
  assert.equal(record.outcome.error, null, `unexpected match error: ${record.outcome.error}`);
  return record.outcome.result!.reason;
}

test('the game server gets vis inline, the param line with {num_player}, {num_players}, {timeout} and args, then start', async () => {
  const { game } = fixtureGame('echo', {
    param: '{num_players} {num_player} {timeout} {arg:size}',
    args: { size: { description: 'a size', regex: '\\d+', default: '7' } },
  });
  const record = await playLocalMatch({
    game,
    params: { timeout: 12, args: { size: '42' } },
    players: [
      { name: 'A', play: scripted(['over']) },
      { name: 'B', play: listener },
    ],
  });
  assert.equal(reasonOf(record), 'vis inline|param 2 2 12 42|start|recv 1 over');
  assert.deepEqual(record.outcome.result!.scores, [1, 0]);
});

test('send, sendall, timers and vis reach the right places; spectators get every sendall line', async () => {
  const { game, reports } = fixtureGame('echo', { min_players: 1 });
  const seen: string[] = [];
  const player: LocalPlayer = async (io) => {
    io.write('ready\n');
    await readUntil(io, 'hello');
    io.write('ping\n');
    seen.push((await io.readLine())!);
    io.write('timer\n');
    seen.push((await io.readLine())!);
    io.write('over\n');
    await drain(io);
  };
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: player }] });
  assert.deepEqual(seen, ['echo ping', 'timeout 7']);
  assert.equal(record.spectatorStream, 'hello\ntimeout 7\n');
  assert.equal(record.received[0], 'hello\necho ping\ntimeout 7\n');
  assert.deepEqual(
    record.vis.map((event) => event.t),
    [0, 0.5],
  );
  assert.deepEqual(record.vis[0], { t: 0, create: { id: 1, geom: [{ circle: { r: 0.1, f: 'ff0000ff' } }] } });
  assert.deepEqual(record.vis[1], { t: 0.5, log: { line: 'json works' } });
  const replay = reports[0]!.replay.split('\n');
  assert.match(replay[0]!, /^\d{3}\.\d{6} > vis inline$/);
  assert.match(replay[1]!, /^\d{3}\.\d{6} > param 1$/);
  assert.ok(replay.some((line) => /^\d{3}\.\d{6} < timer 7 10ms$/.test(line)));
  assert.ok(replay.some((line) => /^\d{3}\.\d{6} > timeout 7$/.test(line)));
});

test('a player whose first line is not ready is closed and reported as dropped at once, before start', async () => {
  const { game } = fixtureGame('echo');
  const record = await playLocalMatch({
    game,
    players: [
      { name: 'A', play: scripted(['over']) },
      { name: 'B', play: scripted([], 'hello') },
    ],
  });
  assert.equal(reasonOf(record), 'vis inline|param 2|dropped 2|start|recv 1 over');
  assert.equal(record.outcome.seats[1]!.closeReason, 'removed');
  assert.equal(record.received[1], '');
});

// Tests of deadlines run the match on a ManualClock: the fixture game server is a real process, so
// the test waits for the deadline it means to pass to be armed (`timerSet`) and then moves time past
// it; while processes talk, time stands still, and a busy machine cannot trip a deadline.

test('a player silent past the ready deadline is dropped', async () => {
  const { game } = fixtureGame('echo', { ready_deadline: 20 });
  const clock = new ManualClock();
  const playing = playLocalMatch({
    game,
    players: [
      { name: 'A', play: scripted(['over']) },
      { name: 'Mute', play: drain },
    ],
    clock,
  });
  // Both seats' first reads are armed together; A's line is already there, so only Mute's waits.
  await clock.timerSet(20_000);
  await clock.advance(20_000);
  const record = await playing;
  assert.equal(reasonOf(record), 'vis inline|param 2|dropped 2|start|recv 1 over');
  assert.equal(record.outcome.seats[1]!.closeReason, 'timeout');
  assert.match(record.outcome.artifacts[transcriptName(1)]!, /\n20\.000 # the seat was closed: timeout\n/, 'dropped at the deadline');
});

test('a server bot program that never says ready is dropped and stopped', async () => {
  const { game } = fixtureGame('echo', { bots: [['python3', 'silent_bot.py']], max_bots: 1, ready_deadline: 20 });
  const clock = new ManualClock();
  const playing = playLocalMatch({ game, params: { bots: 1 }, players: [{ name: 'A', play: scripted(['over']) }], clock });
  await clock.timerSet(20_000);
  await clock.advance(20_000);
  const record = await playing;
  assert.equal(reasonOf(record), 'vis inline|param 2|dropped 2|start|recv 1 over');
});

test('a server bot program whose output ends is dropped after its last line', async () => {
  const { game } = fixtureGame('echo', { bots: [['python3', '-c', "print('ready')"]], max_bots: 1 });
  const record = await playLocalMatch({ game, params: { players: 1, bots: 1 }, players: [] });
  assert.equal(reasonOf(record), 'vis inline|param 1|start|dropped 1');
  assert.deepEqual(record.outcome.result!.scores, [0]);
});

test('a player line over 1024 bytes drops the player', async () => {
  const { game } = fixtureGame('echo');
  const record = await playLocalMatch({
    game,
    params: { players: 1 },
    players: [{ name: 'A', play: scripted(['x'.repeat(1025)]) }],
  });
  assert.equal(reasonOf(record), 'vis inline|param 1|start|dropped 1');
  assert.equal(record.outcome.seats[0]!.closeReason, 'line/too-long');
});

test('a player who disconnects is dropped', async () => {
  const { game } = fixtureGame('echo');
  const leaver: LocalPlayer = async (io) => {
    io.write('ready\n');
    await readUntil(io, 'hello');
  };
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: leaver }] });
  assert.equal(reasonOf(record), 'vis inline|param 1|start|dropped 1');
  assert.equal(record.outcome.seats[0]!.closeReason, 'disconnected');
});

test('playererror lines are recorded and the player is dropped at the limit', async () => {
  const { game, reports } = fixtureGame('echo', { player_error_limit: 3 });
  const record = await playLocalMatch({
    game,
    params: { players: 1 },
    players: [{ name: 'A', play: scripted(['bad', 'bad', 'bad', 'bad']) }],
  });
  // The fourth line may reach the game server before the controller acts on the third error.
  assert.match(reasonOf(record), /^vis inline\|param 1\|start(\|recv 1 bad){3,4}\|dropped 1$/);
  assert.deepEqual(reports[0]!.playerErrors.slice(0, 3), [
    { player: 1, text: 'bad' },
    { player: 1, text: 'bad' },
    { player: 1, text: 'bad' },
  ]);
  assert.deepEqual(reports[0]!.dropped, [1]);
  assert.equal(record.outcome.seats[0]!.closeReason, 'removed');
});

test('over before start ends the match with its scores', async () => {
  const { game } = fixtureGame('over-at-once');
  const record = await playLocalMatch({ game, players: [{ name: 'A', play: listener }, { name: 'B', play: listener }] });
  assert.deepEqual(record.outcome.result, { scores: [2, 2], reason: 'done before start' });
});

/** Plays a fixture match that must fail, and returns its error text. */
async function failure(mode: string, fields: Record<string, unknown> = {}, play: LocalPlayer = listener): Promise<string> {
  const { game, reports } = fixtureGame(mode, fields);
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play }] });
  assert.equal(record.outcome.result, null);
  assert.ok(record.outcome.error);
  assert.equal(reports[0]!.error, record.outcome.error);
  assert.equal(isAlive(reports[0]!.serverPid!), false);
  return record.outcome.error;
}

test('a game server that crashes fails the match with its exit code and the tail of its stderr', async () => {
  const error = await failure('crash');
  assert.match(error, /^game server failed: the game server (ended|closed its output) without "over" \(exit code 3\)/);
  assert.match(error, /Traceback: something broke in the game server/);
});

test('a game server that exits without over fails the match', async () => {
  assert.match(await failure('exit'), /without "over" \(exit code 0\)/);
});

test('a game server that hangs is failed by the stall watchdog and killed', async () => {
  assert.match(await failure('hang', { stall_deadline: 0.3 }), /the match stalled: no line .* for 0.3 s/);
});

test('a game server that never prints a line gets the start-up allowance, then the match time limit ends it', async () => {
  const error = await failure('echo', { command: ['sleep', '30'], stall_deadline: 0.1, max_match_seconds: 0.5 });
  assert.match(error, /the match lasted longer than its limit of 0.5 s/);
});

test('a pending timer keeps the stall watchdog quiet until it fires', async () => {
  const { game } = fixtureGame('echo', { stall_deadline: 0.3 });
  const clock = new ManualClock();
  const player: LocalPlayer = async (io) => {
    io.write('ready\n');
    await readUntil(io, 'hello');
    io.write('timer 9 700ms\n');
    // The game server echoes the timer; once it is armed, 0.6 s pass without a line either way:
    // twice the stall deadline, which would fail the match were no timer pending.
    await clock.timerSet(700);
    await clock.advance(600);
    await clock.advance(100);
    assert.ok(await readUntil(io, 'timeout 9'), 'the timer fired and the match is still on');
    io.write('over\n');
    await drain(io);
  };
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: player }], clock });
  assert.match(reasonOf(record), /recv 1 timer 9 700ms\|timeout 9\|recv 1 over$/);
});

test('a game server line over the limit fails the match', async () => {
  assert.match(await failure('huge-line'), /printed a line over 1024 bytes/);
});

test('a game server that floods its output fails the match at its output limit', async () => {
  assert.match(await failure('flood', { max_output_bytes: 200_000 }), /printed more than its limit of 200000 bytes/);
});

test('a game server that prints garbage fails the match', async () => {
  assert.match(await failure('garbage'), /unknown command "hello there" \[server\/unknown-command\]/);
});

test('send to a player who does not exist fails the match', async () => {
  assert.match(await failure('bad-send'), /"send" names player "2", not one of 1..1/);
});

test('over with too few scores fails the match', async () => {
  assert.match(await failure('bad-over'), /"over" needs 1 numeric scores first, got "abc"/);
});

test('an invalid vis event is refused with what is wrong, and the match goes on', async () => {
  const { game, reports } = fixtureGame('echo');
  const record = await playLocalMatch({
    game,
    params: { players: 1 },
    players: [{ name: 'A', play: scripted(['vis {t:1,create:{id:5,geom:[{circle:{f:"red"}}]}}', 'over']) }],
  });
  assert.equal(reasonOf(record), `vis inline|param 1|start|recv 1 vis {t:1,create:{id:5,geom:[{circle:{f:"red"}}]}}|recv 1 over`);
  assert.equal(reports[0]!.visRefusedCount, 1);
  assert.match(reports[0]!.visRefusals[0]!.why, /^vis\/bad-color: create.geom\[0\].circle.f: "red" is not a colour of exactly 8 hex digits/);
});

test('a game server that cannot be started fails the match', async () => {
  const error = await failure('echo', { command: ['./no-such-server'] });
  assert.match(error, /cannot start the game server \["\.\/no-such-server"\]: .*ENOENT/);
});

test("the game server's own child processes are killed with it", async () => {
  const { game } = fixtureGame('spawn-child', { stall_deadline: 0.3 });
  const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: listener }] });
  assert.match(record.outcome.error!, /stalled/);
  const pids = [...record.spectatorStream.matchAll(/(self|child) (\d+)/g)].map((match) => Number(match[2]));
  assert.equal(pids.length, 2);
  // stop() waits until every tagged process has exited, so none may be left when play returns.
  assert.deepEqual(pids.filter(isAlive), []);
});

/** A process that left its parent's process group and session, as orphan_maker.py reports it. */
interface Orphan {
  readonly pid: number;
  /** The tag of the program that started it (the last of its COCO_PROCESS_TAG values). */
  readonly tag: string;
  readonly group: number;
  readonly session: number;
}

/** Reads lines until `orphan PID TAGS`, and notes the orphan's group and session while it lives. */
async function readOrphan(io: BotIO): Promise<Orphan | null> {
  for (;;) {
    const line = await io.readLine();
    if (line === null) return null;
    const match = /^orphan (\d+) (\S+)$/.exec(line);
    if (match) {
      const pid = Number(match[1]);
      return { pid, tag: match[2]!.split(',').at(-1)!, ...groupAndSession(pid) };
    }
  }
}

/** A player that waits for the orphan line, then wins; `seen.orphan` is the orphan it saw. */
function orphanWatcher(seen: { orphan?: Orphan | null }): LocalPlayer {
  return async (io) => {
    io.write('ready\n');
    seen.orphan = await readOrphan(io);
    io.write('over\n');
    await drain(io);
  };
}

function assertOrphanGone(orphan: Orphan | null | undefined): void {
  assert.ok(orphan, 'the orphan was not reported');
  // It had left every group and session of the match: the process-group kill could not reach it.
  assert.deepEqual({ group: orphan.group, session: orphan.session }, { group: orphan.pid, session: orphan.pid });
  assert.equal(isAlive(orphan.pid), false, 'the orphan outlived its match');
  assert.deepEqual(processesWithTag(orphan.tag), [], 'processes with the match tag outlived it');
}

test('a process the game server started in a session of its own (setsid) is killed when the match ends', async () => {
  const { game, reports } = fixtureGame('setsid-child');
  const seen: { orphan?: Orphan | null } = {};
  try {
    const record = await playLocalMatch({ game, params: { players: 1 }, players: [{ name: 'A', play: orphanWatcher(seen) }] });
    // The game server exits after `over` while the orphan still holds its stdout.
    assert.equal(reasonOf(record), 'vis inline|param 1|start|recv 1 over');
    assertOrphanGone(seen.orphan);
    assert.equal(isAlive(reports[0]!.serverPid!), false);
  } finally {
    if (seen.orphan) await killTaggedProcesses(seen.orphan.tag);
  }
});

test('a process a server bot started in a session of its own (setsid) is killed when the match ends', async () => {
  const { game } = fixtureGame('echo', { bots: [['python3', 'orphan_maker.py', 'bot']], max_bots: 1 });
  const seen: { orphan?: Orphan | null } = {};
  try {
    const record = await playLocalMatch({ game, params: { bots: 1 }, players: [{ name: 'A', play: orphanWatcher(seen) }] });
    assert.equal(record.outcome.error, null, `unexpected match error: ${record.outcome.error}`);
    assert.deepEqual(record.outcome.result!.scores, [1, 0]);
    assertOrphanGone(seen.orphan);
  } finally {
    if (seen.orphan) await killTaggedProcesses(seen.orphan.tag);
  }
});
