import { describe, expect, it } from 'vitest';
import { LEFT_OUT_MARKER, pruneOldestTurns } from '../src/core/agent/compression/overflow-prune.js';
import { toolPairingProblems } from '../src/core/agent/compression/history-check.js';
import { isSummaryMessage, summaryBody, summaryMessage } from '../src/core/agent/compression/summary-message.js';
import { historyTokens } from '../src/core/agent/compression/token-estimate.js';
import { runTurn } from '../src/core/agent/loop.js';
import { HearthError } from '../src/core/errors.js';
import type { ChatMessage } from '../src/core/llm/types.js';
import { ApprovalPolicyBroker } from '../src/core/safety/approvals/policy.js';
import { ToolRegistry } from '../src/core/tools/registry.js';
import { seededRandom } from '../src/core/seeded-random.js';
import type { AgentEvent } from '../src/shared/events.js';
import { generateHistory, validSummary } from './fixtures/compression-histories.js';
import { ScriptedModel, type ScriptStep } from './fixtures/scripted-model.js';

/** The last resort when a prompt overflows: which turns leave the model's view, and how the loop retries. */

describe('pruneOldestTurns', () => {
  it('drops whole turns from the start, never splitting a tool call from its results, over 250 generated histories (property)', () => {
    const random = seededRandom(4242);
    for (let run = 0; run < 250; run++) {
      const history = generateHistory(random, { turns: 2 + Math.floor(random() * 12), skillViewChance: 0.1 });
      const budget = Math.floor(random() * 4_000);
      const context = `run ${run} budget ${budget}`;
      const pruned = pruneOldestTurns(history, budget);
      if (pruned === null) continue;
      const kept = pruned.history.slice(1);
      // Nothing reordered or rewritten: what is dropped and what is kept are the history, in order.
      expect([...pruned.dropped, ...kept], context).toEqual(history);
      expect(pruned.dropped.length, context).toBeGreaterThan(0);
      // A provider accepts the result: the note first, then whole units.
      expect(toolPairingProblems(pruned.history), context).toEqual([]);
      expect(pruned.history[0]!.content.startsWith(LEFT_OUT_MARKER), context).toBe(true);
      // Within the budget, unless only the latest unit is left (it always stays).
      const lastUnitStart = history.findLastIndex((m) => m.role !== 'tool');
      if (kept.length > history.length - lastUnitStart) expect(historyTokens(kept), context).toBeLessThanOrEqual(budget);
      expect(pruned.leftOut.messages, context).toBe(pruned.dropped.length);
      expect(pruned.leftOut.userMessages, context).toBe(pruned.dropped.filter((m) => m.role === 'user').length);
    }
  });

  it('names the first and last left-out user message, and carries an earlier summary instead of dropping it', () => {
    const history: ChatMessage[] = [
      summaryMessage(validSummary('earlier'), 12),
      { role: 'user', content: 'please migrate the billing tables to the new schema and keep the old ones' },
      { role: 'assistant', content: 'x '.repeat(800) },
      { role: 'user', content: 'now the invoices' },
      { role: 'assistant', content: 'y '.repeat(800) },
      { role: 'user', content: 'and the latest request' },
    ];
    const pruned = pruneOldestTurns(history, 500)!;
    expect(pruned.history.at(-1)).toBe(history.at(-1));
    expect(pruned.leftOut).toMatchObject({ userMessages: 2, first: 'please migrate the billing tables to the new schema and kee…', last: 'now the invoices' });
    // Catches losing what earlier compressions saved: the note is still a summary message with that body.
    const note = pruned.history[0]!;
    expect(isSummaryMessage(note)).toBe(true);
    expect(summaryBody(note)).toContain('Finish the migration (earlier).');
    expect(note.content.split('\n')[0]).toMatch(/Hearth then left out 5 earlier messages \(2 of the user's messages among them/);
  });

  it('returns null when the latest unit is all there is to keep', () => {
    expect(pruneOldestTurns([{ role: 'user', content: 'z '.repeat(5_000) }], 10)).toBeNull();
  });
});

describe('runTurn on a context-overflow rejection', () => {
  const overflow = () => new HearthError('model_context_overflow', 'prompt is too long');

  function turn(steps: ScriptStep[], recover: (conversation: readonly ChatMessage[], round: number) => ChatMessage[] | null) {
    const model = new ScriptedModel(steps);
    const events: AgentEvent[] = [];
    const rounds: number[] = [];
    const history: ChatMessage[] = [
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'old answer' },
    ];
    const result = runTurn({
      sessionId: 's',
      workspace: '/tmp',
      systemPrompt: 'SYSTEM',
      history,
      userText: 'new question',
      model,
      tools: new ToolRegistry([]),
      approvals: new ApprovalPolicyBroker(),
      toolState: new Map(),
      signal: new AbortController().signal,
      askUser: async () => '',
      emit: (e) => events.push(e),
      onMessage: () => undefined,
      recoverOverflow: async (conversation, round) => {
        rounds.push(round);
        return recover(conversation, round);
      },
    });
    return { result, model, events, rounds };
  }

  it('retries the call with the recovered conversation, so the turn is answered', async () => {
    const { result, model, rounds } = turn([{ error: overflow() }, { text: 'answered' }], (conversation) => conversation.slice(2));
    expect(await result).toMatchObject({ reason: 'stop', final: 'answered' });
    expect(rounds).toEqual([0]);
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual(['SYSTEM', 'new question']);
  });

  it('lets the error end the turn after output was streamed (a retry would repeat it), or when nothing can be dropped', async () => {
    const streamed = turn([{ text: 'partial', error: overflow() }], (conversation) => conversation.slice(2));
    expect(await streamed.result).toMatchObject({ reason: 'error', error: { code: 'model_context_overflow' } });
    expect(streamed.rounds).toEqual([]);
    const stuck = turn([{ error: overflow() }], () => null);
    expect(await stuck.result).toMatchObject({ reason: 'error', error: { code: 'model_context_overflow' } });
    expect(stuck.rounds).toEqual([0]);
  });

  it('gives up after a bounded number of rejections of the same call', async () => {
    const { result, rounds } = turn(Array.from({ length: 10 }, () => ({ error: overflow() })), (conversation) => [...conversation]);
    expect(await result).toMatchObject({ reason: 'error', error: { code: 'model_context_overflow' } });
    expect(rounds).toEqual([0, 1, 2]);
  });
});
