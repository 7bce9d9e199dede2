/**
 * `ChatModel.describe()` says what a model is (local or remote, provider, context, capabilities), so
 * callers stop parsing ids; and wire data from providers is schema-parsed: a field of the wrong type is a
 * clear `model_bad_response`, not a cast that lets `42` through as text. Real HTTP servers speak raw SSE.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/core/config/schema.js';
import { isHearthError } from '../src/core/errors.js';
import { FallbackChain } from '../src/core/llm/fallback.js';
import { AnthropicModel } from '../src/core/llm/providers/anthropic.js';
import { LocalModel } from '../src/core/local-model/local.js';
import { OpenAICompatibleModel } from '../src/core/llm/providers/openai.js';
import { createChatModel } from '../src/core/model-chain/registry.js';
import { SwitchableModel } from '../src/core/llm/switchable-model.js';
import type { ChatModel, ModelEvent } from '../src/core/llm/types.js';
import { modelDir, writeGguf } from './fixtures/gguf/index.js';

const servers: Server[] = [];
const dirs = modelDir();
const locals: LocalModel[] = [];
afterAll(async () => {
  await Promise.all(locals.map((m) => m.dispose()));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  dirs.cleanup();
});

/** A server that answers every POST with these SSE `data:` lines, then ends the body. */
async function sseServer(events: readonly string[], status = 200): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'text/event-stream' });
      for (const data of events) res.write(`data: ${data}\n\n`);
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function outcome(model: ChatModel): Promise<{ events: ModelEvent[]; error: unknown }> {
  const events: ModelEvent[] = [];
  try {
    for await (const e of model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] }, new AbortController().signal)) events.push(e);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

const env = { OPENROUTER_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' };

describe('ChatModel.describe()', () => {
  it('remote models say which configured provider serves them and that their tools are native', () => {
    // Catches: a provider name lost on the way (every OpenAI-compatible endpoint reported as "openai").
    const config = { ...defaultConfig(), providers: { ...defaultConfig().providers } };
    const openrouter = createChatModel('openrouter:meta/llama-3', { home: '/tmp', config, env }).describe();
    expect(openrouter).toEqual({ kind: 'remote', provider: 'openrouter', model: 'meta/llama-3', capabilities: { tools: 'native', images: false } });
    const anthropic = createChatModel('anthropic:claude-x', { home: '/tmp', config, env }).describe();
    expect(anthropic).toMatchObject({ kind: 'remote', provider: 'anthropic', model: 'claude-x' });
    // A key-less Anthropic entry is still described, so the status bar can show what failed.
    const keyless = createChatModel('anthropic:claude-x', { home: '/tmp', config, env: {} }).describe();
    expect(keyless).toMatchObject({ kind: 'remote', provider: 'anthropic', model: 'claude-x' });
  });

  it('a local model is local before it loads, and reports device, context and reasoning once loaded', async () => {
    // Catches: callers that must load the model (or parse "local:") to learn that it is local and where its file is.
    const path = writeGguf(dirs.path('tiny.gguf'), { preset: 'tiny' }).path;
    const model = new LocalModel({ modelPath: path, threads: 1, gpu: false, contextSize: 1024 });
    locals.push(model);
    expect(model.describe()).toEqual({ kind: 'local', provider: 'local', model: 'tiny.gguf', contextLength: 1024, capabilities: { tools: 'text', images: false }, file: path });
    await outcome(model);
    const loaded = model.describe();
    expect(loaded.device).toBe('cpu');
    expect(loaded.contextLength).toBe(model.info()?.contextSize);
    // The generated model's ChatML template has no <think>: it is known not to reason.
    expect(loaded.capabilities.reasoning).toBe(false);
  });

  it('a fallback chain describes the link that answered; a switchable model its current model', async () => {
    // Catches: a chain that always describes its first link (the status bar would say "local" while the cloud answers).
    const down = new OpenAICompatibleModel({ id: 'ollama:qwen3', provider: 'ollama', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen3', retries: 0 });
    const url = await sseServer(['{"choices":[{"delta":{"content":"hello"}}]}', '{"choices":[{"delta":{},"finish_reason":"stop"}]}', '[DONE]']);
    const up = new OpenAICompatibleModel({ id: 'openrouter:m', provider: 'openrouter', baseUrl: url, model: 'm', contextLength: 8000 });
    const chain = new FallbackChain([down, up]);
    expect(chain.describe().provider).toBe('ollama');
    const { error } = await outcome(chain);
    expect(error).toBeUndefined();
    expect(chain.describe()).toMatchObject({ provider: 'openrouter', contextLength: 8000, fallbacks: 1 });

    const switchable = new SwitchableModel(down);
    expect(switchable.describe().provider).toBe('ollama');
    await switchable.swap(up);
    expect(switchable.describe().provider).toBe('openrouter');
  });
});

describe('provider wire data is parsed, not cast', () => {
  it('an OpenAI-compatible chunk with a field of the wrong type is model_bad_response naming the field', async () => {
    // Catches: `content: 42` cast to a string and streamed on as text (or crashing a consumer later).
    const url = await sseServer(['{"choices":[{"delta":{"content":42}}]}', '[DONE]']);
    const { error } = await outcome(new OpenAICompatibleModel({ id: 'openai:x', baseUrl: url, model: 'x' }));
    expect(isHearthError(error, 'model_bad_response'), String(error)).toBe(true);
    expect((error as Error).message).toContain('choices.0.delta.content');
  });

  it('nulls where servers send them, unknown fields and content as text parts are all read', async () => {
    // Catches: a schema stricter than real servers (vLLM nulls, extra fields, Mistral-style content parts).
    const url = await sseServer([
      '{"id":"c1","object":"chat.completion.chunk","error":null,"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":null},"logprobs":null,"finish_reason":null}],"usage":null}',
      '{"choices":[{"delta":{"content":[{"type":"text","text":"Hel"},{"type":"image_url"},{"type":"text","text":"lo"}]}}]}',
      '{"choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"prompt_tokens_details":null}}',
      '[DONE]',
    ]);
    const { events, error } = await outcome(new OpenAICompatibleModel({ id: 'openai:x', baseUrl: url, model: 'x' }));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.delta : '')).join('')).toBe('Hello');
    expect(events).toContainEqual({ type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } });
  });

  it('an Anthropic event with a field of the wrong type is model_bad_response naming the field', async () => {
    // Catches: a numeric partial_json concatenated into the tool arguments as "5".
    const url = await sseServer([
      '{"type":"message_start","message":{"usage":{"input_tokens":3}}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"f","input":{}}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":5}}',
    ]);
    const { error } = await outcome(new AnthropicModel({ id: 'anthropic:x', baseUrl: url, model: 'x', apiKey: 'k' }));
    expect(isHearthError(error, 'model_bad_response'), String(error)).toBe(true);
    expect((error as Error).message).toContain('delta.partial_json');
  });
});
