import type { VisEvent } from '../src/protocol/vis-event.js';
import { h } from './dom.js';
import { formatClock } from './format.js';
import { LogView } from './log-view.js';
import { Steps } from './steps.js';
import { SvgScene } from './svg-scene.js';
import { Timeline } from './timeline.js';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

/**
 * How playing moves the playhead: in match time (animations as they were timed, long thinks and
 * all), or one step (log line) per second whatever time the match took between them.
 */
export const PLAYBACK_MODES = [
  { value: 'time', label: 'Real time' },
  { value: 'move', label: 'Per move' },
] as const;
export type PlaybackMode = (typeof PLAYBACK_MODES)[number]['value'];

/** In live mode, the picture catches up with new events within about this many seconds. */
const CATCH_UP_SECONDS = 0.3;
/** In live mode, further behind than this (in match time) the picture jumps instead of hurrying. */
const LIVE_MAX_LAG = 10;
/** Where the browser remembers the picture's orientation: one entry per game (`coco.flip.chess`). */
const FLIP_STORAGE_PREFIX = 'coco.flip.';

/** A step shown: its number, the playhead's time, and whether it is the end of a finished match. */
export type StepListener = (step: number, t: number, atEnd: boolean) => void;

/** A frame longer than this (a hidden tab) does not move the playhead more than this. */
const MAX_FRAME_SECONDS = 0.25;

export interface PlayerOptions {
  /** Events still arrive: start in live mode, following them. */
  readonly live: boolean;
  /** Start playing at once (replays). */
  readonly autoplay?: boolean;
  /** Called when the step shown changes (the replay page keeps it in its URL). */
  readonly onStep?: (step: number) => void;
  /** Who plays which seat, shown above the log (player-legend.ts); none while nobody is known. */
  readonly legend?: HTMLElement;
}

/**
 * Whether a key pressed on `target` belongs to that element rather than to the player: typing in a
 * field, choosing in a list, moving a slider or pressing a focused button (space) keeps its own
 * meaning, as on lichess, where the arrows step through the game unless a field has the focus.
 */
export function keyBelongsToTarget(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  // A focused time slider still steps by move with the arrows: its own tiny steps mean nothing here.
  if (target instanceof HTMLInputElement) return target.type !== 'range';
  if ((target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement) && (key === ' ' || key === 'Enter')) return true;
  return false;
}

/**
 * The visualizer widget: the picture, the log lines visible up to the current time, and the
 * controls (play/pause, time slider, speed, live). In live mode the playhead follows the newest
 * events; any scrubbing switches to replay mode, and the Live button switches back.
 */
export class Player {
  readonly element: HTMLElement;
  readonly timeline = new Timeline();
  private readonly scene: SvgScene;
  private readonly logView = new LogView((index) => this.goToStep(index + 1));
  private readonly steps = new Steps(this.timeline.logMoments);
  private readonly stepCounter: HTMLElement;
  private readonly modeSelect: HTMLSelectElement;
  private readonly onStep: ((step: number) => void) | undefined;
  private shownStep = -1;
  private shownAtEnd = false;
  private mode: PlaybackMode = 'time';
  private readonly playButton: HTMLButtonElement;
  private readonly liveButton: HTMLButtonElement;
  private readonly slider: HTMLInputElement;
  private readonly clock: HTMLElement;
  private readonly speedSelect: HTMLSelectElement;
  private readonly status: HTMLElement;

  private t = 0;
  private playing: boolean;
  private live: boolean;
  private sourceLive: boolean;
  private speed = 1;
  private dragging = false;
  private needsRender = true;
  private logsChanged = true;
  private lastFrame: number | null = null;
  private frame = 0;
  private disposed = false;
  private jumpToLatest = false;
  private readonly keyListener = (e: KeyboardEvent): void => this.onKey(e);
  private readonly flipButton: HTMLButtonElement;
  /** The localStorage key of this game's orientation, once the game is known. */
  private flipKey: string | null = null;
  private readonly stepListeners: StepListener[] = [];

