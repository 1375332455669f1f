/**
 * `coco history ID` prints a match's spectator stream. Streams of line protocols end with a
 * newline; the XML ones (hase und igel) and QTP's last answer (quoridor) may not, and then the
 * shell's prompt lands on the stream's last line, or `coco history ID | wc -l` counts one line
 * short. A missing final newline is added; an empty stream stays empty.
 */
export function withFinalNewline(stream: Uint8Array): Uint8Array {
  if (stream.length === 0 || stream[stream.length - 1] === 0x0a) return stream;
  const out = new Uint8Array(stream.length + 1);
  out.set(stream);
  out[stream.length] = 0x0a;
  return out;
}
