import { describe, expect, it } from 'vitest';
import { toolPairingProblems } from '../src/core/agent/compression/history-check.js';
import { planCompression } from '../src/core/agent/compression/plan.js';
import { isProtectedMessage } from '../src/core/agent/compression/protected-content.js';
import { PRUNED_PREFIX, pruneToolOutputs } from '../src/core/agent/compression/prune.js';
import { validateSummary } from '../src/core/agent/compression/summarize.js';
import { summaryMessage } from '../src/core/agent/compression/summary-message.js';
import { estimateTokens, messageTokens, needsCompression } from '../src/core/agent/compression/token-estimate.js';
import { HearthError } from '../src/core/errors.js';
import { buildChatCompletionsBody } from '../src/core/llm/providers/openai.js';
import { countReferenceTokens } from '../src/core/llm/token-count.js';
import type { ChatMessage, ToolSchema } from '../src/core/llm/types.js';
import { generateHistory, validSummary } from './fixtures/compression-histories.js';
import { seededRandom } from '../src/core/seeded-random.js';

const big = (tag: string, n = 1_000) => `${tag} ${'x'.repeat(n)}`;
const call = (id: string, name = 'read_file', args = '{"path":"a.ts"}') => ({ id, name, arguments: args });

describe('needsCompression / estimateTokens', () => {
  it('triggers at the threshold fraction of small windows too (catches a 64K floor or an off-by-one)', () => {
    expect(needsCompression({ promptTokens: 2047, contextLength: 4096, threshold: 0.5 })).toBe(false);
    expect(needsCompression({ promptTokens: 2048, contextLength: 4096, threshold: 0.5 })).toBe(true);
    expect(needsCompression({ promptTokens: 6000, contextLength: 8192, threshold: 0.75 })).toBe(false);
    expect(needsCompression({ promptTokens: 6144, contextLength: 8192, threshold: 0.75 })).toBe(true);
  });

  it('rejects nonsense with a typed error instead of never (or always) compressing', () => {
    expect(() => needsCompression({ promptTokens: 10, contextLength: 0, threshold: 0.5 })).toThrow(HearthError);
    expect(() => needsCompression({ promptTokens: 10, contextLength: 4096, threshold: 1.5 })).toThrow(/compression.threshold/);
    expect(() => needsCompression({ promptTokens: Number.NaN, contextLength: 4096, threshold: 0.5 })).toThrow(HearthError);
  });

  it('counts content, tool-call arguments and tool schemas, within the size of the real wire body (catches a part left out)', () => {
    const history = generateHistory(seededRandom(7), { turns: 12 });
    const tools: ToolSchema[] = [{ name: 'read_file', description: 'Read a file '.repeat(30), parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const system = 'You are Hearth. '.repeat(40);
    const estimate = estimateTokens(system, history, tools);
    const contentOnly = countReferenceTokens(system) + history.reduce((sum, m) => sum + countReferenceTokens(m.content), 0);
    const wire = countReferenceTokens(JSON.stringify(buildChatCompletionsBody('m', { messages: [{ role: 'system', content: system }, ...history], tools })));
    expect(estimate).toBeGreaterThan(contentOnly + countReferenceTokens(JSON.stringify(tools)) * 0.9);
    expect(estimate).toBeLessThan(wire);
    // Arguments count: a call with a huge argument costs more than the same call with a tiny one.
    const withArgs = messageTokens({ role: 'assistant', content: '', toolCalls: [call('c', 'write_file', JSON.stringify({ content: 'y '.repeat(500) }))] });
    expect(withArgs).toBeGreaterThan(messageTokens({ role: 'assistant', content: '', toolCalls: [call('c')] }) + 400);
    // A second estimate (cached per message) gives the same number; a new message adds to it.
    expect(estimateTokens(system, history, tools)).toBe(estimate);
    expect(estimateTokens(system, [...history, { role: 'user', content: 'one more question' }], tools)).toBeGreaterThan(estimate);
  });
});

describe('pruneToolOutputs', () => {
  const history: ChatMessage[] = [
    { role: 'user', content: 'read things' },
    { role: 'assistant', content: '', toolCalls: [call('c1', 'read_file', '{"path":"src/big.ts"}'), call('c2', 'terminal', '{"command":"ls"}'), call('c3', 'skill_view', '{"name":"deploy"}')] },
    { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: big('FILE', 5_000) },
    { role: 'tool', toolCallId: 'c2', toolName: 'terminal', content: 'a.ts\nb.ts' },
    { role: 'tool', toolCallId: 'c3', toolName: 'skill_view', content: big('SKILL BODY', 3_000) },
    { role: 'assistant', content: 'read it' },
    { role: 'user', content: 'again' },
    { role: 'assistant', content: '', toolCalls: [call('c4')] },
    { role: 'tool', toolCallId: 'c4', toolName: 'read_file', content: big('RECENT', 5_000) },
  ];

  it('replaces old long outputs with a one-line placeholder naming the tool, the call and the size (catches silent loss)', () => {
    const result = pruneToolOutputs(history, { keepLastN: 2 });
    expect(result.pruned).toBe(1);
    const placeholder = result.history[2]!.content;
    expect(placeholder.startsWith(PRUNED_PREFIX)).toBe(true);
    expect(placeholder).toContain('read_file({"path":"src/big.ts"})');
    expect(placeholder).toContain('5,005 characters');
    expect(placeholder).toContain('session_search');
    expect(placeholder.split('\n')).toHaveLength(1);
    expect(result.charsRemoved).toBe(5_005 - placeholder.length);
    // Short outputs, the protected skill body and the recent tail stay whole; the input is not mutated.
    expect(result.history[3]).toBe(history[3]);
    expect(result.history[4]).toBe(history[4]);
    expect(result.history[8]).toBe(history[8]);
    expect(history[2]!.content.startsWith('FILE')).toBe(true);
    expect(result.history.map((m) => m.role)).toEqual(history.map((m) => m.role));
  });

  it('never prunes skill content, even when old and long (SKILLS-SPEC: protect activated skills)', () => {
    const result = pruneToolOutputs(history, { keepLastN: 0 });
    expect(result.history[4]!.content).toBe(history[4]!.content);
    expect(result.pruned).toBe(2);
    // Pruning twice does not re-prune its own placeholders.
    expect(pruneToolOutputs(result.history, { keepLastN: 0 }).pruned).toBe(0);
  });

  it('rejects a negative keepLastN with a typed error', () => {
    expect(() => pruneToolOutputs(history, { keepLastN: -1 })).toThrow(HearthError);
  });
});

describe('planCompression', () => {
  it('never splits a tool call from its results, over 250 generated histories (property)', () => {
    const random = seededRandom(1234);
    for (let run = 0; run < 250; run++) {
      const history = generateHistory(random, { turns: 1 + Math.floor(random() * 12), skillViewChance: 0.15, skillActivationChance: 0.1 });
      const options = {
        protectFirstN: Math.floor(random() * 6),
        protectLastN: 1 + Math.floor(random() * 10),
        tailTokenBudget: Math.floor(random() * 3_000),
      };
      const plan = planCompression(history, options);
      const context = `run ${run} ${JSON.stringify(options)}`;
      // Nothing lost, nothing reordered.
      expect([...plan.head, ...plan.middle, ...plan.tail], context).toEqual(history);
      // No part starts with a tool result: the call it answers would be in the previous part.
      for (const part of [plan.middle, plan.tail]) expect(part[0]?.role, context).not.toBe('tool');
      // Head protection rounded up to whole units; tail at least protectLastN (when there is room).
      expect(plan.head.length, context).toBeGreaterThanOrEqual(Math.min(options.protectFirstN, history.length));
      expect(plan.tail.length, context).toBeGreaterThanOrEqual(Math.min(options.protectLastN, history.length - plan.head.length));
      if (plan.middle.length > 0) expect(plan.head.at(-1)?.role, context).not.toBe('user');
      // The compressed shape (head, summary, carried, tail) is valid for a provider.
      const compressed = [...plan.head, ...(plan.middle.length > 0 ? [summaryMessage(validSummary('x'), 1)] : []), ...plan.carried, ...plan.tail];
      expect(toolPairingProblems(compressed), context).toEqual([]);
      // Every protected text of the middle survives verbatim: carried, or already in the head or tail.
      const survivors = new Set([...plan.head, ...plan.carried, ...plan.tail].map((m) => m.content));
      for (const message of plan.middle.filter(isProtectedMessage)) expect(survivors.has(message.content), context).toBe(true);
    }
  });

  it('extends the head to the end of a tool-call unit and past a trailing user message (catches an orphaned result)', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'u0' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'a', toolName: 'read_file', content: 'ra' },
      { role: 'tool', toolCallId: 'b', toolName: 'read_file', content: 'rb' },
      { role: 'assistant', content: 'a0' },
      { role: 'user', content: 'u1' },
      { role: 'assistant', content: 'a1' },
      ...Array.from({ length: 10 }, (_, i): ChatMessage => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `later ${i}` })),
    ];
    expect(planCompression(history, { protectFirstN: 3, protectLastN: 2, tailTokenBudget: 0 }).headEnd).toBe(4);
    // protectFirstN 6 would end on user u1: its answer joins the head.
    expect(planCompression(history, { protectFirstN: 6, protectLastN: 2, tailTokenBudget: 0 }).headEnd).toBe(7);
  });

  it('moves the tail boundary to the start of a tool-call unit and grows the tail only within its budget', () => {
    const history: ChatMessage[] = [
      ...Array.from({ length: 6 }, (_, i): ChatMessage => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `early ${i}` })),
      { role: 'user', content: big('BIG', 4_000) },
      { role: 'assistant', content: '', toolCalls: [call('t1'), call('t2')] },
      { role: 'tool', toolCallId: 't1', toolName: 'read_file', content: 'one' },
      { role: 'tool', toolCallId: 't2', toolName: 'read_file', content: 'two' },
      { role: 'assistant', content: 'final' },
    ];
    const tight = planCompression(history, { protectFirstN: 2, protectLastN: 2, tailTokenBudget: 10 });
    expect(tight.tailStart).toBe(7); // the pair moves in whole; 'BIG' stays out
    const roomy = planCompression(history, { protectFirstN: 2, protectLastN: 2, tailTokenBudget: 5_000 });
    expect(roomy.tailStart).toBe(2); // grows back until it meets the head
    expect(roomy.middle).toEqual([]);
  });

  it('keeps an earlier summary out of the head, so it is updated instead of kept beside the new one', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'hello' },
      summaryMessage(validSummary('old'), 9),
      ...Array.from({ length: 8 }, (_, i): ChatMessage => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `after ${i}` })),
    ];
    const plan = planCompression(history, { protectFirstN: 3, protectLastN: 2, tailTokenBudget: 0 });
    expect(plan.headEnd).toBe(2);
    expect(plan.middle[0]).toBe(history[2]);
  });

  it('carries a skill_view result with an assistant message holding only its call', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'load the skill' },
      { role: 'assistant', content: 'loading', toolCalls: [call('r1'), call('s1', 'skill_view', '{"name":"deploy-docs"}')] },
      { role: 'tool', toolCallId: 'r1', toolName: 'read_file', content: 'file' },
      { role: 'tool', toolCallId: 's1', toolName: 'skill_view', content: 'SKILL: step 1, step 2' },
      { role: 'user', content: '<skill_content name="x">body</skill_content>' },
      { role: 'assistant', content: 'x' },
      { role: 'user', content: 'now' },
      { role: 'assistant', content: 'done' },
    ];
    const plan = planCompression(history, { protectFirstN: 2, protectLastN: 2, tailTokenBudget: 0 });
    expect(plan.carried).toEqual([
      { role: 'assistant', content: '', toolCalls: [call('s1', 'skill_view', '{"name":"deploy-docs"}')] },
      history[5],
      history[6],
    ]);
  });

  it('carries a skill loaded several times once, and not at all when the tail already holds it (catches filling a small window with copies)', () => {
    const skill = '<skill_content name="deploy">Step 1: build. Step 2: upload.</skill_content>';
    const other = '<skill_content name="review">Check the diff.</skill_content>';
    const history: ChatMessage[] = [
      { role: 'user', content: 'start' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: skill },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: other },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: skill },
      { role: 'assistant', content: 'c' },
      { role: 'user', content: other },
      { role: 'assistant', content: 'd' },
    ];
    const plan = planCompression(history, { protectFirstN: 2, protectLastN: 2, tailTokenBudget: 0 });
    expect(plan.carried).toEqual([history[6]]);
    expect(plan.carried[0]).toBe(history[6]);
  });
});

