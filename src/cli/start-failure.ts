/** Why the server could not start, in one line that says what to do (no stack trace). */
export function startFailure(error: unknown): string {
  const e = error as (NodeJS.ErrnoException & { address?: string; port?: number }) | null;
  const where = e?.address !== undefined && e.port !== undefined ? `${e.address}:${e.port}` : 'the port';
  if (e?.code === 'EADDRINUSE') return `cannot listen on ${where}: it is in use (another cocod?); choose another port with -p PORT`;
  if (e?.code === 'EACCES') return `cannot listen on ${where}: permission denied; choose a port above 1023`;
  if (e?.code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such address on this machine; check -b ADDR`;
  const message = error instanceof Error ? error.message : String(error);
  return `cannot start: ${message.split('\n', 1)[0]}`;
}
