/**
 * Split GGUF models (`<base>-00001-of-0000N.gguf`, …) against a real HTTP server: every part downloads into
 * the models folder, none gets its final name until all are verified, a dropped connection resumes with a
 * Range request, a part whose server digest does not match is refused and everything removed, and the model
 * runs in Hearth's local provider (llama.cpp in a model host process) from the first part's path.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { LocalModel } from '../src/core/local-model/local.js';
import { estimateModelFit } from '../src/core/model-files/fit-estimate.js';
import { ModelDownloads, type DownloadStatus } from '../src/core/model-files/model-downloads.js';
import { modelSizeOf } from '../src/core/model-files/model-size.js';
import { parseModelSource } from '../src/core/model-files/model-source.js';
import { listModelFiles } from '../src/core/model-files/models-folder.js';
import { modelDir, writeSplitGguf } from './fixtures/gguf/index.js';
import { startModelFileServer, type ModelFileServer } from './fixtures/model-file-server.js';

const generated = modelDir('hearth-split-');
const partPaths = writeSplitGguf(generated.dir, 'tiny', 3);
const parts = partPaths.map((path) => {
  const bytes = readFileSync(path);
  return { name: basename(path), bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
});
const totalBytes = parts.reduce((sum, p) => sum + p.bytes.length, 0);
const wrongSha = 'f'.repeat(64);

let server: ModelFileServer;
let folder: string;
const managers: ModelDownloads[] = [];

/** Served like Hugging Face: `resolve/main/<name>` redirects to the CDN with the part's LFS digest and size. */
function hubRoutes(repo: string, digestOf: (index: number) => string) {
  return Object.fromEntries(
    parts.map((p, i) => [
      `/owner/${repo}/resolve/main/${p.name}`,
      { location: `/cdn/${p.name}`, headers: { 'x-linked-etag': `"${digestOf(i)}"`, 'x-linked-size': String(p.bytes.length) } },
    ]),
  );
}

