import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../src/core/app/dispatch.js';
import { deleteSecret, getSecret, setSecret } from '../src/core/safety/secrets/keychain.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';

/**
 * Provider editing, removal and the connection test through the app contract, on config.yaml and the real OS
 * keychain (run inside the test script's private Secret Service session), against a local server that lists
 * its models to one Bearer key only.
 */
const KEY = 'sk-local-test-5e4d3c2b1a';
let server: Server;
let serverUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url !== '/v1/models') res.writeHead(404).end('{"error":"not found"}');
    else if (req.headers.authorization !== `Bearer ${KEY}`) res.writeHead(401).end('{"error":{"message":"bad key"}}');
    else res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b', object: 'model' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

let app: AppHarness;
const savedService = process.env.HEARTH_KEYCHAIN_SERVICE;
beforeEach(async () => {
  app = await startAppHarness([]);
  process.env.HEARTH_KEYCHAIN_SERVICE = app.env.HEARTH_KEYCHAIN_SERVICE;
});
afterEach(async () => {
  deleteSecret('provider:box');
  await app.close();
  if (savedService === undefined) delete process.env.HEARTH_KEYCHAIN_SERVICE;
  else process.env.HEARTH_KEYCHAIN_SERVICE = savedService;
});

describe('providers.test', () => {
  // Catches a test that ignores the stored key (the renderer never has it), or sends the key back to the UI.
  it('uses the key stored for a saved provider and lists its models', async () => {
    await app.service.handlers['settings.update']({ provider: { name: 'box', type: 'openai', baseUrl: `${serverUrl}/v1` } });
    const without = await app.service.handlers['providers.test']({ type: 'openai', baseUrl: `${serverUrl}/v1`, provider: 'box' });
    expect(without).toMatchObject({ ok: false, problem: 'unauthorized' });

    setSecret('provider:box', KEY);
    const result = await app.service.handlers['providers.test']({ type: 'openai', baseUrl: `${serverUrl}/v1`, provider: 'box' });
    expect(result).toEqual({ ok: true, url: `${serverUrl}/v1/models`, models: ['qwen3:8b'], problem: null, message: expect.stringContaining('1 model') });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('takes a typed key for an endpoint not saved yet, and hints at /v1', async () => {
    expect(await app.service.handlers['providers.test']({ type: 'openai', baseUrl: `${serverUrl}/v1`, apiKey: KEY })).toMatchObject({ ok: true });
    const missing = await app.service.handlers['providers.test']({ type: 'openai', baseUrl: serverUrl, apiKey: KEY });
    expect(missing).toMatchObject({ ok: false, problem: 'not_found' });
    expect(missing.message).toContain('Is "/v1" missing?');
  });
});

describe('provider edit and removal', () => {
  // Catches: an edit that adds a second entry instead of changing the first, or "local" not reported.
  it('edits a provider in place and marks local servers', async () => {
    await app.service.handlers['settings.update']({ provider: { name: 'box', type: 'openai', baseUrl: 'https://box.example/v1' } });
    const edited = await app.service.handlers['settings.update']({ provider: { name: 'box', type: 'openai', baseUrl: `${serverUrl}/v1` } });
    const boxes = edited.providers.filter((p) => p.name === 'box');
    expect(boxes).toEqual([{ name: 'box', type: 'openai', baseUrl: `${serverUrl}/v1`, hasKey: false, builtIn: false, edited: false, local: true }]);
    expect(edited.providers.find((p) => p.name === 'openai')).toMatchObject({ builtIn: true, edited: false, local: false });
  });

  // Catches the "providers cannot be removed", and a removed provider's key inherited by the next of that name.
  it('removes a provider from config.yaml together with its key', async () => {
    await app.service.handlers['settings.update']({ provider: { name: 'box', type: 'openai', baseUrl: `${serverUrl}/v1` } });
    setSecret('provider:box', KEY);
    const after = await app.service.handlers['settings.update']({ removeProvider: 'box' });
    expect(after.providers.map((p) => p.name)).not.toContain('box');
    expect(readFileSync(join(app.home, 'config.yaml'), 'utf8')).not.toMatch(/^\s+box:/m);
    expect(getSecret('provider:box')).toBeNull();
  });

  // Catches a removal that leaves the default model pointing at a provider that no longer exists.
  it('refuses to remove a provider the default model uses, and a preset', async () => {
    await app.service.handlers['settings.update']({ provider: { name: 'box', type: 'openai', baseUrl: `${serverUrl}/v1` } });
    await app.service.handlers['settings.update']({ fallbacks: ['box:qwen3:8b'] });
    const inUse = await dispatch(app.service.handlers, 'settings.update', { removeProvider: 'box' });
    expect(inUse).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('box:qwen3:8b') } });
    expect((await app.service.handlers['settings.get']({})).providers.map((p) => p.name)).toContain('box');

    const preset = await dispatch(app.service.handlers, 'settings.update', { removeProvider: 'ollama' });
    expect(preset).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('built in') } });
  });

  it('removing an edited preset restores the preset', async () => {
    await app.service.handlers['settings.update']({ provider: { name: 'ollama', type: 'openai', baseUrl: 'http://127.0.0.1:9999/v1' } });
    expect((await app.service.handlers['settings.get']({})).providers.find((p) => p.name === 'ollama')).toMatchObject({ builtIn: true, edited: true });
    const restored = await app.service.handlers['settings.update']({ removeProvider: 'ollama' });
    expect(restored.providers.find((p) => p.name === 'ollama')?.edited).toBe(false);
    expect(restored.providers.find((p) => p.name === 'ollama')?.baseUrl).toBe('http://127.0.0.1:11434/v1');
  });
});
