/**
 * The `app://hearth/` protocol: serves the built renderer (`dist/renderer`) and nothing else, with a
 * strict Content-Security-Policy on every response. A custom scheme instead of `file://` gives the page a
 * real origin (so the IPC router can check it) and keeps it away from the rest of the disk.
 */
import { readFile, realpath } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { CustomScheme } from 'electron';
import { APP_HOST, APP_SCHEME } from './app-origin.js';
import { rendererContentType } from '../shared/renderer-content-types.js';

/** No inline script or style, no remote anything: the renderer bundles everything it runs. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Registered before `app` is ready. `standard` gives the scheme normal URL parsing and a real origin,
 * `secure` makes it a secure context; no `bypassCSP`, no `corsEnabled` (nothing else may fetch from it).
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme[] = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
];

export type AppRequestResolution =
  | { ok: true; filePath: string; mimeType: string }
  | { ok: false; status: 400 | 403 | 404 | 405; reason: string };

const refuse = (status: 400 | 403 | 404 | 405, reason: string): AppRequestResolution => ({ ok: false, status, reason });

/**
 * Maps a request URL to a file under `rootDir`, lexically (no disk access): wrong scheme/host, methods
 * other than GET/HEAD, undecodable or NUL-bearing paths, backslashes, dot segments (however encoded) and
 * anything resolving outside the root are refused. `/` serves `index.html`.
 */
export function resolveAppRequest(rootDir: string, requestUrl: string, method = 'GET'): AppRequestResolution {
  if (method !== 'GET' && method !== 'HEAD') return refuse(405, `method ${method} is not served`);
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    // An unparseable URL is the caller's mistake; refusing it is the whole handling.
    return refuse(400, 'not a URL');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname !== APP_HOST || url.port !== '' || url.username !== '' || url.password !== '') {
    return refuse(403, 'not the app origin');
  }
  // Check the raw path too: WHATWG URL already folds `..` and `%2e%2e` segments, which would silently turn a
  // traversal attempt into some other file; a request that tried is refused, not reinterpreted.
  const rawPath = rawPathOf(requestUrl);
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    // Malformed percent-encoding: refuse rather than guess.
    return refuse(400, 'malformed percent-encoding');
  }
  const candidates = [rawPath, decoded, safeDecode(rawPath)];
  for (const candidate of candidates) {
    if (candidate.includes('\0')) return refuse(400, 'NUL in path');
    if (candidate.includes('\\')) return refuse(400, 'backslash in path');
    if (candidate.includes('//')) return refuse(400, 'empty path segment');
    if (candidate.split('/').some((segment) => segment === '..' || segment === '.')) return refuse(403, 'dot segment in path');
    if (/%2e|%2f|%5c|%00/i.test(candidate)) return refuse(403, 'encoded separator or dot in path');
  }
  const relativePath = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  if (isAbsolute(relativePath) || /^[a-zA-Z]:/.test(relativePath)) return refuse(403, 'absolute path');
  const root = resolve(rootDir);
  const filePath = resolve(root, relativePath);
  if (!isInside(root, filePath)) return refuse(403, 'outside the renderer folder');
  const mimeType = rendererContentType(extname(filePath));
  return { ok: true, filePath, mimeType };
}

/** The path exactly as written in the URL, before any WHATWG normalisation. */
function rawPathOf(requestUrl: string): string {
  const afterScheme = requestUrl.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '');
  return afterScheme.split(/[?#]/)[0] ?? '';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // The strict decode of the parsed path already refused malformed input; this copy only feeds the checks.
    return text;
  }
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) && !rel.split(sep).includes('..');
}

/** Headers every response carries, errors included. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

export interface AppProtocolOptions {
  /** The built renderer folder (`dist/renderer`). */
  rootDir: string;
  onRefused?: (url: string, reason: string) => void;
}

/**
 * The `protocol.handle('app', …)` handler. After the lexical check it also resolves symlinks, so a link
 * inside the renderer folder pointing elsewhere is refused too.
 */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: { url: string; method: string }) => Promise<Response> {
  return async (request) => {
    const resolution = resolveAppRequest(options.rootDir, request.url, request.method);
    if (!resolution.ok) {
      options.onRefused?.(request.url, resolution.reason);
      return new Response(null, { status: resolution.status, headers: securityHeaders() });
    }
    let body: Buffer;
    try {
      const [realRoot, realFile] = await Promise.all([realpath(options.rootDir), realpath(resolution.filePath)]);
      if (!isInside(realRoot, realFile)) {
        options.onRefused?.(request.url, 'a link out of the renderer folder');
        return new Response(null, { status: 403, headers: securityHeaders() });
      }
      body = await readFile(realFile);
    } catch (err) {
      // Missing file (or a directory): an ordinary 404 for the page to handle; anything else is logged.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ENOTDIR') options.onRefused?.(request.url, `read failed: ${String(err)}`);
      return new Response(null, { status: 404, headers: securityHeaders() });
    }
    const headers = { ...securityHeaders(), 'Content-Type': resolution.mimeType, 'Content-Length': String(body.byteLength) };
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
