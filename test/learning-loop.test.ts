import { afterEach, describe, expect, it } from 'vitest';
import { LearningLoop, type LearningSettings, type ReflectionCounts, type SessionView } from '../src/core/learning/learning-loop.js';
import { ConversationCounterStore } from '../src/core/learning/conversation-counters.js';
import { LearningJournal } from '../src/core/learning/journal.js';
import { LocalBackend } from '../src/core/exec/local.js';
import { runTurn } from '../src/core/agent/loop.js';
import { LearningState } from '../src/core/store/learning-state.js';
import type { ChatMessage } from '../src/core/llm/types.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { anyTool, createToolset, ToolRegistry } from '../src/core/tools/registry.js';
import { createMemoryTool } from '../src/core/tools/memory.js';
import { MemoryStore } from '../src/core/memory/store.js';
import type { AgentEvent } from '../src/shared/events.js';
import { ScriptedModel } from './fixtures/scripted-model.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/** When background learning runs: reflection every N turns and on idle, never after an interrupt, cancellable. */

let temp: TempStore;
const loops: LearningLoop[] = [];
afterEach(async () => {
  for (const loop of loops.splice(0)) await loop.close();
  temp.cleanup();
});

const turn: ChatMessage[] = [
  { role: 'user', content: 'hello' },
  { role: 'assistant', content: 'hi' },
];

/** A reflection that changed `n` facts (all added). */
const changed = (n: number) => ({ added: n, reinforced: 0, superseded: 0, rejected: 0 });

function setup(settings: Partial<LearningSettings>, reflect: (signal: AbortSignal) => Promise<ReflectionCounts>) {
  temp = createTempStore();
  const store = temp.open();
  const loop = new LearningLoop(
    { learnedContext: () => ({}), skillHint: () => null, reflect },
    { reviewEnabled: false, reviewIterations: 16, nudges: { skillIterations: 10, memoryTurns: 10 }, reflectEveryTurns: 2, idleReflectMs: null, ...settings },
    store,
  );
  loops.push(loop);
  const events: AgentEvent[] = [];
  loop.onEvent((_id, event) => events.push(event));
  const view: SessionView = { sessionId: 's1', ...setupView() };
  return { loop, events, view, store };
}

