import type { VisEvent } from '../../protocol/vis-event.js';
import { VisValidator } from '../../protocol/vis-validate.js';
import type { VisRefusal } from './match-report.js';

/** Refused events kept in the report (the count goes on). */
export const VIS_REFUSALS_KEPT = 20;
/** Characters of a refused line kept with its reason. */
const LINE_EXCERPT_CHARS = 200;

/**
 * The `vis` lines of one game server: each checked by the platform's validator (syntax, shape
 * and its place in the sequence: t never decreasing, ids never reused). The reference controller
 * does not read these lines at all, so a bad one must never fail a match; it is refused, and why
 * is kept for the report. An accepted event goes on to the match's feed, which checks the same
 * rules in the same order and so accepts it too.
 */
export class VisGate {
  private readonly validator = new VisValidator();
  private readonly kept: VisRefusal[] = [];
  private refusedCount = 0;

  /** The event of one `vis` line (the text after `vis `), or null when it is refused. */
  accept(body: string): VisEvent | null {
    const event = this.validator.line(body);
    if (event.ok) return event.value;
    this.refusedCount++;
    if (this.kept.length < VIS_REFUSALS_KEPT) {
      const line = body.length > LINE_EXCERPT_CHARS ? `${body.slice(0, LINE_EXCERPT_CHARS)}…` : body;
      this.kept.push({ line, why: `${event.error.code}: ${event.error.message}` });
    }
    return null;
  }

  refusals(): readonly VisRefusal[] {
    return this.kept;
  }

  get refused(): number {
    return this.refusedCount;
  }
}
