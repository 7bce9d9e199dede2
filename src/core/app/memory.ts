import type { RouteHandlers, RouteOutput } from '../../shared/contract.js';
import { MEMORY_TARGETS } from '../memory/budget.js';
import type { StoredMessage } from '../store/types.js';
import type { AppContext } from './context.js';

export type MemoryRoutes = 'memory.list' | 'memory.add' | 'memory.replace' | 'memory.remove' | 'userModel.facts';
type UserFactView = RouteOutput<'userModel.facts'>[number];

const EXCERPT_CHARS = 240;

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
        entries: memory.read(target).map((entry, index) => ({ index, content: entry.content })),
        usedChars: memory.usage(target, limits[target]).used,
        limitChars: limits[target],
      })),
    'memory.add': async (input) => {
      memory.add(input.target, input.content, { limit: limits[input.target] });
      return { ok: true as const };
    },
    'memory.replace': async (input) => {
      memory.replace(input.target, input.oldText, input.content, { limit: limits[input.target] });
      return { ok: true as const };
    },
    'memory.remove': async (input) => {
      memory.remove(input.target, input.oldText);
      return { ok: true as const };
    },
    'userModel.facts': async (input) => {
      const list = facts.list(input.includeSuperseded ? 'all' : 'active');
      const messages = new Map(ctx.engine.store.getMessagesById([...new Set(list.flatMap((f) => f.evidence))]).map((m) => [m.id, m]));
      return list.map((fact): UserFactView => ({
        id: fact.id,
        statement: fact.statement,
        category: fact.category,
        confidence: fact.confidence,
        status: fact.status,
        // Evidence whose message was deleted stays listed (sessionId null), so the UI can say so.
        evidence: fact.evidence.map((messageId) => evidenceOf(messageId, messages.get(messageId))),
      }));
    },
  };
}

function evidenceOf(messageId: number, message: StoredMessage | undefined): UserFactView['evidence'][number] {
  if (message === undefined) return { messageId, sessionId: null, excerpt: '' };
  const text = message.content.replace(/\s+/g, ' ').trim();
  return { messageId, sessionId: message.sessionId, excerpt: text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text };
}
