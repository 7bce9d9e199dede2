import { z } from 'zod';
import type { LearningState } from '../store/learning-state.js';
import type { SessionStore } from '../store/types.js';

/** The learning clock of one conversation: what the nudges and the reflection schedule count. */
export const ConversationCounts = z.object({
  itersSinceSkill: z.number().int().nonnegative(),
  turnsSinceMemory: z.number().int().nonnegative(),
  turnsSinceReflection: z.number().int().nonnegative(),
});
export type ConversationCounts = z.infer<typeof ConversationCounts>;

const KEY_PREFIX = 'learning.counters.';
/** A parent chain longer than this is a data error (or a cycle), not a conversation. */
const MAX_CHAIN = 1_000;

/**
 * Names a conversation by the root of its session's parent chain. Compression continues a conversation in a
 * child session (and a branch starts from a copy of one), so counting per session id reset every counter at
 * each compression (issue 11, problem 7): 20 turns gave one reflection instead of three and no memory review.
 */
export function conversationRoot(store: Pick<SessionStore, 'getSession'>, sessionId: string): string {
  let id = sessionId;
  const seen = new Set<string>([id]);
  for (let hops = 0; hops < MAX_CHAIN; hops += 1) {
    const parent = store.getSession(id)?.parentSessionId ?? null;
    if (parent === null || seen.has(parent)) return id;
    seen.add(parent);
    id = parent;
  }
  return id;
}

/**
 * Conversation counters kept in `learning_state`, so a restart (`hearth chat --resume`, the app reopening a
 * conversation) carries on counting instead of starting over. Unreadable saved values start from zero: a
 * counter is a schedule, and losing one costs at most an early or late review.
 */
export class ConversationCounterStore {
  constructor(private readonly state: LearningState) {}

  load(conversationId: string): ConversationCounts | null {
    const raw = this.state.get(KEY_PREFIX + conversationId);
    if (raw === undefined) return null;
    try {
      const parsed = ConversationCounts.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch (err) {
      // Written by this class as JSON; anything else is damage, and zero is the safe restart.
      void err;
      return null;
    }
  }

  save(conversationId: string, counts: ConversationCounts): void {
    this.state.set(KEY_PREFIX + conversationId, JSON.stringify(counts));
  }
}
