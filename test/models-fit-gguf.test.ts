/**
 * The fit estimate from the GGUF header (decision 0017), on generated models: a header-only file shaped like
 * Llama 3.2 3B (the size a user would really ask about), a real tiny model served over HTTP with range
 * requests, and files node-llama-cpp cannot read, which fall back to the file-size estimate and say why.
 */
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateModelFit, estimateFit, type MachineMemory } from '../src/core/model-files/fit-estimate.js';
import { estimateFitFromGguf, HOST_SEQUENCES } from '../src/core/model-files/gguf-fit.js';
import { modelDir, writeGguf, writeGgufHeader, type LlamaShape } from './fixtures/gguf/index.js';
import { startModelFileServer, type ModelFileServer } from './fixtures/model-file-server.js';

const GIB = 1024 ** 3;
/** Llama 3.2 3B's attention and layer shape (F16 here, so ~6.4 GB of weights). */
const LLAMA_3B: LlamaShape = { embeddingLength: 3072, blockCount: 28, headCount: 24, headCountKv: 8, feedForwardLength: 8192, contextLength: 131072 };
/** K and V, f16, per token of one sequence: layers × 2 × KV heads × head size × 2 bytes = 112 KiB for this shape. */
const kvPerToken = (s: LlamaShape): number => s.blockCount * 2 * s.headCountKv * (s.embeddingLength / s.headCount) * 2;

const dir = modelDir('hearth-fit-gguf-');
afterAll(() => dir.cleanup());
const model3b = writeGgufHeader(dir.path('llama-3b-header.gguf'), LLAMA_3B);
const shortTrained = writeGgufHeader(dir.path('short-trained.gguf'), { ...LLAMA_3B, contextLength: 4096 });

const machine = (freeRamGib: number, gpu?: { free: number; total?: number }): MachineMemory => ({
  freeRamBytes: freeRamGib * GIB,
  totalRamBytes: 64 * GIB,
  gpu: gpu === undefined ? null : { totalBytes: (gpu.total ?? 24) * GIB, freeBytes: gpu.free * GIB },
});

async function fromHeader(location: string, contextTokens: number, m: MachineMemory) {
  const result = await estimateFitFromGguf({ location, contextTokens, machine: m });
  if (!('estimate' in result)) throw new Error(`expected a header estimate, got: ${result.unavailable}`);
  return result.estimate;
}

