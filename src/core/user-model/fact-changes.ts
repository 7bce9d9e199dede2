import { z } from 'zod';
import { HearthError } from '../errors.js';
import type { UserFact, UserFactStore } from './facts.js';

/**
 * A change to a user-model fact the agent proposed (the `user_model` tool) and the user approves: stored
 * as a `user_model` pending write, applied by `applyFactChange` through the same UserFactStore methods the
 * user's own edits use (CLI, app).
 */
export const FactChange = z.discriminatedUnion('action', [
  z.object({ action: z.literal('correct'), fact_id: z.number().int().positive(), statement: z.string().trim().min(3).max(400), reason: z.string().optional() }),
  z.object({ action: z.literal('reject'), fact_id: z.number().int().positive(), reason: z.string().optional() }),
  z.object({ action: z.literal('delete'), fact_id: z.number().int().positive(), reason: z.string().optional() }),
]);
export type FactChange = z.infer<typeof FactChange>;

/** One line for the user: what approving does, with the fact's words (not only its id). */
export function describeFactChange(change: FactChange, fact: UserFact | null): string {
  const what = fact === null ? `fact #${change.fact_id}` : `fact #${fact.id} "${fact.statement}"`;
  const why = change.reason === undefined || change.reason.trim() === '' ? '' : ` (${change.reason.trim()})`;
  if (change.action === 'correct') return `user model: correct ${what} to "${change.statement}"${why}`;
  if (change.action === 'reject') return `user model: mark ${what} as wrong${why}`;
  return `user model: delete ${what}${why}`;
}

/** Applies an approved change; a payload that does not parse is refused with how to get rid of it. */
export function applyFactChange(facts: UserFactStore, payload: unknown, pendingId: number): string {
  const parsed = FactChange.safeParse(payload);
  if (!parsed.success) {
    throw new HearthError('usage', `Staged write #${pendingId} is not a valid user-model change (${parsed.error.issues.map((i) => i.message).join('; ')}); reject it with \`hearth pending reject ${pendingId}\`.`);
  }
  const change = parsed.data;
  const before = facts.get(change.fact_id);
  if (change.action === 'correct') {
    const fact = facts.correct(change.fact_id, change.statement);
    return `Applied: fact #${change.fact_id} replaced by #${fact.id}: ${fact.statement}`;
  }
  if (change.action === 'reject') facts.reject(change.fact_id);
  else facts.delete(change.fact_id);
  return `Applied: ${describeFactChange(change, before)}`;
}

/** The fact as the prompt would carry it before and after the change ('' once it is no longer used). */
export function factChangeText(change: FactChange, fact: UserFact): { before: string; after: string } {
  const before = `[${fact.category}] ${fact.statement}\n`;
  return { before, after: change.action === 'correct' ? `[${fact.category}] ${change.statement}\n` : '' };
}
