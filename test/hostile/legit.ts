import { check, type Check } from './checks.js';
import { CocoPeer, gameNew } from './coco-peer.js';
import { getJson } from './http-client.js';
import type { LobbyWatch } from './lobby-watch.js';
import type { Net } from './net.js';

export interface LegitOptions {
  readonly net: Net;
  readonly url: string;
  readonly httpPort: number;
  readonly watch: LobbyWatch;
  /** Rounds of each match. */
  readonly rounds: number;
  /**
   * false: one match whose last round waits until the attack is over (it surely overlaps the
   * attack). true: matches back to back, none held, until the attack is over (the fuzz run: the
   * rounds go on during the whole attack, so a stall shows as a gap between two of them).
   */
  readonly chain: boolean;
  /** The source address of the k-th match's two players. */
  readonly address: (k: number) => string;
  /** Name prefix of the matches. */
  readonly label: string;
}

interface Played {
  id: string | null;
  rock: { stream: string; ended: boolean } | null;
  paper: { stream: string; ended: boolean } | null;
  problem: string | null;
}

interface Recorded {
  players: string[];
  scores: number[] | null;
  reason: string;
  spectator_stream: string;
}

/**
 * The legitimate players beside an attack: roshambo between `rock` (always ROCK) and `paper`
 * (always PAPER), so every match's result is known before it starts (paper wins every round).
 * Both players answer each round as soon as it arrives, like a real bot.
 */
export class LegitSession {
  private attackOver = false;
  private attackEndedAt = Number.POSITIVE_INFINITY;
  private releaseHold: () => void = () => {};
  private readonly hold = new Promise<void>((resolve) => (this.releaseHold = resolve));
  private readonly played: Played[] = [];
  /** When rock's game frames arrived (performance.now): one per round, or a few rounds together. */
  private readonly arrivals: number[] = [];
  /** Resolves when the last match is over (or could not be played). */
  done: Promise<void> = Promise.resolve();

  private constructor(private readonly options: LegitOptions) {}

  /** Starts the first match; resolves once it is running (both players received MatchStarted). */
  static async start(options: LegitOptions): Promise<LegitSession> {
    const session = new LegitSession(options);
    await new Promise<void>((started, failed) => {
      session.done = session.run(started, failed);
    });
    return session;
  }

  /** The attack is over: the held last round is sent and no new match is started. */
  attackEnded(): void {
    this.markAttackEnd();
    this.attackOver = true;
    this.releaseHold();
  }

  /** The attack's inputs are all sent: stalls are measured up to now (the match may go on a little). */
  markAttackEnd(): void {
    this.attackEndedAt = Math.min(this.attackEndedAt, performance.now());
  }

  /** The id of the match being played (or last played); '' before the first is created. */
  get currentId(): string {
    return this.played.at(-1)?.id ?? '';
  }

  /** How many matches were played (or tried). */
  get matches(): number {
    return this.played.length;
  }

  /**
   * The longest time rock waited for its next round while the attack ran, in milliseconds: the
   * largest gap between two game frames (or between the last frame and the end of the attack).
   */
  worstStallMs(attackStartedAt: number): number {
    return this.worstGapMs(attackStartedAt, Math.min(this.attackEndedAt, performance.now()));
  }

  /** The largest gap between two of rock's game frames between `from` and `end` (both ends count as frames). */
  worstGapMs(from: number, end: number): number {
    let worst = 0;
    const times = this.arrivals.filter((t) => t >= from && t <= end);
    let previous = Math.max(from, this.arrivals.filter((t) => t < from).at(-1) ?? from);
    for (const t of [...times, end]) {
      worst = Math.max(worst, t - previous);
      previous = t;
    }
    return Math.round(worst);
  }

  private async run(started: () => void, failed: (error: Error) => void): Promise<void> {
    for (let k = 0; ; k++) {
      const played: Played = { id: null, rock: null, paper: null, problem: null };
      this.played.push(played);
      try {
        await this.playOne(k, played, started);
      } catch (error) {
        played.problem = error instanceof Error ? error.message : String(error);
        if (k === 0) failed(new Error(`the first match could not start: ${played.problem}`));
        return;
      }
      if (!this.options.chain || this.attackOver) return;
    }
  }

