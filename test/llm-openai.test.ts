import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleModel, type OpenAICompatibleOptions } from '../src/core/llm/providers/openai.js';
import type { ChatRequest, ModelEvent, ToolSchema } from '../src/core/llm/types.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import { collectEvents, type ScriptedServer } from './fixtures/scripted-turns.js';
import { calls, failure, texts } from './fixtures/model-events.js';

const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'terminal', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
];

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof startScriptedOpenAIServer>): Promise<ScriptedServer> {
  const server = await startScriptedOpenAIServer(...args);
  servers.push(server);
  return server;
}

function model(url: string, extra: Partial<OpenAICompatibleOptions> = {}): OpenAICompatibleModel {
  return new OpenAICompatibleModel({ id: 'openai:test-model', baseUrl: url, model: 'test-model', retryBaseDelayMs: 1, ...extra });
}

function ask(text: string, tools: ToolSchema[] = []): ChatRequest {
  return { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: text }], tools };
}

const run = (m: OpenAICompatibleModel, req: ChatRequest) => collectEvents(m.stream(req, new AbortController().signal));
const reasoning = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'reasoning' ? [e.delta] : [])).join('');


describe('OpenAI-compatible provider', () => {
  it('streams text in several deltas, then usage and done (catches buffering the whole answer or losing pieces)', async () => {
    const server = await serve([{ text: 'Hello there, streaming world!', usage: { input: 12, output: 7 } }]);
    const events = await run(model(server.url), ask('hi'));
    expect(texts(events).length).toBeGreaterThan(3);
    expect(texts(events).join('')).toBe('Hello there, streaming world!');
    expect(events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: { inputTokens: 12, outputTokens: 7 } }]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    const body = server.requests[0] as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'test-model', stream: true, stream_options: { include_usage: true } });
    expect(body).not.toHaveProperty('tools'); // some servers reject an empty tools array
  });

  it('assembles parallel tool calls split mid-JSON, in order, with the tools on the wire (catches index mix-ups)', async () => {
    const args = [{ path: 'src/a "quoted".ts' }, { command: 'ls -la | grep {x}' }, { path: 'ünïcödé/文件.txt' }];
    const server = await serve([
      {
        toolCalls: [
          { name: 'read_file', arguments: args[0] as Record<string, unknown> },
          { name: 'terminal', arguments: args[1] as Record<string, unknown> },
          { name: 'read_file', arguments: args[2] as Record<string, unknown> },
        ],
      },
    ]);
    const events = await run(model(server.url), { ...ask('go', TOOLS), toolChoice: 'auto' });
    const got = calls(events);
    expect(got.map((c) => c.name)).toEqual(['read_file', 'terminal', 'read_file']);
    expect(got.map((c) => JSON.parse(c.arguments) as unknown)).toEqual(args);
    expect(new Set(got.map((c) => c.id)).size).toBe(3);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    const body = server.requests[0] as { tools: unknown[]; tool_choice: string };
    expect(body.tools[0]).toEqual({ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: TOOLS[0]?.parameters } });
    expect(body.tool_choice).toBe('auto');
  });

  it('sends assistant tool_calls and tool results in the wire shape the server accepts (catches a broken history mapping)', async () => {
    const server = await serve([{ text: 'done' }]);
    const request: ChatRequest = {
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'read it' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' }], reasoning: 'secret thoughts' },
        { role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: '1: hello' },
      ],
    };
    expect(texts(await run(model(server.url), request)).join('')).toBe('done');
    const sent = (server.requests[0] as { messages: unknown[] }).messages;
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
    });
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '1: hello' });
  });

  it('separates reasoning_content deltas from the answer (catches thoughts leaking into the reply)', async () => {
    const server = await serve([{ reasoning: 'Let me think step by step.', text: 'Four.' }]);
    const events = await run(model(server.url), ask('2+2?'));
    expect(reasoning(events)).toBe('Let me think step by step.');
    expect(texts(events).join('')).toBe('Four.');
  });

  it('moves <think> blocks split across chunks and CRLF lines to reasoning (catches tag-boundary bugs)', async () => {
    const server = await serve([{ text: '<think>weigh options</think>The answer is <b>bold</b>.' }], { chunkChars: 3, lineEnding: '\r\n' });
    const events = await run(model(server.url), ask('q'));
    expect(reasoning(events)).toBe('weigh options');
    expect(texts(events).join('')).toBe('The answer is <b>bold</b>.');
  });

  it('executes a <tool_call> the server left in the content instead of printing it (catches the text fallback not being applied)', async () => {
    const server = await serve([{ text: '<think>need file</think>Checking.\n<tool_call>{"name": "read_file", "arguments": {"path": "x.md"}}</tool_call>' }]);
    const events = await run(model(server.url), ask('q', TOOLS));
    expect(texts(events).join('')).toBe('Checking.\n');
    expect(calls(events).map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['read_file', { path: 'x.md' }]]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('sends the API key as a Bearer token, and no Authorization header without one (catches keyless local servers breaking)', async () => {
    const server = await serve([{ text: 'a' }, { text: 'b' }]);
    await run(model(server.url, { apiKey: 'sk-local-123' }), ask('q'));
    await run(model(server.url), ask('q'));
    expect(server.requestHeaders[0]?.authorization).toBe('Bearer sk-local-123');
    expect(server.requestHeaders[1]).not.toHaveProperty('authorization');
  });
});

