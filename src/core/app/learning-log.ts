import type { RouteHandlers } from '../../shared/contract.js';
import type { AppContext } from './context.js';

export type LearningLogRoutes = 'learning.log';

/** The learning journal for the app's Learning view: the same rows `hearth learning log` prints. */
export function learningLogHandlers(ctx: AppContext): Pick<RouteHandlers, LearningLogRoutes> {
  return {
    'learning.log': (input) => Promise.resolve(ctx.engine.learning.journal.recent(input.limit)),
  };
}
