/**
 * QTP's input rules (spec section "preprocessing"), shared by our engine and our controller.
 * Engine side: drop CR and every control character but HT and LF, cut comments at `#`, turn HT
 * into a space, ignore lines left empty. Controller side: only the first and third steps.
 */

/** Longest command line our engine accepts, in bytes; longer lines get `? command too long`. */
export const MAX_COMMAND_BYTES = 64 * 1024;

const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/g;

/** A command line as the engine parses it, or null when nothing is left (comment or blank). */
export function preprocessCommand(raw: string): string | null {
  let text = raw.replace(CONTROL, '');
  const hash = text.indexOf('#');
  if (hash >= 0) text = text.slice(0, hash);
  text = text.replace(/\t/g, ' ');
  return text.trim() === '' ? null : text;
}

/** A response line as a controller reads it (control characters dropped, tabs made spaces). */
export function preprocessResponse(raw: string): string {
  return raw.replace(CONTROL, '').replace(/\t/g, ' ');
}

export type QtpLine = { readonly kind: 'line'; readonly text: string } | { readonly kind: 'too-long' };

/**
 * Splits the engine's input bytes into lines at LF. Bytes are read as Latin-1, since QTP is 8-bit
 * text with ASCII commands and any bytes in comments. A line over the limit is reported once as
 * `too-long` and the rest of it is skipped, without buffering it.
 */
export class QtpLineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(private readonly maxBytes: number = MAX_COMMAND_BYTES) {}

  push(chunk: Uint8Array): QtpLine[] {
    const lines: QtpLine[] = [];
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(0x0a, start);
      const end = lf === -1 ? chunk.length : lf;
      if (!this.skipping && this.pendingBytes + (end - start) > this.maxBytes) {
        this.skipping = true;
        this.pending = [];
        this.pendingBytes = 0;
        lines.push({ kind: 'too-long' });
      }
      if (!this.skipping && end > start) {
        this.pending.push(Buffer.from(chunk.subarray(start, end)));
        this.pendingBytes += end - start;
      }
      if (lf === -1) break;
      if (!this.skipping) lines.push({ kind: 'line', text: this.take() });
      this.skipping = false;
      start = lf + 1;
    }
    return lines;
  }

  /** End of input: a last line without LF still counts. */
  end(): QtpLine[] {
    if (this.skipping || this.pendingBytes === 0) return [];
    return [{ kind: 'line', text: this.take() }];
  }

  private take(): string {
    const text = Buffer.concat(this.pending, this.pendingBytes).toString('latin1');
    this.pending = [];
    this.pendingBytes = 0;
    return text;
  }
}
