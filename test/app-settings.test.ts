import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../src/core/app/dispatch.js';
import { deleteSecret, getSecret } from '../src/core/safety/secrets/keychain.js';
import { startAppHarness, type AppHarness } from './fixtures/app-engine.js';

/**
 * Settings over config.yaml and API keys in the real OS keychain (the test script runs the suite inside a
 * private Secret Service session). Each test uses its own keychain service name, never the user's "hearth".
 */
let app: AppHarness;
const savedService = process.env.HEARTH_KEYCHAIN_SERVICE;
beforeEach(async () => {
  app = await startAppHarness([]);
  process.env.HEARTH_KEYCHAIN_SERVICE = app.env.HEARTH_KEYCHAIN_SERVICE;
});
afterEach(async () => {
  deleteSecret('provider:openrouter');
  await app.close();
  if (savedService === undefined) delete process.env.HEARTH_KEYCHAIN_SERVICE;
  else process.env.HEARTH_KEYCHAIN_SERVICE = savedService;
});

const KEY = 'sk-or-v1-test-7c1e0f3b9a2d4e6f8a0b1c2d3e4f5a6b';

describe('secrets routes', () => {
  // Catches an API key written to config.yaml, echoed back to a UI, or left out of the keychain.
  it('setApiKey stores the key in the OS keychain only; settings report just hasKey', async () => {
    await expect(app.service.handlers['secrets.setApiKey']({ provider: 'openrouter', key: KEY })).resolves.toEqual({ stored: true });
    expect(getSecret('provider:openrouter')).toBe(KEY);
    const settings = await app.service.handlers['settings.get']({});
    expect(settings.providers.find((p) => p.name === 'openrouter')).toMatchObject({ hasKey: true });
    expect(settings.providers.find((p) => p.name === 'anthropic')).toMatchObject({ hasKey: false });
    expect(JSON.stringify(settings)).not.toContain(KEY);
    // A settings write afterwards must not pick the key up from anywhere.
    await app.service.handlers['settings.update']({ theme: 'dark' });
    expect(readFileSync(join(app.home, 'config.yaml'), 'utf8')).not.toContain(KEY);
    expect(readFileSync(join(app.home, 'state.db')).includes(Buffer.from(KEY))).toBe(false);

    await app.service.handlers['secrets.deleteApiKey']({ provider: 'openrouter' });
    expect(getSecret('provider:openrouter')).toBeNull();
    expect((await app.service.handlers['settings.get']({})).providers.find((p) => p.name === 'openrouter')?.hasKey).toBe(false);
  });

  it('refuses a provider name that could address another keychain account', async () => {
    const result = await dispatch(app.service.handlers, 'secrets.setApiKey', { provider: '../db-key', key: KEY });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });
});

describe('settings routes', () => {
  it('get reflects config.yaml: model, providers, approvals, tools, UI preferences with defaults', async () => {
    const settings = await app.service.handlers['settings.get']({});
    expect(settings).toMatchObject({
      defaultModel: 'scripted:model',
      fallbacks: [],
      approvals: { mode: 'manual', allowlist: [], timeoutSeconds: 20 },
      toolset: 'default',
      theme: 'system',
      language: 'en',
      quickPromptShortcut: 'CommandOrControl+Shift+Space',
    });
    expect(settings.providers.find((p) => p.name === 'scripted')).toMatchObject({ type: 'openai', baseUrl: app.server.url });
    expect(settings.tools.find((t) => t.name === 'terminal')).toEqual({ name: 'terminal', enabled: true });
  });

  // Catches an update that overwrites a hand edit made while the app ran, or forgets keys it did not touch.
  it('update patches config.yaml after re-reading it, and keeps what it did not touch', async () => {
    const path = join(app.home, 'config.yaml');
    writeFileSync(path, `${readFileSync(path, 'utf8')}agent:\n  max_iterations: 7\n`);
    const updated = await app.service.handlers['settings.update']({
      theme: 'dark',
      language: 'zh-CN',
      disabledTools: ['terminal'],
      fallbacks: ['ollama:qwen2.5'],
      provider: { name: 'vllm', type: 'openai', baseUrl: 'http://10.0.0.5:8000/v1' },
      allowlist: ['recursive delete'],
    });
    expect(updated).toMatchObject({ theme: 'dark', language: 'zh-CN', fallbacks: ['ollama:qwen2.5'], approvals: { allowlist: ['recursive delete'] } });
    expect(updated.tools.find((t) => t.name === 'terminal')).toEqual({ name: 'terminal', enabled: false });
    expect(updated.providers.find((p) => p.name === 'vllm')).toMatchObject({ baseUrl: 'http://10.0.0.5:8000/v1', hasKey: false });
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/max_iterations: 7/);
    expect(text).toMatch(/theme: dark/);
    expect(text).toMatch(/base_url: http:\/\/10\.0\.0\.5:8000\/v1/);
    expect((await app.service.handlers['settings.get']({})).defaultModel).toBe('scripted:model');
  });

  it('refuses unknown keys and invalid values without touching config.yaml', async () => {
    const path = join(app.home, 'config.yaml');
    const before = readFileSync(path, 'utf8');
    for (const patch of [{ apiKey: 'x' }, { theme: 'neon' }, { provider: { name: 'x', type: 'openai', baseUrl: 'file:///etc/passwd' } }]) {
      await expect(dispatch(app.service.handlers, 'settings.update', patch)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(readFileSync(path, 'utf8')).toBe(before);
  });
});
