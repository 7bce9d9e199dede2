import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AgentHost } from '../src/core/agent/host.js';
import { MISSING_RESULT } from '../src/core/agent/history-repair.js';
import { LocalBackend } from '../src/core/exec/local.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import type { SqliteSessionStore } from '../src/core/store/session-store.js';
import { createToolset } from '../src/core/tools/registry.js';
import type { AgentEvent } from '../src/shared/events.js';
import { ScriptedModel, type Script } from './fixtures/scripted-model.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-host-test-')));
const backend = new LocalBackend();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(async () => {
  await backend.dispose();
  rmSync(root, { recursive: true, force: true });
});
let counter = 0;

interface Setup {
  host: AgentHost;
  model: ScriptedModel;
  store: SqliteSessionStore;
  temp: TempStore;
  workspace: string;
  home: string;
}

function setup(script: Script, options: { temp?: TempStore; workspace?: string; home?: string } = {}): Setup {
  counter += 1;
  const workspace = options.workspace ?? join(root, `ws${counter}`);
  const home = options.home ?? join(root, `home${counter}`);
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  const temp = options.temp ?? createTempStore('hearth-host-store-');
  const store = temp.open();
  const model = new ScriptedModel(script);
  const host = new AgentHost({ store, model, tools: createToolset('default', { backend }), approvals: new ApprovalPolicyBroker(), home, workspace });
  cleanups.push(async () => {
    await host.close();
    if (options.temp === undefined) temp.cleanup();
  });
  return { host, model, store, temp, workspace, home };
}

async function collect(events: AsyncIterable<AgentEvent>, onEvent: (e: AgentEvent) => void = () => undefined): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent(event);
  }
  return seen;
}