  constructor(options: PlayerOptions) {
    this.live = options.live;
    this.sourceLive = options.live;
    this.playing = options.live || (options.autoplay ?? false);
    this.onStep = options.onStep;

    const stage = h('div', { class: 'player-stage' });
    this.scene = new SvgScene(stage, this.timeline);
    this.status = h('div', { class: 'player-status' });
    stage.append(this.status);

    this.playButton = h('button', { class: 'player-play', type: 'button', title: 'Play / pause (space)' });
    this.playButton.addEventListener('click', () => this.togglePlay());
    this.slider = h('input', { class: 'player-slider', type: 'range', min: 0, max: 0, step: 'any', value: 0, 'aria-label': 'time' });
    this.slider.addEventListener('input', () => {
      this.dragging = true;
      this.seek(Number(this.slider.value));
    });
    this.slider.addEventListener('change', () => {
      this.dragging = false;
    });
    this.clock = h('span', { class: 'player-clock' });
    this.speedSelect = h(
      'select',
      { class: 'player-speed', 'aria-label': 'speed', title: 'Playback speed' },
      SPEEDS.map((s) => h('option', { value: s, selected: s === 1 }, `${s}×`)),
    );
    this.speedSelect.addEventListener('change', () => {
      this.speed = Number(this.speedSelect.value);
    });
    this.liveButton = h('button', { class: 'player-live', type: 'button', title: 'Follow the match live' }, 'Live');
    this.liveButton.addEventListener('click', () => this.goLive());
    this.flipButton = h('button', { class: 'player-flip', type: 'button', title: 'Flip the board (f)', 'aria-label': 'Flip the board (f)', 'aria-pressed': 'false' }, '⇅ Flip');
    this.flipButton.addEventListener('click', () => this.flip());

    const stepButton = (cls: string, label: string, title: string, action: () => void): HTMLButtonElement => {
      const button = h('button', { class: `player-step-button ${cls}`, type: 'button', title, 'aria-label': title }, label);
      button.addEventListener('click', action);
      return button;
    };
    this.stepCounter = h('span', { class: 'player-step', 'aria-live': 'polite' });
    this.modeSelect = h(
      'select',
      { class: 'player-mode', 'aria-label': 'playback mode', title: 'Real time, or one move per second (times the speed)' },
      PLAYBACK_MODES.map((m) => h('option', { value: m.value, selected: m.value === this.mode }, m.label)),
    );
    this.modeSelect.addEventListener('change', () => {
      this.mode = this.modeSelect.value === 'move' ? 'move' : 'time';
    });
    const stepping = h(
      'div',
      { class: 'player-stepping' },
      stepButton('player-first', '|◀', 'First move (Home)', () => this.goToStep(0)),
      stepButton('player-prev', '◀', 'Previous move (←)', () => this.goToStep(this.currentStep - 1)),
      this.stepCounter,
      stepButton('player-next', '▶', 'Next move (→)', () => this.goToStep(this.currentStep + 1)),
      stepButton('player-last', '▶|', 'Last move (End)', () => this.goToEnd()),
    );
    const controls = h(
      'div',
      { class: 'player-controls' },
      h('div', { class: 'player-timebar' }, this.playButton, this.slider, this.clock),
      h('div', { class: 'player-options' }, stepping, this.modeSelect, this.speedSelect, this.flipButton, this.liveButton),
    );
    const log = h('aside', { class: 'player-log' }, options.legend ?? null, h('h3', {}, 'Log'), this.logView.element);
    this.element = h('div', { class: 'player', tabindex: 0 }, h('div', { class: 'player-main' }, stage, controls), log);
    // The keys work on the whole page, without clicking the player first; dispose() removes this.
    document.addEventListener('keydown', this.keyListener);
    this.updateControls();
    this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  /** Adds events (the history, then live batches). */
  append(events: readonly VisEvent[]): void {
    if (events.length === 0) return;
    // Joining a running match: show where it is now rather than fast-forwarding its history.
    if (this.live && this.timeline.size === 0) this.jumpToLatest = true;
    const changed = this.timeline.append(events);
    this.scene.invalidate(changed.objects);
    if (changed.logsAdded > 0) this.logsChanged = true;
    this.needsRender = true;
  }

  /** The source has no more events: the player becomes a replay, at the same place. */
  end(): void {
    this.sourceLive = false;
    if (this.live) {
      // Let the last animations finish.
      this.live = false;
      this.playing = this.t < this.timeline.endTime;
    }
    this.updateControls();
  }

  /**
   * The game being shown: the picture takes the orientation this browser last chose for it (lichess
   * keeps the board the way one looks at it), and a flip is remembered under it from now on.
   */
  rememberFlipFor(game: string): void {
    if (this.flipKey === FLIP_STORAGE_PREFIX + game) return;
    this.flipKey = FLIP_STORAGE_PREFIX + game;
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(this.flipKey);
    } catch {
      // Storage refused (a private window's policy): the orientation is not remembered.
    }
    this.setFlipped(stored === '1');
  }

