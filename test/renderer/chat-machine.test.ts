// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  clarifyAnswered,
  initialChatState,
  pendingSynced,
  reduceAgentEvent,
  sessionLoaded,
  toolCardState,
  userSent,
  type ChatItem,
  type ChatState,
} from '../../src/renderer/chat/chat-machine.js';
import type { AgentEvent } from '../../src/shared/events.js';

/** The chat state machine over event sequences shaped like the engine's (see core/agent/loop.ts). */
function run(state: ChatState, events: AgentEvent[], sessionId = 's1', now = 1_000): ChatState {
  return events.reduce((s, e) => reduceAgentEvent(s, sessionId, e, now), state);
}

const started = () => userSent({ ...initialChatState(), sessionId: 's1' }, 'list files', [], 0);

describe('chat state machine', () => {
  it('idle → loading → streaming → idle over a turn with text, a tool call and more text', () => {
    // Catches text after a tool landing in the bubble before it, or a turn that never returns to idle.
    let s = started();
    expect(s.phase).toBe('loading');
    s = run(s, [
      { type: 'session', sessionId: 's1', model: 'local:hermes' },
      { type: 'status', state: 'thinking' },
      { type: 'reasoning_delta', delta: 'Need ls. ' },
      { type: 'text_delta', delta: 'Let me ' },
      { type: 'text_delta', delta: 'look.' },
    ]);
    expect(s.phase).toBe('streaming');
    s = run(s, [
      { type: 'tool_start', callId: 'c1', name: 'terminal', args: { command: 'ls' } },
      { type: 'tool_progress', callId: 'c1', text: 'a.txt\n' },
      { type: 'tool_progress', callId: 'c1', text: 'b.txt\n' },
      { type: 'tool_end', callId: 'c1', name: 'terminal', content: 'exit 0', isError: false, durationMs: 42 },
      { type: 'text_delta', delta: 'Two files.' },
      { type: 'usage', inputTokens: 100, outputTokens: 20 },
      { type: 'turn_end', final: 'Two files.', reason: 'stop' },
    ]);
    expect(s.phase).toBe('idle');
    expect(s.model).toBe('local:hermes');
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.items[1]).toMatchObject({ text: 'Let me look.', reasoning: 'Need ls. ', done: true });
    expect(s.items[2]).toMatchObject({ name: 'terminal', args: '{\n  "command": "ls"\n}', output: 'a.txt\nb.txt\n', result: 'exit 0', durationMs: 42, isError: false });
    expect(s.items[3]).toMatchObject({ text: 'Two files.', done: true });
    expect(s.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    expect(s.tokensPerSecond).toBe(20); // 20 tokens in the 1 s since the send
  });

  it('an approval makes the chat wait for the user, and its resolution resumes streaming', () => {
    // Catches approvals tracked as a flag beside a "streaming" chat (goose's lesson), or a chat stuck waiting.
    let s = run(started(), [
      { type: 'tool_start', callId: 'c1', name: 'terminal', args: { command: 'rm -rf build' } },
      { type: 'approval_request', id: 'a1', command: 'rm -rf build', reasons: ['recursive delete'], expiresAt: 60_000 },
    ]);
    expect(s.phase).toBe('waiting-for-user');
    expect(s.approvals).toEqual([
      { id: 'a1', sessionId: 's1', command: 'rm -rf build', reasons: ['recursive delete'], kind: 'command', expiresAt: 60_000, callId: null, irreversible: false, checkpoint: null, timedOut: false },
    ]);
    s = run(s, [{ type: 'approval_resolved', id: 'a1', approved: true, reason: 'user approved once' }]);
    expect(s.phase).toBe('streaming');
    expect(s.approvals).toEqual([]);
    expect(s.items.at(-1)).toMatchObject({ kind: 'notice', event: { type: 'approval_resolved', approved: true } });
    s = run(s, [
      { type: 'tool_end', callId: 'c1', name: 'terminal', content: 'removed', isError: false, durationMs: 5 },
      { type: 'turn_end', final: '', reason: 'stop' },
    ]);
    expect(s.phase).toBe('idle');
  });

  it('a denied (timed-out) approval resumes the turn and records the denial', () => {
    // Catches a denial that leaves the modal state behind or is not shown in the thread.
    const s = run(started(), [
      { type: 'approval_request', id: 'a1', command: 'curl x | sh', reasons: ['pipe to shell'], expiresAt: 1 },
      { type: 'approval_resolved', id: 'a1', approved: false, reason: 'timed out' },
      { type: 'tool_end', callId: 'c1', name: 'terminal', content: 'denied', isError: true, durationMs: 0 },
    ]);
    expect(s.phase).toBe('streaming');
    expect(s.items.at(-1)).toMatchObject({ kind: 'notice', event: { approved: false, reason: 'timed out' } });
  });

  it('turn_end with an error returns to idle, shows the error, and drops the turn’s open questions', () => {
    // Catches an error turn that leaves the UI "answering…" forever, or swallows the engine's message.
    const s = run(started(), [
      { type: 'text_delta', delta: 'partial' },
      { type: 'approval_request', id: 'a1', command: 'x', reasons: [], expiresAt: 9e12 },
      { type: 'turn_end', final: '', reason: 'error', error: { code: 'provider_unavailable', message: 'HTTP 503 from openai' } },
    ]);
    expect(s.phase).toBe('idle');
    expect(s.approvals).toEqual([]);
    expect(s.items.at(-2)).toMatchObject({ kind: 'assistant', text: 'partial', done: true });
    expect(s.items.at(-1)).toMatchObject({ kind: 'notice', event: { type: 'turn_error', code: 'provider_unavailable', message: 'HTTP 503 from openai' } });
  });

  it('an interrupted turn says it was stopped; a final answer without deltas still shows', () => {
    // Catches a non-streaming provider's answer never appearing (it only arrives in turn_end.final).
    const aborted = run(started(), [{ type: 'turn_end', final: '', reason: 'aborted' }]);
    expect(aborted.items.at(-1)).toMatchObject({ kind: 'notice', event: { type: 'turn_stopped', reason: 'aborted' } });
    const final = run(started(), [{ type: 'turn_end', final: 'All done.', reason: 'stop' }]);
    expect(final.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'All done.', done: true });
  });

  it('clarify waits for the user; answering resumes streaming', () => {
    // Catches a clarify question the user answered but the chat still showing "waiting for you".
    let s = run(started(), [{ type: 'clarify_request', id: 'q1', question: 'Which branch?', choices: ['main', 'dev'] }]);
    expect(s.phase).toBe('waiting-for-user');
    expect(s.clarify).toMatchObject({ id: 'q1', choices: ['main', 'dev'] });
    s = clarifyAnswered(s, 'q1');
    expect(s.phase).toBe('streaming');
    expect(s.clarify).toBeNull();
  });

  it('another session’s approval is queued for the modal without touching this chat', () => {
    // Catches a background session's approval timing out unseen, or its text leaking into this thread.
    const s = run(started(), [
      { type: 'text_delta', delta: 'not mine' },
      { type: 'approval_request', id: 'bg', command: 'make deploy', reasons: ['deploy'], expiresAt: 5 },
    ], 'quick-prompt');
    expect(s.phase).toBe('loading');
    expect(s.items.map((i) => i.kind)).toEqual(['user']);
    expect(s.approvals.map((a) => [a.id, a.sessionId])).toEqual([['bg', 'quick-prompt']]);
  });

  it('follows the session into its compressed child, so the rest of the turn is not dropped', () => {
    // Catches events of the child session being ignored as "another session's" after compression.
    let s = run(started(), [{ type: 'compressed', parentSessionId: 's1', sessionId: 's2', summarizedMessages: 30, prunedToolOutputs: 2, tokensBefore: 9000, tokensAfter: 2000 }]);
    expect(s.sessionId).toBe('s2');
    s = run(s, [{ type: 'text_delta', delta: 'continuing' }], 's2');
    expect(s.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'continuing' });
  });

  it('learning, review, notice and fallback events become lines in the thread', () => {
    // Catches the learning loop's changes being invisible to the user (a Hermes complaint, PARITY §20).
    const s = run(started(), [
      { type: 'learning', action: 'skill_created', target: 'deploy-docs', message: "Skill 'deploy-docs' created" },
      { type: 'review', state: 'failed', reason: 'model timeout' },
      { type: 'notice', level: 'warning', message: 'memory is 95% full' },
      { type: 'model_fallback', from: 'openai:gpt-4o', to: 'local:hermes', reason: 'HTTP 429' },
    ]);
    expect(s.items.slice(1).map((i) => (i.kind === 'notice' ? i.event.type : i.kind))).toEqual(['learning', 'review', 'notice', 'model_fallback']);
  });

  it('a stored session loads with tool results folded into their call’s card', () => {
    // Catches tool messages shown as stray bubbles, or results attached to the wrong call.
    const s = sessionLoaded('s9', 'openai:gpt-4o', [
      { id: 1, role: 'system', content: 'sys', reasoning: null, toolCalls: [], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
      { id: 2, role: 'user', content: 'hi', reasoning: null, toolCalls: [], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
      { id: 3, role: 'assistant', content: '', reasoning: null, toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }, { id: 'c2', name: 'read_file', arguments: 'not json' }], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
      { id: 4, role: 'tool', content: 'B', reasoning: null, toolCalls: [], toolCallId: 'c2', toolName: 'read_file', outcome: { status: 'done' }, createdAt: 0 },
      { id: 5, role: 'tool', content: 'A', reasoning: null, toolCalls: [], toolCallId: 'c1', toolName: 'read_file', outcome: { status: 'done' }, createdAt: 0 },
      { id: 6, role: 'assistant', content: 'done', reasoning: 'because', toolCalls: [], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
    ]);
    expect(s.phase).toBe('idle');
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'tool', 'tool', 'assistant']);
    expect(s.items[1]).toMatchObject({ callId: 'c1', result: 'A', args: '{\n  "path": "a"\n}' });
    expect(s.items[2]).toMatchObject({ callId: 'c2', result: 'B', args: 'not json' });
    expect(s.items[3]).toMatchObject({ text: 'done', reasoning: 'because' });
  });

  it('a tool card waits for the user while its approval is open, then shows how it ended', () => {
    // Catches the card saying "running" while nothing runs (the user is being asked), or a denial shown as done.
    let s = run(started(), [
      { type: 'tool_start', callId: 'c1', name: 'terminal', args: { command: 'rm -rf /tmp/x' } },
      { type: 'approval_request', id: 'a1', command: 'rm -rf /tmp/x', reasons: ['recursive delete'], expiresAt: 60_000, callId: 'c1', irreversible: true },
    ]);
    const card = () => s.items.find((i): i is Extract<ChatItem, { kind: 'tool' }> => i.kind === 'tool')!;
    expect(toolCardState(card(), s.approvals)).toBe('waiting');
    expect(s.approvals[0]).toMatchObject({ callId: 'c1', irreversible: true, checkpoint: null });
    s = run(s, [
      { type: 'approval_resolved', id: 'a1', approved: false, reason: 'deny' },
      { type: 'tool_end', callId: 'c1', name: 'terminal', content: 'Command not run.', isError: true, durationMs: 3, outcome: { status: 'denied', note: 'deny' } },
    ]);
    expect(toolCardState(card(), s.approvals)).toBe('denied');
    // A producer without outcomes still gets an honest card from isError.
    const legacy = run(started(), [
      { type: 'tool_start', callId: 'c2', name: 'terminal', args: {} },
      { type: 'tool_end', callId: 'c2', name: 'terminal', content: 'boom', isError: true, durationMs: 1 },
    ]);
    expect(toolCardState(legacy.items[1] as Extract<ChatItem, { kind: 'tool' }>, [])).toBe('failed');
    // The clarify tool's own card waits while its question is open.
    const asking = run(started(), [
      { type: 'tool_start', callId: 'q', name: 'clarify', args: {} },
      { type: 'clarify_request', id: 'q1', question: 'Which?', choices: [] },
    ]);
    expect(toolCardState(asking.items[1] as Extract<ChatItem, { kind: 'tool' }>, asking.approvals, asking.clarify !== null)).toBe('waiting');
  });

  it('a timed-out approval stays (marked) after the turn ends, so the user sees it failed closed; an answer elsewhere closes it', () => {
    // Catches a dialog that silently vanishes on timeout in a window nobody was watching, or one that stays open
    // after another window answered it.
    let s = run(started(), [
      { type: 'approval_request', id: 'slow', command: 'x', reasons: [], expiresAt: 9e12 },
      { type: 'approval_request', id: 'quick', command: 'y', reasons: [], expiresAt: 9e12 },
      { type: 'approval_resolved', id: 'quick', approved: true, reason: 'once' },
      { type: 'approval_resolved', id: 'slow', approved: false, reason: 'timeout' },
      { type: 'turn_end', final: '', reason: 'stop' },
    ]);
    expect(s.approvals.map((a) => [a.id, a.timedOut])).toEqual([['slow', true]]);
    expect(s.phase).toBe('idle');
    // The same timeout heard by a window showing another session.
    s = run(initialChatState(), [
      { type: 'approval_request', id: 'bg', command: 'z', reasons: [], expiresAt: 9e12 },
      { type: 'approval_resolved', id: 'bg', approved: false, reason: 'timeout' },
    ], 'other');
    expect(s.approvals.map((a) => [a.id, a.timedOut])).toEqual([['bg', true]]);
  });

  it('pendingSynced adds what the engine holds open, once, drops what it no longer holds, and waits for the user', () => {
    // Catches a reloaded page missing the open approval, showing it twice (event + pending reply), or keeping a
    // dialog whose question was answered while the page was disconnected.
    const request = { type: 'approval_request' as const, id: 'a1', command: 'rm -rf /srv/data', reasons: ['recursive delete'], expiresAt: 9e12, callId: 'c1', checkpoint: '/ws' };
    let s: ChatState = { ...sessionLoaded('s1', 'm', [
      { id: 1, role: 'assistant', content: '', reasoning: null, toolCalls: [{ id: 'c1', name: 'terminal', arguments: '{}' }], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
    ]), approvals: [{ id: 'gone', sessionId: 's1', command: 'old', reasons: [], kind: 'command', expiresAt: 9e12, callId: null, irreversible: false, checkpoint: null, timedOut: false }] };
    s = pendingSynced(s, { approvals: [{ sessionId: 's1', request }], clarifications: [] });
    s = run(s, [request]);
    expect(s.approvals.map((a) => a.id)).toEqual(['a1']);
    expect(s.approvals[0]?.checkpoint).toBe('/ws');
    expect(s.phase).toBe('waiting-for-user');
    expect(toolCardState(s.items[0] as Extract<ChatItem, { kind: 'tool' }>, s.approvals)).toBe('waiting');
    s = pendingSynced(s, { approvals: [], clarifications: [{ sessionId: 's1', request: { type: 'clarify_request', id: 'q1', question: 'Which?', choices: [] } }] });
    expect(s.approvals).toEqual([]);
    expect(s.clarify).toMatchObject({ id: 'q1', question: 'Which?' });
    expect(s.phase).toBe('waiting-for-user');
  });

  it('a reopened session shows denied, timed out and failed calls as such; old rows without an outcome never claim done', () => {
    // Catches the original bug: every stored tool call rendered as a green "done" after reopening a session.
    const call = (id: string) => ({ id, name: 'terminal', arguments: '{}' });
    const tool = (n: number, callId: string, outcome: { status: 'done' | 'denied' | 'timed_out' | 'failed'; note?: string } | null) =>
      ({ id: n, role: 'tool' as const, content: 'r', reasoning: null, toolCalls: [], toolCallId: callId, toolName: 'terminal', outcome, createdAt: 0 });
    const s = sessionLoaded('s1', 'm', [
      { id: 1, role: 'assistant', content: '', reasoning: null, toolCalls: [call('d'), call('t'), call('f'), call('ok'), call('old')], toolCallId: null, toolName: null, outcome: null, createdAt: 0 },
      tool(2, 'd', { status: 'denied', note: 'deny' }),
      tool(3, 't', { status: 'timed_out', note: 'timeout' }),
      tool(4, 'f', { status: 'failed' }),
      tool(5, 'ok', { status: 'done', note: 'once' }),
      tool(6, 'old', null),
    ]);
    const states = s.items.map((i) => (i.kind === 'tool' ? toolCardState(i, []) : i.kind));
    expect(states).toEqual(['denied', 'timed_out', 'failed', 'done', 'ended']);
    expect(s.items[0]).toMatchObject({ isError: true, outcome: { note: 'deny' } });
  });
});
