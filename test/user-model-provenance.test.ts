import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_MARKER } from '../src/core/agent/compression/index.js';
import { AgentHost } from '../src/core/agent/host.js';
import { LocalBackend } from '../src/core/exec/local.js';
import { OpenAICompatibleModel } from '../src/core/llm/providers/openai.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { withoutHearthText } from '../src/core/store/provenance.js';
import { SKILL_HINT_HEADER } from '../src/core/skills/relevance.js';
import { createToolset } from '../src/core/tools/registry.js';
import { UserFactStore } from '../src/core/user-model/facts.js';
import { reflectOnUser } from '../src/core/user-model/reflect.js';
import { isSummaryRequest, openCompactingHost } from './fixtures/compacting-host.js';
import { validSummary } from './fixtures/compression-histories.js';
import { startScriptedOpenAIServer } from './fixtures/scripted-openai-server.js';
import type { ScriptedServer } from './fixtures/scripted-turns.js';
import { ScriptedModel } from './fixtures/scripted-model.js';
import { createTempStore, type TempStore } from './fixtures/temp-store.js';

/**
 * Issue 11, problem 2: after a compression the reflection was shown Hearth's own summary as the user's
 * words, and the copies of earlier messages (duplicated into the child session) as new messages, so a
 * fact could be minted from a summary's paraphrase. Every stored message now says who wrote it.
 */

/** A 4K window, so a few long answers pass the compression threshold (as in agent-compression.test.ts). */
class SmallWindowModel extends ScriptedModel {
  readonly contextLength = 4096;
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'hearth-provenance-')));
const backend = new LocalBackend();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});
afterAll(async () => {
  await backend.dispose();
  rmSync(root, { recursive: true, force: true });
});

function longAnswer(turn: number): string {
  return Array.from({ length: 120 }, (_, i) => `fact${turn}_${i}`).join(' ');
}


