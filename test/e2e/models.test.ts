import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFileServer, tinyModelBytes, type ModelFileServer } from '../fixtures/model-file-server.js';
import { screenshot, startWebApp, type WebApp } from '../fixtures/web-app.js';

/**
 * The model manager in the browser, downloading a generated GGUF from a throttled local HTTP server that
 * speaks byte ranges like Hugging Face's CDN.
 */
const model = tinyModelBytes(11);
/** 16 KiB every 40 ms: the ~1.7 MB file takes seconds, long enough to watch, pause and cancel it. */
const SLOW_MS = 40;
let files: ModelFileServer;
let app: WebApp;
let page: Page;
let modelsDir: string;

beforeAll(async () => {
  files = await startModelFileServer({ files: { '/m/tiny-e2e.gguf': model.bytes, '/m/tampered.gguf': model.bytes }, chunkBytes: 16 * 1024, chunkDelayMs: SLOW_MS });
  app = await startWebApp({ script: [] });
  page = app.page;
  modelsDir = join(app.home, 'models');
});
afterAll(async () => {
  await app?.close();
  await files?.close();
});

async function startDownload(path: string, sha256: string): Promise<Locator> {
  const before = await page.getByTestId('download').count();
  await page.getByTestId('model-source').fill(files.url(path));
  await page.getByTestId('model-sha256').fill(sha256);
  await page.getByTestId('model-download').click();
  await expect.poll(() => page.getByTestId('download').count()).toBe(before + 1);
  const id = await page.getByTestId('download').nth(before).getAttribute('data-download-id');
  return page.locator(`[data-testid="download"][data-download-id="${id}"]`);
}

const stateOf = (row: Locator) => row.getAttribute('data-state');
const received = async (row: Locator) => Number(await row.getByTestId('download-progress').getAttribute('value'));
const leftovers = (name: string) => (existsSync(modelsDir) ? readdirSync(modelsDir).filter((f) => f.startsWith(name)) : []);

describe('downloading a model in the Models tab', () => {
  // Catches progress that is not shown while it happens, cancel that leaves a partial file, pause that keeps
  // downloading, resume that starts over (no Range request), and a finished file missing from the list.
  it('shows progress with speed, cancels, then pauses and resumes to a verified file in the list', async () => {
    await page.getByTestId('nav-models').click();
    await page.getByTestId('models-view').waitFor();

    const first = await startDownload('/m/tiny-e2e.gguf', model.sha256);
    await expect.poll(() => received(first), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await stateOf(first)).toBe('downloading');
    await expect.poll(() => first.getByTestId('download-speed').textContent()).toMatch(/\/s/);
    expect(await received(first)).toBeLessThan(model.bytes.length);
    await screenshot(page, 'model-downloading');
    await first.getByTestId('download-cancel').click();
    await expect.poll(() => stateOf(first)).toBe('cancelled');
    expect(leftovers('tiny-e2e')).toEqual([]);

    const second = await startDownload('/m/tiny-e2e.gguf', model.sha256);
    await expect.poll(() => received(second), { timeout: 10_000 }).toBeGreaterThan(64 * 1024);
    await second.getByTestId('download-pause').click();
    await expect.poll(() => stateOf(second)).toBe('paused');
    const pausedAt = await received(second);
    expect(pausedAt).toBeLessThan(model.bytes.length);
    const requestsWhilePaused = files.requests.length;
    await page.waitForTimeout(400);
    expect(await received(second)).toBe(pausedAt);
    await screenshot(page, 'model-paused');

    files.setChunkDelay(1);
    await second.getByTestId('download-resume').click();
    await expect.poll(() => stateOf(second), { timeout: 20_000 }).toBe('done');
    // The transfer went on from where it stopped instead of starting again.
    const resumed = files.requests.slice(requestsWhilePaused).find((r) => r.method === 'GET' && r.path === '/m/tiny-e2e.gguf');
    expect(resumed?.range).toMatch(/^bytes=[1-9]\d*-/);
    expect(resumed?.status).toBe(206);
    const onDisk = readFileSync(join(modelsDir, 'tiny-e2e.gguf'));
    expect(createHash('sha256').update(onDisk).digest('hex')).toBe(model.sha256);
    const listed = page.locator('[data-testid="model-file"]', { hasText: 'tiny-e2e.gguf' });
    await listed.waitFor();
    await screenshot(page, 'model-downloaded');

    // And it can be chosen: the default model becomes this file.
    await listed.getByTestId('model-use').click();
    await expect.poll(() => readFileSync(join(app.home, 'config.yaml'), 'utf8')).toContain(join(modelsDir, 'tiny-e2e.gguf'));
    files.setChunkDelay(SLOW_MS);
  });

  // Catches a corrupted or tampered download accepted as a model (or saved under its final name).
  it('refuses a file whose sha256 does not match, says so, and keeps it out of the list', async () => {
    files.setChunkDelay(1);
    const wrong = createHash('sha256').update('not the model').digest('hex');
    const row = await startDownload('/m/tampered.gguf', wrong);
    await expect.poll(() => stateOf(row), { timeout: 20_000 }).toBe('failed');
    expect(await row.getByTestId('download-error').textContent()).toMatch(/sha-?256|checksum/i);
    expect(existsSync(join(modelsDir, 'tampered.gguf'))).toBe(false);
    expect(await page.locator('[data-testid="model-file"]', { hasText: 'tampered.gguf' }).count()).toBe(0);
    await screenshot(page, 'model-checksum-mismatch');
  });
});
