import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer, type WebServer } from '../src/server/web-server.js';
import { UNREADABLE_FRAME_ID } from '../src/server/ws-bridge.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';
import type { ScriptedTurn } from './fixtures/scripted-turns.js';
import { WebClient } from './fixtures/web-client.js';

/**
 * Web mode end to end below the browser: the real engine behind the app service, the real HTTP server on
 * 127.0.0.1, and a real `ws` client speaking the contract's frames.
 */
interface WireMessage {
  role: string;
  content: string | null;
}

/** Outside the workspace: a recursive delete inside it is routine and never asks. */
const VICTIM = join(mkdtempSync(join(tmpdir(), 'hearth-outside-')), 'victim');

/** Greets; asked to clean up, runs `rm -rf <victim>` (a flagged command) and then reports what the tool said. */
function script(body: unknown): ScriptedTurn {
  const messages = (body as { messages: WireMessage[] }).messages;
  const last = messages.at(-1)!;
  if (last.role === 'tool') return { text: `Tool said: ${last.content}` };
  if (last.content?.includes('clean up')) return { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${VICTIM}` } }] };
  return { text: 'Hello over the socket, streamed in pieces.' };
}

let app: AppHarness;
let server: WebServer;
let staticDir: string;
let secretOutside: string;
const clients: WebClient[] = [];

beforeAll(async () => {
  // Pieces 25 ms apart: longer than the UI's delta batching (one frame), so a stream stays a stream.
  app = await startAppHarness(script, { serverOptions: { writeDelayMs: 25 } });
  const root = mkdtempSync(join(tmpdir(), 'hearth-static-'));
  staticDir = join(root, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Hearth</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app");');
  secretOutside = join(root, 'secret.txt');
  writeFileSync(secretOutside, 'TOP-SECRET-OUTSIDE-THE-RENDERER');
  server = await startWebServer({ service: app.service, port: 0, staticDir, log: () => undefined });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
  await app.close();
});

const wsUrl = (token = server.token) => `ws://127.0.0.1:${server.port}/ws?token=${encodeURIComponent(token)}`;
async function connect(options: Parameters<typeof WebClient.connect>[1] = {}, url = wsUrl()): Promise<WebClient> {
  const client = await WebClient.connect(url, options);
  clients.push(client);
  return client;
}

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function runTurn(client: WebClient, text: string): Promise<string> {
  const { sessionId } = await client.ok<{ sessionId: string }>('chat.start', {});
  await client.ok('chat.send', { sessionId, text });
  return sessionId;
}

const turnEnd = (sessionId: string) => (e: { channel: string; sessionId?: string; event?: { type: string } }) => e.channel === 'agent' && e.sessionId === sessionId && e.event?.type === 'turn_end';

describe('the WebSocket contract', () => {
  // Catches events not reaching the socket, or arriving only as one final blob instead of a stream.
  it('streams a turn to every connected client as agent events with text deltas', async () => {
    const a = await connect();
    const b = await connect();
    const sessionId = await runTurn(a, 'hi');
    await a.waitForEvent(turnEnd(sessionId));
    await b.waitForEvent(turnEnd(sessionId));
    const deltas = a.agentEvents(sessionId).filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((e) => (e as { delta: string }).delta).join('')).toBe('Hello over the socket, streamed in pieces.');
    expect(b.agentEvents(sessionId).map((e) => e.type)).toEqual(a.agentEvents(sessionId).map((e) => e.type));
  });

  // The approval path a user depends on: a flagged command must not run unless they approve it.
  it('a flagged terminal command asks first: deny leaves the files alone, approve runs it', async () => {
    const client = await connect();
    const victim = VICTIM;
    mkdirSync(victim);
    writeFileSync(join(victim, 'keep.txt'), 'x');

    const denied = await runTurn(client, 'please clean up');
    const ask = await client.waitForEvent((e) => e.channel === 'agent' && e.sessionId === denied && e.event.type === 'approval_request');
    const request = ask.channel === 'agent' && ask.event.type === 'approval_request' ? ask.event : null;
    expect(request?.command).toBe(`rm -rf ${VICTIM}`);
    expect(request?.reasons.length).toBeGreaterThan(0);
    await expect(client.ok('approvals.answer', { id: request?.id, choice: 'deny' })).resolves.toEqual({ accepted: true });
    await client.waitForEvent(turnEnd(denied));
    expect(existsSync(join(victim, 'keep.txt'))).toBe(true);

    const approved = await runTurn(client, 'please clean up now');
    const again = await client.waitForEvent((e) => e.channel === 'agent' && e.sessionId === approved && e.event.type === 'approval_request');
    const id = again.channel === 'agent' && again.event.type === 'approval_request' ? again.event.id : '';
    await client.ok('approvals.answer', { id, choice: 'once' });
    await client.waitForEvent(turnEnd(approved));
    expect(existsSync(victim)).toBe(false);
    // A second answer to a settled question is not applied to anything else.
    await expect(client.ok('approvals.answer', { id, choice: 'always' })).resolves.toEqual({ accepted: false });
  });

  // Catches one bad frame killing the connection (every open request on it would be lost).
  it('answers malformed frames, unknown routes and invalid input with typed errors and keeps the socket usable', async () => {
    const client = await connect();
    await expect(client.sendRaw('{not json')).resolves.toMatchObject({ id: UNREADABLE_FRAME_ID, ok: false, error: { code: 'invalid_input' } });
    await expect(client.sendRaw(Buffer.from([1, 2, 3]))).resolves.toMatchObject({ id: UNREADABLE_FRAME_ID, ok: false });
    await expect(client.sendRaw(JSON.stringify({ id: 7, input: {} }))).resolves.toMatchObject({ id: 7, ok: false, error: { code: 'invalid_input', issues: [expect.objectContaining({ path: 'route' })] } });
    await expect(client.call('sessions.drop_all', {})).resolves.toMatchObject({ ok: false, error: { code: 'unknown_route' } });
    const invalid = await client.call('memory.add', { target: 'everything', content: '' });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!invalid.ok && invalid.error.issues?.map((i) => i.path).sort()).toEqual(['content', 'target']);
    await expect(client.ok('app.status', {})).resolves.toMatchObject({ model: 'scripted:model' });
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });
});

