import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The endpoint Telegram POSTs updates to in webhook mode. It listens on loopback only: a reverse proxy or tunnel
 * terminates TLS and forwards the public URL given to `setWebhook`. A request counts only with the secret given to
 * `setWebhook` in `X-Telegram-Bot-Api-Secret-Token`; anything else is refused before its body is read.
 *
 * The answer tells Telegram whether to deliver the update again: 200 once it is handled (or skipped for good), 500
 * when the handler failed, so Telegram keeps it and retries.
 */

export interface WebhookServerOptions {
  port: number;
  /** The path Telegram posts to, e.g. `/telegram`. */
  path: string;
  secret: string;
  /** Updates are small JSON documents; anything larger is not from Telegram. */
  maxBodyBytes?: number;
}

export interface WebhookServer {
  readonly port: number;
  close(): Promise<void>;
}

export type WebhookVerdict = 'handled' | 'retry';

export async function startWebhookServer(
  options: WebhookServerOptions,
  onUpdate: (raw: unknown) => Promise<WebhookVerdict>,
  warn: (message: string) => void,
): Promise<WebhookServer> {
  const secret = Buffer.from(options.secret);
  const maxBytes = options.maxBodyBytes ?? 1024 * 1024;

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      warn(`telegram webhook: request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) reply(res, 500);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== options.path) return reply(res, 404);
    if (req.method !== 'POST') return reply(res, 405);
    const given = Buffer.from(headerValue(req.headers['x-telegram-bot-api-secret-token']));
    if (given.length !== secret.length || !timingSafeEqual(given, secret)) {
      warn('telegram webhook: refused a request without the right secret token');
      req.resume();
      return reply(res, 401);
    }
    const body = await readBody(req, maxBytes);
    if (body === undefined) {
      warn(`telegram webhook: refused a body over ${maxBytes} bytes`);
      return reply(res, 413);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(body.toString('utf8'));
    } catch {
      // Telegram would deliver the same bytes again, so a retry cannot help: say so and accept it.
      warn('telegram webhook: skipped a body that is not JSON');
      return reply(res, 200);
    }
    reply(res, (await onUpdate(raw)) === 'handled' ? 200 : 500);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => closeServer(server),
  };
}

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : '');
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