describe('learning loop scheduling', () => {
  it('reflects every N delivered turns, reports changed facts, and skips interrupted turns', async () => {
    let calls = 0;
    const { loop, events, view } = setup({}, () => Promise.resolve(changed(++calls)));
    loop.afterTurn(view, turn, false);
    expect(loop.isBusy('s1')).toBe(false); // 1 of 2 turns
    loop.afterTurn(view, turn, true); // counted, but an interrupted turn starts nothing
    expect(loop.isBusy('s1')).toBe(false);
    loop.afterTurn(view, turn, false);
    await loop.idle('s1');
    expect(calls).toBe(1);
    expect(events).toEqual([{ type: 'learning', action: 'user_model_updated', target: 'user', message: 'User model updated (1 fact)' }]);
  });

  it('reflects after a session goes idle, without waiting for the Nth turn', async () => {
    let calls = 0;
    const { loop, view } = setup({ reflectEveryTurns: 100, idleReflectMs: 30 }, () => Promise.resolve(changed(++calls && 0)));
    loop.afterTurn(view, turn, false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await loop.idle('s1');
    // Catches an idle timer that never fires, or one that fires for sessions with nothing new.
    expect(calls).toBe(1);
  });

  it('cancel aborts running background work quietly (a cancel is not a failure)', async () => {
    const { loop, events, view } = setup({ reflectEveryTurns: 1 }, (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted by cancel')))));
    loop.afterTurn(view, turn, false);
    expect(loop.isBusy('s1')).toBe(true);
    await loop.cancel('s1');
    expect(loop.isBusy('s1')).toBe(false);
    expect(events).toEqual([]);
  });

  it('a background job that fails on its own is reported to the user, never swallowed', async () => {
    const { loop, events, view } = setup({ reflectEveryTurns: 1 }, () => Promise.reject(new Error('model answered garbage')));
    loop.afterTurn(view, turn, false);
    await loop.idle('s1');
    expect(events).toEqual([{ type: 'notice', level: 'warning', message: 'Background learning failed: model answered garbage' }]);
  });
});

describe('learning counters belong to the conversation', () => {
  it('a child session (compression continues there) keeps counting where its parent left off', async () => {
    temp = createTempStore();
    const store = temp.open();
    let calls = 0;
    const loop = new LearningLoop(
      { learnedContext: () => ({}), skillHint: () => null, reflect: () => Promise.resolve(changed(++calls && 0)) },
      { reviewEnabled: false, reviewIterations: 16, nudges: { skillIterations: 10, memoryTurns: 10 }, reflectEveryTurns: 3, idleReflectMs: null },
      store,
    );
    loops.push(loop);
    const parent = store.createSession({ source: 'cli', model: 'scripted:test' });
    const child = store.createSession({ source: 'cli', model: 'scripted:test', parentSessionId: parent.id });
    const view = (sessionId: string): SessionView => ({ ...setupView(), sessionId });
    loop.afterTurn(view(parent.id), turn, false);
    loop.afterTurn(view(parent.id), turn, false);
    loop.afterTurn(view(child.id), turn, false); // the third turn of the conversation, in the child
    await loop.idle(child.id);
    // Catches counters keyed by session id: the child would start again at 1 of 3.
    expect(calls).toBe(1);
    expect(loop.counts(child.id)).toMatchObject({ turnsSinceReflection: 0, turnsSinceMemory: 3 });
  });

  it('a reflection that fails is journalled as failed with its error, with or without a listener', async () => {
    temp = createTempStore();
    const store = temp.open();
    const journal = new LearningJournal(store.db);
    const loop = new LearningLoop(
      { learnedContext: () => ({}), skillHint: () => null, reflect: () => Promise.reject(new Error('model answered garbage')) },
      { reviewEnabled: false, reviewIterations: 16, nudges: { skillIterations: 10, memoryTurns: 10 }, reflectEveryTurns: 1, idleReflectMs: null },
      store,
      undefined,
      { journal },
    );
    loops.push(loop);
    loop.afterTurn({ ...setupView(), sessionId: 's1' }, turn, false);
    await loop.idle('s1');
    expect(journal.recent()).toEqual([expect.objectContaining({ kind: 'reflection', sessionId: 's1', outcome: 'failed', error: 'model answered garbage' })]);
  });

  it('saved counters carry a conversation across a restart', async () => {
    temp = createTempStore();
    const store = temp.open();
    let calls = 0;
    const make = () => {
      const loop = new LearningLoop(
        { learnedContext: () => ({}), skillHint: () => null, reflect: () => Promise.resolve(changed(++calls && 0)) },
        { reviewEnabled: false, reviewIterations: 16, nudges: { skillIterations: 10, memoryTurns: 10 }, reflectEveryTurns: 2, idleReflectMs: null },
        store,
        undefined,
        { counters: new ConversationCounterStore(new LearningState(store.db)) },
      );
      loops.push(loop);
      return loop;
    };
    const session = store.createSession({ source: 'cli', model: 'scripted:test' });
    const first = make();
    first.afterTurn({ ...setupView(), sessionId: session.id }, turn, false);
    await first.close();
    const second = make(); // a new process over the same database
    second.afterTurn({ ...setupView(), sessionId: session.id }, turn, false);
    await second.idle(session.id);
    expect(calls).toBe(1);
  });
});

function setupView(): Omit<SessionView, 'sessionId'> {
  return {
    model: new ScriptedModel([]),
    systemPrompt: 'system',
    history: turn,
    tools: createToolset('lite', { backend: new LocalBackend() }),
    approvals: new ApprovalPolicyBroker(),
    workspace: temp.dir,
    runTurn,
  };
}

describe('memory review input', () => {
  it("reads the conversation without Hearth's own user-role text (catches a compression summary reviewed as the user's words)", async () => {
    const model = new ScriptedModel([{ text: 'Nothing to save.' }]);
    const { loop, view, store } = setup({ reviewEnabled: true }, () => Promise.resolve(changed(0)));
    const session = store.createSession({ source: 'cli', model: 'scripted:test' });
    const summary: ChatMessage = { role: 'user', origin: 'hearth', content: '[Summary of the earlier conversation] The user said they always deploy on Fridays.' };
    await loop.flush({ ...view, sessionId: session.id, model, tools: new ToolRegistry([anyTool(createMemoryTool({ memory: new MemoryStore(store.db), limits: { memory: 2200, user: 1375 } }))]), history: [summary, ...turn] }, new AbortController().signal);
    const sent = model.requests[0]?.messages.map((m) => m.content) ?? [];
    expect(sent.some((c) => typeof c === 'string' && c.includes('always deploy on Fridays'))).toBe(false);
    expect(sent).toContain('hello');
  });
});
