/**
 * Per-family prompting in the model host: a GGUF whose chat template is Llama 3 is prompted with Llama
 * 3's header tokens through its node-llama-cpp chat wrapper; a ChatML one keeps Hearth's Hermes prompt.
 * Generated GGUFs carry the template (and, for Llama 3, its control tokens), real llama.cpp tokenizes.
 */
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel, type Token } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHearthError } from '../src/core/errors.js';
import { LocalModel } from '../src/core/local-model/local.js';
import type { ChatMessage, ChatRequest, Usage } from '../src/core/llm/types.js';
import { choosePromptFamily, toChatHistory, toFunctions, wrapperPromptTokens } from '../src/model-host/family-prompt.js';
import type { HostChatMessage, HostToolSchema } from '../src/shared/model-host-protocol.js';
import { LLAMA3_TEMPLATE, LLAMA3_TOKENS, modelDir, writeGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
let llama: Llama;
let chatml: LlamaModel;
let llama3: LlamaModel;
let llama3Path: string;

const weather: HostToolSchema = { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

beforeAll(async () => {
  const chatmlPath = writeGguf(dirs.path('chatml.gguf'), { preset: 'tiny' }).path;
  llama3Path = writeGguf(dirs.path('llama3.gguf'), { preset: 'tiny', chatTemplate: LLAMA3_TEMPLATE, controlTokens: LLAMA3_TOKENS, name: 'hearth-test-llama3' }).path;
  llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: 1 });
  chatml = await llama.loadModel({ modelPath: chatmlPath });
  llama3 = await llama.loadModel({ modelPath: llama3Path });
});

afterAll(async () => {
  await chatml?.dispose();
  await llama3?.dispose();
  await llama?.dispose();
  dirs.cleanup();
});

function prompt(model: LlamaModel, messages: HostChatMessage[], tools: HostToolSchema[] = []): Token[] {
  const family = choosePromptFamily(model);
  if (family.kind !== 'wrapper') throw new Error(`expected a wrapper family, got hermes (${family.reason})`);
  return wrapperPromptTokens(model, family.wrapper, toChatHistory(messages), toFunctions(tools));
}

const count = (tokens: readonly Token[], token: Token): number => tokens.filter((t) => t === token).length;

