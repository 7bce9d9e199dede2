/** The fit estimate (pure arithmetic over given memory figures) and where the model's size comes from (a real server). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURATED_MODELS } from '../src/core/model-files/curated-models.js';
import { estimateFit, kvBytesPerToken, type MachineMemory } from '../src/core/model-files/fit-estimate.js';
import { modelSizeOf } from '../src/core/model-files/model-size.js';
import { parseModelSource } from '../src/core/model-files/model-source.js';
import { startModelFileServer, type ModelFileServer } from './fixtures/model-file-server.js';

const GB = 1e9;
const GIB = 1024 ** 3;
const hermes3b = CURATED_MODELS[0]!.sizeBytes;
const machine = (freeRamGb: number, totalRamGb: number, gpuFreeGib?: number): MachineMemory => ({
  freeRamBytes: freeRamGb * GB,
  totalRamBytes: totalRamGb * GB,
  gpu: gpuFreeGib === undefined ? null : { totalBytes: 24 * GIB, freeBytes: gpuFreeGib * GIB },
});

describe('estimateFit', () => {
  it('places a model on the GPU, split, or on the CPU depending on free VRAM and RAM', () => {
    // Would catch: VRAM ignored, partial offload never offered, or a CPU-only machine told it has a GPU.
    const onGpu = estimateFit({ fileBytes: hermes3b, contextTokens: 8192, machine: machine(16, 32, 8) });
    expect(onGpu).toMatchObject({ fits: true, placement: 'gpu', availableBytes: 8 * GIB });
    expect(onGpu.detail).toMatch(/^Runs fully on the GPU: it needs about 3\.\d GB \(2\.0 GB weights \+ \d+\.\d MB for 8192 tokens of context \+ \d+\.\d MB working memory\)/);

    const split = estimateFit({ fileBytes: hermes3b, contextTokens: 8192, machine: machine(16, 32, 2) });
    expect(split).toMatchObject({ fits: true, placement: 'partial', availableBytes: 2 * GIB + 16 * GB });
    expect(split.detail).toMatch(/split between GPU and CPU \(about \d\d% on the GPU\)/);

    const cpu = estimateFit({ fileBytes: hermes3b, contextTokens: 8192, machine: machine(16, 32) });
    expect(cpu).toMatchObject({ fits: true, placement: 'cpu', availableBytes: 16 * GB });
    expect(cpu.detail).toMatch(/no GPU detected/);
    // A GPU with almost nothing free is not worth splitting over.
    expect(estimateFit({ fileBytes: hermes3b, contextTokens: 8192, machine: machine(16, 32, 0.25) }).placement).toBe('cpu');
  });

  it('says when a model does not fit, and whether closing programs would help', () => {
    // Would catch: "fits" on a machine that would swap to death, or advice that cannot work.
    const busy = estimateFit({ fileBytes: hermes3b, contextTokens: 8192, machine: machine(2, 16) });
    expect(busy).toMatchObject({ fits: false, placement: 'cpu' });
    expect(busy.detail).toMatch(/Does not fit.*Close other programs/);
    const small = estimateFit({ fileBytes: 40 * GB, contextTokens: 8192, machine: machine(6, 8) });
    expect(small.detail).toMatch(/too little memory for it: choose a smaller model/);
  });

  it('counts the context: a longer context needs more memory', () => {
    // Would catch: an estimate that ignores the KV cache (models that "fit" then fail to load).
    const short = estimateFit({ fileBytes: hermes3b, contextTokens: 2048, machine: machine(16, 32) });
    const long = estimateFit({ fileBytes: hermes3b, contextTokens: 32768, machine: machine(16, 32) });
    expect(long.requiredBytes - short.requiredBytes).toBe(kvBytesPerToken(hermes3b) * (32768 - 2048));
    // Within a factor of ~1.5 of the real f16 KV sizes: Llama 3.2 3B 112 KiB/token, Llama 3.1 8B 128 KiB/token.
    expect(kvBytesPerToken(hermes3b) / 1024).toBeGreaterThan(75);
    expect(kvBytesPerToken(hermes3b) / 1024).toBeLessThan(170);
    expect(kvBytesPerToken(4.92 * GB) / 1024).toBeGreaterThan(85);
    expect(kvBytesPerToken(4.92 * GB) / 1024).toBeLessThan(190);
  });
});

describe('modelSizeOf', () => {
  let server: ModelFileServer;
  beforeAll(async () => {
    server = await startModelFileServer({
      files: { '/m.gguf': Buffer.alloc(123_456, 1) },
      redirects: { '/o/r/resolve/main/big.gguf': { location: '/m.gguf', headers: { 'x-linked-size': '4920000000' } } },
    });
  });
  afterAll(() => server.close());

  it('asks the server with HEAD, preferring Hugging Face\'s X-Linked-Size, and reads 404 as a readable error', async () => {
    // Would catch: downloading the whole file to learn its size, or Hugging Face's own size header ignored.
    await expect(modelSizeOf(parseModelSource(server.url('/m.gguf'), { env: {} }), {})).resolves.toEqual({ sizeBytes: 123_456, origin: 'server' });
    expect(server.requests.at(-1)?.method).toBe('HEAD');
    const hf = parseModelSource('hf:o/r/big.gguf', { env: { HEARTH_HF_ENDPOINT: server.baseUrl } });
    await expect(modelSizeOf(hf, {})).resolves.toEqual({ sizeBytes: 4_920_000_000, origin: 'server' });
    await expect(modelSizeOf(parseModelSource(server.url('/nope.gguf'), { env: {} }), {})).rejects.toThrow(/not found \(HTTP 404\)/);
  });

  it('falls back to the curated size when the server cannot be reached, and uses a given size first', async () => {
    // Would catch: no estimate at all offline for the default model.
    const gone = await startModelFileServer({ files: {} });
    await gone.close();
    const curated = parseModelSource(CURATED_MODELS[0]!.source, { env: { HEARTH_HF_ENDPOINT: gone.baseUrl } });
    await expect(modelSizeOf(curated, {})).resolves.toEqual({ sizeBytes: CURATED_MODELS[0]!.sizeBytes, origin: 'curated' });
    await expect(modelSizeOf(parseModelSource(gone.url('/x.gguf'), { env: {} }), {})).rejects.toThrow(/ECONNREFUSED/);
    await expect(modelSizeOf(curated, { sizeBytes: 42 })).resolves.toEqual({ sizeBytes: 42, origin: 'given' });
  });
});
