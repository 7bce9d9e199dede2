import { afterEach, describe, expect, it } from 'vitest';
import { FallbackChain } from '../src/core/llm/fallback.js';
import { AnthropicModel } from '../src/core/llm/providers/anthropic.js';
import { OpenAICompatibleModel } from '../src/core/llm/providers/openai.js';
import type { ChatModel, ChatRequest, ModelEvent } from '../src/core/llm/types.js';
import { startScriptedAnthropicServer } from './fixtures/scripted-anthropic-server.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { collectEvents, type Script, type ScriptedServer } from './fixtures/scripted-turns.js';
import { failure } from './fixtures/model-events.js';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function openai(script: Script, id: string, extra: { idleTimeoutMs?: number } = {}): Promise<{ server: ScriptedServer; model: ChatModel }> {
  const server = await startScriptedOpenAIServer(script);
  servers.push(server);
  return { server, model: new OpenAICompatibleModel({ id, baseUrl: server.url, model: 'm', retries: 1, retryBaseDelayMs: 1, ...extra }) };
}

async function closedPortModel(id: string): Promise<ChatModel> {
  const server = await startScriptedOpenAIServer([]);
  await server.close();
  return new OpenAICompatibleModel({ id, baseUrl: server.url, model: 'm', retries: 0 });
}

const REQUEST: ChatRequest = { messages: [{ role: 'user', content: 'hello' }], tools: [] };
const run = (m: ChatModel, signal = new AbortController().signal) => collectEvents(m.stream(REQUEST, signal));
const text = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');


describe('FallbackChain', () => {
  it('moves on after a model keeps answering 500, says so, and the next one answers (catches a dead primary ending the turn)', async () => {
    const first = await openai([{ status: 500 }, { status: 500 }], 'local:primary');
    const second = await openai([{ text: 'from the backup' }], 'openai:backup');
    const events = await run(new FallbackChain([first.model, second.model]));
    const fallback = events.find((e) => e.type === 'fallback');
    expect(fallback).toMatchObject({ type: 'fallback', from: 'local:primary', to: 'openai:backup' });
    expect(fallback?.type === 'fallback' && fallback.reason).toContain('HTTP 500');
    expect(text(events)).toBe('from the backup');
    expect(first.server.requests).toHaveLength(2); // its own retry came first
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('falls back from a refused connection to an Anthropic model (catches provider-specific assumptions in the chain)', async () => {
    const backup = await startScriptedAnthropicServer([{ text: 'claude here' }]);
    servers.push(backup);
    const chain = new FallbackChain([await closedPortModel('ollama:llama'), new AnthropicModel({ id: 'anthropic:c', baseUrl: backup.url, model: 'c', apiKey: 'k' })]);
    const events = await run(chain);
    expect(events.filter((e) => e.type === 'fallback').map((e) => e.type === 'fallback' && e.reason)[0]).toContain('ECONNREFUSED');
    expect(text(events)).toBe('claude here');
  });

  it('falls back on 401 but not on a 400 bad request (catches masking a request bug by switching models)', async () => {
    const auth = await openai([{ status: 401 }], 'openai:no-key');
    const okAfterAuth = await openai([{ text: 'second' }], 'openai:second');
    expect(text(await run(new FallbackChain([auth.model, okAfterAuth.model])))).toBe('second');

    const bad = await openai([{ status: 400, errorMessage: 'context too long' }], 'openai:bad');
    const untouched = await openai([{ text: 'never' }], 'openai:untouched');
    const err = await failure(run(new FallbackChain([bad.model, untouched.model])));
    expect(err.code).toBe('model_http');
    expect(err.details).toMatchObject({ status: 400 });
    expect(untouched.server.requests).toHaveLength(0);
  });

  it('never splices two answers: a model that already streamed text fails without fallback', async () => {
    const streamsThenStalls = await openai([{ text: 'half an answ', hangMs: 5_000 }], 'openai:flaky', { idleTimeoutMs: 150 });
    const backup = await openai([{ text: 'never' }], 'openai:backup');
    const seen: ModelEvent[] = [];
    const err = await failure(
      (async () => {
        for await (const event of new FallbackChain([streamsThenStalls.model, backup.model]).stream(REQUEST, new AbortController().signal)) seen.push(event);
      })(),
    );
    expect(err.code).toBe('model_timeout');
    expect(text(seen)).toBe('half');
    expect(seen.some((e) => e.type === 'fallback')).toBe(false);
    expect(backup.server.requests).toHaveLength(0);
  });

  it('does not fall back when the user aborts (catches an interrupt silently starting another model)', { timeout: 5_000 }, async () => {
    const slow = await openai([{ text: 'late', delayMs: 30_000 }], 'openai:slow');
    const backup = await openai([{ text: 'never' }], 'openai:backup');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await failure(run(new FallbackChain([slow.model, backup.model]), controller.signal));
    expect(err.code).toBe('aborted');
    expect(backup.server.requests).toHaveLength(0);
  });

  it('reports all_models_failed naming every model and its error when the whole chain fails', async () => {
    const down = await closedPortModel('local:down');
    const limited = await openai([{ status: 429, headers: { 'retry-after': '3600' }, errorMessage: 'quota' }], 'openrouter:limited');
    const err = await failure(run(new FallbackChain([down, limited.model])));
    expect(err.code).toBe('all_models_failed');
    expect(err.message).toContain('local:down');
    expect(err.message).toContain('openrouter:limited');
    expect(err.details?.failures).toEqual([
      expect.objectContaining({ model: 'local:down', code: 'model_connection' }),
      expect.objectContaining({ model: 'openrouter:limited', code: 'model_rate_limited' }),
    ]);
  });
});
