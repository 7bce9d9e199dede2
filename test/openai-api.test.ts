/**
 * The local OpenAI-compatible API (issue 13), driven by the official `openai` npm client against the real server
 * on 127.0.0.1 (port 0), over a real engine (encrypted store file, tools, approvals) whose models are scripted
 * OpenAI-compatible HTTP servers: `scripted:model` runs the agent's turns, `other:second` (a fallback) is only
 * ever reached by passing its id through.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../src/core/engine.js';
import { startApi, type RunningApi } from '../src/core/openai-api/server.js';
import { freshHomeEnv } from './fixtures/cli.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { Script, ScriptedServer } from './fixtures/scripted-turns.js';

const KEY = 'hearth-test-key-0123456789';

interface Harness {
  engine: Engine;
  api: RunningApi;
  client: OpenAI;
  agentModel: ScriptedServer;
  otherModel: ScriptedServer;
  workspace: string;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function start(agentScript: Script, options: { otherScript?: Script; otherUrl?: string; approvals?: 'deny' | 'surface'; host?: string } = {}): Promise<Harness> {
  const agentModel = await startScriptedOpenAIServer(agentScript);
  cleanups.push(() => agentModel.close());
  const otherModel = await startScriptedOpenAIServer(options.otherScript ?? []);
  cleanups.push(() => otherModel.close());
  const env = freshHomeEnv();
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-api-ws-')));
  const userHome = join(workspace, '.user-home');
  mkdirSync(userHome);
  writeFileSync(
    join(env.HEARTH_HOME as string, 'config.yaml'),
    `version: 1\nmodel:\n  default: scripted:model\n  fallbacks: [other:second]\n` +
      `providers:\n  scripted: { type: openai, base_url: "${agentModel.url}", context_length: 32768 }\n  other: { type: openai, base_url: "${options.otherUrl ?? otherModel.url}" }\n` +
      `review:\n  enabled: false\nuser_model:\n  enabled: false\napprovals:\n  timeout_s: 30\n`,
  );
  const engine = await openEngine({ env, workspace, userHome });
  cleanups.push(() => engine.dispose());
  const api = await startApi({ engine, apiKey: KEY, port: 0, approvals: options.approvals ?? 'deny', ...(options.host === undefined ? {} : { host: options.host }) });
  cleanups.push(() => api.stop());
  const client = new OpenAI({ baseURL: api.url, apiKey: KEY, maxRetries: 0 });
  return { engine, api, client, agentModel, otherModel, workspace };
}

/**
 * An OpenAI-compatible model server that streams the role and one content chunk, then never finishes: it
 * counts the requests it got and the ones whose client closed the connection.
 */
