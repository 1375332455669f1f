/**
 * The length in UTF-8 bytes of a string, without encoding it. Written here because the validator
 * it serves is also part of the web page's bundle, where there is no Buffer.byteLength, and
 * TextEncoder would copy the whole text to count it. A lone surrogate counts as U+FFFD (3 bytes),
 * as the encoder would write it.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