describe('toolPairingProblems / validateSummary', () => {
  it('reports missing results, orphan results and an assistant-first history (so the self-check can fail)', () => {
    expect(toolPairingProblems([{ role: 'user', content: 'u' }, { role: 'assistant', content: '', toolCalls: [call('x')] }, { role: 'user', content: 'v' }])).toEqual(['the read_file call x has no result']);
    expect(toolPairingProblems([{ role: 'user', content: 'u' }, { role: 'tool', toolCallId: 'y', toolName: 'read_file', content: 'r' }])[0]).toMatch(/follows no tool call/);
    expect(toolPairingProblems([{ role: 'assistant', content: 'hi' }])).toEqual(['the conversation starts with a assistant message']);
  });

  it('accepts the sections in common Markdown styles and drops a preamble', () => {
    expect(validateSummary(`Here you go:\n\n${validSummary('t')}`).startsWith('## Goal')).toBe(true);
    const bold = validSummary('t').replace(/## (.+)/g, '**$1:**').replace('&', 'and');
    expect(validateSummary('```markdown\n' + bold + '\n```')).toContain('**Goal:**');
  });

  it('rejects an empty answer or one missing sections, naming them (catches accepting garbage as a summary)', () => {
    expect(() => validateSummary('   ')).toThrow(/empty summary/);
    const missing = validSummary('t').replace('## Key Decisions', 'Key decisions were made').replace('## Next Steps', '');
    expect(() => validateSummary(missing)).toThrow(/Key Decisions, Next Steps/);
    expect(() => validateSummary('Sure! The user wants to deploy the docs.')).toThrow(HearthError);
  });
});