  /** Turns the picture half a turn (button, key f), and remembers it for this game. */
  flip(): void {
    this.setFlipped(!this.scene.flipped);
    if (this.flipKey === null) return;
    try {
      localStorage.setItem(this.flipKey, this.scene.flipped ? '1' : '0');
    } catch {
      // Not remembered; the picture is flipped all the same.
    }
  }

  get flipped(): boolean {
    return this.scene.flipped;
  }

  private setFlipped(flipped: boolean): void {
    this.scene.setFlipped(flipped);
    this.flipButton.setAttribute('aria-pressed', String(flipped));
    this.flipButton.classList.toggle('active', flipped);
    this.element.classList.toggle('is-flipped', flipped);
  }

  /** Calls `listener` with every step shown from now on (and at once with the current one). */
  onStepShown(listener: StepListener): void {
    this.stepListeners.push(listener);
    if (this.shownStep >= 0) listener(this.shownStep, this.t, this.atEnd(this.shownStep));
  }

  private atEnd(step: number): boolean {
    return !this.sourceLive && step >= this.steps.total && this.t >= this.timeline.endTime;
  }

  /** A line over the picture (waiting, errors); empty hides it. */
  setStatus(text: string): void {
    this.status.textContent = text;
    this.status.hidden = text === '';
  }

