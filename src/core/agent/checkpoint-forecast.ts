import { isProjectFolder, projectRootFor } from '../checkpoints/project-root.js';
import { isDestructive } from '../safety/approvals/destructive.js';
import type { AskedApproval } from '../safety/approvals/policy.js';

export interface ForecastContext {
  workspace: string;
  /** Checkpoints are on (`checkpoints.enabled`). */
  checkpoints: boolean;
  /** Commands run on this machine's workspace (local backend), so a snapshot of it sees what they change. */
  commandsShareWorkspace: boolean;
}

/**
 * Whether a checkpoint will be taken before the asked action, and of which folder, so the approval dialog promises
 * /rollback only when it holds: file tools snapshot the file's project before writing; the terminal tool snapshots
 * before destructive commands (`isDestructive`) when commands see this workspace. Nothing is promised for what
 * the detector marks irreversible (beyond any workspace snapshot), nor for a folder that is never snapshotted
 * (the home folder, `/`, system folders). The dialog names the folder, so it never claims more than it covers.
 */
export function checkpointForecast(request: AskedApproval, context: ForecastContext): string | null {
  if (!context.checkpoints || request.irreversible === true) return null;
  let root: string;
  if (request.kind === 'file_write') root = projectRootFor(request.command, 'file', context.workspace);
  else if (request.kind === 'command' && context.commandsShareWorkspace && isDestructive(request.command)) root = projectRootFor(request.cwd ?? context.workspace, 'dir', context.workspace);
  else return null;
  return isProjectFolder(root) ? root : null;
}
