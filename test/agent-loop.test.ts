import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runTurn, type TurnOptions, type TurnResult } from '../src/core/agent/loop.js';
import { SteerQueue } from '../src/core/agent/steer-queue.js';
import { LocalBackend } from '../src/core/exec/local.js';
import type { ChatMessage } from '../src/core/llm/types.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { defineTool } from '../src/core/tools/define.js';
import { ToolRegistry, anyTool, builtinTools, type AnyTool } from '../src/core/tools/registry.js';
import type { AgentEvent } from '../src/shared/events.js';
import { ScriptedModel, type Script } from './fixtures/scripted-model.js';
import { processIsGone } from './fixtures/tool-harness.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-loop-test-')));
const backend = new LocalBackend({ killGraceMs: 300 });
afterAll(async () => {
  await backend.dispose();
  rmSync(root, { recursive: true, force: true });
});
let counter = 0;

interface Harness {
  result: Promise<TurnResult>;
  events: AgentEvent[];
  persisted: ChatMessage[];
  model: ScriptedModel;
  workspace: string;
  controller: AbortController;
  steer: SteerQueue;
}

function start(script: Script, extra: { tools?: AnyTool[]; options?: Partial<TurnOptions>; workspace?: string } = {}): Harness {
  counter += 1;
  const workspace = extra.workspace ?? join(root, `ws${counter}`);
  mkdirSync(workspace, { recursive: true });
  const model = new ScriptedModel(script);
  const events: AgentEvent[] = [];
  const persisted: ChatMessage[] = [];
  const controller = new AbortController();
  const steer = new SteerQueue();
  const result = runTurn({
    sessionId: 'session-1',
    workspace,
    systemPrompt: 'SYSTEM',
    history: [],
    userText: 'do the thing',
    model,
    tools: new ToolRegistry([...builtinTools({ backend }), ...(extra.tools ?? [])]),
    approvals: new ApprovalPolicyBroker(),
    toolState: new Map(),
    signal: controller.signal,
    steer,
    askUser: async () => 'yes',
    emit: (e) => events.push(e),
    onMessage: (m) => void persisted.push(m),
    ...extra.options,
  });
  return { result, events, persisted, model, workspace, controller, steer };
}

const toolMessages = (messages: ChatMessage[]) => messages.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool');

/** Parallel-safe test tool that records when it starts and ends; `wait` is how long it works. */
function recordingTool(name: string, log: string[], options: { parallelSafe?: boolean; barrier?: Barrier } = {}) {
  return anyTool(
    defineTool({
      name,
      description: 'test tool',
      input: z.object({ label: z.string(), wait: z.number().optional(), path: z.string().optional() }),
      parallelSafe: options.parallelSafe ?? true,
      paths: (input, ctx) => (input.path === undefined ? [] : [resolve(ctx.workspace, input.path)]),
      async run(input) {
        log.push(`start ${input.label}`);
        await options.barrier?.arrive();
        await new Promise((r) => setTimeout(r, input.wait ?? 0));
        log.push(`end ${input.label}`);
        return `result ${input.label}`;
      },
    }),
  );
}

/** Resolves once `parties` callers have arrived; rejects after 3 s so a sequential run fails instead of hanging. */
class Barrier {
  private arrived = 0;
  private release!: () => void;
  private readonly open = new Promise<void>((r) => (this.release = r));
  constructor(private readonly parties: number) {}
  arrive(): Promise<void> {
    this.arrived += 1;
    if (this.arrived === this.parties) this.release();
    return Promise.race([this.open, new Promise<void>((_, reject) => setTimeout(() => reject(new Error('barrier timed out: calls ran one at a time')), 3000))]);
  }
}

