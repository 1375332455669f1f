import type { VisEvent, VisEventInput } from '../protocol/vis-event.js';
import { VisValidator, type VisError, type VisLimits } from '../protocol/vis-validate.js';

export interface VisSink {
  event(event: VisEvent): void;
  end(): void;
}

export interface VisFeedOptions {
  readonly limits?: Partial<VisLimits>;
  /** Told about each refused event (log it when serving; throw in tests to catch game bugs). */
  readonly onReject?: (error: VisError) => void;
}

/**
 * The visualizer events of one match: validated (protocol/vis-validate.ts), stamped with a time
 * that never decreases, kept for the record and forwarded to live web spectators.
 */
export class VisFeed {
  private readonly events: VisEvent[] = [];
  private readonly sinks = new Set<VisSink>();
  private readonly validator: VisValidator;
  private ended = false;

  constructor(
    private readonly now: () => number,
    private readonly options: VisFeedOptions = {},
  ) {
    this.validator = new VisValidator(options.limits);
  }

  /** A built-in game's event; without `t` it is stamped with the match time. Null when accepted. */
  emit(input: VisEventInput): VisError | null {
    return this.ended ? null : this.accept(this.validator.event(input, this.now()));
  }

  /** An external game server's `vis` line (the text after `vis `, JSON or Hjson, `t` required). */
  emitLine(body: string): VisError | null {
    return this.ended ? null : this.accept(this.validator.line(body));
  }

  private accept(result: ReturnType<VisValidator['line']>): VisError | null {
    if (!result.ok) {
      this.options.onReject?.(result.error);
      return result.error;
    }
    this.events.push(result.value);
    for (const sink of this.sinks) sink.event(result.value);
    return null;
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