async function startStallingServer(): Promise<{ url: string; received: number; closed: number }> {
  const state = { url: '', received: 0, closed: 0 };
  const server = createServer((req, res) => {
    req.resume();
    state.received += 1;
    res.on('close', () => (state.closed += 1));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: unknown) => res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
    chunk({ role: 'assistant', content: '' });
    chunk({ content: 'a long answer that' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

/** The messages a scripted model server received in its `index`-th request. */
function sentMessages(server: ScriptedServer, index: number): { role: string; content?: string | null }[] {
  return (server.requests[index] as { messages: { role: string; content?: string | null }[] }).messages;
}

describe('OpenAI-compatible API: models and access', () => {
  // Catches a model list that forgets the agent or a fallback, or names models differently from config.yaml.
  it('lists hearth-agent and the configured models by their provider:name ids', async () => {
    const h = await start([]);
    const page = await h.client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['hearth-agent', 'scripted:model', 'other:second']);
    expect(page.data.map((m) => m.owned_by)).toEqual(['hearth', 'scripted', 'other']);
    await expect(h.client.models.retrieve('other:second')).resolves.toMatchObject({ id: 'other:second', object: 'model' });
    await expect(h.client.models.retrieve('openai:gpt-nope')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  // Catches a route left open, a key compared loosely (prefix, case), or a 401 the official client cannot read.
  it('answers 401 with an OpenAI error body without a key, with a wrong one, on every route', async () => {
    const h = await start([]);
    const wrong = new OpenAI({ baseURL: h.api.url, apiKey: `${KEY}x`, maxRetries: 0 });
    await expect(wrong.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(wrong.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    const prefix = new OpenAI({ baseURL: h.api.url, apiKey: KEY.slice(0, -1), maxRetries: 0 });
    await expect(prefix.models.list()).rejects.toMatchObject({ status: 401 });
    for (const [method, path] of [['GET', '/models'], ['POST', '/chat/completions'], ['GET', '/nowhere']] as const) {
      const res = await fetch(`${h.api.url}${path}`, { method, ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
      expect(body.error.message).toContain('Authorization: Bearer');
    }
    // Nothing reached the model.
    expect(h.agentModel.requests).toHaveLength(0);
  });

  // Catches a server that listens on every interface when api.host is left alone.
  it('listens on loopback by default', async () => {
    const h = await start([]);
    expect(h.engine.config.current().api.host).toBe('127.0.0.1');
    expect(h.api.host).toBe('127.0.0.1');
    expect(h.api.url).toBe(`http://127.0.0.1:${h.api.port}/v1`);
  });

  // Catches malformed bodies reaching the agent or the model, or failing as a 500 / a hang instead of a clear 400.
  it('answers malformed bodies with a 400 that says what is wrong, and runs nothing', async () => {
    const h = await start([]);
    const raw = (body: string) => fetch(`${h.api.url}/chat/completions`, { method: 'POST', body, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
    const notJson = await raw('{"model": "hearth-agent", ');
    expect(notJson.status).toBe(400);
    await expect(notJson.json()).resolves.toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_json' } });
    const cases: [unknown, RegExp][] = [
      [{ model: 'hearth-agent', messages: [] }, /messages must hold at least one message/],
      [{ model: 'hearth-agent' }, /messages/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }], top_p: 0.5 }, /unsupported field "top_p"/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }], n: 2 }, /n must be 1/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }], temperature: 7 }, /temperature/],
      [{ model: 'hearth-agent', messages: [{ role: 'wizard', content: 'hi' }] }, /messages\.0/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }] }, /only text content parts are supported/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }, /last message must be the user's/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: '   ' }] }, /empty/],
      [{ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'x' } }] }, /runs its own tools/],
      [{ model: 'other:second', messages: [{ role: 'tool', content: 'r', tool_call_id: 'call_9' }] }, /must answer a tool call/],
      [{ model: 'other:second', messages: [{ role: 'user', content: 'hi' }], tool_choice: { type: 'function', function: { name: 'nope' } } }, /not in tools/],
    ];
    for (const [body, message] of cases) {
      const res = await raw(JSON.stringify(body));
      const answer = (await res.json()) as { error: { message: string } };
      expect([res.status, answer.error.message]).toEqual([400, expect.stringMatching(message)]);
      expect(answer).toMatchObject({ error: { type: 'invalid_request_error', code: expect.any(String) } });
    }
    // The official client raises them as BadRequestError; an unknown model is a 404 as at OpenAI.
    await expect(h.client.chat.completions.create({ model: 'hearth-agent', messages: [] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(h.client.chat.completions.create({ model: 'openai:gpt-nope', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    expect(h.agentModel.requests).toHaveLength(0);
    expect(h.otherModel.requests).toHaveLength(0);
    expect(h.engine.sessions.store.listSessions()).toHaveLength(0);
  });
});

describe('OpenAI-compatible API: hearth-agent', () => {
  // Catches an API that calls the model once instead of running the agent: the tool call must run, be stored,
  // and its result reach the model before the answer; usage is the sum over the turn's model calls.
  it('runs a whole agent turn without streaming: the tool call is in the store, the answer and usage in the completion', async () => {
    const h = await start([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }], usage: { input: 100, output: 10 } },
      { text: 'The notes say: buy milk.', usage: { input: 150, output: 8 } },
    ]);
    writeFileSync(join(h.workspace, 'notes.txt'), 'buy milk\n');
    const { data, response } = await h.client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'What do my notes say?' }] }).withResponse();
    expect(data).toMatchObject({
      object: 'chat.completion',
      model: 'hearth-agent',
      choices: [{ index: 0, message: { role: 'assistant', content: 'The notes say: buy milk.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 250, completion_tokens: 18, total_tokens: 268 },
    });
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.choices[0]?.message.tool_calls).toBeUndefined();
    const sessionId = response.headers.get('x-hearth-session');
    expect(sessionId).toBeTruthy();
    const store = h.engine.sessions.store;
    expect(store.getSession(sessionId!)).toMatchObject({ source: 'api', title: 'What do my notes say?' });
    const rows = store.getMessages(sessionId!);
    expect(rows.map((r) => r.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(rows[2]).toMatchObject({ toolName: 'read_file', outcome: { status: 'done' } });
    expect(rows[2]?.content).toContain('buy milk');
    // The agent's own prompt and tools went to the model, and the second call carried the tool result.
    const first = h.agentModel.requests[0] as { messages: { role: string }[]; tools: { function: { name: string } }[] };
    expect(first.messages[0]?.role).toBe('system');
    expect(first.tools.map((t) => t.function.name)).toContain('terminal');
    expect(sentMessages(h.agentModel, 1).at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('buy milk') });
  });

  // Catches frames that are not OpenAI's (role first, content deltas, finish on an empty delta, usage chunk, [DONE]),
  // and a session header that does not continue the conversation.
  it('streams chat.completion.chunk frames as OpenAI does, and X-Hearth-Session continues the session', async () => {
    const h = await start([
      { text: 'Hello there, friend.', usage: { input: 40, output: 5 } },
      { text: 'You said hello.', usage: { input: 60, output: 4 } },
    ]);
    const { data: stream, response } = await h.client.chat.completions
      .create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'Say hello' }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'hearth-agent' && c.id === chunks[0]?.id)).toBe(true);
    const contentChunks = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(contentChunks.length).toBeGreaterThan(1);
    expect(contentChunks.map((c) => c.choices[0]?.delta.content).join('')).toBe('Hello there, friend.');
    const finish = chunks.at(-2);
    expect(finish?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 5, total_tokens: 45 } });
    const sessionId = response.headers.get('x-hearth-session')!;

    // The next request resends the conversation, as OpenAI clients do; with the header the stored session is the context.
    const next = await h.client.chat.completions.create(
      {
        model: 'hearth-agent',
        messages: [
          { role: 'user', content: 'Say hello' },
          { role: 'assistant', content: 'Hello there, friend.' },
          { role: 'user', content: 'What did I say?' },
        ],
      },
      { headers: { 'X-Hearth-Session': sessionId } },
    );
    expect(next.choices[0]?.message.content).toBe('You said hello.');
    const sent = sentMessages(h.agentModel, 1).filter((m) => m.role !== 'system');
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Say hello'],
      ['assistant', 'Hello there, friend.'],
      ['user', 'What did I say?'],
    ]);
    expect(h.engine.sessions.store.getMessages(sessionId).map((m) => m.content)).toEqual(['Say hello', 'Hello there, friend.', 'What did I say?', 'You said hello.']);
    expect(h.engine.sessions.store.listSessions()).toHaveLength(1);
    await expect(
      h.client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'X-Hearth-Session': 'no-such-session' } }),
    ).rejects.toMatchObject({ status: 404, code: 'session_not_found' });
  });

  // Catches the raw stream drifting from OpenAI's bytes in ways a lenient client would hide (no [DONE], no blank lines).
  it('ends the raw SSE stream with data: [DONE] after the finish chunk', async () => {
    const h = await start([{ text: 'Short.' }]);
    const res = await fetch(`${h.api.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'hearth-agent', messages: [{ role: 'user', content: 'Be short' }], stream: true }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const frames = (await res.text()).split('\n\n').filter((f) => f !== '');
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const parsed = frames.slice(0, -1).map((f) => JSON.parse(f.slice('data: '.length)) as { choices: { finish_reason: string | null }[]; usage?: unknown });
    expect(parsed.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    // Usage was not asked for: no usage field, no usage chunk.
    expect(parsed.some((p) => 'usage' in p)).toBe(false);
  });

  // Catches a client's earlier messages being dropped (or its system message ignored) when no session is named.
  it('seeds a new session with the earlier messages, the client system message as a note', async () => {
    const h = await start([{ text: 'Paris, as before.' }]);
    const completion = await h.client.chat.completions.create({
      model: 'hearth-agent',
      messages: [
        { role: 'system', content: 'Answer in one line.' },
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: 'Again?' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('Paris, as before.');
    const sent = sentMessages(h.agentModel, 0);
    expect(sent[0]?.role).toBe('system');
    expect(sent[0]?.content).not.toContain('Answer in one line.');
    expect(sent.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', expect.stringContaining('Answer in one line.')],
      ['user', 'Capital of France?'],
      ['assistant', 'Paris.'],
      ['user', 'Again?'],
    ]);
    const [session] = h.engine.sessions.store.listSessions();
    const rows = h.engine.sessions.store.getMessages(session!.id);
    expect(rows.map((r) => [r.role, r.origin])).toEqual([
      ['user', 'hearth'],
      ['user', 'user'],
      ['assistant', 'model'],
      ['user', 'user'],
      ['assistant', 'model'],
    ]);
  });

  // Catches an API turn that waits out the approval timeout (nobody can answer) or, worse, runs the command.
  it('denies a dangerous command at once when nobody can approve it, and the answer still comes', async () => {
    const victim = mkdtempSync(join(tmpdir(), 'hearth-api-victim-'));
    writeFileSync(join(victim, 'keep.txt'), 'precious');
    const h = await start([{ toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] }, { text: 'I was not allowed to delete it.' }]);
    const completion = await h.client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'Delete that folder' }] }, { timeout: 15_000 });
    expect(completion.choices[0]?.message.content).toBe('I was not allowed to delete it.');
    expect(existsSync(join(victim, 'keep.txt'))).toBe(true);
    const [session] = h.engine.sessions.store.listSessions();
    const tool = h.engine.sessions.store.getMessages(session!.id).find((r) => r.role === 'tool');
    expect(tool?.outcome).toMatchObject({ status: 'denied' });
  });

  // Catches API approvals that bypass the broker: with another surface attached the question waits for it, and
  // its answer decides (here "once": the command runs); a hardline command never runs whoever would answer.
  it('leaves the approval to another surface of the engine when told to, and never runs a hardline command', async () => {
    const victim = mkdtempSync(join(tmpdir(), 'hearth-api-victim-'));
    writeFileSync(join(victim, 'gone.txt'), 'x');
    const h = await start(
      [
        { toolCalls: [{ name: 'terminal', arguments: { command: `rm -rf ${victim}` } }] },
        { toolCalls: [{ name: 'terminal', arguments: { command: 'rm -rf / --no-preserve-root' } }] },
        { text: 'Deleted the folder; the other command was refused.' },
      ],
      { approvals: 'surface' },
    );
    const answered = h.client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'Clean up' }] });
    const host = h.engine.sessions.host;
    await expect.poll(() => host.pendingQuestions().approvals.length, { timeout: 10_000 }).toBe(1);
    const [pending] = host.pendingQuestions().approvals;
    expect(pending?.request.command).toBe(`rm -rf ${victim}`);
    expect(existsSync(victim)).toBe(true);
    expect(host.answerApproval(pending!.request.id, 'once')).toBe(true);
    const completion = await answered;
    expect(completion.choices[0]?.message.content).toBe('Deleted the folder; the other command was refused.');
    expect(existsSync(victim)).toBe(false);
    const [session] = h.engine.sessions.store.listSessions();
    const outcomes = h.engine.sessions.store.getMessages(session!.id).filter((r) => r.role === 'tool').map((r) => r.outcome?.status);
    expect(outcomes).toEqual(['done', 'denied']);
  });

  // Catches a clarify question that hangs an API turn forever (nobody can answer it through the API).
  it('answers the agent\'s clarify question for the absent user, so the turn goes on', async () => {
    const h = await start([{ toolCalls: [{ name: 'clarify', arguments: { question: 'Which folder?' } }] }, { text: 'I picked the workspace.' }]);
    const { data, response } = await h.client.chat.completions
      .create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'Tidy a folder' }], temperature: 0.3 }, { timeout: 15_000 })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('I picked the workspace.');
    // The agent's model settings are config.yaml's: a sampling field is not applied, and the answer says so.
    expect(response.headers.get('x-hearth-ignored')).toBe('temperature');
    expect(sentMessages(h.agentModel, 1).at(-1)?.content).toContain('cannot be asked questions during a turn');
  });

  // Catches a turn that keeps running (model stream, tools) after the client hung up.
  it('stops the turn when the client aborts mid-stream', async () => {
    const h = await start([{ text: 'Thinking about it at great length', hangMs: 60_000 }]);
    const controller = new AbortController();
    const { data: stream, response } = await h.client.chat.completions
      .create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'Take your time' }], stream: true }, { signal: controller.signal })
      .withResponse();
    const sessionId = response.headers.get('x-hearth-session')!;
    let received = '';
    // The SDK ends the iteration quietly when its own signal aborts it.
    for await (const chunk of stream) {
      received += chunk.choices[0]?.delta.content ?? '';
      if (received.length > 0) controller.abort();
    }
    expect(received.length).toBeGreaterThan(0);
    // The model stalls for a minute after its first piece: only the interrupt ends the turn this soon.
    await expect.poll(() => h.engine.sessions.host.isRunning(sessionId), { timeout: 10_000 }).toBe(false);
    // The interrupted response is dropped whole: only the user's message is stored.
    expect(h.engine.sessions.store.getMessages(sessionId).map((r) => r.role)).toEqual(['user']);
  });

  // Catches a failed turn that leaves a streaming client hanging, or ends the stream as if it had succeeded.
  it('ends a stream whose turn fails with an error frame the client raises', async () => {
    const failing = [{ status: 401, errorMessage: 'bad upstream key' }, { status: 401, errorMessage: 'bad upstream key' }];
    // The fallback fails too, so the chain gives up at once.
    const h = await start(failing, { otherScript: [{ status: 401, errorMessage: 'fallback down' }, { status: 401, errorMessage: 'fallback down' }] });
    const stream = await h.client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const read = (async () => {
      for await (const _chunk of stream) {
        // Drained until the error frame.
      }
    })();
    await expect(read).rejects.toMatchObject({ message: expect.stringContaining('bad upstream key') });
    await expect(h.client.chat.completions.create({ model: 'hearth-agent', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 502 });
  });
});

describe('OpenAI-compatible API: passing a model id through', () => {
  const weather = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };

  // Catches a pass-through that wraps the agent around the call (system prompt, Hearth's tools) or loses the client's tools.
  it('sends the client messages and tools straight to that model and returns its tool calls', async () => {
    const h = await start([], { otherScript: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }], usage: { input: 30, output: 7 } }] });
    const completion = await h.client.chat.completions.create({
      model: 'other:second',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      tools: [weather],
      temperature: 0.2,
      max_tokens: 50,
    });
    expect(completion.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] } });
    expect(completion.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 7 });
    const sent = h.otherModel.requests[0] as { messages: unknown[]; tools: { function: { name: string } }[]; temperature: number; max_tokens?: number; max_completion_tokens?: number };
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Oslo?' },
    ]);
    expect(sent.tools.map((t) => t.function.name)).toEqual(['get_weather']);
    expect(sent.temperature).toBe(0.2);
    expect(h.agentModel.requests).toHaveLength(0);
    // No session: a passed-through call is the client's conversation, not Hearth's.
    expect(h.engine.sessions.store.listSessions()).toHaveLength(0);
  });

  // Catches tool-call deltas a real client cannot assemble (the SDK's stream helper rebuilds the whole completion).
  it('streams text and tool calls the official stream helper assembles, with a tool result sent back', async () => {
    const h = await start([], {
      otherScript: [
        { text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { text: 'It is sunny in Oslo.' },
      ],
    });
    const runner = h.client.chat.completions.stream({ model: 'other:second', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [weather], stream_options: { include_usage: true } });
    const final = await runner.finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(message?.content).toBe('Checking.');
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.tool_calls).toHaveLength(1);
    const call = message!.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(final.usage?.total_tokens).toBeGreaterThan(0);

    const answer = await h.client.chat.completions.create({
      model: 'other:second',
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: 'Checking.', tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'sunny' },
      ],
      tools: [weather],
    });
    expect(answer.choices[0]?.message.content).toBe('It is sunny in Oslo.');
    expect((h.otherModel.requests[1] as { messages: unknown[] }).messages.at(-1)).toEqual({ role: 'tool', tool_call_id: call.id, content: 'sunny' });
  });

  // Catches a passed-through call that keeps the upstream request open after the client left.
  it('stops the model call when the client aborts a passed-through stream', async () => {
    const upstream = await startStallingServer();
    const h = await start([], { otherUrl: upstream.url });
    const controller = new AbortController();
    const stream = await h.client.chat.completions.create({ model: 'other:second', messages: [{ role: 'user', content: 'Go' }], stream: true }, { signal: controller.signal });
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) controller.abort();
    // The upstream model never finishes: only the API passing the abort on closes its request.
    await expect.poll(() => upstream.closed, { timeout: 10_000 }).toBe(1);
    expect(upstream.received).toBe(1);
  });
});
