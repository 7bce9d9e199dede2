import type { RouteHandlers } from '../../shared/contract.js';
import { describeChange, quoteLine } from '../memory/changes.js';
import type { AppContext } from './context.js';

export type MemoryProtectionRoutes = 'memory.protect' | 'memory.changes' | 'memory.undo';

/**
 * What the user decides about the agent's hold on memory (issue 11): which entries are theirs (protected:
 * the agent may only propose changing them), and undoing a removal or replacement the agent made.
 */
export function memoryProtectionHandlers(ctx: AppContext): Pick<RouteHandlers, MemoryProtectionRoutes> {
  const { memory } = ctx.engine.learning;
  return {
    'memory.protect': async (input) => {
      memory.setProtected(input.id, input.protected);
      return { ok: true as const };
    },
    'memory.changes': async () =>
      memory.changes().map((change) => ({
        id: change.id,
        target: change.target,
        action: change.action,
        message: describeChange(change),
        createdAt: change.createdAt,
        undone: change.undoneAt !== null,
      })),
    'memory.undo': async (input) => {
      const { entry } = memory.undo(input.changeId);
      return { message: `Restored to ${entry.target === 'user' ? 'user profile' : 'memory'}: '${quoteLine(entry.content)}'` };
    },
  };
}
