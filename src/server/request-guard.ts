import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The checks every request to the loopback server passes. The server listens on 127.0.0.1 only, but a web
 * page the user visits can still reach it through the browser: by DNS rebinding (a hostile name that
 * resolves to 127.0.0.1, seen here as a foreign Host header) or by opening a WebSocket from its own
 * origin (a foreign Origin header). Both are refused; the token in the printed address guards the API on top.
 */
export class RequestGuard {
  private readonly tokenDigest: Buffer;

  constructor(
    private readonly port: number,
    token: string,
  ) {
    this.tokenDigest = digest(token);
  }

  /** The Host header when it names this server (127.0.0.1 or localhost with our port), else null. */
  allowedHost(request: IncomingMessage): string | null {
    const host = request.headers.host?.toLowerCase();
    if (host === `127.0.0.1:${this.port}` || host === `localhost:${this.port}`) return host;
    return null;
  }

  /** Browsers always send Origin on a WebSocket; it must be the page this server served. Other clients send none. */
  originAllowed(request: IncomingMessage, host: string): boolean {
    const origin = request.headers.origin;
    return origin === undefined || origin === `http://${host}`;
  }

  /** Compares digests, so neither the token's content nor its length leaks through timing. */
  tokenMatches(presented: string | null): boolean {
    if (presented === null || presented === '') return false;
    return timingSafeEqual(digest(presented), this.tokenDigest);
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The page may load only its own files and talk only to this server's WebSocket: no inline script or
 * style, no other origin, never framed.
 */
export function contentSecurityPolicy(host: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ws://${host}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(host: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(host),
    'x-content-type-options': 'nosniff',
    // The page URL carries the token: never send it on as a Referer.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}
