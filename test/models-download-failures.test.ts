/**
 * How downloads fail: each failure ends in the `failed` state with a message a user can act on, a bad file
 * never gets its final name, and a `.part` worth keeping is kept for resume.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelDownloads } from '../src/core/model-files/model-downloads.js';
import { startModelFileServer, tinyModelBytes, type ModelFileServer } from './fixtures/model-file-server.js';

const model = tinyModelBytes(11);
const wrongSha = '0'.repeat(64);
let server: ModelFileServer;
let folder: string;
const managers: ModelDownloads[] = [];

beforeAll(async () => {
  server = await startModelFileServer({
    files: {
      '/m.gguf': model.bytes,
      '/cdn/m.gguf': model.bytes,
      // What a misconfigured mirror or a login wall returns: an HTML page saved under a .gguf name.
      '/page.gguf': Buffer.from('<!DOCTYPE html><html><body>Please log in</body></html>'.repeat(50)),
    },
    redirects: {
      '/owner/repo/resolve/main/good.gguf': { location: '/cdn/m.gguf', headers: { 'x-linked-etag': `"${model.sha256}"`, 'x-linked-size': String(model.bytes.length) } },
      '/owner/repo/resolve/main/tampered.gguf': { location: '/cdn/m.gguf', headers: { 'x-linked-etag': `"${wrongSha}"` } },
      '/ftp.gguf': { location: 'ftp://127.0.0.1/m.gguf' },
    },
  });
});
afterAll(() => server.close());
beforeEach(() => {
  folder = join(mkdtempSync(join(tmpdir(), 'hearth-models-')), 'models');
  server.setMode('ok');
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

function manager(options: { freeDiskBytes?: (folder: string) => Promise<number>; env?: NodeJS.ProcessEnv } = {}) {
  const downloads = new ModelDownloads({ folder, env: options.env ?? {}, onChange: () => undefined, freeDiskBytes: options.freeDiskBytes });
  managers.push(downloads);
  return downloads;
}

async function download(downloads: ModelDownloads, source: string, sha256?: string) {
  const { id } = downloads.start({ source, sha256 });
  return downloads.settled(id);
}

const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe('download failures', () => {
  it('a checksum mismatch fails with both digests and removes the bad file', async () => {
    // Would catch: a corrupted or substituted model accepted, or left on disk under its final name.
    const result = await download(manager(), server.url('/m.gguf'), wrongSha);
    expect(result.state).toBe('failed');
    expect(result.error).toContain(`checksum mismatch: expected ${wrongSha} got ${model.sha256}`);
    expect(filesIn(folder)).toEqual([]);
  });

  it('a file that is not a GGUF fails clearly and never becomes a model file', async () => {
    // Would catch: an HTML error page saved as a model and handed to llama.cpp.
    const result = await download(manager(), server.url('/page.gguf'));
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/not a GGUF model file \(it starts with "<!DOCTYP", an HTML page\)/);
    expect(filesIn(folder)).toEqual([]);
  });

  it('404 and 500 fail with readable messages; after a 500 the same download resumes once the server recovers', async () => {
    // Would catch: raw "fetch failed"/status codes shown to users, or a transient server error being final.
    const downloads = manager();
    const missing = await download(downloads, server.url('/nope.gguf'));
    expect(missing.state).toBe('failed');
    expect(missing.error).toMatch(/not found \(HTTP 404\).*Check the repository and file name/);

    server.setMode('server_error');
    const broken = await download(downloads, server.url('/m.gguf'));
    expect(broken.error).toMatch(/server failed \(HTTP 500\).*Try resuming later/);
    server.setMode('ok');
    downloads.resume(broken.id);
    expect((await downloads.settled(broken.id)).state).toBe('done');
  });

  it('a refused connection fails with ECONNREFUSED in the message', async () => {
    // Would catch: the manager hanging or crashing when nothing listens at the address.
    const gone = await startModelFileServer({ files: {} });
    await gone.close();
    const result = await download(manager(), gone.url('/m.gguf'));
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/Cannot connect to 127\.0\.0\.1:\d+: the connection was refused \(ECONNREFUSED\)/);
  });

  it('a body cut short fails, keeps the .part, and resuming fetches only the rest', async () => {
    // Would catch: a truncated transfer renamed to a final model, or the received half thrown away.
    const downloads = manager();
    server.setMode('truncate');
    const cut = await download(downloads, server.url('/m.gguf'), model.sha256);
    expect(cut.state).toBe('failed');
    expect(cut.error).toMatch(/connection .*(was reset|closed after \d+ of \d+ bytes).*Resume/);
    const kept = statSync(join(folder, 'm.gguf.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect(existsSync(join(folder, 'm.gguf'))).toBe(false);

    server.setMode('ok');
    downloads.resume(cut.id);
    expect((await downloads.settled(cut.id)).state).toBe('done');
    expect(server.requests.at(-1)).toMatchObject({ range: `bytes=${kept}-`, status: 206 });
  });

  it('hf: URIs go to HEARTH_HF_ENDPOINT, follow the redirect and check the server-sent LFS digest', async () => {
    // Would catch: a hard-coded huggingface.co, redirects not followed, or X-Linked-Etag ignored.
    const env = { HEARTH_HF_ENDPOINT: server.baseUrl };
    const good = await download(manager({ env }), 'hf:owner/repo/good.gguf');
    expect(good).toMatchObject({ state: 'done', file: join(folder, 'good.gguf'), totalBytes: model.bytes.length });
    expect(server.requests.map((r) => r.path)).toEqual(['/owner/repo/resolve/main/good.gguf', '/cdn/m.gguf']);

    const tampered = await download(manager({ env }), 'hf:owner/repo/tampered.gguf');
    expect(tampered.state).toBe('failed');
    expect(tampered.error).toContain(`checksum mismatch: expected ${wrongSha}`);
  });

  it('a redirect to a non-http(s) URL is refused', async () => {
    // Would catch: a server steering the download to file:// or ftp:// URLs.
    const result = await download(manager(), server.url('/ftp.gguf'));
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/redirected to a ftp: URL; only http\(s\) downloads are allowed/);
  });

  it('refuses to start when the disk cannot hold the file, saying how much is needed', async () => {
    // Would catch: filling the disk to the last byte before failing half-way through a large model.
    const result = await download(manager({ freeDiskBytes: async () => 10_000 }), server.url('/m.gguf'));
    expect(result.state).toBe('failed');
    expect(result.error).toMatch(/Not enough disk space for .*m\.gguf: it needs 1\.\d MB more and only 10\.0 KB is free/);
    expect(server.requests[0]?.status).toBe(200);
    expect(statSync(join(folder, 'm.gguf.part'), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  });
});
