import { existsSync, realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { securityHeaders } from './request-guard.js';
import { rendererContentType } from '../shared/renderer-content-types.js';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth</title></head>
<body><h1>The Hearth interface is not built yet</h1>
<p>Build it in the Hearth folder with <code>npm run build:renderer</code>, then reload this page (keep the token in the address).</p>
</body></html>
`;

/**
 * Serves the built renderer. A request path is decoded and resolved inside the folder, then the real path
 * (links followed) must still be inside it: `..`, encoded slashes and symlinks cannot reach other files.
 * Unknown paths without a file extension get index.html (the app routes them itself).
 */
export class StaticFiles {
  private readonly root: string | null;

  constructor(dir: string) {
    this.root = existsSync(join(dir, 'index.html')) ? realpathSync(dir) : null;
  }

  async serve(request: IncomingMessage, response: ServerResponse, host: string): Promise<void> {
    const headers = securityHeaders(host);
    if (this.root === null) return send(response, 200, { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, NOT_BUILT_PAGE, request);
    const path = requestPath(request.url ?? '/');
    if (path === null) return send(response, 400, { ...headers, 'content-type': 'text/plain; charset=utf-8' }, 'Bad request path.\n', request);
    const file = await this.resolveFile(path);
    if (file === 'outside') return send(response, 403, { ...headers, 'content-type': 'text/plain; charset=utf-8' }, 'Forbidden.\n', request);
    const target = file ?? (extname(path) === '' ? join(this.root, 'index.html') : null);
    if (target === null) return send(response, 404, { ...headers, 'content-type': 'text/plain; charset=utf-8' }, 'Not found.\n', request);
    const body = await readFile(target);
    const isIndex = target.endsWith(`${sep}index.html`);
    send(response, 200, { ...headers, 'content-type': rendererContentType(extname(target)), 'cache-control': isIndex ? 'no-store' : 'no-cache' }, body, request);
  }

  /** The file's real path inside the root, null when there is none, 'outside' when the path escapes. */
  private async resolveFile(path: string): Promise<string | null | 'outside'> {
    const root = this.root as string;
    const candidate = resolve(root, `.${path}`);
    if (!within(root, candidate)) return 'outside';
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw new Error(`cannot resolve ${candidate}: ${errorMessage(err)}`, { cause: err });
    }
    if (!within(root, real)) return 'outside';
    const info = await stat(real);
    return info.isFile() ? real : null;
  }
}

/** The decoded path of a request URL, or null when it cannot be decoded or holds a NUL. */
function requestPath(url: string): string | null {
  const raw = url.split('?')[0] ?? '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch (_err) {
    // Malformed percent-encoding: the caller answers 400.
    return null;
  }
  if (decoded.includes('\0') || !decoded.startsWith('/')) return null;
  return decoded.replaceAll('\\', '/');
}

function within(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer, request: IncomingMessage): void {
  response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  response.end(request.method === 'HEAD' ? undefined : body);
}
