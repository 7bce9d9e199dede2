/**
 * What happens when local models go wrong: bad files become typed errors, a host that dies natively
 * (GGML_ASSERT on a malformed GGUF) or is killed never takes the engine down, and the next call
 * starts a fresh host.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { HearthError, isHearthError } from '../src/core/errors.js';
import { LocalModel, type LocalModelOptions } from '../src/core/local-model/local.js';
import type { ChatRequest, ModelEvent } from '../src/core/llm/types.js';
import { modelDir, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
const models: LocalModel[] = [];

function localModel(modelPath: string, extra: Partial<LocalModelOptions> = {}): LocalModel {
  const m = new LocalModel({ modelPath, threads: 1, gpu: false, contextSize: 1024, ...extra });
  models.push(m);
  return m;
}

const request: ChatRequest = { messages: [{ role: 'user', content: 'hello' }], tools: [], maxTokens: 8, temperature: 0 };

async function firstError(m: LocalModel, req: ChatRequest = request): Promise<HearthError> {
  try {
    for await (const _event of m.stream(req, new AbortController().signal)) {
      // draining: only the outcome matters here
    }
  } catch (err) {
    if (err instanceof HearthError) return err;
    throw err;
  }
  throw new Error('expected the stream to fail');
}

async function drain(m: LocalModel, req: ChatRequest = request): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of m.stream(req, new AbortController().signal)) events.push(event);
  return events;
}

afterAll(async () => {
  await Promise.all(models.map((m) => m.dispose()));
  dirs.cleanup();
});

describe('LocalModel failures', () => {
  it('a missing file is model_load_failed, naming the file, without starting a host', async () => {
    // Catches: a raw ENOENT (or a host started for nothing) instead of an actionable typed error.
    const path = dirs.path('nope.gguf');
    const m = localModel(path);
    const err = await firstError(m);
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toContain(path);
    expect(err.message).toContain('does not exist');
    expect(m.hostPid).toBeUndefined();
  });

  it('a file that is not GGUF is model_load_failed before reaching llama.cpp', async () => {
    // Catches: handing arbitrary files (a .safetensors, an HTML error page) to the native loader.
    const path = dirs.path('page.gguf');
    writeFileSync(path, '<html>404 Not Found</html>');
    const err = await firstError(localModel(path));
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toContain('not a GGUF model file');
  });

  it('a truncated GGUF is model_load_failed', async () => {
    // Catches: a load error inside the host that never reaches the caller (a hang) or is mistyped.
    const err = await firstError(localModel(writeMalformedGguf(dirs.path('truncated.gguf'), 'truncated')));
    expect(err.code).toBe('model_load_failed');
    // llama.cpp's own explanation is carried into the message, not just "Failed to load model".
    expect(err.message).toMatch(/corrupted or incomplete/);
  });

  it('a GGUF that aborts the host natively is a typed error; the same LocalModel recovers once the file is fixed', async () => {
    // Catches: llama.cpp's GGML_ASSERT killing the engine itself, or a dead host being reused forever.
    const path = writeMalformedGguf(dirs.path('model.gguf'), 'missing_feed_forward_length');
    const m = localModel(path);
    const err = await firstError(m);
    expect(err.code).toBe('model_load_failed');
    expect(err.message).toMatch(/died while loading/);
    expect(err.message).toContain('GGML_ASSERT');
    expect(err.details?.signal ?? err.details?.code).toBeTruthy();
    // We are still here: the abort took only the host process.
    expect(process.pid).toBeGreaterThan(0);

    writeGguf(path, { preset: 'tiny' }); // the user replaces the broken download
    const events = await drain(m);
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(m.hostPid).toBeDefined();
  });

  it('a host killed mid-generation is model_host_crashed, and the next call starts a fresh host', async () => {
    // Catches: a stream that hangs forever when its host dies, or a crash reported as a load failure.
    const m = localModel(writeGguf(dirs.path('ok.gguf'), { preset: 'tiny' }).path);
    await drain(m);
    const firstPid = m.hostPid as number;
    expect(firstPid).toBeDefined();

    let err: unknown;
    try {
      for await (const event of m.stream({ ...request, maxTokens: 900 }, new AbortController().signal)) {
        if (event.type === 'text') process.kill(firstPid, 'SIGKILL');
      }
    } catch (e) {
      err = e;
    }
    expect(isHearthError(err, 'model_host_crashed')).toBe(true);
    expect((err as HearthError).message).toContain('SIGKILL');

    const events = await drain(m);
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(m.hostPid).not.toBe(firstPid);
  });
});