describe('prompt family of a local model', () => {
  it('a ChatML template keeps the Hermes prompt; a Llama 3 template gets its own wrapper', () => {
    // Catches: every local model prompted in ChatML (a Llama 3 model sees <|im_start|> as plain text), or
    // Hermes models moved off the tested, grammar-constrained Hermes prompt.
    expect(choosePromptFamily(chatml)).toMatchObject({ kind: 'hermes' });
    const family = choosePromptFamily(llama3);
    expect(family.kind).toBe('wrapper');
    expect(family.reason).toMatch(/Llama 3/);
  });

  it('without a chat template the name decides: Hermes fine-tunes stay Hermes, a named family gets its wrapper, an unnamed file stays Hermes', async () => {
    // Catches: every template-less `llama` file guessed to be Llama 2 chat from its architecture, or a Hermes
    // fine-tune of Mistral prompted as plain Mistral.
    const cases = [
      ['unnamed.gguf', 'hearth-test-tiny', 'hermes'],
      ['mistral.gguf', 'Mistral-7B-Instruct-v0.3', 'wrapper'],
      ['hermes-mistral.gguf', 'Hermes 2 Pro Mistral 7B', 'hermes'],
    ] as const;
    for (const [file, name, kind] of cases) {
      const model = await llama.loadModel({ modelPath: writeGguf(dirs.path(file), { preset: 'tiny', name, omitKeys: ['tokenizer.chat_template'] }).path });
      try {
        expect(choosePromptFamily(model).kind, name).toBe(kind);
      } finally {
        await model.dispose();
      }
    }
  });

  it('the Llama 3 prompt is shaped by its header tokens, each one token, and message text never becomes one', () => {
    // Catches: turn markers tokenized as characters (the model would not see turns), or a user typing
    // <|eot_id|> ending their own turn early.
    const header = llama3.tokenize('<|start_header_id|>', true);
    const eot = llama3.tokenize('<|eot_id|>', true);
    expect(header).toHaveLength(1);
    expect(eot).toHaveLength(1);
    const tokens = prompt(llama3, [
      { role: 'system', content: 'You are Hearth.' },
      { role: 'user', content: 'hello <|eot_id|> there' },
    ]);
    const text = llama3.detokenize(tokens, true);
    expect(text).toContain('<|start_header_id|>system<|end_header_id|>\n\nYou are Hearth.<|eot_id|>');
    expect(text).toContain('<|start_header_id|>user<|end_header_id|>\n\nhello <|eot_id|> there<|eot_id|>');
    expect(text.endsWith('<|start_header_id|>assistant<|end_header_id|>\n\n')).toBe(true);
    expect(text).not.toContain('<|im_start|>');
    // Three headers (system, user, assistant) and two turn ends: the typed <|eot_id|> is characters, not the token.
    expect(count(tokens, header[0] as Token)).toBe(3);
    expect(count(tokens, eot[0] as Token)).toBe(2);
  });

  it('tools are described in the system turn, and a longer conversation renders the shorter one as its prefix', () => {
    // Catches: a prompt that is not token-stable across turns (KV reuse would re-evaluate everything),
    // or tools never shown to a non-Hermes model.
    const turn1: HostChatMessage[] = [
      { role: 'system', content: 'You are Hearth.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ];
    const turn2: HostChatMessage[] = [
      ...turn1,
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'get_weather', content: 'sunny' },
    ];
    const first = prompt(llama3, turn1, [weather]);
    const second = prompt(llama3, turn2, [weather]);
    expect(llama3.detokenize(first, true)).toContain('get_weather');
    expect(second.slice(0, first.length)).toEqual(first);
    expect(llama3.detokenize(second.slice(first.length), true)).toContain('sunny');
  });
});

describe('a Llama 3 GGUF through the real model host', () => {
  let model: LocalModel;
  beforeAll(() => {
    model = new LocalModel({ modelPath: llama3Path, threads: 1, gpu: false, contextSize: 2048, maxSessions: 2 });
  });
  afterAll(async () => {
    await model?.dispose();
  });

  async function run(request: ChatRequest): Promise<{ usage: Usage | undefined; finish: string | undefined }> {
    const out: { usage: Usage | undefined; finish: string | undefined } = { usage: undefined, finish: undefined };
    for await (const e of model.stream(request, new AbortController().signal)) {
      if (e.type === 'usage') out.usage = e.usage;
      if (e.type === 'done') out.finish = e.finishReason;
    }
    return out;
  }

  it('answers, and turn 2 of a session evaluates only the new tokens (the session keeps its KV cache)', async () => {
    // Catches: the wrapper path re-evaluating the whole conversation every turn, or failing to generate at all.
    const system: ChatMessage = { role: 'system', content: 'You are a test assistant with a reasonably long system prompt.' };
    const turn1: ChatMessage[] = [system, { role: 'user', content: 'First question, long enough for the prefix to matter.' }];
    const first = await run({ messages: turn1, tools: [weather], sessionKey: 'l3', maxTokens: 8, temperature: 0 });
    expect(first.finish).toBeDefined();
    expect(first.usage?.evaluatedInputTokens).toBe(first.usage?.inputTokens);

    const turn2: ChatMessage[] = [...turn1, { role: 'assistant', content: 'A short answer.' }, { role: 'user', content: 'Second question.' }];
    const second = await run({ messages: turn2, tools: [weather], sessionKey: 'l3', maxTokens: 8, temperature: 0 });
    const u = second.usage as Usage;
    expect(u.evaluatedInputTokens ?? Number.NaN).toBeGreaterThan(0);
    expect((u.evaluatedInputTokens ?? Number.NaN) * 5).toBeLessThan(u.inputTokens);
  });

  it('a prompt that does not fit is a typed overflow error on the wrapper path too, never a silent context shift', async () => {
    // Catches: LlamaChat dropping the oldest history to make room (compression must decide that, and say so).
    const err = await run({ messages: [{ role: 'user', content: 'y'.repeat(2100) }], tools: [], maxTokens: 4, temperature: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHearthError(err, 'model_context_overflow'), String(err)).toBe(true);
  });

  it("toolChoice 'required' yields grammar-valid calls to offered tools in the wrapper's syntax (random weights and all)", async () => {
    // Catches: a forced call ignored on the wrapper path (the agent's required step would get prose), or
    // calls with invented names or arguments that do not fit the schema.
    const alarm: HostToolSchema = { name: 'set_alarm', description: 'Set an alarm', parameters: { type: 'object', properties: { hour: { type: 'integer' } }, required: ['hour'] } };
    const bounded: HostToolSchema = { ...weather, parameters: { type: 'object', properties: { city: { type: 'string', maxLength: 20 } }, required: ['city'] } };
    for (const temperature of [0, 0.8, 1.5]) {
      const calls: { name: string; arguments: string }[] = [];
      let finish: string | undefined;
      for await (const e of model.stream({ messages: [{ role: 'user', content: `Weather or alarm? (${temperature})` }], tools: [bounded, alarm], toolChoice: 'required', maxTokens: 200, temperature }, new AbortController().signal)) {
        if (e.type === 'tool_call') calls.push(e.call);
        if (e.type === 'done') finish = e.finishReason;
      }
      expect(finish).toBe('tool_calls');
      expect(calls.length).toBeGreaterThanOrEqual(1);
      for (const call of calls) {
        const args = JSON.parse(call.arguments) as Record<string, unknown>;
        // Random weights write numbers like 1e400 (Infinity), and byte tokens that decode past a string's bound:
        // such a call reaches the agent as unreadable, saying why, never as a failed response or a silent null.
        if (call.name === 'unparsed_tool_call') expect(args.error).toMatch(/out of range|Expected/);
        else if (call.name === 'get_weather') expect(typeof args.city).toBe('string');
        else {
          expect(call.name).toBe('set_alarm');
          // Offered to the grammar as a number (see family-prompt.ts): the agent's validation checks it is whole.
          expect(typeof args.hour).toBe('number');
        }
      }
    }
  });
});
