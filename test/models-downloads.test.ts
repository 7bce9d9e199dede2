/**
 * The download manager against a real HTTP server: progress, pause/resume with HTTP Range, a server
 * without ranges, cancel, leftover `.part` files after a restart, and one download per file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { ModelDownloads, type DownloadStatus } from '../src/core/model-files/model-downloads.js';
import { startModelFileServer, tinyModelBytes, waitUntil, type ModelFileServer } from './fixtures/model-file-server.js';

const model = tinyModelBytes();
let server: ModelFileServer;
let plainServer: ModelFileServer;
let folder: string;
const managers: ModelDownloads[] = [];

beforeAll(async () => {
  // 64 KiB every 15 ms: the ~1.7 MB file takes ~0.4 s, long enough to pause or cancel half-way.
  server = await startModelFileServer({ files: { '/m.gguf': model.bytes }, chunkDelayMs: 15 });
  plainServer = await startModelFileServer({ files: { '/m.gguf': model.bytes }, chunkDelayMs: 15, ranges: false });
});
afterAll(async () => {
  await server.close();
  await plainServer.close();
});
beforeEach(() => {
  folder = join(mkdtempSync(join(tmpdir(), 'hearth-models-')), 'models');
  server.requests.length = 0;
  plainServer.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

function manager(options: { progressIntervalMs?: number } = {}) {
  const events: DownloadStatus[] = [];
  const downloads = new ModelDownloads({ folder, env: {}, onChange: (d) => events.push(d), ...options });
  managers.push(downloads);
  return { downloads, events };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const halfWay = (events: DownloadStatus[]) => () => events.some((e) => e.state === 'downloading' && e.receivedBytes > 300_000);

describe('ModelDownloads', () => {
  it('reports throttled progress with growing bytes, a plausible speed and an ETA, then a verified file', async () => {
    // Would catch: progress sent per chunk (flooding the UI), bytes going backwards, speed or ETA never computed.
    const { downloads, events } = manager();
    const started = performance.now();
    const { id } = downloads.start({ source: server.url('/m.gguf') });
    const done = await downloads.settled(id);
    const elapsedMs = performance.now() - started;

    expect(done.state).toBe('done');
    expect(done.receivedBytes).toBe(model.bytes.length);
    expect(sha256(join(folder, 'm.gguf'))).toBe(model.sha256);
    const progress = events.filter((e) => e.state === 'downloading');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // ~4 per second plus the state changes: an unthrottled manager would send one per 64 KiB chunk (27).
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / 250) + 3);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.receivedBytes).toBeGreaterThanOrEqual(progress[i - 1]!.receivedBytes);
    const moving = progress.filter((e) => e.bytesPerSecond > 0);
    expect(moving.length).toBeGreaterThan(0);
    const average = (model.bytes.length * 1000) / elapsedMs;
    for (const e of moving) {
      expect(e.bytesPerSecond).toBeGreaterThan(average / 5);
      expect(e.bytesPerSecond).toBeLessThan(average * 5);
      expect(e.totalBytes).toBe(model.bytes.length);
      expect(e.etaSeconds).not.toBeNull();
      expect(e.etaSeconds!).toBeGreaterThanOrEqual(0);
      expect(e.etaSeconds!).toBeLessThan(30);
    }
    expect(events.map((e) => e.state)).toEqual(expect.arrayContaining(['queued', 'downloading', 'verifying', 'done']));
    expect(existsSync(join(folder, 'm.gguf.part'))).toBe(false);
    expect(existsSync(join(folder, 'm.gguf.part.json'))).toBe(false);
  });

  it('pauses mid-transfer keeping the .part, and resumes with a Range request to a byte-identical file', async () => {
    // Would catch: pause deleting progress, resume starting from 0 or appending at the wrong offset.
    const { downloads, events } = manager({ progressIntervalMs: 0 });
    const { id } = downloads.start({ source: server.url('/m.gguf') });
    await waitUntil(halfWay(events), 'half the file');
    const paused = await downloads.pause(id);

    expect(paused.state).toBe('paused');
    const partSize = statSync(join(folder, 'm.gguf.part')).size;
    expect(partSize).toBeGreaterThan(0);
    expect(partSize).toBeLessThan(model.bytes.length);
    expect(paused.receivedBytes).toBe(partSize);
    expect(existsSync(join(folder, 'm.gguf'))).toBe(false);

    expect(['queued', 'downloading']).toContain(downloads.resume(id).state);
    const done = await downloads.settled(id);
    expect(done.state).toBe('done');
    expect(done.notice).toBeNull();
    expect(sha256(join(folder, 'm.gguf'))).toBe(model.sha256);
    expect(server.requests.map((r) => [r.range, r.status])).toEqual([
      [undefined, 200],
      [`bytes=${partSize}-`, 206],
    ]);
  });

  it('restarts from 0 and says so when the server ignores Range, still ending byte-identical', async () => {
    // Would catch: appending a whole 200 body after the .part (a corrupt, too-long file).
    const { downloads, events } = manager({ progressIntervalMs: 0 });
    const { id } = downloads.start({ source: plainServer.url('/m.gguf') });
    await waitUntil(halfWay(events), 'half the file');
    await downloads.pause(id);
    downloads.resume(id);
    const done = await downloads.settled(id);

    expect(done.state).toBe('done');
    expect(done.notice).toMatch(/cannot resume.*started again from the beginning/);
    expect(plainServer.requests[1]).toMatchObject({ range: expect.stringMatching(/^bytes=\d+-$/), status: 200 });
    expect(statSync(join(folder, 'm.gguf')).size).toBe(model.bytes.length);
    expect(sha256(join(folder, 'm.gguf'))).toBe(model.sha256);
  });

  it('cancel mid-transfer stops the download and deletes the .part and its sidecar', async () => {
    // Would catch: cancel behaving like pause (gigabytes of .part left behind) or the transfer running on.
    const { downloads, events } = manager({ progressIntervalMs: 0 });
    const { id } = downloads.start({ source: server.url('/m.gguf') });
    await waitUntil(halfWay(events), 'half the file');
    const cancelled = await downloads.cancel(id);

    expect(cancelled.state).toBe('cancelled');
    expect(existsSync(join(folder, 'm.gguf.part'))).toBe(false);
    expect(existsSync(join(folder, 'm.gguf.part.json'))).toBe(false);
    expect(existsSync(join(folder, 'm.gguf'))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(join(folder, 'm.gguf.part'))).toBe(false);
    expect(() => downloads.resume(id)).toThrow(/only paused or failed/);
  });

  it('a .part left by an earlier run comes back as a paused download that resumes to completion', async () => {
    // Would catch: leftover partial files ignored after a restart (lost progress, orphaned disk space).
    const first = manager({ progressIntervalMs: 0 });
    const { id } = first.downloads.start({ source: server.url('/m.gguf'), sha256: model.sha256 });
    await waitUntil(halfWay(first.events), 'half the file');
    await first.downloads.close();
    const partSize = statSync(join(folder, 'm.gguf.part')).size;

    const second = manager();
    const [restored] = second.downloads.list();
    expect(restored).toMatchObject({ state: 'paused', source: server.url('/m.gguf'), receivedBytes: partSize, totalBytes: model.bytes.length });
    expect(restored!.id).not.toBe(id);
    second.downloads.resume(restored!.id);
    expect((await second.downloads.settled(restored!.id)).state).toBe('done');
    expect(sha256(join(folder, 'm.gguf'))).toBe(model.sha256);
    expect(server.requests.at(-1)?.range).toBe(`bytes=${partSize}-`);
  });

  it('never runs two downloads to the same file, and refuses to overwrite a finished model', async () => {
    // Would catch: two transfers appending to one .part (garbage), or a download clobbering a model in use.
    const { downloads } = manager();
    const { id } = downloads.start({ source: server.url('/m.gguf') });
    expect(() => downloads.start({ source: server.url('/m.gguf') })).toThrow(/already being downloaded/);
    expect(() => downloads.start({ source: plainServer.url('/m.gguf') })).toThrow(/already being downloaded/);
    await downloads.settled(id);
    let caught: unknown;
    try {
      downloads.start({ source: server.url('/m.gguf') });
    } catch (err) {
      caught = err;
    }
    expect(isHearthError(caught, 'download_conflict')).toBe(true);
    expect((caught as Error).message).toMatch(/already exists/);
    expect(() => downloads.get('nope')).toThrow(/No download with id nope/);
  });
});
