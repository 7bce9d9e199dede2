import { homedir } from 'node:os';
import { isProjectFolder, projectRootFor } from '../checkpoints/project-root.js';
import { isDestructive } from '../safety/approvals/destructive.js';
import type { AskedApproval } from '../safety/approvals/policy.js';

export interface ForecastContext {
  workspace: string;
  /** Checkpoints are on (`checkpoints.enabled`). */
  checkpoints: boolean;
  /** Commands run on this machine's workspace (local backend), so a snapshot of it sees what they change. */
  commandsShareWorkspace: boolean;
  /** The user's home, for `~` in commands (default: os.homedir()). */
  home?: string;
}

/** What the approval dialog may say about undoing the asked action. */
export interface UndoForecast {
  /** No checkpoint can undo it: the detector found that it reaches beyond the workspace (`Classification.irreversible`). */
  irreversible: boolean;
  /** The folder snapshotted before it runs, or null when none is. */
  checkpoint: string | null;
}

/**
 * Whether a checkpoint will be taken before the asked action, and of which folder, so the dialog promises /rollback
 * only when it holds: file tools snapshot the file's project before writing; the terminal tool snapshots before
 * destructive commands (`isDestructive`) when commands see this workspace. What the detector marks irreversible
 * (`rm -rf /srv/data` run from the workspace: the snapshot holds nothing of /srv) gets no promise. The detector
 * judges paths against the same workspace `projectRootFor` returns for a command run inside it, and a command run
 * outside the workspace has its relative paths judged as outside too. Folders that are never snapshotted (the home
 * folder, `/`, system folders) get no promise either.
 */
export function undoForecast(request: AskedApproval, context: ForecastContext): UndoForecast {
  const home = context.home ?? homedir();
  const cwd = request.cwd ?? context.workspace;
  if (request.kind === 'file_write') {
    const root = projectRootFor(request.command, 'file', context.workspace);
    const covered = context.checkpoints && request.irreversible !== true && isProjectFolder(root, home);
    return { irreversible: request.irreversible === true, checkpoint: covered ? root : null };
  }
  if (request.kind !== 'command') return { irreversible: request.irreversible === true, checkpoint: null };
  const root = projectRootFor(cwd, 'dir', context.workspace);
  const irreversible = request.irreversible === true;
  const covered = context.checkpoints && context.commandsShareWorkspace && !irreversible && isDestructive(request.command) && isProjectFolder(root, home);
  return { irreversible, checkpoint: covered ? root : null };
}
