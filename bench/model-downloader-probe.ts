/**
 * The probe behind decision 0020: node-llama-cpp's `createModelDownloader` and Hearth's `ModelDownloads` against
 * the same plain Node HTTP server (test/fixtures/model-file-server.ts) and the same generated 1.7 MB model:
 * pause half-way then resume (where does the second request start?), and a server that cuts every body
 * half-way (how long until the caller hears of it?).
 *
 *   node --import tsx bench/model-downloader-probe.ts
 *
 * Prints what each did; asserts nothing.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelDownloader } from 'node-llama-cpp';
import { ModelDownloads } from '../src/core/model-files/model-downloads.js';
import { startModelFileServer, tinyModelBytes, waitUntil } from '../test/fixtures/model-file-server.js';

const model = tinyModelBytes();
const server = await startModelFileServer({ files: { '/m.gguf': model.bytes }, chunkDelayMs: 15 });
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-probe-'));
  dirs.push(dir);
  return dir;
};
const onDisk = (dir: string) => readdirSync(dir).map((f) => `${f} ${statSync(join(dir, f)).size} B`).join(', ') || 'nothing';
const gets = () => server.requests.filter((r) => r.method === 'GET').map((r) => `${r.range ?? 'whole'} → ${r.status}`);
const CUT_WAIT_MS = 12_000;

try {
  console.log(`model: ${model.bytes.length} bytes, served at ${server.url('/m.gguf')}\n`);

  // node-llama-cpp: pause by cancel({deleteTempFile: false}) 200 ms in, then a new downloader for the same file.
  {
    const dir = fresh();
    const options = { modelUri: server.url('/m.gguf'), dirPath: dir, fileName: 'm.gguf', skipExisting: false, deleteTempFileOnCancel: false };
    let received = 0;
    const first = await createModelDownloader({ ...options, onProgress: (s) => (received = s.downloadedSize) });
    const running = first.download();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = onDisk(dir);
    await first.cancel({ deleteTempFile: false });
    const outcome = await running.then(
      () => 'resolved',
      (err: unknown) => `rejected (${String(err)})`,
    );
    console.log(`createModelDownloader, paused after ${received} bytes: on disk before pausing: ${before}; after: ${onDisk(dir)}; download() ${outcome}`);
    server.requests.length = 0;
    await (await createModelDownloader(options)).download();
    console.log(`  the new downloader's GETs (a probe, then the transfer): ${gets().join(', ')}`);
  }
  // Hearth: the same pause and resume.
  {
    const dir = fresh();
    const downloads = new ModelDownloads({ folder: dir, env: {}, onChange: () => undefined, progressIntervalMs: 0 });
    server.requests.length = 0;
    const { id } = downloads.start({ source: server.url('/m.gguf') });
    await waitUntil(() => downloads.get(id).receivedBytes > 600_000, 'half the file');
    const paused = await downloads.pause(id);
    console.log(`ModelDownloads, paused after ${paused.receivedBytes} bytes: on disk: ${onDisk(dir)}`);
    server.requests.length = 0;
    downloads.resume(id);
    await downloads.settled(id);
    console.log(`  resumed with: ${gets().join(', ')}`);
    await downloads.close();
  }

  server.setMode('truncate');
  console.log(`\nevery body cut half-way; waiting up to ${CUT_WAIT_MS / 1000} s for each:`);
  {
    const dir = fresh();
    server.requests.length = 0;
    const downloader = await createModelDownloader({ modelUri: server.url('/m.gguf'), dirPath: dir, fileName: 'm.gguf', skipExisting: false });
    const started = performance.now();
    const outcome = await Promise.race([
      downloader.download().then(
        () => 'resolved',
        (err: unknown) => `rejected: ${String(err)}`,
      ),
      new Promise<string>((resolve) => setTimeout(() => resolve('still downloading'), CUT_WAIT_MS)),
    ]);
    console.log(`createModelDownloader after ${Math.round(performance.now() - started)} ms: ${outcome}; ${gets().length} GETs: ${[...new Set(gets())].join(', ')}`);
    await downloader.cancel();
  }
  {
    const dir = fresh();
    server.requests.length = 0;
    const downloads = new ModelDownloads({ folder: dir, env: {}, onChange: () => undefined });
    const started = performance.now();
    const result = await downloads.settled(downloads.start({ source: server.url('/m.gguf') }).id);
    console.log(`ModelDownloads after ${Math.round(performance.now() - started)} ms: ${result.state}: ${result.error}; kept ${onDisk(dir)}`);
    await downloads.close();
  }
} finally {
  await server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
