import { checkVisEvent, parseVisBody } from '../../protocol/vis-check.js';
import type { VisEventInput } from '../../protocol/vis-event.js';
import { err, type Result } from '../../util/result.js';

/**
 * Turns the text after `vis ` into a typed visualizer event with the platform's one validator
 * (JSON or Hjson; `t` required as the spec says, unless an imported log supplies the time), or
 * says what is wrong with it. Where the event
 * stands in the sequence (t never decreasing, ids never reused) is checked by the match's feed.
 */
export function parseVisPayload(text: string, options: { requireTime: boolean } = { requireTime: true }): Result<VisEventInput> {
  const parsed = parseVisBody(text);
  if (!parsed.ok) return err(`${parsed.error.code}: ${parsed.error.message}`);
  const event = checkVisEvent(parsed.value, options);
  return event.ok ? event : err(`${event.error.code}: ${event.error.message}`);
}
