import type { IncomingMessage } from 'node:http';

export type BodyResult = { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly reason: 'too-large' | 'aborted' };

/**
 * Reads a request body of at most `maxBytes`. A Content-Length above the limit is refused before
 * a byte of the body is read; a body that grows past it (chunked, or lying about its length) is
 * refused at the first byte beyond, and the rest is left unread: the stream is paused, so the
 * socket stops being read and the answer can go out (with `connection: close`) without the
 * server taking in the remainder.
 */
export function readBodyWithin(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (result: BodyResult): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        request.pause();
        stop({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => stop({ ok: true, body: Buffer.concat(chunks, size) });
    const onClose = (): void => stop({ ok: false, reason: 'aborted' });
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
  });
}
