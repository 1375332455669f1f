import type { VisEvent, VisEventInput } from '../protocol/vis-event.js';

export interface VisSink {
  event(event: VisEvent): void;
  end(): void;
}

/**
 * The visualizer events of one match: stamped with a time that never decreases, kept for the
 * record and forwarded to live web spectators.
 */
export class VisFeed {
  private readonly events: VisEvent[] = [];
  private readonly sinks = new Set<VisSink>();
  private lastT = 0;
  private ended = false;

  constructor(private readonly now: () => number) {}

  get isEnded(): boolean {
    return this.ended;
  }

  /** Adds an event. A `t` earlier than the previous event's is raised to it. */
  emit(input: VisEventInput): void {
    if (this.ended) return;
    const t = Math.max(this.lastT, input.t ?? this.now());
    this.lastT = t;
    const event = { ...input, t } as VisEvent;
    this.events.push(event);
    for (const sink of this.sinks) sink.event(event);
  }

  all(): readonly VisEvent[] {
    return this.events;
  }

  subscribe(sink: VisSink): { history: readonly VisEvent[]; live: boolean; unsubscribe: () => void } {
    const history = this.events.slice();
    if (this.ended) return { history, live: false, unsubscribe: () => {} };
    this.sinks.add(sink);
    return { history, live: true, unsubscribe: () => this.sinks.delete(sink) };
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    const sinks = [...this.sinks];
    this.sinks.clear();
    for (const sink of sinks) sink.end();
  }
}
