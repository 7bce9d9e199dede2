/**
 * Sampling-side pieces of the model host against the real node-llama-cpp (the generated tiny GGUF
 * loaded in-process): token → text streaming that never splits a multibyte character or leaks half
 * a tool tag, and the tool-call grammar node-llama-cpp actually generates.
 */
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel, type Token } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partialTagSuffixLength, TokenTextDecoder } from '../src/model-host/token-text.js';
import { boundNumberRules, toolCallGrammarSchema } from '../src/model-host/tool-call-schema.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
let llama: Llama;
let model: LlamaModel;

beforeAll(async () => {
  const path = writeGguf(dirs.path('tiny.gguf'), { preset: 'tiny' }).path;
  llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: 1 });
  model = await llama.loadModel({ modelPath: path });
});

afterAll(async () => {
  await model?.dispose();
  await llama?.dispose();
  dirs.cleanup();
});

describe('TokenTextDecoder', () => {
  it('emits multibyte characters whole, one token at a time', () => {
    // Catches: streaming each byte-fallback token on its own, which shows U+FFFD garbage mid-character.
    const text = 'a é ✓ 你好 🙂 z';
    const tokens = model.tokenize(text, false);
    expect(tokens.length).toBeGreaterThan([...text].length); // byte-fallback tokens really are involved
    const decoder = new TokenTextDecoder(model);
    const chunks = tokens.map((t) => decoder.push(t));
    expect(chunks.join('')).toBe(text);
    for (const chunk of chunks) expect(chunk).not.toContain('\uFFFD');
    expect(chunks.filter((c) => c === '').length).toBeGreaterThan(0); // some tokens were held back
  });

  it('does not hold a genuinely invalid byte forever', () => {
    // Catches: a decoder that waits indefinitely for a continuation byte that never comes.
    const leadByte = model.tokenize('é', false)[0] as Token; // the <0xC3> byte token alone, without its A9
    const ascii = model.tokenize('abcd', false);
    const decoder = new TokenTextDecoder(model);
    const out = [leadByte, ...ascii].map((t) => decoder.push(t)).join('');
    expect(out).toContain('bcd');
  });
});

describe('partialTagSuffixLength', () => {
  it('holds back exactly the tail that could start a tag', () => {
    // Catches: emitting "<tool_" as text before the rest of the tag arrives.
    expect(partialTagSuffixLength('hello <tool_', '<tool_call>')).toBe(6);
    expect(partialTagSuffixLength('hello <', '<tool_call>')).toBe(1);
    expect(partialTagSuffixLength('a < b', '<tool_call>')).toBe(0);
    expect(partialTagSuffixLength('plain', '<tool_call>')).toBe(0);
  });
});

describe('tool-call grammar from node-llama-cpp', () => {
  it('still names its number rules the way boundNumberRules rewrites them', async () => {
    // Catches: a node-llama-cpp upgrade renaming the rules, which would silently bring back 1e400 → Infinity.
    const schema = toolCallGrammarSchema([
      { name: 't', description: '', parameters: { type: 'object', properties: { i: { type: 'integer' }, f: { type: 'number' } } } },
    ]);
    const generated = (await llama.createGrammarForJsonSchema(schema as Parameters<Llama["createGrammarForJsonSchema"]>[0])).grammar;
    const bounded = boundNumberRules(generated);
    expect(bounded).not.toBe(generated);
    expect(bounded).toContain('integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,14})\n');
    expect(bounded).not.toMatch(/\[eE\] \[-\+\]\? \("0"/);
    // and the result is a grammar llama.cpp accepts
    await expect(llama.createGrammar({ grammar: bounded })).resolves.toBeDefined();
  });
});
