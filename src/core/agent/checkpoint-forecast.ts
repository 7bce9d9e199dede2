import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { isInside, isProjectFolder, projectRootFor } from '../checkpoints/project-root.js';
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
  /** No checkpoint can undo it: the detector says so, or the command names a path outside the snapshotted folder. */
  irreversible: boolean;
  /** The folder snapshotted before it runs, or null when none is. */
  checkpoint: string | null;
}

/**
 * Whether a checkpoint will be taken before the asked action, and of which folder, so the dialog promises /rollback
 * only when it holds: file tools snapshot the file's project before writing; the terminal tool snapshots before
 * destructive commands (`isDestructive`) when commands see this workspace. A flagged command that names a path
 * outside that folder (`rm -rf /srv/data` run from the workspace) reaches what the snapshot does not hold, so it is
 * "cannot be undone" even before the detector says so itself; the detector's `irreversible` always wins. Folders
 * that are never snapshotted (the home folder, `/`, system folders) get no promise.
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
  const irreversible = request.irreversible === true || namesPathOutside(request.command, root, cwd, home);
  const covered = context.checkpoints && context.commandsShareWorkspace && !irreversible && isDestructive(request.command) && isProjectFolder(root, home);
  return { irreversible, checkpoint: covered ? root : null };
}

/** Paths that are no place a command changes anything. */
const HARMLESS = /^\/dev\/(null|zero|u?random|stdout|stderr|stdin|tty|fd\/\d+)$/;

/**
 * Whether a word of the command is a path outside `root`: absolute, `~`-relative or climbing out with `..`.
 * Deliberately rough (a word, not a parse): it only ever takes a promise away, never gives one.
 */
function namesPathOutside(command: string, root: string, cwd: string, home: string): boolean {
  for (const match of command.matchAll(/(?:^|[\s=:'"(<>|;&`])((?:~|\.\.)?\/[^\s'"`;|&()<>]*|~(?=$|[\s'"`;|&()<>])|\.\.(?=$|[\s'"`;|&()<>]))/g)) {
    const word = match[1] ?? '';
    if (HARMLESS.test(word)) continue;
    const path = word.startsWith('~') ? home + word.slice(1) : isAbsolute(word) ? word : resolve(cwd, word);
    if (!isInside(root, resolve(path))) return true;
  }
  return false;
}