describe('fit estimate from the GGUF header', () => {
  it('sizes the KV cache from layers, KV heads and head size for every host sequence (catches the file-size guess, 4x short of what the host allocates)', async () => {
    const fit = await fromHeader(model3b.path, 8192, machine(60));
    expect(fit).toMatchObject({ fits: true, placement: 'cpu' });
    const exactKv = kvPerToken(LLAMA_3B) * 8192 * HOST_SEQUENCES;
    const contextShare = fit.requiredBytes - model3b.weightBytes;
    expect(contextShare).toBeGreaterThanOrEqual(exactKv);
    // The rest is llama.cpp's compute buffers (node-llama-cpp's rough graph estimate: ~1.7 GB here).
    expect(contextShare).toBeLessThan(exactKv * 1.6);
    expect(fit.detail).toMatch(/in 29 layers .* for 4 × 8192 tokens of context with compute buffers, sized from its GGUF header/);
    // The old size-only estimate for the same file is far below: it knows neither the sequences nor the shape.
    expect(estimateFit({ fileBytes: model3b.weightBytes, contextTokens: 8192, machine: machine(60) }).requiredBytes).toBeLessThan(fit.requiredBytes - exactKv / 2);

    const longer = await fromHeader(model3b.path, 16384, machine(60));
    expect(longer.requiredBytes - fit.requiredBytes).toBeGreaterThanOrEqual(kvPerToken(LLAMA_3B) * 8192 * HOST_SEQUENCES);
  });

  it('caps the context at what the model was trained for, as the host does, and says so', async () => {
    const capped = await fromHeader(shortTrained.path, 32768, machine(60));
    const at4k = await fromHeader(shortTrained.path, 4096, machine(60));
    expect(capped.requiredBytes).toBe(at4k.requiredBytes);
    expect(capped.detail).toMatch(/capped at the 4096 tokens it was trained for/);
  });

  it('counts the layers that fit in free VRAM: all, some, or none (catches a split offered for a GPU that holds not one layer)', async () => {
    const all = await fromHeader(model3b.path, 8192, machine(60, { free: 23 }));
    expect(all).toMatchObject({ fits: true, placement: 'gpu' });
    expect(all.detail).toMatch(/all 29 layers/);

    const some = await fromHeader(model3b.path, 8192, machine(60, { free: 4 }));
    expect(some).toMatchObject({ fits: true, placement: 'partial' });
    const layers = Number(/\((\d+) of 29 layers on the GPU/.exec(some.detail)?.[1]);
    expect(layers).toBeGreaterThan(0);
    expect(layers).toBeLessThan(29);
    const more = await fromHeader(model3b.path, 8192, machine(60, { free: 8 }));
    expect(Number(/\((\d+) of 29 layers/.exec(more.detail)?.[1])).toBeGreaterThan(layers);

    // 600 MiB free of 24 GiB: node-llama-cpp keeps 1.6 GiB back, so not one layer goes to the GPU.
    const none = await fromHeader(model3b.path, 8192, machine(60, { free: 0.6 }));
    expect(none.placement).toBe('cpu');
    expect(none.detail).toMatch(/too little free video memory/);
  });

  it('says when the model does not fit in RAM either', async () => {
    const fit = await fromHeader(model3b.path, 8192, machine(4));
    expect(fit).toMatchObject({ fits: false, placement: 'cpu' });
    expect(fit.detail).toMatch(/^Does not fit: .*Close other programs/);
  });
});

describe('fit estimate for a model not downloaded yet', () => {
  let server: ModelFileServer;
  const tiny = writeGguf(dir.path('tiny.gguf'), { preset: 'tiny' });
  beforeAll(async () => {
    const { readFileSync } = await import('node:fs');
    server = await startModelFileServer({ files: { '/tiny.gguf': readFileSync(tiny.path), '/page.gguf': Buffer.from('<!DOCTYPE html><html>sign in</html>') } });
  });
  afterAll(() => server.close());

  it('reads the header over HTTP with range requests, not the whole file', async () => {
    const fit = await estimateModelFit({ location: server.url('/tiny.gguf'), fileBytes: tiny.bytes, contextTokens: 2048, machine: machine(8) });
    expect(fit.detail).toMatch(/in 5 layers .*sized from its GGUF header/);
    const gets = server.requests.filter((r) => r.method === 'GET' && r.path === '/tiny.gguf');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((r) => r.range !== undefined)).toBe(true);
  });

  it('falls back to the file size, saying why, for an HTML page, a non-GGUF file and an unreachable server', async () => {
    const page = await estimateModelFit({ location: server.url('/page.gguf'), fileBytes: 2e9, contextTokens: 2048, machine: machine(8) });
    expect(page.detail).toMatch(/Estimated from the file size alone: its GGUF header could not be read \(.+\)\.$/);
    expect(page.requiredBytes).toBe(estimateFit({ fileBytes: 2e9, contextTokens: 2048, machine: machine(8) }).requiredBytes);

    const junk = dir.path('junk.gguf');
    writeFileSync(junk, Buffer.alloc(4096, 7));
    expect((await estimateModelFit({ location: junk, fileBytes: 4096, contextTokens: 2048, machine: machine(8) })).detail).toMatch(/Estimated from the file size alone: its GGUF header could not be read/);

    const gone = await startModelFileServer({ files: {} });
    await gone.close();
    const offline = await estimateModelFit({ location: gone.url('/m.gguf'), fileBytes: 2e9, contextTokens: 2048, machine: machine(8) });
    expect(offline.detail).toMatch(/Estimated from the file size alone: its GGUF header could not be read/);
  });
});
