/**
 * LocalModel end to end: a generated GGUF, a real model host child process, real llama.cpp.
 * One model (and host) is shared by the happy-path tests to keep the file fast on two cores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isHearthError } from '../src/core/errors.js';
import { defaultLocalThreads, LocalModel } from '../src/core/local-model/local.js';
import type { ChatMessage, ChatRequest, ModelEvent, ToolCall, Usage } from '../src/core/llm/types.js';
import { defineTool, toolSchema } from '../src/core/tools/define.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';

const dirs = modelDir();
const tinyPath = dirs.path('tiny.gguf');
const progress: number[] = [];
let model: LocalModel;

// Two tools through the real zod → JSON Schema path the agent uses; integers and fractional
// numbers both, since node-llama-cpp's own number rules admit values that parse to Infinity.
// `max(40)` keeps every call finite: near-uniform sampling would otherwise write strings of
// hundreds of characters (the call would then end in 'length', which is correct but not this test).
const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: z.object({ city: z.string().max(40), unit: z.enum(['celsius', 'fahrenheit']) }),
  parallelSafe: true,
  run: async () => 'sunny',
});
const alarm = defineTool({
  name: 'set_alarm',
  description: 'Set an alarm',
  input: z.object({ hour: z.number().int(), minutes: z.number(), loud: z.boolean() }),
  parallelSafe: false,
  run: async () => 'ok',
});
// (The cast: `toolSchema` takes ToolDefinition<unknown>, which a typed definition is not assignable to.)
const tools = [toolSchema(weather), toolSchema(alarm)];
/**
 * What the grammar guarantees: names, types, enums, integers. String length is checked without
 * `max`: the grammar bounds the sampled characters, but a random model's byte tokens can form invalid
 * UTF-8 that decodes to several U+FFFD characters, so the decoded string may exceed the bound
 * (a known limitation with random weights; see the issue note).
 */
const inputs: Record<string, z.ZodType> = {
  get_weather: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }).strict(),
  set_alarm: alarm.input,
};

interface Collected {
  text: string;
  calls: ToolCall[];
  usage: Usage | undefined;
  finish: string | undefined;
}

async function collect(m: LocalModel, request: ChatRequest, signal = new AbortController().signal): Promise<Collected> {
  const out: Collected = { text: '', calls: [], usage: undefined, finish: undefined };
  for await (const event of m.stream(request, signal)) record(out, event);
  return out;
}

function record(out: Collected, event: ModelEvent): void {
  if (event.type === 'text') out.text += event.delta;
  else if (event.type === 'tool_call') out.calls.push(event.call);
  else if (event.type === 'usage') out.usage = event.usage;
  else if (event.type === 'done') out.finish = event.finishReason;
}

const system: ChatMessage = { role: 'system', content: 'You are a test assistant.' };

beforeAll(async () => {
  writeGguf(tinyPath, { preset: 'tiny' });
  model = new LocalModel({ modelPath: tinyPath, threads: 1, gpu: 'auto', contextSize: 4096, maxSessions: 2, onLoadProgress: (p) => progress.push(p) });
});

afterAll(async () => {
  await model?.dispose();
  dirs.cleanup();
});