  private async playOne(k: number, played: Played, started: () => void): Promise<void> {
    const { net, url, rounds } = this.options;
    const address = this.options.address(k);
    const paper = await CocoPeer.open(net, url, address);
    const rock = await CocoPeer.open(net, url, address);
    try {
      const created = await paper.request(
        gameNew('roshambo', `${this.options.label}-${k}`, { players: 2, timeout: 600, args: { rounds: String(rounds), pace: '0' } }),
        'GameNew',
      );
      if ('Err' in created.id) throw new Error(`GameNew refused: ${created.id.Err}`);
      const id = created.id.Ok;
      played.id = id;
      const [paperJoined, rockJoined] = await Promise.all([
        paper.request({ type: 'LobbyJoinMatch', id, name: 'paper', password: null }, 'LobbyJoinedMatch'),
        rock.request({ type: 'LobbyJoinMatch', id, name: 'rock', password: null }, 'LobbyJoinedMatch'),
      ]);
      for (const joined of [paperJoined, rockJoined]) if ('Err' in joined.info) throw new Error(`LobbyJoinMatch refused: ${joined.info.Err}`);
      const [a, b] = await Promise.all([paper.until('MatchStarted'), rock.until('MatchStarted')]);
      if (!a || !b) throw new Error('the connection closed before MatchStarted');
      started();
      // Only a single held match waits for the attack; in a chain each match plays straight through.
      const [paperEnd, rockEnd] = await Promise.all([this.play(paper, 'PAPER', !this.options.chain, false), this.play(rock, 'ROCK', false, true)]);
      played.paper = paperEnd;
      played.rock = rockEnd;
    } finally {
      paper.terminate();
      rock.terminate();
    }
  }

  /** Plays one side until MatchEnded (ended: true) or until the connection closes (false). */
  private async play(peer: CocoPeer, gesture: string, holdLast: boolean, timed: boolean): Promise<{ stream: string; ended: boolean }> {
    const { rounds } = this.options;
    const move = Buffer.from(`${gesture}\n`);
    let stream = '';
    let lines = 0;
    let sent = 0;
    for (;;) {
      const frame = await peer.next();
      if (frame === null) return { stream, ended: false };
      if (frame.kind === 'reply') {
        if (frame.reply.type === 'MatchEnded') return { stream, ended: true };
        continue;
      }
      if (frame.kind !== 'data') continue;
      if (timed) this.arrivals.push(frame.at);
      const text = frame.bytes.toString('utf8');
      stream += text;
      for (const c of text) if (c === '\n') lines++;
      // Three header lines, then one line per round: a round's gesture goes once the previous round is known.
      while (sent < rounds && sent < lines - 2) {
        if (holdLast && sent === rounds - 1) await this.hold;
        peer.sendBytes(move);
        sent++;
      }
    }
  }

  /** Every match ended with paper winning every round, in both players' streams and in the history. */
  async verify(name: string): Promise<Check> {
    const { rounds } = this.options;
    for (const [k, played] of this.played.entries()) {
      const fail = (why: string): Check => check(name, false, `match ${k + 1} of ${this.played.length} (${played.id ?? 'not created'}): ${why}`);
      if (played.problem) return fail(played.problem);
      if (!played.rock?.ended || !played.paper?.ended) return fail('a player never received MatchEnded (its connection closed)');
      const header = (me: string, them: string): string => `${me}\n${them}\n${rounds}\n`;
      if (played.rock.stream !== header('rock', 'paper') + 'PAPER\n'.repeat(rounds)) return fail(`rock's stream is wrong: ${JSON.stringify(played.rock.stream.slice(-80))}`);
      if (played.paper.stream !== header('paper', 'rock') + 'ROCK\n'.repeat(rounds)) return fail(`paper's stream is wrong: ${JSON.stringify(played.paper.stream.slice(-80))}`);
      if (!(await this.options.watch.deleted(played.id!))) return fail('the lobby never said the match was over and recorded');
      const { status, json } = await getJson<Recorded>(this.options.httpPort, `/api/history/${played.id}`, this.options.address(k));
      if (!json) return fail(`GET /api/history/${played.id} answered ${status}`);
      const paperAt = json.players.indexOf('paper');
      const rockAt = json.players.indexOf('rock');
      if (paperAt < 0 || rockAt < 0 || json.scores?.[paperAt] !== rounds || json.scores?.[rockAt] !== 0) {
        return fail(`recorded players ${JSON.stringify(json.players)} scores ${JSON.stringify(json.scores)} (${json.reason})`);
      }
      const seats = json.players.map((player) => (player === 'paper' ? 'PAPER' : 'ROCK'));
      const expected = `${json.players.join('\n')}\n${rounds}\n` + `${seats.join('\n')}\n`.repeat(rounds);
      if (json.spectator_stream !== expected) return fail('the recorded spectator stream is wrong');
    }
    return check(name, true, `${this.played.length} match(es) of ${rounds} rounds`);
  }
}
