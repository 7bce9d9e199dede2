import { z } from 'zod';
import type { FactCategory, UserFact, UserFactStore } from '../user-model/facts.js';
import { describeFactChange, type FactChange } from '../user-model/fact-changes.js';
import { stem, terms } from '../user-model/statement-terms.js';
import { defineTool } from './define.js';
import { countOf } from '../../shared/plural.js';

const Input = z.object({
  action: z
    .enum(['ask', 'correct', 'reject', 'delete'])
    .default('ask')
    .describe('ask (default): answer a question. correct / reject / delete a fact the user says is wrong: the change waits for the user to approve it.'),
  question: z.string().optional().describe('ask: what you want to know about the user, e.g. "editor preferences". Omit to list every active fact.'),
  fact_id: z.number().int().positive().optional().describe('correct, reject, delete: the fact (#id in the answers).'),
  statement: z.string().trim().min(3).max(400).optional().describe('correct: the right fact, one sentence, third person ("The user prefers spaces.").'),
  reason: z.string().max(400).optional().describe('correct, reject, delete: what the user said, shown to them with the proposal.'),
});

export interface UserModelToolDeps {
  facts: UserFactStore;
  /** Stages a change to a fact for the user's approval (pending writes): the model never edits the user model itself. */
  propose?: (write: { kind: 'user_model'; sessionId: string | null; payload: FactChange; summary: string }) => { id: number };
  /** Most facts returned for one question (default 12). */
  maxResults?: number;
}

/** Question words that point at a whole category ("what are their preferences?"). */
const CATEGORY_WORDS: Record<string, FactCategory> = Object.fromEntries(
  (
    [
      ['preference', 'preference'],
      ['dislike', 'preference'],
      ['habit', 'work_pattern'],
      ['workflow', 'work_pattern'],
      ['pattern', 'work_pattern'],
      ['schedule', 'work_pattern'],
      ['expertise', 'expertise'],
      ['expert', 'expertise'],
      ['skill', 'expertise'],
      ['know', 'expertise'],
      ['instruction', 'instruction'],
      ['rule', 'instruction'],
      ['background', 'background'],
      ['role', 'background'],
      ['job', 'background'],
    ] as const
  ).map(([word, category]) => [stem(word), category]),
);

/**
 * `user_model`: answers questions about the user from the active facts of the user model. Matching is
 * lexical (shared stemmed terms, plus category words such as "preferences" or "rules"), ranked by how
 * many terms match, then confidence. Each answer carries the evidence message ids, so the model can
 * look the messages up (session_search) when it needs the context.
 */
export function createUserModelTool(deps: UserModelToolDeps) {
  return defineTool({
    name: 'user_model',
    description:
      'What Hearth has learned about the user over past sessions (preferences, work patterns, expertise, standing instructions, background), ' +
      'each fact with a confidence and the session and message it comes from. Ask a question, or omit it to list everything. ' +
      'When the user says a fact is wrong, propose a correct, reject or delete: the user approves it before it applies.',
    input: Input,
    parallelSafe: true,
    run(input, ctx) {
      if (input.action !== 'ask') return Promise.resolve(propose(deps, { ...input, action: input.action }, ctx.sessionId));
      const active = deps.facts.active();
      if (active.length === 0) return Promise.resolve('Nothing is known about the user yet.');
      const question = input.question?.trim();
      if (!question) return Promise.resolve(`${countOf(active.length, 'active fact', 'active facts')} about the user:\n${rank(active).map(formatFact).join('\n')}`);

      const matches = answer(question, active).slice(0, deps.maxResults ?? 12);
      if (matches.length === 0) {
        const byCategory = countByCategory(active);
        return Promise.resolve(`No active fact about the user matches "${question}". Known facts: ${byCategory}. Call user_model without a question to list them all.`);
      }
      return Promise.resolve(`${countOf(matches.length, 'fact', 'facts')} about the user matching "${question}":\n${matches.map(formatFact).join('\n')}`);
    },
  });
}

function propose(deps: UserModelToolDeps, input: z.infer<typeof Input> & { action: FactChange['action'] }, sessionId: string): string {
  if (deps.propose === undefined) return 'Changing the user model is not available here: ask the user to edit it (hearth memory user, or the Memory page).';
  if (input.fact_id === undefined) return `${input.action} needs fact_id: call user_model with action "ask" to find the fact's #id.`;
  const fact = deps.facts.get(input.fact_id);
  if (fact === null) return `There is no fact #${input.fact_id}. Call user_model with action "ask" to list them.`;
  if (input.action === 'correct' && input.statement === undefined) return 'correct needs statement: the right fact, one sentence.';
  const change: FactChange =
    input.action === 'correct'
      ? { action: 'correct', fact_id: fact.id, statement: input.statement ?? '', ...(input.reason === undefined ? {} : { reason: input.reason }) }
      : { action: input.action, fact_id: fact.id, ...(input.reason === undefined ? {} : { reason: input.reason }) };
  const staged = deps.propose({ kind: 'user_model', sessionId, payload: change, summary: describeFactChange(change, fact) });
  return `Proposed to the user as pending change #${staged.id} (${describeFactChange(change, fact)}); it applies only when they approve it. Nothing has changed yet.`;
}

function answer(question: string, facts: readonly UserFact[]): UserFact[] {
  const wanted = new Set(terms(question));
  const categories = new Set([...wanted].flatMap((t) => (CATEGORY_WORDS[t] ? [CATEGORY_WORDS[t]] : [])));
  const scored = facts.flatMap((fact) => {
    const shared = new Set(terms(fact.statement).filter((t) => wanted.has(t))).size;
    const score = shared + (categories.has(fact.category) ? 1 : 0);
    return score > 0 ? [{ fact, score }] : [];
  });
  return scored.sort((a, b) => b.score - a.score || b.fact.confidence - a.fact.confidence).map((s) => s.fact);
}

function rank(facts: readonly UserFact[]): UserFact[] {
  return [...facts].sort((a, b) => b.confidence - a.confidence || a.id - b.id);
}

function formatFact(fact: UserFact): string {
  const evidence = fact.evidence.map((e) => (e.sessionId === null ? `message ${e.messageId}` : `message ${e.messageId} in session ${e.sessionId}`));
  return `- #${fact.id} [${fact.category}, confidence ${fact.confidence.toFixed(2)}] ${fact.statement} (evidence: ${evidence.join(', ') || 'none'})`;
}

function countByCategory(facts: readonly UserFact[]): string {
  const counts = new Map<string, number>();
  for (const f of facts) counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
  return [...counts].map(([category, n]) => `${n} ${category}`).join(', ');
}
