import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The endpoint Meta calls (through the user's tunnel or reverse proxy; it listens on 127.0.0.1 only):
 * - `GET` the subscription check: `hub.mode=subscribe`, `hub.verify_token` must equal ours, answer `hub.challenge`.
 * - `POST` an update: `X-Hub-Signature-256: sha256=<hex>` must be the HMAC-SHA256 of the raw body under the app
 *   secret (compared in constant time), else 401 and nothing is delivered. A 200 goes back once the payload was
 *   handed over; when that fails the answer is 500, so Meta delivers it again (the gateway drops repeats by wamid).
 */
export interface WebhookOptions {
  port: number;
  path: string;
  appSecret: string;
  verifyToken: string;
  /** Larger bodies are refused (413): Meta's batches are far smaller. */
  maxBodyBytes?: number;
  onPayload(raw: Buffer): Promise<void>;
  warn(message: string): void;
}

export interface WebhookServer {
  port: number;
  close(): Promise<void>;
}

export async function startWebhookServer(options: WebhookOptions): Promise<WebhookServer> {
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      options.warn(`whatsapp: webhook request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== options.path) return void res.writeHead(404).end();
    if (req.method === 'GET') return verifySubscription(url, res);
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'GET, POST' }).end();
    const raw = await readBody(req, options.maxBodyBytes ?? 4 * 1024 * 1024);
    if (raw === undefined) return void res.writeHead(413).end();
    if (!signatureValid(raw, req.headers['x-hub-signature-256'], options.appSecret)) {
      options.warn('whatsapp: refused a webhook POST whose X-Hub-Signature-256 does not match the app secret');
      return void res.writeHead(401).end();
    }
    try {
      await options.onPayload(raw);
    } catch (err) {
      options.warn(`whatsapp: the update was not taken and Meta will send it again: ${err instanceof Error ? err.message : String(err)}`);
      return void res.writeHead(500).end();
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('EVENT_RECEIVED');
  }

  function verifySubscription(url: URL, res: ServerResponse): void {
    const mode = url.searchParams.get('hub.mode');
    const token = url.searchParams.get('hub.verify_token') ?? '';
    const challenge = url.searchParams.get('hub.challenge') ?? '';
    if (mode === 'subscribe' && equalInConstantTime(token, options.verifyToken)) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge);
      return;
    }
    options.warn('whatsapp: refused a webhook verification with a wrong hub.verify_token');
    res.writeHead(403).end();
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function signatureValid(raw: Buffer, header: string | string[] | undefined, appSecret: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(value ?? '');
  if (match?.[1] === undefined) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

function equalInConstantTime(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