describe('OpenAI-compatible provider failures', () => {
  it('retries a 429 after the Retry-After delay, then succeeds (catches hammering a rate-limited API)', async () => {
    const arrivals: number[] = [];
    const server = await serve((_req, index) => {
      arrivals.push(Date.now());
      return index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { text: 'ok now' };
    });
    const events = await run(model(server.url), ask('q'));
    expect(texts(events).join('')).toBe('ok now');
    expect(server.requests).toHaveLength(2);
    // The base backoff is 1 ms here: only honouring Retry-After explains a gap of a second.
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('gives up at once with model_rate_limited when Retry-After is longer than we will wait', async () => {
    const server = await serve([{ status: 429, headers: { 'retry-after': '3600' }, errorMessage: 'quota exceeded' }]);
    const err = await failure(run(model(server.url), ask('q')));
    expect(err.code).toBe('model_rate_limited');
    expect(err.details).toMatchObject({ status: 429, retryAfterMs: 3_600_000, providerMessage: 'quota exceeded' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries 5xx up to the configured count, then reports model_http with the status (catches endless or missing retries)', async () => {
    const server = await serve([{ status: 502 }, { status: 503 }, { status: 500, errorMessage: 'backend exploded' }]);
    const err = await failure(run(model(server.url, { retries: 2 }), ask('q')));
    expect(err.code).toBe('model_http');
    expect(err.details).toMatchObject({ status: 500, providerMessage: 'backend exploded', attempts: 3 });
    expect(server.requests).toHaveLength(3);
  });

  it('maps 401 to model_auth without retrying and never echoes the key (catches key leaks into logs)', async () => {
    const server = await serve([{ status: 401, errorMessage: 'Incorrect API key provided: sk-very-secret-key' }]);
    const err = await failure(run(model(server.url, { apiKey: 'sk-very-secret-key' }), ask('q')));
    expect(err.code).toBe('model_auth');
    expect(err.message).not.toContain('sk-very-secret-key');
    expect(JSON.stringify(err.details)).not.toContain('sk-very-secret-key');
    expect(server.requests).toHaveLength(1);
  });

  it('maps a refused connection to model_connection after its retries (catches raw undici errors escaping)', async () => {
    const server = await startScriptedOpenAIServer([]);
    const url = server.url;
    await server.close(); // the port is now closed: connections are refused
    const err = await failure(run(model(url, { retries: 1 }), ask('q')));
    expect(err.code).toBe('model_connection');
    expect(err.details).toMatchObject({ errno: 'ECONNREFUSED' });
  });

  it('stops a stalled stream promptly with aborted when the signal fires (catches interrupts that wait for the server)', { timeout: 5_000 }, async () => {
    const server = await serve([{ text: 'first words and then a long stall', hangMs: 30_000 }]);
    const controller = new AbortController();
    const seen: ModelEvent[] = [];
    const err = await failure(
      (async () => {
        for await (const event of model(server.url).stream(ask('q'), controller.signal)) {
          seen.push(event);
          if (event.type === 'text') controller.abort(new Error('user pressed Ctrl+C'));
        }
      })(),
    );
    expect(err.code).toBe('aborted');
    expect(seen.filter((e) => e.type === 'text')).toHaveLength(1);
  });

  it('reports model_timeout when the stream goes silent longer than the idle timeout (catches a hung turn)', async () => {
    const server = await serve([{ text: 'partial answer', hangMs: 5_000 }]);
    const err = await failure(run(model(server.url, { idleTimeoutMs: 200 }), ask('q')));
    expect(err.code).toBe('model_timeout');
  });

  it('reports model_timeout when the server does not answer within the request timeout', async () => {
    const server = await serve([{ text: 'too late', delayMs: 5_000 }]);
    const err = await failure(run(model(server.url, { timeoutMs: 200, retries: 0 }), ask('q')));
    expect(err.code).toBe('model_timeout');
  });

  it('rejects a malformed stream event and a stream cut before it finished with model_bad_response', async () => {
    const bodies = ['data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: {not json\n\n', 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n'];
    let served = 0;
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(bodies[served++]);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`;
      expect((await failure(run(model(url), ask('q')))).code).toBe('model_bad_response');
      expect((await failure(run(model(url), ask('q')))).code).toBe('model_bad_response');
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('accepts a server that ignores stream:true and answers one JSON completion (catches proxies breaking the turn)', async () => {
    const completion = {
      choices: [{ message: { content: 'whole answer', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 5, completion_tokens: 3 },
    };
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const events = await run(model(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`), ask('q', TOOLS));
      expect(texts(events).join('')).toBe('whole answer');
      expect(calls(events)).toEqual([{ id: 'c1', name: 'terminal', arguments: '{"command":"ls"}' }]);
      expect(events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: { inputTokens: 5, outputTokens: 3 } }]);
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('the scripted server answers a non-streaming request with one whole completion (other tests rely on it)', async () => {
    const server = await serve([{ text: 'whole', toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] }]);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: false, messages: [{ role: 'user', content: 'q' }] }),
    });
    const json = (await response.json()) as { choices: Array<{ message: { content: string; tool_calls: Array<{ function: { arguments: string } }> } }> };
    expect(json.choices[0]?.message.content).toBe('whole');
    expect(json.choices[0]?.message.tool_calls[0]?.function.arguments).toBe('{"path":"a"}');
  });

  it('the scripted server fails loudly when the script runs out (so extra calls cannot pass silently)', async () => {
    const server = await serve([]);
    const err = await failure(run(model(server.url, { retries: 0 }), ask('q')));
    expect(err.code).toBe('model_http');
    expect(err.message).toContain('script exhausted');
  });
});