beforeAll(async () => {
  server = await startModelFileServer({
    files: Object.fromEntries(parts.flatMap((p) => [[`/cdn/${p.name}`, p.bytes], [`/plain/${p.name}`, p.bytes]])),
    redirects: { ...hubRoutes('split', (i) => parts[i]!.sha256), ...hubRoutes('tampered', (i) => (i === 1 ? wrongSha : parts[i]!.sha256)) },
    chunkDelayMs: 5,
    // The second part's first GET is cut half-way, as a flaky connection would.
    cutOnce: [`/plain/${parts[1]!.name}`],
  });
});
afterAll(async () => {
  await server.close();
  generated.cleanup();
});
beforeEach(() => {
  folder = join(mkdtempSync(join(tmpdir(), 'hearth-models-')), 'models');
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

function manager(env: NodeJS.ProcessEnv = {}) {
  const events: DownloadStatus[] = [];
  const downloads = new ModelDownloads({ folder, env, onChange: (d) => events.push(d), progressIntervalMs: 0 });
  managers.push(downloads);
  return { downloads, events };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('split GGUF models', () => {
  it('an hf: URI to any part downloads every part, checks each against its LFS digest, and the local provider runs it from the first', async () => {
    // Would catch: split models refused (the old behaviour), only the named part fetched, a part renamed before all
    // are verified, progress counting one part only, or a layout llama.cpp cannot load from the first part's path.
    const { downloads, events } = manager({ HEARTH_HF_ENDPOINT: server.baseUrl });
    const { id, file } = downloads.start({ source: `hf:owner/split/${parts[2]!.name}` });
    expect(file).toBe(join(folder, parts[0]!.name));
    const done = await downloads.settled(id);

    expect(done).toMatchObject({ state: 'done', error: null, receivedBytes: totalBytes, totalBytes });
    expect(readdirSync(folder).sort()).toEqual(parts.map((p) => p.name).sort());
    for (const p of parts) expect(sha256(join(folder, p.name))).toBe(p.sha256);
    const progress = events.filter((e) => e.state === 'downloading');
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.receivedBytes).toBeGreaterThanOrEqual(progress[i - 1]!.receivedBytes);
    expect(progress.some((e) => e.receivedBytes > parts[0]!.bytes.length && e.receivedBytes < totalBytes)).toBe(true);
    // The total is all three parts from the first byte on (it is unknown only until the parts are sized).
    expect(progress.filter((e) => e.receivedBytes > 0).every((e) => e.totalBytes === totalBytes)).toBe(true);
    // One model in the list, named by its first part, with the size of all three.
    expect(listModelFiles(folder)).toEqual([{ name: parts[0]!.name, path: join(folder, parts[0]!.name), sizeBytes: totalBytes }]);

    // Hearth's local provider (a real model host process) is given the first part's path, as `models.use` does.
    const local = new LocalModel({ modelPath: done.file, threads: 1, gpu: 'auto', contextSize: 1024, maxSessions: 1 });
    try {
      let text = '';
      let finish: string | undefined;
      const request = { messages: [{ role: 'user' as const, content: 'Say hello.' }], tools: [], maxTokens: 8, temperature: 0 };
      for await (const event of local.stream(request, new AbortController().signal)) {
        if (event.type === 'text') text += event.delta;
        if (event.type === 'done') finish = event.finishReason;
      }
      expect(finish).toBeDefined();
      expect(text.length).toBeGreaterThan(0);
    } finally {
      await local.dispose();
    }
  });

  it('a connection dropped in the second part fails keeping what arrived; after a restart it is one paused download that resumes with a Range', async () => {
    // Would catch: a cut part renamed as finished, the received half thrown away, or each leftover part coming back
    // after a restart as a download of its own (three rows for one model, two of them unresumable).
    const first = manager();
    const cut = await first.downloads.settled(first.downloads.start({ source: server.url(`/plain/${parts[0]!.name}`) }).id);
    expect(cut.state).toBe('failed');
    expect(cut.error).toMatch(/connection .*(was reset|closed after \d+ of \d+ bytes).*Resume/);
    expect(readdirSync(folder).filter((n) => n.endsWith('.gguf'))).toEqual([]);
    const kept = readFileSync(join(folder, `${parts[1]!.name}.part`)).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(parts[1]!.bytes.length);
    await first.downloads.close();

    const second = manager();
    const restored = second.downloads.list();
    expect(restored).toHaveLength(1);
    expect(restored[0]).toMatchObject({ state: 'paused', file: join(folder, parts[0]!.name), totalBytes, receivedBytes: parts[0]!.bytes.length + kept });
    server.requests.length = 0;
    second.downloads.resume(restored[0]!.id);
    expect((await second.downloads.settled(restored[0]!.id)).state).toBe('done');
    for (const p of parts) expect(sha256(join(folder, p.name))).toBe(p.sha256);
    const gets = server.requests.filter((r) => r.method === 'GET').map((r) => [basename(r.path), r.range, r.status]);
    // The finished first part is only confirmed (416), the cut one continues where it stopped, the third is whole.
    expect(gets).toEqual([
      [parts[0]!.name, `bytes=${parts[0]!.bytes.length}-`, 416],
      [parts[1]!.name, `bytes=${kept}-`, 206],
      [parts[2]!.name, undefined, 200],
    ]);
  });

  it('a part whose server digest does not match fails naming that part, and no part is left behind', async () => {
    // Would catch: a substituted part accepted because the others were fine, or the good parts left as a model
    // llama.cpp would then fail to load (or load with the wrong weights).
    const { downloads } = manager({ HEARTH_HF_ENDPOINT: server.baseUrl });
    const result = await downloads.settled(downloads.start({ source: `hf:owner/tampered/${parts[0]!.name}` }).id);
    expect(result.state).toBe('failed');
    expect(result.error).toContain(`${parts[1]!.name}: checksum mismatch: expected ${wrongSha} got ${parts[1]!.sha256}`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('refuses one --sha256 for a split model, and checks a local split model has all its parts', async () => {
    // Would catch: one digest silently applied to the first part only, or a local split model with a missing part
    // accepted (llama.cpp would fail later, at the first message, with a less helpful error).
    const { downloads } = manager();
    let caught: unknown;
    try {
      downloads.start({ source: server.url(`/plain/${parts[0]!.name}`), sha256: parts[0]!.sha256 });
    } catch (err) {
      caught = err;
    }
    expect(isHearthError(caught, 'model_source_invalid')).toBe(true);
    expect((caught as Error).message).toMatch(/first of 3 parts of a split model, and one checksum cannot cover them/);

    const local = await downloads.settled(downloads.start({ source: partPaths[1]! }).id);
    expect(local).toMatchObject({ state: 'done', file: partPaths[0], totalBytes });
    const lonely = join(folder, '..', 'lonely');
    mkdirSync(lonely, { recursive: true });
    const [onlyFirst] = writeSplitGguf(lonely, 'half', 2);
    rmSync(onlyFirst!.replace('-00001-of-', '-00002-of-'));
    const missing = await downloads.settled(downloads.start({ source: onlyFirst! }).id);
    expect(missing.state).toBe('failed');
    expect(missing.error).toMatch(/half-00002-of-00002\.gguf does not exist .*part 2 of 2 of a split model/);
    expect(existsSync(onlyFirst!)).toBe(true);
  });

  it('parses split names into every part URL, and sizes a split model as the sum of its parts', async () => {
    // Would catch: part URLs built with the wrong numbering or losing the folder inside the repository.
    const parsed = parseModelSource('hf:o/r/q4/big-00002-of-00003.gguf', { env: {} });
    expect(parsed).toMatchObject({ fileName: 'big-00001-of-00003.gguf', url: 'https://huggingface.co/o/r/resolve/main/q4/big-00001-of-00003.gguf' });
    expect(parsed.kind === 'remote' && parsed.parts.map((p) => p.url)).toEqual([1, 2, 3].map((i) => `https://huggingface.co/o/r/resolve/main/q4/big-0000${i}-of-00003.gguf`));
    const remote = parseModelSource(server.url(`/plain/${parts[0]!.name}`), { env: {} });
    await expect(modelSizeOf(remote, {})).resolves.toEqual({ sizeBytes: totalBytes, origin: 'server' });
  });
});

describe('split GGUF fit estimate', () => {
  it('reads the header of every part over HTTP (ranges only) before a download, so the estimate covers the whole model', async () => {
    // Would catch: the estimate falling back to the file size for split models (or sizing the first part only).
    const fit = await estimateModelFit({
      location: server.url(`/plain/${parts[0]!.name}`),
      fileBytes: totalBytes,
      contextTokens: 1024,
      machine: { freeRamBytes: 8e9, totalRamBytes: 16e9, gpu: null },
    });
    expect(fit.detail).not.toMatch(/file size alone/);
    expect(fit.fits).toBe(true);
    const read = new Set(server.requests.map((r) => basename(r.path)));
    expect(parts.every((p) => read.has(p.name))).toBe(true);
    expect(server.requests.every((r) => r.range !== undefined)).toBe(true);
  });
});
