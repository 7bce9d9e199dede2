import { z } from 'zod';
import type { FactCategory, UserFact, UserFactStore } from '../user-model/facts.js';
import { stem, terms } from '../user-model/statement-terms.js';
import { defineTool } from './define.js';

const Input = z.object({
  question: z.string().optional().describe('What you want to know about the user, e.g. "editor preferences". Omit to list every active fact.'),
});

export interface UserModelToolDeps {
  facts: UserFactStore;
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
      'each fact with a confidence and the ids of the messages it comes from. Ask a question, or omit it to list everything.',
    input: Input,
    parallelSafe: true,
    run(input) {
      const active = deps.facts.active();
      if (active.length === 0) return Promise.resolve('Nothing is known about the user yet.');
      const question = input.question?.trim();
      if (!question) return Promise.resolve(`${active.length} active facts about the user:\n${rank(active).map(formatFact).join('\n')}`);

      const matches = answer(question, active).slice(0, deps.maxResults ?? 12);
      if (matches.length === 0) {
        const byCategory = countByCategory(active);
        return Promise.resolve(`No active fact about the user matches "${question}". Known facts: ${byCategory}. Call user_model without a question to list them all.`);
      }
      return Promise.resolve(`${matches.length} fact${matches.length === 1 ? '' : 's'} about the user matching "${question}":\n${matches.map(formatFact).join('\n')}`);
    },
  });
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
  return `- #${fact.id} [${fact.category}, confidence ${fact.confidence.toFixed(2)}] ${fact.statement} (evidence: message ${fact.evidence.join(', ')})`;
}

function countByCategory(facts: readonly UserFact[]): string {
  const counts = new Map<string, number>();
  for (const f of facts) counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
  return [...counts].map(([category, n]) => `${n} ${category}`).join(', ');
}