describe('LocalModel with a generated GGUF', () => {
  it('loads in the host with progress events and reports what it runs on', async () => {
    // Catches: a host that never reports progress/loaded, or an info() the doctor cannot use.
    const result = await collect(model, { messages: [system, { role: 'user', content: 'Say something.' }], tools: [], maxTokens: 16, temperature: 0 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    const info = model.info();
    expect(info?.threads).toBe(1);
    expect(info?.contextSize).toBeGreaterThanOrEqual(4096);
    expect(info?.gpu === false ? info.gpuFallbackReason : info?.gpu).toBeTruthy();
    expect(result.finish === 'length' || result.finish === 'stop').toBe(true);
  });

  it('streams text in several deltas with honest usage', async () => {
    // Catches: text buffered to the end instead of streamed, or usage that does not count the output.
    const deltas: string[] = [];
    let usage: Usage | undefined;
    for await (const event of model.stream({ messages: [system, { role: 'user', content: 'Tell me a story.' }], tools: [], maxTokens: 40, temperature: 0 }, new AbortController().signal)) {
      if (event.type === 'text') deltas.push(event.delta);
      if (event.type === 'usage') usage = event.usage;
    }
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('').length).toBeGreaterThan(0);
    expect(usage?.outputTokens).toBeLessThanOrEqual(40);
    expect(usage?.outputTokens).toBeGreaterThan(5);
    expect(usage?.inputTokens).toBeGreaterThan(20);
  });

  it("toolChoice 'required' yields a grammar-valid call to one of the tools (random weights and all)", async () => {
    // Catches: a model that "prints" a call instead of making it, invented tool names, or arguments
    // that do not validate against the tool's schema. Several seeds, so one lucky sample cannot pass it.
    for (const temperature of [0, 0.8, 1.5]) {
      const result = await collect(model, {
        messages: [system, { role: 'user', content: `What is the weather? (${temperature})` }],
        tools,
        toolChoice: 'required',
        maxTokens: 400,
        temperature,
      });
      expect(result.finish).toBe('tool_calls');
      expect(result.calls.length).toBeGreaterThanOrEqual(1);
      expect(result.text).not.toContain('<tool_call>');
      for (const call of result.calls) {
        expect(call.id).toMatch(/^call_/);
        const input = inputs[call.name];
        expect(input, `unknown tool ${call.name}`).toBeDefined();
        const parsed = input?.safeParse(JSON.parse(call.arguments));
        expect(parsed?.success, `${call.name} ${call.arguments}`).toBe(true);
      }
    }
  });

  it('turn 2 of a session evaluates only the new tokens; another session evaluates everything', async () => {
    // Catches: a prompt that is not byte-stable, or a sequence not reused across calls (cost grows with history).
    const turn1: ChatMessage[] = [system, { role: 'user', content: 'First question, a fairly long one to make the prefix matter.' }];
    const first = await collect(model, { messages: turn1, tools, sessionKey: 'kv-a', maxTokens: 12, temperature: 0 });
    expect(first.usage?.evaluatedInputTokens).toBe(first.usage?.inputTokens);

    const newUser = 'Second question.';
    const turn2: ChatMessage[] = [...turn1, { role: 'assistant', content: 'A short answer.' }, { role: 'user', content: newUser }];
    const second = await collect(model, { messages: turn2, tools, sessionKey: 'kv-a', maxTokens: 12, temperature: 0 });
    const u = second.usage as Usage;
    // The new tokens: the assistant turn that replaced the generated one, the user turn and the
    // generation prompt — about one token per character with this vocab, plus the turn markers.
    const newChars = 'A short answer.'.length + newUser.length + '\nassistant\n\nuser\n\nassistant\n'.length + 4;
    const evaluated = u.evaluatedInputTokens ?? Number.NaN;
    expect(evaluated).toBeLessThanOrEqual(newChars + 16);
    expect(evaluated * 10).toBeLessThan(u.inputTokens);

    const other = await collect(model, { messages: turn2, tools, sessionKey: 'kv-b', maxTokens: 12, temperature: 0 });
    expect(other.usage?.inputTokens).toBe(u.inputTokens);
    expect(other.usage?.evaluatedInputTokens).toBe(u.inputTokens);

    // The very same prompt again: everything is cached but the last token (its logits are needed).
    const again = await collect(model, { messages: turn2, tools, sessionKey: 'kv-b', maxTokens: 4, temperature: 0 });
    expect(again.usage?.evaluatedInputTokens).toBe(1);
  });

  it('evicts the least recently used session when sequences run out, and keeps serving', async () => {
    // Catches: a pool that throws "no sequences left" instead of evicting (maxSessions is 2 here).
    const messages: ChatMessage[] = [system, { role: 'user', content: 'Eviction check.' }];
    await collect(model, { messages, tools: [], sessionKey: 'ev-1', maxTokens: 2, temperature: 0 });
    await collect(model, { messages, tools: [], sessionKey: 'ev-2', maxTokens: 2, temperature: 0 });
    const third = await collect(model, { messages, tools: [], sessionKey: 'ev-3', maxTokens: 2, temperature: 0 });
    expect(third.finish).toBeDefined();
    // ev-2 is still cached; ev-1 was the least recently used and lost its cache.
    const two = await collect(model, { messages, tools: [], sessionKey: 'ev-2', maxTokens: 2, temperature: 0 });
    expect(two.usage?.evaluatedInputTokens).toBe(1);
    const one = await collect(model, { messages, tools: [], sessionKey: 'ev-1', maxTokens: 2, temperature: 0 });
    expect(one.usage?.evaluatedInputTokens).toBe(one.usage?.inputTokens);
  });

  it('abort stops a long generation within a few tokens and the session stays usable', async () => {
    // Catches: an abort that only stops the consumer while the host keeps generating thousands of tokens.
    const controller = new AbortController();
    let deltasAfterAbort = 0;
    let error: unknown;
    try {
      for await (const event of model.stream({ messages: [system, { role: 'user', content: 'Write forever.' }], tools: [], sessionKey: 'abort', maxTokens: 3000, temperature: 0.7 }, controller.signal)) {
        if (event.type !== 'text') continue;
        if (controller.signal.aborted) deltasAfterAbort++;
        else controller.abort(new Error('user pressed Ctrl+C'));
      }
    } catch (err) {
      error = err;
    }
    expect(isHearthError(error, 'aborted')).toBe(true);
    // Events already in flight when the abort landed may still arrive; thousands would not be "prompt".
    expect(deltasAfterAbort).toBeLessThan(50);
    const next = await collect(model, { messages: [system, { role: 'user', content: 'Still there?' }], tools: [], sessionKey: 'abort', maxTokens: 4, temperature: 0 });
    expect(next.finish).toBeDefined();
  });

  it('a consumer that stops reading early leaves the session usable for the next call', async () => {
    // Catches: the host still generating for an abandoned stream, so the next turn finds its session "busy".
    for await (const event of model.stream({ messages: [system, { role: 'user', content: 'Long answer please.' }], tools: [], sessionKey: 'early', maxTokens: 2000, temperature: 0.7 }, new AbortController().signal)) {
      if (event.type === 'text') break;
    }
    const next = await collect(model, { messages: [system, { role: 'user', content: 'Short one.' }], tools: [], sessionKey: 'early', maxTokens: 4, temperature: 0 });
    expect(next.finish).toBeDefined();
  });

  it('a prompt longer than the context is a typed overflow error, and the model keeps serving', async () => {
    // Catches: an overflow reported as a generic bad response (compression must be able to tell it apart).
    const huge: ChatMessage = { role: 'user', content: 'x'.repeat((model.info()?.contextSize ?? 4096) + 500) };
    const err = await collect(model, { messages: [system, huge], tools: [], maxTokens: 4, temperature: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHearthError(err, 'model_context_overflow'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/local\.context_size/);
    const after = await collect(model, { messages: [system, { role: 'user', content: 'Still there?' }], tools: [], maxTokens: 4, temperature: 0 });
    expect(after.finish).toBeDefined();
  });

  it('picks a thread count that never oversubscribes', () => {
    // Catches: the 4-threads-on-2-cores default that collapses decode speed ~80x.
    expect(defaultLocalThreads(2)).toBe(1);
    expect(defaultLocalThreads(1)).toBe(1);
    expect(defaultLocalThreads(16)).toBe(4);
  });
});
