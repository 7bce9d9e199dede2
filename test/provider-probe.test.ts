import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalEndpoint, modelsUrl, probeProvider } from '../src/core/llm/provider-probe.js';

const KEY = 'sk-probe-test-9f8e7d6c5b';
const ANTHROPIC_KEY = 'sk-ant-probe-1a2b3c4d';

/**
 * One local server speaking both listings as the real services do: `/v1/models` for OpenAI-compatible
 * servers (Bearer key, `{object:'list', data:[{id, object:'model', …}]}`) and for Anthropic (`x-api-key` plus
 * `anthropic-version`, `{data:[{type:'model', id, display_name, created_at}], has_more, first_id, last_id}`),
 * an HTML page, a server that never answers, and an error that echoes the key back.
 */
function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/openai/v1/models') {
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      // As some proxies do: the rejected key is quoted back.
      json(401, { error: { message: `Incorrect API key provided: ${req.headers.authorization?.slice(7) ?? 'none'}`, type: 'invalid_request_error' } });
      return;
    }
    json(200, { object: 'list', data: [
      { id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' },
      { id: 'gpt-4o', object: 'model', created: 1715367049, owned_by: 'system' },
    ] });
    return;
  }
  if (url.pathname === '/ollama/v1/models') {
    json(200, { object: 'list', data: [{ id: 'llama3.2:3b', object: 'model', created: 1733000000, owned_by: 'library' }] });
    return;
  }
  if (url.pathname === '/anthropic/v1/models') {
    if (req.headers['x-api-key'] !== ANTHROPIC_KEY || req.headers['anthropic-version'] !== '2023-06-01') {
      json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
      return;
    }
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const all = [
      { type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' },
      { type: 'model', id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5', created_at: '2025-10-01T00:00:00Z' },
    ];
    const data = all.slice(0, Math.min(limit, 1));
    // Pages of one unless the caller asks for more: a probe that reads only the first page misses models.
    json(200, limit >= all.length ? { data: all, has_more: false, first_id: all[0]?.id, last_id: all[1]?.id } : { data, has_more: true, first_id: data[0]?.id, last_id: data[0]?.id });
    return;
  }
  if (url.pathname === '/html/v1/models') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!DOCTYPE html><html><body>Router login</body></html>');
    return;
  }
  if (url.pathname === '/busy/v1/models') {
    json(503, { error: 'model server overloaded' });
    return;
  }
  if (url.pathname === '/moved/v1/models') {
    res.writeHead(301, { location: 'https://elsewhere.example/v1/models' });
    res.end();
    return;
  }
  if (url.pathname.startsWith('/silent/')) return; // never answers
  json(404, { error: 'not found' });
}

let server: Server;
let base: string;
let deadPort: number;

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port that was just free: nothing listens there.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('probeProvider: OpenAI-compatible', () => {
  // Catches: a probe that does not send the key, or does not read the OpenAI listing.
  it('lists the models with the right key', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/openai/v1/`, apiKey: KEY });
    expect(result).toMatchObject({ ok: true, models: ['gpt-4o-mini', 'gpt-4o'], url: `${base}/openai/v1/models` });
    expect(result.message).toContain('2 models');
  });

  // Catches: a keyless local server (Ollama) treated as a failure, or a Bearer header sent with no key.
  it('needs no key for a local server', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/ollama/v1` });
    expect(result).toMatchObject({ ok: true, models: ['llama3.2:3b'] });
  });

  // Catches: a refused key reported as a generic failure, or the key quoted back into the message.
  it('reports a wrong key as unauthorized without repeating it', async () => {
    const wrong = 'sk-wrong-0123456789';
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/openai/v1`, apiKey: wrong });
    expect(result).toMatchObject({ ok: false, problem: 'unauthorized', status: 401 });
    expect(result.message).toContain('refused the API key');
    expect(result.message).toContain('[redacted]');
    expect(result.message).not.toContain(wrong);
  });

  it('says a key is needed when none was given', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/openai/v1` });
    expect(result).toMatchObject({ ok: false, problem: 'unauthorized' });
    expect(result.message).toContain('needs an API key');
  });

  // Catches the case: a base URL without /v1 gets a bare 404 with no hint.
  it('hints at a missing /v1 on a 404', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/ollama` });
    expect(result).toMatchObject({ ok: false, problem: 'not_found', status: 404 });
    expect(result.message).toContain('Is "/v1" missing?');
    expect(result.message).toContain(`${base}/ollama/v1`);
  });

  it('gives no /v1 hint when the URL already ends in /v1', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/nothing/v1` });
    expect(result).toMatchObject({ ok: false, problem: 'not_found' });
    expect(result.message).not.toContain('/v1" missing');
  });

  // Catches: a captive portal or router page taken for a working endpoint.
  it('reports a web page as not OpenAI-compatible', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/html/v1` });
    expect(result).toMatchObject({ ok: false, problem: 'not_compatible' });
    expect(result.message).toContain('a web page');
    expect(result.message).toContain('OpenAI-compatible');
  });

  it('reports other HTTP failures with what the server said', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/busy/v1` });
    expect(result).toMatchObject({ ok: false, problem: 'http_error', status: 503 });
    expect(result.message).toContain('model server overloaded');
  });
});

