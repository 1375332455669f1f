/** A Redis URL fit for a log line: its password (and a user's) replaced by `***`. */
export function maskRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL: nothing in it can be told apart from a password.
    return '(an unreadable Redis URL)';
  }
}

/** Checks what `--redis` takes: redis:// or rediss:// (TLS), with a host. */
export function checkRedisUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `invalid --redis URL ${maskRedisUrl(url)} (redis://[:PASSWORD@]HOST[:PORT][/DB])`;
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return `invalid --redis URL ${maskRedisUrl(url)}: it starts with redis:// or rediss://`;
  if (!parsed.hostname) return `invalid --redis URL ${maskRedisUrl(url)}: no host`;
  return null;
}
