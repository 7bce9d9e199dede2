/**
 * The `models.*` route handlers over a real HTTP server and a real HEARTH_HOME: outputs and events match
 * the UI contract, bad input is refused with typed errors, and models.use accepts only real GGUF files.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelHandlers } from '../src/core/app/models.js';
import { defaultConfig } from '../src/core/config/schema.js';
import { isHearthError } from '../src/core/errors.js';
import { ROUTES, UiEvent } from '../src/shared/contract.js';
import { startModelFileServer, tinyModelBytes, waitUntil, type ModelFileServer } from './fixtures/model-file-server.js';

const model = tinyModelBytes(3);
let server: ModelFileServer;
let home: string;
let events: UiEvent[];
let used: string[];
let handlers: ReturnType<typeof createModelHandlers>;

function create(options: { gpuFree?: number; gpuSetting?: 'auto' | false } = {}) {
  const config = defaultConfig();
  config.local.gpu = options.gpuSetting ?? 'auto';
  handlers = createModelHandlers({
    home,
    config,
    env: { HEARTH_HF_ENDPOINT: server.baseUrl },
    emit: (e) => events.push(e),
    useModel: async (path) => {
      used.push(path);
    },
    gpuMemory: options.gpuFree === undefined ? undefined : async () => ({ totalBytes: 24e9, freeBytes: options.gpuFree as number }),
  });
  return handlers;
}

async function rejection(promise: Promise<unknown>, code: Parameters<typeof isHearthError>[1]): Promise<string> {
  const err = await promise.then(() => new Error('expected a rejection'), (e: unknown) => e);
  expect(isHearthError(err, code), String(err)).toBe(true);
  return (err as Error).message;
}

beforeAll(async () => {
  server = await startModelFileServer({ files: { '/o/r/resolve/main/tiny.gguf': model.bytes }, chunkDelayMs: 10 });
});
afterAll(() => server.close());
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'hearth-home-'));
  events = [];
  used = [];
});
afterEach(async () => {
  await handlers.close();
  rmSync(home, { recursive: true, force: true });
});

describe('models.* handlers', () => {
  it('downloads with contract-shaped download events, then lists the file, the curated models and the download', async () => {
    // Would catch: events the UI cannot parse, or a finished model missing from models.list.
    const h = create();
    const started = ROUTES['models.download'].output.parse(await h['models.download']({ source: 'hf:o/r/tiny.gguf' }));
    await waitUntil(() => events.some((e) => e.channel === 'download' && e.download.state === 'done'), 'the download to finish');

    for (const event of events) expect(UiEvent.parse(event)).toEqual(event);
    expect(events.every((e) => e.channel === 'download' && e.download.id === started.id)).toBe(true);
    const list = ROUTES['models.list'].output.parse(await h['models.list']({}));
    expect(list.files).toEqual([{ name: 'tiny.gguf', path: join(home, 'models', 'tiny.gguf'), sizeBytes: model.bytes.length }]);
    expect(list.curated.map((c) => c.source)).toContain('hf:NousResearch/Hermes-3-Llama-3.2-3B-GGUF/Hermes-3-Llama-3.2-3B.Q4_K_M.gguf');
    expect(list.curated.every((c) => c.sha256 === null || /^[0-9a-f]{64}$/.test(c.sha256))).toBe(true);
    expect(list.downloads).toEqual([expect.objectContaining({ id: started.id, state: 'done', file: join(home, 'models', 'tiny.gguf') })]);
  });

  it('pause, resume and cancel act on the running download; unknown ids and bad sources are typed errors', async () => {
    // Would catch: route handlers that return before the transfer stops, or untyped errors reaching the UI as "internal".
    const h = create();
    const { id } = await h['models.download']({ source: 'hf:o/r/tiny.gguf' });
    await waitUntil(() => events.some((e) => e.channel === 'download' && e.download.receivedBytes > 0), 'the first bytes');
    expect((await h['models.pause']({ id })).state).toBe('paused');
    expect(existsSync(join(home, 'models', 'tiny.gguf.part'))).toBe(true);
    expect(['queued', 'downloading']).toContain((await h['models.resume']({ id })).state);
    expect((await h['models.cancel']({ id })).state).toBe('cancelled');
    expect(existsSync(join(home, 'models', 'tiny.gguf.part'))).toBe(false);

    expect(await rejection(h['models.pause']({ id: 'missing' }), 'download_not_found')).toMatch(/No download with id missing/);
    expect(await rejection(h['models.download']({ source: 'hf:o/r' }), 'model_source_invalid')).toMatch(/names a repository but not a file/);
    expect(await rejection(h['models.download']({ source: 'file:///etc/passwd' }), 'model_source_invalid')).toMatch(/Only http\(s\) URLs/);
  });

  it('a local .gguf is verified in place, never copied, and never deleted when it fails the checksum', async () => {
    // Would catch: a multi-GB copy of a file the user already has, or Hearth deleting a user's file.
    const h = create();
    const path = join(home, 'elsewhere.gguf');
    writeFileSync(path, model.bytes);
    const { id } = await h['models.download']({ source: path, sha256: model.sha256 });
    await waitUntil(() => events.some((e) => e.channel === 'download' && e.download.id === id && e.download.state === 'done'), 'verification');
    expect(existsSync(join(home, 'models'))).toBe(false);

    const bad = await h['models.download']({ source: path, sha256: 'f'.repeat(64) });
    await waitUntil(() => events.some((e) => e.channel === 'download' && e.download.id === bad.id && e.download.state === 'failed'), 'the checksum failure');
    const failed = (await h['models.list']({})).downloads.find((d) => d.id === bad.id);
    expect(failed?.error).toMatch(/checksum mismatch: expected f{64} got [0-9a-f]{64}/);
    // Buffer.equals: vitest's deep equality walks a 1.7 MB buffer element by element (seconds).
    expect(readFileSync(path).equals(model.bytes)).toBe(true);
  });

  it('models.use accepts a GGUF in the models folder or at an absolute path, and refuses anything else', async () => {
    // Would catch: config pointed at a missing file, a non-model, or a path climbing out of the models folder.
    const h = create();
    const folder = join(home, 'models');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.gguf'), model.bytes);
    writeFileSync(join(folder, 'notes.gguf'), 'just text, not a model');
    copyFileSync(join(folder, 'a.gguf'), join(home, 'outside.gguf'));

    await expect(h['models.use']({ path: 'a.gguf' })).resolves.toEqual({ ok: true });
    await expect(h['models.use']({ path: join(home, 'outside.gguf') })).resolves.toEqual({ ok: true });
    expect(used).toEqual([join(folder, 'a.gguf'), join(home, 'outside.gguf')]);

    expect(await rejection(h['models.use']({ path: '../outside.gguf' }), 'model_source_invalid')).toMatch(/outside the models folder/);
    expect(await rejection(h['models.use']({ path: 'notes.gguf' }), 'model_source_invalid')).toMatch(/not a GGUF model file/);
    expect(await rejection(h['models.use']({ path: 'missing.gguf' }), 'model_source_invalid')).toMatch(/does not exist/);
    expect(await rejection(h['models.use']({ path: join(home, 'outside.txt') }), 'model_source_invalid')).toMatch(/not a \.gguf file/);
    expect(used).toHaveLength(2);
  });

  it('models.fit uses the server size, the model host\'s VRAM, and ignores the GPU when config turns it off', async () => {
    // Would catch: the fit estimate ignoring `local.gpu: false`, or a size that does not come from the server.
    const roomy = await create({ gpuFree: 16e9 })['models.fit']({ source: 'hf:o/r/tiny.gguf' });
    expect(ROUTES['models.fit'].output.parse(roomy)).toMatchObject({ fits: true, placement: 'gpu', availableBytes: 16e9 });
    expect(roomy.detail).toMatch(/\(size from the server\)$/);
    expect(roomy.requiredBytes).toBeGreaterThan(model.bytes.length);
    await handlers.close();

    const cpuOnly = await create({ gpuFree: 16e9, gpuSetting: false })['models.fit']({ source: 'hf:o/r/tiny.gguf', sizeBytes: 5e9 });
    expect(cpuOnly.placement).toBe('cpu');
    expect(cpuOnly.detail).toMatch(/no GPU detected.*\(size as given\)$|Does not fit.*\(size as given\)$/);
  });
});