describe('probeProvider: redirects', () => {
  // Catches a key carried to whatever host a redirect names (fetch keeps x-api-key across origins).
  it('does not follow a redirect, and names the address to use', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/moved/v1`, apiKey: KEY });
    expect(result).toMatchObject({ ok: false, problem: 'http_error', status: 301 });
    expect(result.message).toContain('Use https://elsewhere.example/v1 as the base URL.');
  });
});

describe('probeProvider: Anthropic', () => {
  // Catches: the Anthropic headers missing, /v1 not added to the preset base URL, or only the first page read.
  it('lists every model from the preset-style base URL', async () => {
    const result = await probeProvider({ type: 'anthropic', baseUrl: `${base}/anthropic`, apiKey: ANTHROPIC_KEY });
    expect(result).toMatchObject({ ok: true, models: ['claude-sonnet-4-5', 'claude-haiku-4-5'], url: `${base}/anthropic/v1/models` });
  });

  it('reports a wrong key as unauthorized with the server message', async () => {
    const result = await probeProvider({ type: 'anthropic', baseUrl: `${base}/anthropic/v1`, apiKey: 'sk-ant-wrong' });
    expect(result).toMatchObject({ ok: false, problem: 'unauthorized' });
    expect(result.message).toContain('invalid x-api-key');
  });
});

describe('probeProvider: no server', () => {
  // Catches: a dead port reported as a crash or a hang instead of "nothing is listening".
  it('reports a dead port as unreachable', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `http://127.0.0.1:${deadPort}/v1` });
    expect(result).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(result.message).toContain(`Nothing is listening at 127.0.0.1:${deadPort}`);
  });

  // Catches: a probe that waits forever on a server that accepts and never answers.
  it('times out on a server that never answers', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: `${base}/silent/v1`, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, problem: 'timeout' });
    expect(result.message).toContain('No answer from');
  });

  it('reports text that is not a URL', async () => {
    const result = await probeProvider({ type: 'openai', baseUrl: 'localhost 11434' });
    expect(result).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(result.message).toContain('is not a URL');
  });
});

describe('endpoint helpers', () => {
  it('builds the listing URL the chat providers would use', () => {
    expect(modelsUrl('openai', 'http://h/v1/')).toBe('http://h/v1/models');
    expect(modelsUrl('anthropic', 'https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/models');
    expect(modelsUrl('anthropic', 'https://proxy/v1')).toBe('https://proxy/v1/models');
  });

  it('tells local servers from remote ones', () => {
    for (const url of ['http://127.0.0.1:11434/v1', 'http://localhost:1234/v1', 'http://[::1]:8080/v1']) expect(isLocalEndpoint(url)).toBe(true);
    for (const url of ['https://api.openai.com/v1', 'http://192.168.1.20:11434/v1', 'not a url']) expect(isLocalEndpoint(url)).toBe(false);
  });
});
