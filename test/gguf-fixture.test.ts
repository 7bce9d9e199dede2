/**
 * The GGUF generator is the ground every local-model test stands on: if it wrote a file llama.cpp
 * reads differently than intended, every other local test would be testing nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import { getLlama, LlamaLogLevel, readGgufFileInfo, type Llama, type LlamaModel } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HERMES_TOOL_TOKENS, modelDir, writeGguf, writeMalformedGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
let llama: Llama;
let model: LlamaModel;
let tinyPath: string;

beforeAll(async () => {
  tinyPath = dirs.path('tiny.gguf');
  writeGguf(tinyPath, { preset: 'tiny' });
  llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: 1 });
  model = await llama.loadModel({ modelPath: tinyPath });
});

afterAll(async () => {
  await model?.dispose();
  await llama?.dispose();
  dirs.cleanup();
});

describe('writeGguf', () => {
  it('writes a tiny llama model llama.cpp loads, with the shape we asked for', () => {
    // Catches: wrong dimension order or metadata types (llama.cpp would refuse or misread the file).
    expect(model.fileInfo.metadata.general.architecture).toBe('llama');
    expect(model.trainContextSize).toBe(4096);
    const params = model.fileInsights.totalParameters;
    expect(params).toBeGreaterThan(500_000);
    expect(params).toBeLessThan(1_500_000);
    expect(model.tokens.bos).not.toBeNull();
  });

  it('round-trips ChatML with the control tokens as single tokens', () => {
    // Catches: a vocab without <|im_start|>/<|im_end|> control tokens or the <0x0A> byte token, which
    // would make every prompt render as characters and break the turn structure.
    const text = '<|im_start|>user\nHello, world! {"a": [1, 2]}<|im_end|>\n<|im_start|>assistant\n';
    const tokens = model.tokenize(text, true);
    expect(model.detokenize(tokens, true)).toBe(text);
    const imStart = model.tokenize('<|im_start|>', true);
    expect(imStart).toHaveLength(1);
    expect(tokens.filter((t) => t === imStart[0])).toHaveLength(2);
    // Parsed as plain text, a control token must not be produced (no prompt injection through content).
    expect(model.tokenize('<|im_start|>', false).length).toBeGreaterThan(1);
  });

  it('has the Hermes tool tags as single tokens that detokenize as their text', () => {
    // Catches: tags split into characters, which would make tool-call detection depend on chunking.
    for (const tag of HERMES_TOOL_TOKENS) {
      const tokens = model.tokenize(tag, true);
      expect(tokens, tag).toHaveLength(1);
      expect(model.detokenize(tokens, false)).toBe(tag);
    }
  });

  it('round-trips non-ASCII text through byte-fallback tokens', () => {
    // Catches: missing byte tokens (text outside the char vocab would become <unk>).
    const text = 'café ✓ 你好\n';
    expect(model.detokenize(model.tokenize(text, false), false)).toBe(text);
  });

  it('is deterministic for a seed and different across seeds', () => {
    // Catches: an unseeded PRNG (tests would differ run to run).
    const a = dirs.path('a.gguf');
    const b = dirs.path('b.gguf');
    const c = dirs.path('c.gguf');
    writeGguf(a, { seed: 7 });
    writeGguf(b, { seed: 7 });
    writeGguf(c, { seed: 8 });
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    expect(readFileSync(a).equals(readFileSync(c))).toBe(false);
  });
});

describe('writeMalformedGguf', () => {
  it('truncates the file inside the tensor data', async () => {
    // Catches: a "truncated" fixture that is actually complete (the load-failure tests would pass vacuously).
    const path = writeMalformedGguf(dirs.path('truncated.gguf'), 'truncated');
    expect(statSync(path).size).toBeLessThan(statSync(tinyPath).size);
    const info = await readGgufFileInfo(path);
    expect(info.metadata.general.architecture).toBe('llama');
  });

  it('leaves out llama.feed_forward_length and nothing else', async () => {
    // Catches: a fixture missing more (or less) than the one key whose absence aborts llama.cpp natively.
    const path = writeMalformedGguf(dirs.path('no-ffn.gguf'), 'missing_feed_forward_length');
    const info = await readGgufFileInfo(path);
    const llamaMeta = info.metadata.llama as Record<string, unknown>;
    expect(llamaMeta.feed_forward_length).toBeUndefined();
    expect(llamaMeta.embedding_length).toBe(128);
    expect((llamaMeta.attention as Record<string, unknown>).head_count).toBe(4);
  });
});
