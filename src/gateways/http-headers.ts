/**
 * Headers every HTTP response of the server carries, and the rules of what the web root may serve.
 * The page (web/index.html) loads only its own scripts and stylesheet, has no inline script or
 * style (Markdown table alignment is a class), draws its favicon from a data: URL and talks to the
 * server over fetch and a WebSocket to its own host; the policy allows exactly that.
 */

/** A Host header that is a plain host name or address with an optional port (nothing to inject). */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The Content-Security-Policy for a request to `host` (its Host header). `'self'` covers ws: and
 * wss: of the same host in CSP 3, but older browsers need them named; a Host header that is not a
 * plain host:port is left out rather than written into the policy.
 */
export function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host !== undefined && PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The security headers of every response. */
export function securityHeaders(host: string | undefined): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(host),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

/** The types of the files the page is made of; nothing else in the web root is served. */
export const WEB_ASSET_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  // The source map of the bundled, minified script: what makes the browser's stack traces readable.
  '.map': 'application/json; charset=utf-8',
};

/**
 * Whether a path below the web root is part of the page: not its notes (README.md, the licence
 * notices), and never a unit test (`*.test.js`, `*.test.js.map`), should the build put one there.
 */
export function isWebAsset(relative: string): boolean {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  if (name.startsWith('.') || /\.test\.[^/]*$/.test(name)) return false;
  const dot = name.lastIndexOf('.');
  return dot > 0 && Object.hasOwn(WEB_ASSET_TYPES, name.slice(dot));
}