describe('runTurn', () => {
  it('executes tool calls, feeds results back, and persists every message in order', async () => {
    const h = start([{ text: 'Writing.', toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'hi' }, id: 'c1' }] }, { text: 'Done.' }]);
    const result = await h.result;
    expect(result).toMatchObject({ reason: 'stop', final: 'Done.' });
    expect(readFileSync(join(h.workspace, 'a.txt'), 'utf8')).toBe('hi');
    expect(h.persisted.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(h.persisted[2]).toEqual({ role: 'tool', content: 'Created a.txt (2 bytes, 1 line).', toolCallId: 'c1', toolName: 'write_file' });
    // The second model call saw the system prompt, the whole exchange, and the tool schemas.
    const second = h.model.requests[1]!;
    expect(second.messages[0]).toEqual({ role: 'system', content: 'SYSTEM' });
    expect(second.messages.slice(1)).toEqual(h.persisted.slice(0, 3));
    expect(second.tools.map((t) => t.name)).toContain('write_file');
    expect(h.events.filter((e) => e.type === 'text_delta').map((e) => (e as { delta: string }).delta).join('')).toBe('Writing.Done.');
    expect(h.events.at(-1)).toEqual({ type: 'turn_end', reason: 'stop', final: 'Done.' });
  });

  it('runs a parallel-safe batch concurrently yet keeps results in call order', async () => {
    const log: string[] = [];
    const barrier = new Barrier(2);
    // Both calls must be inside the tool at once to pass the barrier; the first one then finishes last.
    const h = start(
      [{ toolCalls: [{ name: 'probe', arguments: { label: 'A', wait: 150 } }, { name: 'probe', arguments: { label: 'B', wait: 0 } }] }, { text: 'ok' }],
      { tools: [recordingTool('probe', log, { barrier })] },
    );
    expect((await h.result).reason).toBe('stop');
    expect(log).toEqual(['start A', 'start B', 'end B', 'end A']);
    expect(toolMessages(h.persisted).map((m) => m.content)).toEqual(['result A', 'result B']);
  });

  it.each([
    ['two calls on the same path', { label: 'A', path: 'f.txt' }, { label: 'B', path: 'f.txt' }, true],
    ['a directory and a file inside it', { label: 'A', path: 'dir' }, { label: 'B', path: 'dir/f.txt' }, true],
    ['different paths', { label: 'A', path: 'x.txt' }, { label: 'B', path: 'y.txt' }, false],
  ])('%s: sequential when paths overlap', async (_name, a, b, sequential) => {
    const log: string[] = [];
    const h = start([{ toolCalls: [{ name: 'probe', arguments: { ...a, wait: 60 } }, { name: 'probe', arguments: { ...b, wait: 0 } }] }, { text: 'ok' }], {
      tools: [recordingTool('probe', log)],
    });
    await h.result;
    expect(log).toEqual(sequential ? ['start A', 'end A', 'start B', 'end B'] : ['start A', 'start B', 'end B', 'end A']);
  });

  it('one non-parallel-safe tool (or clarify) makes the whole batch sequential', async () => {
    for (const second of [{ name: 'unsafe', arguments: { label: 'B' } }, { name: 'clarify', arguments: { question: 'ok?' } }]) {
      const log: string[] = [];
      const h = start([{ toolCalls: [{ name: 'probe', arguments: { label: 'A', wait: 60 } }, second] }, { text: 'ok' }], {
        tools: [recordingTool('probe', log), recordingTool('unsafe', log, { parallelSafe: false })],
      });
      await h.result;
      expect(log.slice(0, 2)).toEqual(['start A', 'end A']);
    }
  });

  it('unknown tools, invalid JSON and schema-invalid arguments become error results and the loop continues', async () => {
    const h = start([
      {
        toolCalls: [
          { name: 'teleport', arguments: {} },
          { name: 'read_file', arguments: '{"path": "a.txt",' },
          { name: 'read_file', arguments: { path: 42, limit: -1 } },
        ],
      },
      { text: 'recovered' },
    ]);
    const result = await h.result;
    expect(result).toMatchObject({ reason: 'stop', final: 'recovered' });
    const [unknown, badJson, badArgs] = toolMessages(h.persisted).map((m) => m.content);
    expect(unknown).toMatch(/^Unknown tool "teleport"\. Available tools: read_file, write_file, patch, search_files, terminal, todo, clarify\.$/);
    expect(badJson).toMatch(/^Invalid JSON in the arguments of read_file: .+/);
    expect(badArgs).toMatch(/^Invalid arguments for read_file: path: .*expected string.*; limit: .*>=1/i);
    expect(h.events.filter((e) => e.type === 'tool_end').every((e) => (e as { isError: boolean }).isError)).toBe(true);
  });

  it('a tool that throws gives an error result and a notice, and the loop continues', async () => {
    const broken = anyTool(
      defineTool({
        name: 'broken',
        description: 'always fails',
        input: z.object({}),
        parallelSafe: false,
        async run() {
          throw new Error('disk on fire');
        },
      }),
    );
    const h = start([{ toolCalls: [{ name: 'broken', arguments: {} }] }, { text: 'noted' }], { tools: [broken] });
    expect((await h.result).final).toBe('noted');
    expect(toolMessages(h.persisted)[0]?.content).toBe('Tool broken failed: disk on fire');
    expect(h.events).toContainEqual({ type: 'notice', level: 'error', message: 'Tool broken failed: disk on fire' });
  });

  it('caps huge tool results with a note', async () => {
    const huge = anyTool(defineTool({ name: 'huge', description: 'big', input: z.object({}), parallelSafe: true, run: async () => 'x'.repeat(5000) }));
    const h = start([{ toolCalls: [{ name: 'huge', arguments: {} }] }, { text: 'ok' }], { tools: [huge], options: { resultLimit: 1000 } });
    await h.result;
    const content = toolMessages(h.persisted)[0]!.content;
    expect(content.length).toBeLessThan(1300);
    expect(content).toContain('[Result cut to 1000 of 5000 characters.');
  });

  it('interrupt during a real `sleep 30` kills its process group and ends the turn promptly with valid history', async () => {
    counter += 1;
    const workspace = join(root, `ws${counter}`);
    const pidFile = join(workspace, 'sleep.pid');
    const h = start(
      [
        {
          toolCalls: [
            { name: 'terminal', arguments: { command: `sleep 30 & echo $! > ${pidFile}; wait` }, id: 't1' },
            { name: 'todo', arguments: {}, id: 't2' },
          ],
        },
      ],
      { workspace },
    );
    for (let i = 0; i < 250 && !existsSync(pidFile); i += 1) await new Promise((r) => setTimeout(r, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const interruptedAt = Date.now();
    h.controller.abort();
    const result = await h.result;
    expect(Date.now() - interruptedAt).toBeLessThan(5000); // 30 s would mean nobody killed the sleep
    expect(result.reason).toBe('aborted');
    await new Promise((r) => setTimeout(r, 100));
    expect(processIsGone(pid)).toBe(true);
    // Every issued call has a result, the skipped one included.
    expect(toolMessages(h.persisted).map((m) => [m.toolCallId, m.content])).toEqual([
      ['t1', 'Cancelled by the user before this call finished.'],
      ['t2', 'Cancelled by the user before this call finished.'],
    ]);
    expect(h.events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'aborted' });
  });

  it('an interrupted model response is discarded whole', async () => {
    const h = start([{ text: 'half an answ', hangUntilAborted: true }]);
    while (!h.events.some((e) => e.type === 'text_delta')) await new Promise((r) => setTimeout(r, 5));
    h.controller.abort();
    const result = await h.result;
    expect(result.reason).toBe('aborted');
    expect(h.persisted).toEqual([{ role: 'user', content: 'do the thing' }]);
  });

  it('budget: with max 3 iterations a tool-happy model gets exactly 3 calls plus one grace call without tools', async () => {
    const h = start(() => ({ text: 'more', toolCalls: [{ name: 'todo', arguments: {} }] }), { options: { maxIterations: 3 } });
    const result = await h.result;
    expect(result.reason).toBe('budget');
    expect(h.model.requests).toHaveLength(4);
    expect(h.model.requests.slice(0, 3).every((r) => r.tools.length > 0 && r.toolChoice === 'auto')).toBe(true);
    expect(h.model.requests[3]).toMatchObject({ tools: [], toolChoice: 'none' });
    expect(h.model.requests[3]!.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('tools are now disabled') });
    // The grace reply's tool calls are not kept, so the history has no call without a result.
    const last = h.persisted.at(-1)!;
    expect(last).toEqual({ role: 'assistant', content: 'more' });
    expect(h.events).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning' }));
    expect(h.events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'budget', final: 'more' });
  });

  it('steer text sent while a tool runs lands in that tool result, not in a new user turn', async () => {
    let releaseTool!: () => void;
    const gate = new Promise<void>((r) => (releaseTool = r));
    const gated = anyTool(
      defineTool({
        name: 'gated',
        description: 'waits for the test',
        input: z.object({}),
        parallelSafe: false,
        async run() {
          await gate;
          return 'tool output';
        },
      }),
    );
    const h = start([{ toolCalls: [{ name: 'gated', arguments: {} }] }, { text: 'adjusted' }], { tools: [gated] });
    while (!h.events.some((e) => e.type === 'tool_start')) await new Promise((r) => setTimeout(r, 5));
    h.steer.push('use tabs, not spaces');
    releaseTool();
    await h.result;
    expect(toolMessages(h.persisted)[0]!.content).toBe('tool output\n\n[User steer: use tabs, not spaces]');
    expect(h.persisted.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(h.events).toContainEqual({ type: 'steer_applied', text: 'use tabs, not spaces' });
    expect(h.model.requests[1]!.messages.at(-1)!.content).toContain('[User steer: use tabs, not spaces]');
  });

  it('steer text that arrives when the model answers without tools becomes a user message and the turn continues', async () => {
    const h = start([{ text: 'first answer', delayMs: 30 }, { text: 'second answer' }]);
    while (!h.events.some((e) => e.type === 'text_delta')) await new Promise((r) => setTimeout(r, 5));
    h.steer.push('also check the tests');
    const result = await h.result;
    expect(result.final).toBe('second answer');
    expect(h.persisted.map((m) => [m.role, m.content])).toEqual([
      ['user', 'do the thing'],
      ['assistant', 'first answer'],
      ['user', 'also check the tests'],
      ['assistant', 'second answer'],
    ]);
  });

  it('a model failure ends the turn with a typed error and keeps the history valid', async () => {
    const { HearthError } = await import('../src/core/errors.js');
    const h = start([{ text: 'partial', error: new HearthError('model_http', 'HTTP 500 from provider') }]);
    const result = await h.result;
    expect(result).toMatchObject({ reason: 'error', error: { code: 'model_http', message: 'HTTP 500 from provider' } });
    expect(h.persisted).toEqual([{ role: 'user', content: 'do the thing' }]);
  });

  it('usage is reported per call and totalled per turn', async () => {
    const h = start([
      { toolCalls: [{ name: 'todo', arguments: {} }], usage: { inputTokens: 100, outputTokens: 10 } },
      { text: 'ok', usage: { inputTokens: 150, outputTokens: 5, evaluatedInputTokens: 50 } },
    ]);
    const result = await h.result;
    expect(result.usage).toEqual({ inputTokens: 250, outputTokens: 15 });
    expect(h.events.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', inputTokens: 100, outputTokens: 10 },
      { type: 'usage', inputTokens: 150, outputTokens: 5, evaluatedInputTokens: 50 },
    ]);
  });
});
