import type { VisEvent, VisEventKind } from './vis-event.js';
import type { PreparedShape, Vec2 } from './vis-shape.js';

/**
 * Where an accepted event's JSON text goes, in pieces: text, and prepared shapes as they are (a
 * log of events can keep a reference to a shape's bytes instead of a copy). `end` closes the event.
 */
export interface VisJsonOut {
  text(json: string): void;
  /** A shape of a create's `geom`, after a comma unless it is the first. */
  shape(shape: PreparedShape, comma: boolean): void;
  end(): void;
}

/** The pieces of one event's JSON put together as a string. */
export class JsonText implements VisJsonOut {
  json = '';

  text(json: string): void {
    this.json += json;
  }

  shape(shape: PreparedShape, comma: boolean): void {
    this.json += comma ? `,${shape.json!}` : shape.json!;
  }

  end(): void {}
}

/**
 * `JSON.stringify(event)`, put together by hand for the events of every round (a create from the
 * JSON of its prepared shapes). The fields are written in the order the normalized event has them
 * (a create: id, geom, p, z); every number in a checked event is finite, for which JSON writes what
 * `String` writes.
 */
export function eventJson(event: VisEvent, prepared: readonly (PreparedShape | null)[], timeFirst: boolean): string {
  const text = new JsonText();
  writeEvent(event, prepared, timeFirst, text);
  return text.json;
}

function writeEvent(event: VisEvent, prepared: readonly (PreparedShape | null)[], timeFirst: boolean, out: VisJsonOut): void {
  if ('create' in event) {
    const { create } = event;
    out.text(`${eventOpen('create', event.t, timeFirst)}{"id":${create.id},"geom":[`);
    for (let i = 0; i < create.geom.length; i++) {
      const shape = prepared[i];
      if (shape) out.shape(shape, i > 0);
      else out.text(i > 0 ? `,${JSON.stringify(create.geom[i])}` : JSON.stringify(create.geom[i]));
    }
    out.text(`${createTail(create.p, create.z)}${eventClose(event.t, timeFirst)}`);
  } else if ('destroy' in event) {
    out.text(`${eventOpen('destroy', event.t, timeFirst)}{"id":${event.destroy.id}}${eventClose(event.t, timeFirst)}`);
  } else if ('log' in event) {
    out.text(`${eventOpen('log', event.t, timeFirst)}{"line":${JSON.stringify(event.log.line)}}${eventClose(event.t, timeFirst)}`);
  } else {
    out.text(JSON.stringify(event));
  }
  out.end();
}

/** An event's JSON up to its body: `t` comes first if the game gave it, last if it was stamped. */
export function eventOpen(kind: VisEventKind, t: number, timeFirst: boolean): string {
  return timeFirst ? `{"t":${t},"${kind}":` : `{"${kind}":`;
}

export function eventClose(t: number, timeFirst: boolean): string {
  return timeFirst ? '}' : `,"t":${t}}`;
}

/** A create body's JSON after its shapes. */
export function createTail(p: Vec2 | undefined, z: number | undefined): string {
  return `]${p === undefined ? '' : `,"p":[${p[0]},${p[1]}]`}${z === undefined ? '' : `,"z":${z}`}}`;
}

