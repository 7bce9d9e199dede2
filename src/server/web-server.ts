import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { AppService } from '../core/app/service.js';
import { errorMessage } from '../core/errors.js';
import { RequestGuard, securityHeaders } from './request-guard.js';
import { StaticFiles } from './static-files.js';
import { WebSocketBridge } from './ws-bridge.js';

export interface WebServerOptions {
  service: Pick<AppService, 'handlers' | 'onEvent'>;
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  /** Default: 32 random bytes, base64url (`hearth serve` passes the one kept in the keychain: launch-address.ts). */
  token?: string;
  /**
   * Largest frame accepted (bytes). The contract allows a 1M-character message with 20 attachments of
   * 2M characters each, so the default leaves room for that; a bigger frame closes the socket (1009).
   */
  maxFrameBytes?: number;
  /** Where unexpected failures go (the serving process's stderr). */
  log?: (line: string) => void;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const DEFAULT_MAX_FRAME_BYTES = 128 * 1024 * 1024;
const HOST = '127.0.0.1';

/**
 * Web mode: the renderer and the UI contract on 127.0.0.1. Static files need no token (they hold no data);
 * the WebSocket at /ws needs the token from the printed URL, a Host header naming this server,
 * and, from a browser, this server's own Origin.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const files = new StaticFiles(options.staticDir);
  const bridge = new WebSocketBridge({
    handlers: options.service.handlers,
    onInternalError: (err, route) => log(`hearth serve: ${route} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES });
  let guard: RequestGuard | null = null;

  const server = createServer((request, response) => {
    void handleHttp(request, response).catch((err: unknown) => {
      log(`hearth serve: ${request.method} ${request.url}: ${errorMessage(err)}`);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Internal error.\n');
    });
  });
  const handleHttp = async (request: IncomingMessage, response: ServerResponse) => {
    const host = guard?.allowedHost(request) ?? null;
    if (host === null) return plain(response, 421, 'This server answers only to 127.0.0.1 and localhost.\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(response, 405, 'Only GET and HEAD.\n', { allow: 'GET, HEAD', ...securityHeaders(host) });
    await files.serve(request, response, host);
  };

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    };
    const url = new URL(request.url ?? '/', 'http://localhost');
    const host = guard?.allowedHost(request) ?? null;
    if (url.pathname !== '/ws') return refuse(404, 'Not Found');
    if (host === null || !guard?.originAllowed(request, host)) return refuse(403, 'Forbidden');
    if (!guard.tokenMatches(url.searchParams.get('token'))) return refuse(401, 'Unauthorized');
    sockets.handleUpgrade(request, socket, head, (ws) => bridge.attach(ws));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  guard = new RequestGuard(port, token);
  const stopEvents = options.service.onEvent((event) => bridge.broadcast(event));

  let closing: Promise<void> | null = null;
  return {
    url: `http://${HOST}:${port}/?token=${token}`,
    port,
    token,
    close: () => {
      closing ??= (async () => {
        stopEvents();
        await bridge.closeAll(1001, 'Hearth is shutting down');
        await new Promise<void>((resolve) => sockets.close(() => resolve()));
        server.closeAllConnections();
        await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      })();
      return closing;
    },
  };
}

function plain(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}
