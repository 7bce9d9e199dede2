import type { RouteHandlers, RouteOutput } from '../../shared/contract.js';
import { MEMORY_TARGETS } from '../memory/budget.js';
import { USER_IN_APP } from '../memory/provenance.js';
import type { UserFact } from '../user-model/facts.js';
import type { AppContext } from './context.js';

export type MemoryRoutes = 'memory.list' | 'memory.add' | 'memory.replace' | 'memory.remove' | 'userModel.facts' | 'userModel.correct' | 'userModel.reject' | 'userModel.delete';
type UserFactView = RouteOutput<'userModel.facts'>[number];

/**
 * Curated memory and the user model, edited by the user. Writes go through MemoryStore, so the user gets
 * the same checks the agent does: injection scan, a unique `oldText`, and an overflow refused (memory_full,
 * with the numbers) rather than anything dropped. They apply at once: the user is the one approving.
 */
export function memoryHandlers(ctx: AppContext): Pick<RouteHandlers, MemoryRoutes> {
  const { memory, limits, facts } = ctx.engine.learning;
  return {
    'memory.list': async () =>
      MEMORY_TARGETS.map((target) => ({
        target,
        entries: memory.read(target).map((entry, index) => ({ index, content: entry.content, id: entry.id, protected: entry.protected, author: entry.author, via: entry.via })),
        usedChars: memory.usage(target, limits[target]).used,
        limitChars: limits[target],
      })),
    'memory.add': async (input) => {
      memory.add(input.target, input.content, { limit: limits[input.target], by: USER_IN_APP });
      return { ok: true as const };
    },
    'memory.replace': async (input) => {
      memory.replace(input.target, input.oldText, input.content, { limit: limits[input.target], by: USER_IN_APP });
      return { ok: true as const };
    },
    'memory.remove': async (input) => {
      memory.remove(input.target, input.oldText, { by: USER_IN_APP });
      return { ok: true as const };
    },
    'userModel.facts': async (input) => {
      const list = facts.list(input.includeSuperseded ? 'all' : 'active');
      const live = new Set(ctx.engine.sessions.store.getMessagesById([...new Set(list.flatMap((f) => f.evidence.map((e) => e.messageId)))]).map((m) => m.id));
      return list.map((fact) => factView(fact, live));
    },
    // The user's own edits apply at once (they are the one approving); the agent's go through pending writes.
    'userModel.correct': async (input) => {
      const fact = facts.correct(input.id, input.statement);
      return factView(fact, new Set(ctx.engine.sessions.store.getMessagesById(fact.evidence.map((e) => e.messageId)).map((m) => m.id)));
    },
    'userModel.reject': async (input) => {
      facts.reject(input.id);
      return { ok: true as const };
    },
    'userModel.delete': async (input) => {
      facts.delete(input.id);
      return { ok: true as const };
    },
  };
}

/**
 * The excerpt was recorded when the fact was learned. Evidence whose message was deleted since stays listed
 * (sessionId null, no excerpt: the user deleted those words), so the UI can say so.
 */
function factView(fact: UserFact, liveMessages: ReadonlySet<number>): UserFactView {
  return {
    id: fact.id,
    statement: fact.statement,
    category: fact.category,
    confidence: fact.confidence,
    status: fact.status,
    source: fact.source,
    evidence: fact.evidence.map((e) => (liveMessages.has(e.messageId) ? e : { messageId: e.messageId, sessionId: null, excerpt: '' })),
  };
}