describe('who may connect', () => {
  // Catches an API reachable without the token printed at launch.
  it('refuses a missing or wrong token with 401', async () => {
    await expect(connect({}, `ws://127.0.0.1:${server.port}/ws`)).rejects.toThrow('refused: 401');
    await expect(connect({}, wsUrl(`${server.token.slice(0, -1)}x`))).rejects.toThrow('refused: 401');
    await expect(connect({}, wsUrl(''))).rejects.toThrow('refused: 401');
  });

  // Catches DNS rebinding (a hostile name resolving to 127.0.0.1) and cross-site WebSocket hijacking.
  it('refuses a foreign Host header or a foreign Origin with 403, even with the right token', async () => {
    await expect(connect({ headers: { host: `evil.example:${server.port}` } })).rejects.toThrow('refused: 403');
    await expect(connect({ origin: 'https://evil.example' })).rejects.toThrow('refused: 403');
    await expect(connect({ origin: `http://127.0.0.1:${server.port + 1}` })).rejects.toThrow('refused: 403');
    const fromPage = await connect({ origin: `http://localhost:${server.port}`, headers: { host: `localhost:${server.port}` } });
    await expect(fromPage.ok('app.status', {})).resolves.toBeDefined();
  });

  it('issues a fresh 32-byte base64url token per start and closes an oversized frame with 1009', async () => {
    const other = await startWebServer({ service: app.service, port: 0, staticDir, maxFrameBytes: 1024, log: () => undefined });
    try {
      expect(other.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(other.token).not.toBe(server.token);
      expect(other.url).toBe(`http://127.0.0.1:${other.port}/?token=${other.token}`);
      const client = await WebClient.connect(`ws://127.0.0.1:${other.port}/ws?token=${other.token}`);
      const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
      client.socket.send(JSON.stringify({ id: 1, route: 'memory.add', input: { target: 'memory', content: 'x'.repeat(5000) } }));
      await expect(closed).resolves.toBe(1009);
    } finally {
      await other.close();
    }
  });
});

describe('the static renderer', () => {
  // Catches a page served without the CSP that keeps injected script out, or one that can talk elsewhere.
  it('serves index.html and assets with a strict CSP naming exactly this WebSocket origin', async () => {
    const page = await get('/?token=abc');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Hearth</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src ws://127.0.0.1:${server.port};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const script = await get('/assets/app.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toBe('console.log("app");');
    expect((await get('/sessions/abc')).body).toContain('<title>Hearth</title>');
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  // Catches a request path that climbs out of the renderer folder and reads any file the user can.
  it('never serves a file outside the renderer folder, however the path is written', async () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', `/${'..%2f'.repeat(8)}etc/passwd`, '/%00index.html', '/%E0%A4%A']) {
      const res = await get(path);
      expect(res.body, path).not.toContain('TOP-SECRET');
      expect(res.body, path).not.toMatch(/root:.*:0:0:/);
      expect([200, 400, 403, 404], path).toContain(res.status);
    }
    expect((await get('/..%2fsecret.txt')).status).toBe(403);
  });

  it('answers only to its own host names and only to GET/HEAD', async () => {
    expect((await get('/', { host: 'evil.example' })).status).toBe(421);
    expect((await get('/', {}, 'POST')).status).toBe(405);
  });

  it('says how to build the interface when the renderer is missing', async () => {
    const bare = await startWebServer({ service: app.service, port: 0, staticDir: join(tmpdir(), 'hearth-no-renderer-here'), log: () => undefined });
    try {
      const res = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port: bare.port, path: '/' }, (r) => {
          let body = '';
          r.on('data', (d: Buffer) => (body += d.toString()));
          r.on('end', () => resolve(body));
        }).on('error', reject).end();
      });
      expect(res).toContain('npm run build:renderer');
    } finally {
      await bare.close();
    }
  });
});
