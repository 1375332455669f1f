import type { VisEvent } from '../src/protocol/vis-event.js';
import { h } from './dom.js';
import { formatClock } from './format.js';
import { LogView } from './log-view.js';
import { SvgScene } from './svg-scene.js';
import { Timeline } from './timeline.js';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

/** In live mode, the picture catches up with new events within about this many seconds. */
const CATCH_UP_SECONDS = 0.3;
/** In live mode, further behind than this (in match time) the picture jumps instead of hurrying. */
const LIVE_MAX_LAG = 10;
/** A frame longer than this (a hidden tab) does not move the playhead more than this. */
const MAX_FRAME_SECONDS = 0.25;

export interface PlayerOptions {
  /** Events still arrive: start in live mode, following them. */
  readonly live: boolean;
  /** Start playing at once (replays). */
  readonly autoplay?: boolean;
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
  private readonly logView = new LogView();
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

  constructor(options: PlayerOptions) {
    this.live = options.live;
    this.sourceLive = options.live;
    this.playing = options.live || (options.autoplay ?? false);

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

    const controls = h('div', { class: 'player-controls' }, this.playButton, this.slider, this.clock, this.speedSelect, this.liveButton);
    const log = h('aside', { class: 'player-log' }, h('h3', {}, 'Log'), this.logView.element);
    this.element = h('div', { class: 'player', tabindex: 0 }, h('div', { class: 'player-main' }, stage, controls), log);
    this.element.addEventListener('keydown', (e) => this.onKey(e));
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
  }

  seek(t: number): void {
    this.live = false;
    this.t = Math.min(Math.max(0, t), this.timeline.endTime);
    this.needsRender = true;
    this.updateControls();
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
    if (e.target instanceof HTMLSelectElement) return;
    const step = e.shiftKey ? 5 : 1;
    if (e.key === ' ' || e.key === 'k') this.togglePlay();
    else if (e.key === 'ArrowLeft') this.seek(this.t - step);
    else if (e.key === 'ArrowRight') this.seek(this.t + step);
    else if (e.key === 'Home') this.seek(0);
    else if (e.key === 'End') this.seek(this.timeline.endTime);
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
      this.t = Math.min(end, this.t + dt * this.speed);
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
    if (this.logsChanged) {
      this.logView.render(this.timeline.logs, this.timeline.logCountAt(this.t));
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
