import type { RouteHandlers } from '../../shared/contract.js';
import { projectWithCheckpoints } from '../checkpoints/project-root.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';

export type SafetyRoutes = 'approvals.log' | 'checkpoints.list' | 'checkpoints.diff' | 'checkpoints.rollback';

/**
 * What the safety settings page shows: the approval audit log, and the checkpoints of the workspace this engine
 * serves, which the user can inspect and roll back to — the desktop's `/rollback`.
 */
export function safetyHandlers(ctx: AppContext): Pick<RouteHandlers, SafetyRoutes> {
  const { engine } = ctx;
  const project = (): string => projectWithCheckpoints(engine.home, engine.workspace);
  const store = () => {
    if (engine.sessions.checkpoints === null) throw new AppError('unavailable', 'Checkpoints are off (checkpoints.enabled: false in config.yaml).');
    return engine.sessions.checkpoints;
  };
  return {
    'approvals.log': async ({ limit }) => engine.safety.audit.list(limit),
    'checkpoints.list': async () => {
      if (engine.sessions.checkpoints === null) return { project: project(), enabled: false, checkpoints: [] };
      const checkpoints = await engine.sessions.checkpoints.list(project());
      return {
        project: project(),
        enabled: true,
        checkpoints: checkpoints.map((c) => ({ number: c.number, reason: c.reason, covers: c.covers, time: c.time.getTime(), filesChanged: c.filesChanged })),
      };
    },
    'checkpoints.diff': async ({ number }) => ({ diff: await store().diff(project(), number) }),
    'checkpoints.rollback': async ({ number }) => {
      const { restored, removed } = await store().rollback(project(), number);
      return { restored, removed };
    },
  };
}
