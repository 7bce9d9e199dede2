import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteSecret, getSecret } from '../../src/core/safety/secrets/keychain.js';
import { screenshot, startWebApp, type WebApp } from '../fixtures/web-app.js';

/**
 * Providers in Settings as a user meets them (issue 12): add one on this computer, test the connection, fix a
 * base URL without /v1 by editing it, pick a model from the server's own list, and remove the provider, against
 * the real `hearth serve` in Chromium and a local server speaking the OpenAI `/v1/models` wire format.
 */
const KEY = 'sk-e2e-listing-3c2b1a0f9e';
let listing: Server;
let listingUrl: string;
let deadPort: number;
let app: WebApp;
let page: Page;

beforeAll(async () => {
  listing = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url !== '/v1/models') res.writeHead(404).end('{"error":"not found"}');
    else if (req.headers.authorization !== `Bearer ${KEY}`) res.writeHead(401).end('{"error":{"message":"missing key"}}');
    else res.end(JSON.stringify({ object: 'list', data: [{ id: 'small-model', object: 'model' }, { id: 'big-model', object: 'model' }] }));
  });
  await new Promise<void>((resolve) => listing.listen(0, '127.0.0.1', resolve));
  listingUrl = `http://127.0.0.1:${(listing.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  app = await startWebApp({ script: () => ({ text: 'hello' }) });
  page = app.page;
}, 120_000);

afterAll(async () => {
  if (app) withKeychainService(app.env, () => deleteSecret('provider:box'));
  await app?.close();
  await new Promise<void>((resolve) => listing.close(() => resolve()));
});

function withKeychainService<T>(env: NodeJS.ProcessEnv, read: () => T): T {
  const saved = process.env.HEARTH_KEYCHAIN_SERVICE;
  process.env.HEARTH_KEYCHAIN_SERVICE = env.HEARTH_KEYCHAIN_SERVICE;
  try {
    return read();
  } finally {
    if (saved === undefined) delete process.env.HEARTH_KEYCHAIN_SERVICE;
    else process.env.HEARTH_KEYCHAIN_SERVICE = saved;
  }
}

const config = () => readFileSync(join(app.home, 'config.yaml'), 'utf8');
// Keys go to the OS keychain: without the test script's private Secret Service session there is none.
const hasSessionBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);

describe('providers in Settings', () => {
  // Catches: a dead port accepted without a word, the test button missing before a provider is added.
  it('tests an endpoint before it is added', async () => {
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('provider-url').fill(`http://127.0.0.1:${deadPort}/v1`);
    await page.getByTestId('provider-add-test-run').click();
    const result = page.getByTestId('provider-add-test-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('false');
    expect(await result.textContent()).toContain(`Nothing is listening at 127.0.0.1:${deadPort}`);
  });

  it.skipIf(!hasSessionBus)('adds, tests, edits, picks a model from the list, and removes a provider', async () => {
    // Added with the /v1 missing, as the user did.
    await page.getByTestId('provider-name').fill('box');
    await page.getByTestId('provider-url').fill(listingUrl);
    await page.getByTestId('provider-add').click();
    const box = page.locator('[data-testid="provider"][data-provider="box"]');
    await box.waitFor();
    expect(await box.getByTestId('provider-no-key-needed').textContent()).toContain('need no API key');
    // A preset nobody edited has nothing to reset, and cannot be removed.
    const lmstudio = page.locator('[data-testid="provider"][data-provider="lmstudio"]');
    expect(await lmstudio.getByTestId('provider-reset').count()).toBe(0);
    expect(await lmstudio.getByTestId('provider-remove').count()).toBe(0);

    await box.getByTestId('provider-test-run').click();
    await box.getByTestId('provider-test-result').waitFor();
    expect(await box.getByTestId('provider-test-result').textContent()).toContain('Is "/v1" missing?');

    // Edited in place: the same row, the new address, saved to config.yaml.
    await box.getByTestId('provider-edit').click();
    await box.getByTestId('provider-edit-url').fill(`${listingUrl}/v1`);
    await box.getByTestId('provider-edit-save').click();
    await box.getByTestId('provider-endpoint').filter({ hasText: `${listingUrl}/v1` }).waitFor();
    expect(await page.locator('[data-testid="provider"][data-provider="box"]').count()).toBe(1);
    expect(config()).toContain(`base_url: ${listingUrl}/v1`);

    // This server does want a key: the test says so, then works with the stored one.
    await box.getByTestId('provider-test-run').click();
    await box.getByTestId('provider-test-result').filter({ hasText: 'needs an API key' }).waitFor();
    await box.getByTestId('provider-key-input').fill(KEY);
    await box.getByTestId('provider-key-save').click();
    await box.locator('[data-testid="provider-has-key"].ok').waitFor();
    await box.getByTestId('provider-test-run').click();
    await box.getByTestId('provider-test-result').filter({ hasText: '2 models available' }).waitFor();
    expect(await page.content()).not.toContain(KEY);

    // A listed model becomes the default; the status bar follows at once.
    await box.getByTestId('provider-test-models').selectOption('big-model');
    await page.getByTestId('status-model').filter({ hasText: 'box:big-model' }).waitFor();
    // The status event can arrive before settings.update's reply: the field follows the reply.
    await expect.poll(() => page.getByTestId('default-model').inputValue()).toBe('box:big-model');
    expect(config()).toContain('default: box:big-model');
    await screenshot(page, 'settings-provider-tested');

    // In use: removal is refused with the reason, and nothing is lost.
    await box.getByTestId('provider-remove').click();
    await box.getByTestId('provider-remove-confirm').click();
    await page.getByTestId('settings-error').filter({ hasText: 'is in use' }).waitFor();
    expect(config()).toContain('box:');

    await page.getByTestId('default-model').fill('scripted:model');
    await page.getByTestId('models-save').click();
    await page.getByTestId('status-model').filter({ hasText: 'scripted:model' }).waitFor();
    await box.getByTestId('provider-remove').click();
    await box.getByTestId('provider-remove-confirm').click();
    await box.waitFor({ state: 'detached' });
    expect(config()).not.toMatch(/^\s+box:/m);
    expect(withKeychainService(app.env, () => getSecret('provider:box'))).toBeNull();
    expect(app.watch.errors).toEqual([]);
  }, 60_000);
});