describe('AgentHost', () => {
  it('runs a turn, streams typed events and persists every message with usage in the encrypted store', async () => {
    const s = setup([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'note.txt', content: 'x' } }], usage: { inputTokens: 120, outputTokens: 8 } },
      { text: 'Saved the note.', usage: { inputTokens: 140, outputTokens: 4 } },
    ]);
    const id = s.host.startSession({ source: 'cli' });
    const events = await collect(s.host.send(id, 'Save a note please'));
    expect(events[0]).toEqual({ type: 'session', sessionId: id, model: 'scripted:test' });
    expect(events.at(-1)).toEqual({ type: 'turn_end', reason: 'stop', final: 'Saved the note.' });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_start', 'tool_end', 'text_delta', 'usage', 'status']));

    const stored = s.store.getMessages(id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(stored[1]).toMatchObject({ toolCalls: [{ name: 'write_file' }], inputTokens: 120, outputTokens: 8 });
    expect(stored[2]).toMatchObject({ toolName: 'write_file', content: 'Created note.txt (1 byte, 1 line).' });
    expect(s.store.getSession(id)).toMatchObject({ inputTokens: 260, outputTokens: 12, title: 'Save a note please', messageCount: 4 });
  });

  it('sends a byte-identical system prompt on every call of a session, built from SOUL.md and AGENTS.md', async () => {
    counter += 1;
    const home = join(root, `soulhome${counter}`);
    const workspace = join(root, `soulws${counter}`);
    mkdirSync(home, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(home, 'SOUL.md'), 'You are Ember, a terse helper.\n');
    writeFileSync(join(workspace, 'AGENTS.md'), 'Always run npm test before committing.\n');
    const s = setup([{ toolCalls: [{ name: 'todo', arguments: {} }] }, { text: 'one' }, { text: 'two' }], { home, workspace });
    const id = s.host.startSession({ source: 'cli' });
    await collect(s.host.send(id, 'first'));
    // A host that rebuilt the prompt per turn would pick this edit up and break the provider/KV cache prefix.
    writeFileSync(join(workspace, 'AGENTS.md'), 'Edited mid-session.\n');
    await collect(s.host.send(id, 'second'));
    const systems = s.model.requests.map((r) => r.messages[0]);
    expect(systems).toHaveLength(3);
    expect(systems.every((m) => m?.role === 'system' && m.content === systems[0]?.content)).toBe(true);
    const prompt = systems[0]!.content;
    expect(prompt.startsWith('You are Ember, a terse helper.')).toBe(true);
    expect(prompt).toContain('# Project instructions (AGENTS.md)\nAlways run npm test before committing.');
    expect(prompt).toContain(`Session: ${id}`);
    // Stable tier before context tier before volatile tier.
    expect(prompt.indexOf('How to work')).toBeLessThan(prompt.indexOf('Project instructions'));
    expect(prompt.indexOf('Project instructions')).toBeLessThan(prompt.indexOf('# Environment'));
  });

  it('a resumed session continues from the stored history with the same system prompt', async () => {
    const temp = createTempStore('hearth-host-resume-');
    cleanups.push(() => temp.cleanup());
    counter += 1;
    const workspace = join(root, `resume${counter}`);
    const first = setup([{ text: 'Hello!' }], { temp, workspace });
    const id = first.host.startSession({ source: 'cli' });
    await collect(first.host.send(id, 'hi'));
    const originalPrompt = first.model.requests[0]!.messages[0];
    await first.host.close();

    const second = setup([{ text: 'You said hi.' }], { temp, workspace, home: first.home });
    second.host.resumeSession(id);
    await collect(second.host.send(id, 'what did I say?'));
    const request = second.model.requests[0]!;
    expect(request.messages[0]).toEqual(originalPrompt);
    expect(request.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello!'],
      ['user', 'what did I say?'],
    ]);
    expect(() => second.host.resumeSession('no-such-session')).toThrow(expect.objectContaining({ code: 'session_not_found' }));
  });

  // Catches a session killed between a tool call and its result becoming unresumable (providers reject
  // a call without a result), or the gap being papered over with an invented result.
  it('resuming a session that was killed mid-call answers the unrecorded call explicitly', async () => {
    const { host, model, store } = setup([{ text: 'I will check first.' }]);
    const session = store.createSession({ source: 'cli', model: 'scripted' });
    store.appendMessage(session.id, { role: 'user', content: 'clean the build' });
    store.appendMessage(session.id, {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'terminal', arguments: '{"command":"ls"}' },
        { id: 'c2', name: 'terminal', arguments: '{"command":"rm -r build"}' },
      ],
    });
    store.appendMessage(session.id, { role: 'tool', content: 'build src', toolCallId: 'c1', toolName: 'terminal' });

    await collect(host.send(session.id, 'did it finish?'));
    const sent = model.requests[0]!.messages.slice(1);
    expect(sent.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role))).toEqual(['user', 'assistant', 'tool:c1', 'tool:c2', 'user']);
    expect(sent[2]?.content).toBe('build src');
    expect(sent[3]?.content).toBe(MISSING_RESULT);
    // The store still shows what really happened.
    expect(store.getMessages(session.id).filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  it('approval requests become events; a denial means the command never runs, an approval lets it run', async () => {
    const s = setup([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'touch denied-marker && rm -rf victim' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'touch approved-marker && rm -rf victim' } }] },
      { text: 'done' },
    ]);
    mkdirSync(join(s.workspace, 'victim'));
    const id = s.host.startSession({ source: 'cli' });
    const answers = ['deny', 'once'] as const;
    let asked = 0;
    const events = await collect(s.host.send(id, 'clean up'), (e) => {
      if (e.type === 'approval_request') {
        expect(e.command).toContain('rm -rf victim');
        expect(s.host.answerApproval(e.id, answers[asked]!)).toBe(true);
        asked += 1;
      }
    });
    expect(asked).toBe(2);
    expect(events.filter((e) => e.type === 'approval_resolved').map((e) => (e as { approved: boolean }).approved)).toEqual([false, true]);
    expect(existsSync(join(s.workspace, 'denied-marker'))).toBe(false);
    expect(existsSync(join(s.workspace, 'approved-marker'))).toBe(true);
    expect(existsSync(join(s.workspace, 'victim'))).toBe(false);
    expect(s.host.answerApproval('unknown-id', 'once')).toBe(false);
  });

  it('clarify questions become events and the answer reaches the model', async () => {
    const s = setup([{ toolCalls: [{ name: 'clarify', arguments: { question: 'Which file?', choices: ['a.txt', 'b.txt'] } }] }, { text: 'ok' }]);
    const id = s.host.startSession({ source: 'cli' });
    await collect(s.host.send(id, 'edit the file'), (e) => {
      if (e.type === 'clarify_request') {
        expect(e).toMatchObject({ question: 'Which file?', choices: ['a.txt', 'b.txt'] });
        s.host.answerClarify(e.id, 'b.txt');
      }
    });
    expect(s.model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'The user answered: b.txt' });
  });

  it('interrupt ends a hanging model call; steer reaches the running turn; a second send while busy is refused', async () => {
    const s = setup([{ text: 'thinking…', hangUntilAborted: true }]);
    const id = s.host.startSession({ source: 'cli' });
    const stream = s.host.send(id, 'long task');
    expect(() => s.host.send(id, 'another')).toThrow(expect.objectContaining({ code: 'usage' }));
    const events = await collect(stream, (e) => {
      if (e.type === 'text_delta') s.host.interrupt(id);
    });
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'aborted' });
    expect(s.store.getMessages(id).map((m) => m.role)).toEqual(['user']);
    expect(s.host.isRunning(id)).toBe(false);
    expect(s.host.interrupt(id)).toBe(false);
    expect(s.host.steer(id, 'too late')).toBe(false);
  });

  it('leaving the event loop early interrupts the turn instead of leaving it running', async () => {
    const s = setup([{ text: 'streaming', hangUntilAborted: true }]);
    const id = s.host.startSession({ source: 'cli' });
    for await (const event of s.host.send(id, 'go')) {
      if (event.type === 'text_delta') break;
    }
    for (let i = 0; i < 100 && s.host.isRunning(id); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(s.host.isRunning(id)).toBe(false);
  });
});