  get time(): number {
    return this.t;
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frame);
    document.removeEventListener('keydown', this.keyListener);
  }

  seek(t: number): void {
    this.live = false;
    this.t = Math.min(Math.max(0, t), this.timeline.endTime);
    this.needsRender = true;
    this.updateControls();
  }

  /** The step (log line) shown now: 0 before the first line. */
  get currentStep(): number {
    return this.steps.at(this.t, this.timeline.endTime, this.timeline.firstEventTime);
  }

  /** Shows step k (clamped to 0..total) and pauses there: stepping is for looking at one moment. */
  goToStep(k: number): void {
    this.playing = false;
    this.seek(this.steps.go(k, this.timeline.endTime, this.timeline.firstEventTime));
  }

  /** The end of the match, with or without log lines. */
  private goToEnd(): void {
    this.playing = false;
    this.steps.go(this.steps.total, this.timeline.endTime);
    this.seek(this.timeline.endTime);
  }

  private togglePlay(): void {
    if (this.live) {
      this.live = false;
      this.playing = false;
    } else if (this.playing) {
      this.playing = false;
    } else {
      if (this.t >= this.timeline.endTime && !this.sourceLive) this.t = 0;
      this.playing = true;
    }
    this.needsRender = true;
    this.updateControls();
  }

  private goLive(): void {
    if (!this.sourceLive) return;
    this.live = true;
    this.playing = true;
    this.updateControls();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || keyBelongsToTarget(e.target, e.key)) return;
    // A player that is not on the page (a hidden card) does not take the page's keys.
    if (!this.element.isConnected || this.element.offsetParent === null) return;
    // Arrows step by move; with Shift they move 5 seconds of match time.
    if (e.key === ' ' || e.key === 'k') this.togglePlay();
    else if (e.key === 'ArrowLeft' && e.shiftKey) this.seek(this.t - 5);
    else if (e.key === 'ArrowRight' && e.shiftKey) this.seek(this.t + 5);
    else if (e.key === 'ArrowLeft') this.goToStep(this.currentStep - 1);
    else if (e.key === 'ArrowRight') this.goToStep(this.currentStep + 1);
    else if (e.key === 'Home') this.goToStep(0);
    else if (e.key === 'End') this.goToEnd();
    else if (e.key === 'f' && !e.shiftKey) this.flip();
    else return;
    e.preventDefault();
  }

  private advance(dt: number): void {
    const end = this.timeline.endTime;
    const before = this.t;
    if (this.live) {
      const lag = this.timeline.lastEventTime - this.t;
      if (lag > LIVE_MAX_LAG || this.jumpToLatest) this.t = Math.max(this.t, this.timeline.lastEventTime);
      else this.t = Math.min(end, this.t + dt * Math.max(1, lag / CATCH_UP_SECONDS));
    } else if (this.playing) {
      this.t = this.mode === 'move' ? this.steps.advancePerMove(this.t, dt, this.speed, end) : Math.min(end, this.t + dt * this.speed);
      if (this.t >= end) {
        // At the end of what has arrived: a live source is followed, a finished one stops.
        if (this.sourceLive) this.live = true;
        else this.playing = false;
        this.updateControls();
      }
    }
    if (this.t !== before) this.needsRender = true;
  }

  private tick(now: number): void {
    if (this.disposed) return;
    const dt = this.lastFrame === null ? 0 : Math.min(MAX_FRAME_SECONDS, (now - this.lastFrame) / 1000);
    this.lastFrame = now;
    if (!this.dragging) this.advance(dt);
    this.jumpToLatest = false;
    if (this.needsRender) {
      this.scene.render(this.t);
      this.needsRender = false;
      this.logsChanged = true;
      this.updateClock();
    }
    const step = this.currentStep;
    const atEnd = this.atEnd(step);
    if (step !== this.shownStep || atEnd !== this.shownAtEnd) {
      if (step !== this.shownStep) this.onStep?.(step);
      this.shownStep = step;
      this.shownAtEnd = atEnd;
      this.logsChanged = true;
      for (const listener of this.stepListeners) listener(step, this.t, atEnd);
    }
    if (this.logsChanged) {
      this.logView.render(this.timeline.logs, this.timeline.logCountAt(this.t), step - 1);
      this.stepCounter.textContent = `move ${step} / ${this.steps.total}`;
      this.logsChanged = false;
    }
    this.frame = requestAnimationFrame((next) => this.tick(next));
  }

  private updateClock(): void {
    const end = this.timeline.endTime;
    // Whole milliseconds on both ends: a range input keeps fewer digits than a double, so the value
    // at the end would otherwise read back a hair below its max.
    this.slider.max = String(Math.round(end * 1000) / 1000);
    if (!this.dragging) this.slider.value = String(Math.round(this.t * 1000) / 1000);
    this.clock.textContent = `${formatClock(this.t)} / ${formatClock(end)}`;
  }

  private updateControls(): void {
    const playing = this.live || this.playing;
    this.playButton.textContent = playing ? '❚❚' : '▶';
    this.playButton.setAttribute('aria-label', playing ? 'pause' : 'play');
    this.liveButton.hidden = !this.sourceLive;
    this.liveButton.classList.toggle('is-live', this.live);
    this.speedSelect.disabled = this.live;
    this.element.classList.toggle('is-live', this.live);
    this.updateClock();
  }
}
