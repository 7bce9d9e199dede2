/**
 * The local embedding path end to end: a generated llama GGUF loaded by node-llama-cpp's embedding
 * context in the embedding host child process, vectors back over IPC, normalised in the engine.
 * Also what goes wrong: bad files, a crashed host, aborts.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HearthError } from '../src/core/errors.js';
import { createLocalEmbedder, type LocalEmbedder, type LocalEmbedderOptions } from '../src/core/local-model/local-embedder.js';
import { dot } from '../src/core/search/vectors.js';
import { modelDir, PRESETS, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';

const dirs = modelDir('hearth-embed-');
const modelPath = writeGguf(dirs.path('embed.gguf'), { preset: 'tiny' }).path;
const embedders: LocalEmbedder[] = [];

function localEmbedder(path: string, extra: Partial<LocalEmbedderOptions> = {}): LocalEmbedder {
  const e = createLocalEmbedder({ modelPath: path, threads: 1, ...extra });
  embedders.push(e);
  return e;
}

/** One host for the correctness tests; batchSize 2 so multi-text calls span several host requests. */
const shared = localEmbedder(modelPath, { batchSize: 2 });

async function failure(promise: Promise<unknown>): Promise<HearthError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HearthError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

const norm = (v: Float32Array): number => Math.sqrt(dot(v, v));

afterAll(async () => {
  await Promise.all(embedders.map((e) => e.dispose()));
  dirs.cleanup();
});

describe('LocalEmbedder with a generated GGUF', () => {
  it('vectors are as long as the model embedding, unit length, and cosine(a, a) = 1', async () => {
    // Catches: raw (unnormalised) vectors leaking out, or the dimension reported differently from what is produced.
    const [v] = await shared.embed(['the deploy script lives in tools/deploy.sh']);
    expect(await shared.dimensions()).toBe(PRESETS.tiny.embeddingLength);
    expect(v).toBeInstanceOf(Float32Array);
    expect(v?.length).toBe(PRESETS.tiny.embeddingLength);
    expect(norm(v as Float32Array)).toBeCloseTo(1, 5);
    expect(dot(v as Float32Array, v as Float32Array)).toBeCloseTo(1, 5);
    expect(shared.loadedInfo()).toMatchObject({ dimensions: PRESETS.tiny.embeddingLength, threads: 1, gpu: false });
  });

  it('the same text gives the identical vector on every call; different texts give different vectors', async () => {
    // Catches: state leaking between embeddings (a KV cache not cleared), or every text mapping to one vector.
    const [a1] = await shared.embed(['I prefer tabs over spaces']);
    const [a2] = await shared.embed(['I prefer tabs over spaces']);
    const [b] = await shared.embed(['the build failed on the arm64 runner']);
    expect(Array.from(a1 as Float32Array)).toEqual(Array.from(a2 as Float32Array));
    expect(dot(a1 as Float32Array, b as Float32Array)).toBeLessThan(0.999);
  });

  it('a batch gives exactly the vectors of one-by-one calls, in order', async () => {
    // Catches: batches split across host requests coming back misordered, or batching changing the numbers.
    const texts = ['alpha release notes', 'beta feedback from Ana', 'gamma rays', 'delta of the river', 'epsilon'];
    const batch = await shared.embed(texts);
    expect(batch).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) {
      const [single] = await shared.embed([text]);
      expect(Array.from(batch[i] as Float32Array)).toEqual(Array.from(single as Float32Array));
    }
  });

  it('an empty list embeds nothing; an empty text is the zero vector; a text past the context is cut, not an error', async () => {
    // Catches: node-llama-cpp's empty-vector/too-long errors reaching the indexer, which would stall on one message.
    expect(await shared.embed([])).toEqual([]);
    const [empty, long] = await shared.embed(['', 'lorem ipsum dolor sit amet '.repeat(400)]);
    expect(empty?.length).toBe(PRESETS.tiny.embeddingLength);
    expect(empty?.every((x) => x === 0)).toBe(true);
    expect(norm(long as Float32Array)).toBeCloseTo(1, 5);
  });

  it('a host killed mid-request is model_host_crashed; the next call starts a fresh host with identical vectors', async () => {
    // Catches: a call that hangs forever when its host dies, a dead host reused, or vectors that change across restarts.
    const text = 'we moved the staging database to Frankfurt';
    const [before] = await shared.embed([text]);
    const firstPid = shared.hostPid as number;
    expect(firstPid).toBeDefined();

    const many = Array.from({ length: 400 }, (_, i) => `message ${i}: ${text}`);
    const pending = failure(shared.embed(many));
    setTimeout(() => process.kill(firstPid, 'SIGKILL'), 100);
    const err = await pending;
    expect(err.code).toBe('model_host_crashed');
    expect(err.message).toContain('SIGKILL');

    const [after] = await shared.embed([text]);
    expect(shared.hostPid).toBeDefined();
    expect(shared.hostPid).not.toBe(firstPid);
    expect(Array.from(after as Float32Array)).toEqual(Array.from(before as Float32Array));
  });

  it('abort: an aborted signal fails at once; aborting mid-request answers promptly and the host keeps serving', async () => {
    // Catches: an abort ignored until the whole batch is done, or an abort that leaves the host wedged.
    const aborted = AbortSignal.abort(new Error('user pressed stop'));
    expect((await failure(shared.embed(['x'], aborted))).code).toBe('aborted');

    await shared.embed(['warm up']);
    const pid = shared.hostPid;
    const controller = new AbortController();
    const many = Array.from({ length: 400 }, (_, i) => `the quarterly report, paragraph ${i}`);
    const pending = failure(shared.embed(many, controller.signal));
    setTimeout(() => controller.abort(new Error('stop')), 50);
    expect((await pending).code).toBe('aborted');

    const [again] = await shared.embed(['still here']);
    expect(norm(again as Float32Array)).toBeCloseTo(1, 5);
    expect(shared.hostPid).toBe(pid);
  });
});