/** Five turns in a 4K window: the conversation is compressed and continues in a child session. */
async function compressedConversation(questions: readonly string[]): Promise<{ temp: TempStore; parent: string; child: string }> {
  const temp = createTempStore('hearth-provenance-store-');
  const store = temp.open();
  let turn = 0;
  const model = new SmallWindowModel((request) => {
    if (isSummaryRequest(request)) return { text: validSummary('tea-notes') };
    turn += 1;
    return { text: longAnswer(turn) };
  });
  const host = openCompactingHost({ store, model, backend, root, protect: { first: 1, last: 2 } });
  cleanups.push(async () => {
    await host.close();
    temp.cleanup();
  });
  const parent = host.startSession({ source: 'cli' });
  let child: string | null = null;
  for (const question of questions) {
    for await (const event of host.send(parent, question)) if (event.type === 'compressed') child = event.sessionId;
  }
  if (child === null) throw new Error('the conversation was never compressed; the test needs a compression');
  return { temp, parent, child };
}

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('message provenance and the reflection', () => {
  const QUESTIONS = ['I brew green tea at 80 degrees.', 'I keep my notes in Obsidian.', 'I work from Lisbon.', 'I prefer short answers.', 'Please answer in British English.'];

  it('after a compression the reflection never sees the summary or the copies, and a fact cannot cite them', async () => {
    const { temp, parent, child } = await compressedConversation(QUESTIONS);
    const store = temp.open();
    const childRows = store.getMessages(child);
    const summary = childRows.find((m) => m.content.startsWith(SUMMARY_MARKER));
    const copies = childRows.filter((m) => m.origin === 'copy');
    // The child holds the summary (Hearth's words in a user-role row) and copies of the parent's messages.
    expect(summary?.role).toBe('user');
    expect(summary?.origin).toBe('hearth');
    expect(copies.length).toBeGreaterThan(0);
    const parentIds = new Set(store.getMessages(parent).map((m) => m.id));
    for (const copy of copies) expect(parentIds.has(copy.copiedFrom ?? -1)).toBe(true);
    const copiedUser = copies.filter((m) => m.role === 'user');
    expect(copiedUser.length).toBeGreaterThan(0);

    // The reflection's model cites the summary and the copies as evidence, as a confused model would.
    const cited = [summary?.id ?? 0, ...copiedUser.map((m) => m.id)];
    const answer = { facts: [{ category: 'preference', statement: 'The user likes tea notes summarised.', confidence: 0.9, evidence: cited }], supersede: [] };
    server = await startScriptedOpenAIServer(() => ({ text: JSON.stringify(answer) }), { chunkChars: 64 });
    const facts = new UserFactStore(store.db);
    const result = await reflectOnUser({ model: new OpenAICompatibleModel({ id: 'openai:reflector', baseUrl: server.url, model: 'reflector', retryBaseDelayMs: 1 }), store, facts, signal: new AbortController().signal });

    const prompt = (server.requests[0] as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')?.content ?? '';
    expect(prompt).not.toContain(SUMMARY_MARKER);
    expect(prompt).not.toContain(`[message ${summary?.id}]`);
    for (const copy of copiedUser) expect(prompt).not.toContain(`[message ${copy.id}]`);
    // Each thing the user typed is shown exactly once, whichever session holds it.
    for (const question of QUESTIONS) expect(prompt.split(question).length - 1).toBe(1);
    expect(result.messagesRead).toBe(QUESTIONS.length);
    expect(result.added).toEqual([]);
    expect(result.rejected).toEqual([{ statement: 'The user likes tea notes summarised.', reason: expect.stringContaining('no valid evidence') as string }]);
    expect(facts.active()).toEqual([]);
  });

  it('the memory review can leave out the summary, in the live session and after a resume', async () => {
    const { temp, child } = await compressedConversation(QUESTIONS);
    const store = temp.open();
    const host = new AgentHost({ store, model: new SmallWindowModel([]), tools: createToolset('lite', { backend }), approvals: new ApprovalPolicyBroker(), home: root, workspace: root });
    cleanups.push(() => host.close());
    host.resumeSession(child);
    const resumed = host.history(child);
    expect(resumed.some((m) => m.content.startsWith(SUMMARY_MARKER))).toBe(true);
    const reviewed = withoutHearthText(resumed);
    expect(reviewed.some((m) => m.content.startsWith(SUMMARY_MARKER))).toBe(false);
    // Only the summary goes: everything else the review reads is kept, in order.
    expect(reviewed).toEqual(resumed.filter((m) => !m.content.startsWith(SUMMARY_MARKER)));
  });

  it('a fact cites session, message and excerpt of what the user typed', async () => {
    const temp = createTempStore('hearth-provenance-cite-');
    cleanups.push(() => temp.cleanup());
    const store = temp.open();
    store.createSession({ id: 's-tea', source: 'cli', model: 'm' });
    const typed = store.appendMessage('s-tea', { role: 'user', content: 'I always   brew green tea\nat 80 degrees.' });
    const answer = { facts: [{ category: 'preference', statement: 'The user brews green tea at 80 degrees.', confidence: 0.9, evidence: [typed.id] }], supersede: [] };
    server = await startScriptedOpenAIServer(() => ({ text: JSON.stringify(answer) }), { chunkChars: 64 });
    const facts = new UserFactStore(store.db);
    await reflectOnUser({ model: new OpenAICompatibleModel({ id: 'openai:reflector', baseUrl: server.url, model: 'reflector', retryBaseDelayMs: 1 }), store, facts, signal: new AbortController().signal });
    expect(facts.active().map((f) => f.evidence)).toEqual([[{ messageId: typed.id, sessionId: 's-tea', excerpt: 'I always brew green tea at 80 degrees.' }]]);
  });

  it('the skill hint Hearth appended to a request is not shown as words the user typed', async () => {
    const temp = createTempStore('hearth-provenance-hint-');
    cleanups.push(() => temp.cleanup());
    const store = temp.open();
    store.createSession({ id: 's-hint', source: 'cli', model: 'm' });
    // As agent/host.ts stores a request that got a skill hint: the typed text, a blank line, the hint.
    store.appendMessage('s-hint', { role: 'user', content: `How do I brew green tea?\n\n${SKILL_HINT_HEADER}\n- brew-green-tea: Brew green tea without bitterness.` });
    server = await startScriptedOpenAIServer(() => ({ text: '{"facts":[],"supersede":[]}' }), { chunkChars: 64 });
    await reflectOnUser({ model: new OpenAICompatibleModel({ id: 'openai:reflector', baseUrl: server.url, model: 'reflector', retryBaseDelayMs: 1 }), store, facts: new UserFactStore(store.db), signal: new AbortController().signal });
    const prompt = (server.requests[0] as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')?.content ?? '';
    expect(prompt).toContain('How do I brew green tea?');
    expect(prompt).not.toContain('Skills that look relevant');
    expect(prompt).not.toContain('without bitterness');
  });

  it('a branch copies messages as copies, and Hearth-written user rows are not user-typed', () => {
    const temp = createTempStore('hearth-provenance-branch-');
    cleanups.push(() => temp.cleanup());
    const store = temp.open();
    store.createSession({ id: 's-a', source: 'cli', model: 'm' });
    const typed = store.appendMessage('s-a', { role: 'user', content: 'I use tabs.' });
    const notice = store.appendMessage('s-a', { role: 'user', content: 'You have reached the limit of steps for this turn.', origin: 'hearth' });
    store.appendMessage('s-a', { role: 'assistant', content: 'Noted.' });
    const branch = store.branchSession({ sessionId: 's-a', source: 'cli' });
    expect(typed.origin).toBe('user');
    expect(notice.origin).toBe('hearth');
    // A background review's prompt is Hearth's, though stored in a user-role row.
    store.createSession({ id: 's-review', source: 'subagent', model: 'm', parentSessionId: 's-a' });
    expect(store.appendMessage('s-review', { role: 'user', content: '[Background review] What should be saved?' }).origin).toBe('hearth');
    expect(store.getMessages(branch.id).map((m) => [m.origin, m.copiedFrom])).toEqual([
      ['copy', typed.id],
      ['copy', notice.id],
      ['copy', notice.id + 1],
    ]);
  });
});
