import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicModel, type AnthropicOptions } from '../src/core/llm/providers/anthropic.js';
import type { ChatRequest, ToolSchema } from '../src/core/llm/types.js';
import { startScriptedAnthropicServer } from './fixtures/scripted-anthropic-server.js';
import { collectEvents, type ScriptedServer } from './fixtures/scripted-turns.js';
import { calls, failure, texts } from './fixtures/model-events.js';

const TOOLS: ToolSchema[] = [
  { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'terminal', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'string' } } } },
];
const KEY = 'sk-ant-test-key';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof startScriptedAnthropicServer>): Promise<ScriptedServer> {
  const server = await startScriptedAnthropicServer(...args);
  servers.push(server);
  return server;
}

function model(url: string, extra: Partial<AnthropicOptions> = {}): AnthropicModel {
  return new AnthropicModel({ id: 'anthropic:claude-test', baseUrl: url, model: 'claude-test', apiKey: KEY, retryBaseDelayMs: 1, ...extra });
}

const run = (m: AnthropicModel, req: ChatRequest) => collectEvents(m.stream(req, new AbortController().signal));


describe('Anthropic provider', () => {
  it('streams thinking and text separately with usage, sending key, version, system and max_tokens (catches wire-shape drift)', async () => {
    const server = await serve([{ reasoning: 'Consider the sky.', text: 'The sky is blue.', usage: { input: 30, output: 9 } }], { apiKey: KEY });
    const events = await run(model(server.url, { maxTokens: 1234 }), {
      messages: [
        { role: 'system', content: 'You are Hearth.' },
        { role: 'user', content: 'Colour of the sky?' },
      ],
      tools: [],
    });
    expect(texts(events).length).toBeGreaterThan(2);
    expect(texts(events).join('')).toBe('The sky is blue.');
    expect(events.flatMap((e) => (e.type === 'reasoning' ? [e.delta] : [])).join('')).toBe('Consider the sky.');
    expect(events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: { inputTokens: 30, outputTokens: 9, evaluatedInputTokens: 30 } }]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    expect(server.requestHeaders[0]).toMatchObject({ 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
    expect(server.requests[0]).toEqual({
      model: 'claude-test',
      max_tokens: 1234,
      stream: true,
      system: 'You are Hearth.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Colour of the sky?' }] }],
    });
  });

  it('assembles parallel tool_use inputs split mid-JSON, in order (catches partial_json concatenation bugs)', async () => {
    const args = [{ path: 'a/"b".md' }, { command: 'echo {}; ls' }];
    const server = await serve([
      {
        text: 'Let me look.',
        toolCalls: [
          { name: 'read_file', arguments: args[0] as Record<string, unknown> },
          { name: 'terminal', arguments: args[1] as Record<string, unknown> },
        ],
      },
    ]);
    const events = await run(model(server.url), { messages: [{ role: 'user', content: 'go' }], tools: TOOLS, toolChoice: 'required' });
    const got = calls(events);
    expect(got.map((c) => c.name)).toEqual(['read_file', 'terminal']);
    expect(got.map((c) => JSON.parse(c.arguments) as unknown)).toEqual(args);
    expect(got.every((c) => c.id.startsWith('toolu_'))).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    const body = server.requests[0] as { tools: unknown[]; tool_choice: unknown };
    expect(body.tools[1]).toEqual({ name: 'terminal', description: 'Run a command', input_schema: TOOLS[1]?.parameters });
    expect(body.tool_choice).toEqual({ type: 'any' });
  });

  it('merges consecutive tool results into one user turn so roles alternate (catches the API 400 on a multi-tool history)', async () => {
    const server = await serve([{ text: 'Both read.' }]);
    const request: ChatRequest = {
      tools: TOOLS,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'read both' },
        {
          role: 'assistant',
          content: 'Reading.',
          toolCalls: [
            { id: 'toolu_1', name: 'read_file', arguments: '{"path":"a"}' },
            { id: 'toolu_2', name: 'read_file', arguments: '{"path":' }, // invalid JSON the model once wrote
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', toolName: 'read_file', content: 'A' },
        { role: 'tool', toolCallId: 'toolu_2', toolName: 'read_file', content: 'error: invalid JSON' },
        { role: 'user', content: 'and summarise' },
      ],
    };
    expect(texts(await run(model(server.url), request)).join('')).toBe('Both read.');
    const sent = (server.requests[0] as { messages: Array<{ role: string; content: unknown[] }> }).messages;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[1]?.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } },
      { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { _raw_arguments: '{"path":' } },
    ]);
    expect(sent[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'error: invalid JSON' },
      { type: 'text', text: 'and summarise' },
    ]);
  });

  it('retries 529 overloaded and succeeds; maps 401 to model_auth without retry', async () => {
    const server = await serve([{ status: 529, errorMessage: 'Overloaded' }, { text: 'fine' }, { status: 401, errorMessage: 'invalid x-api-key' }]);
    expect(texts(await run(model(server.url), { messages: [{ role: 'user', content: 'q' }], tools: [] })).join('')).toBe('fine');
    const err = await failure(run(model(server.url), { messages: [{ role: 'user', content: 'q' }], tools: [] }));
    expect(err.code).toBe('model_auth');
    expect(err.details).toMatchObject({ status: 401, providerMessage: 'invalid x-api-key' });
    expect(server.requests).toHaveLength(3);
  });

  it('aborts a stalled stream promptly (catches Ctrl+C waiting on the network)', { timeout: 5_000 }, async () => {
    const server = await serve([{ text: 'starting to answer', hangMs: 30_000 }]);
    const controller = new AbortController();
    const err = await failure(
      (async () => {
        for await (const event of model(server.url).stream({ messages: [{ role: 'user', content: 'q' }], tools: [] }, controller.signal)) {
          if (event.type === 'text') controller.abort();
        }
      })(),
    );
    expect(err.code).toBe('aborted');
  });

  it('turns a mid-stream overloaded error event into model_http 529 and a cut stream into model_bad_response', async () => {
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}\n\n';
    const bodies = [`${start}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`, start];
    let served = 0;
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(bodies[served++]);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      const req: ChatRequest = { messages: [{ role: 'user', content: 'q' }], tools: [] };
      const overloaded = await failure(run(model(url), req));
      expect(overloaded.code).toBe('model_http');
      expect(overloaded.details).toMatchObject({ status: 529 });
      expect((await failure(run(model(url), req))).code).toBe('model_bad_response');
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('the scripted server rejects a history whose tool_result answers no tool_use (the check the other tests lean on)', async () => {
    const server = await serve([{ text: 'never' }]);
    const err = await failure(
      run(model(server.url, { retries: 0 }), {
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'ok' },
          { role: 'tool', toolCallId: 'toolu_missing', toolName: 'read_file', content: 'x' },
        ],
        tools: TOOLS,
      }),
    );
    expect(err.code).toBe('model_http');
    expect(err.details).toMatchObject({ status: 400 });
    expect(err.message).toContain('toolu_missing');
  });
});