describe('LocalEmbedder with bad model files', () => {
  it('a missing file is model_load_failed naming the file, without starting a host', async () => {
    // Catches: a raw ENOENT, or a host process spent on a path that does not exist.
    const path = dirs.path('missing.gguf');
    const e = localEmbedder(path);
    const err = await failure(e.embed(['hello']));
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toContain(path);
    expect(err.message).toContain('does not exist');
    expect(e.hostPid).toBeUndefined();
  });

  it('a file that is not GGUF is model_load_failed before reaching llama.cpp', async () => {
    // Catches: arbitrary files (an HTML error page saved as .gguf) handed to the native loader.
    const path = dirs.path('page.gguf');
    writeFileSync(path, '<html>404</html>');
    const err = await failure(localEmbedder(path).dimensions());
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toContain('not a GGUF model file');
  });

  it('a truncated GGUF is model_load_failed with llama.cpp’s reason, the host is gone, and a fixed file loads on the next call', async () => {
    // Catches: a load error that never reaches the caller (a hang), a host left behind, or a failure remembered forever.
    const path = writeMalformedGguf(dirs.path('truncated.gguf'), 'truncated');
    const e = localEmbedder(path);
    const err = await failure(e.embed(['hello']));
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toMatch(/corrupted or incomplete/);
    expect(e.hostPid).toBeUndefined();

    writeGguf(path, { preset: 'tiny' }); // the user replaces the broken download
    const [v] = await e.embed(['hello']);
    // Same file content as the shared model: a fresh process reproduces its vectors exactly.
    const [reference] = await shared.embed(['hello']);
    expect(Array.from(v as Float32Array)).toEqual(Array.from(reference as Float32Array));

    // Closing the embedder mid-request cancels the request: an 'aborted', not a reported crash.
    const pending = failure(e.embed(Array.from({ length: 400 }, (_, i) => `line ${i}`)));
    setTimeout(() => void e.dispose(), 50);
    expect((await pending).code).toBe('aborted');
  });

  it('closing the embedder at any moment of a multi-batch call is an aborted call, and no new host starts behind it', async () => {
    // Catches: the native "disposed" failure of the text being embedded reported as a bad model response, or
    // the batches after the close starting a fresh host for a caller who has been told the call is over.
    for (const delayMs of [0, 5, 20, 60, 150]) {
      const e = localEmbedder(modelPath, { batchSize: 8 });
      await e.embed(['warm up']);
      const pending = failure(e.embed(Array.from({ length: 400 }, (_, i) => `text ${i} for a close after ${delayMs} ms`)));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await e.dispose();
      expect((await pending).code, `closed after ${delayMs} ms`).toBe('aborted');
      expect(e.hostPid, `closed after ${delayMs} ms`).toBeUndefined();
    }
  });

  it('a GGUF that aborts the host natively (GGML_ASSERT) is model_load_failed, and the engine lives on', async () => {
    // Catches: a native abort taking the engine down, or a dead host turned into a hang instead of an error.
    const e = localEmbedder(writeMalformedGguf(dirs.path('aborts.gguf'), 'missing_feed_forward_length'));
    const err = await failure(e.embed(['hello']));
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toMatch(/died while loading/);
    expect(err.message).toContain('GGML_ASSERT');
    expect(e.hostPid).toBeUndefined();
  });
});
