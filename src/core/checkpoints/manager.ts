import { errorMessage } from '../errors.js';
import type { CheckpointRequest, UserUpdate } from '../tools/define.js';
import { isProjectFolder, projectRootFor } from './project-root.js';
import type { Checkpoint, CheckpointStore } from './store.js';

/**
 * Takes at most one checkpoint per project per turn of a session: the first change of a turn is snapshotted,
 * later ones in the same turn add nothing, since rolling back to the state before the turn covers them. A
 * session whose turns are never begun gets a snapshot per request (the store still skips unchanged trees),
 * so forgetting `beginTurn` costs time, never a lost checkpoint.
 */
export class CheckpointManager {
  private readonly turns = new Map<string, Map<string, Promise<Checkpoint | null>>>();
  /** Failures already reported, per session: a refused project warns once, not on every write. */
  private readonly reported = new Set<string>();

  constructor(readonly store: CheckpointStore) {}

  /** Call when a session's turn starts (a user message arrives). */
  beginTurn(sessionId: string): void {
    this.turns.set(sessionId, new Map());
  }

  /** Forget a finished session's turn state. */
  endSession(sessionId: string): void {
    this.turns.delete(sessionId);
    for (const key of this.reported) if (key.startsWith(`${sessionId}\0`)) this.reported.delete(key);
  }

  /** True the first time a session reports this failure for this project. */
  firstReport(sessionId: string, root: string, message: string): boolean {
    const key = `${sessionId}\0${root}\0${message}`;
    if (this.reported.has(key)) return false;
    this.reported.add(key);
    return true;
  }

  /**
   * Snapshots `root` unless this turn already did (or is doing: parallel tool calls of one batch share the
   * snapshot in flight). A failure is kept for the rest of the turn so a refused project is not rescanned
   * on every write; the next turn tries again.
   */
  snapshotForTurn(sessionId: string, root: string, reason: string): Promise<Checkpoint | null> {
    const turn = this.turns.get(sessionId);
    if (turn === undefined) return this.store.snapshot(root, reason);
    const existing = turn.get(root);
    if (existing !== undefined) {
      // The turn's snapshot holds the state before this change too: its label says so ("also covers …").
      const covered = existing.then(async (checkpoint) => {
        if (checkpoint === null) return { checkpoint, error: null };
        try {
          return { checkpoint: await this.store.cover(root, checkpoint, reason), error: null };
        } catch (err) {
          return { checkpoint, error: err };
        }
      });
      turn.set(root, covered.then((result) => result.checkpoint));
      return covered.then((result) => {
        if (result.error !== null) throw new CheckpointLabelError(result.error);
        return null;
      });
    }
    const taken = this.store.snapshot(root, reason);
    turn.set(root, taken);
    return taken;
  }
}

/** The turn's checkpoint covers the change, but its label could not say so: a warning, not a missing checkpoint. */
export class CheckpointLabelError extends Error {
  constructor(readonly reason: unknown) {
    super(`the checkpoint taken earlier in this turn covers it, but its label could not be updated: ${errorMessage(reason)}`);
  }
}

export interface CheckpointHookOptions {
  sessionId: string;
  /** The session's workspace: paths inside it belong to it. */
  workspace: string;
  /** Where failures go: a warning notice to the user (the change still goes ahead). */
  notify: (update: UserUpdate) => void;
}

/**
 * Builds `ToolContext.checkpoint` for a session (cheap: build it per tool call if that is simpler). Never throws:
 * a snapshot that fails is reported to the user as a warning, once per session, project and message, and the
 * tool's change goes ahead.
 */
export function createCheckpointHook(manager: CheckpointManager, options: CheckpointHookOptions): (request: CheckpointRequest) => Promise<void> {
  return async (request) => {
    const roots = new Set(
      request.paths !== undefined && request.paths.length > 0
        ? request.paths.map((path) => projectRootFor(path, 'file', options.workspace))
        : [projectRootFor(request.cwd ?? options.workspace, 'dir', options.workspace)],
    );
    for (const root of roots) {
      if (!isProjectFolder(root)) {
        // `~/.bashrc` or a command run in `/`: no project to snapshot, and copying a home or the whole disk is no checkpoint.
        if (manager.firstReport(options.sessionId, root, 'not a project')) {
          options.notify({ kind: 'notice', level: 'info', message: `No checkpoint taken ${request.reason}: ${root} is not a project folder (a checkpoint covers a workspace or a git repository).` });
        }
        continue;
      }
      try {
        await manager.snapshotForTurn(options.sessionId, root, request.reason);
      } catch (err) {
        const message = errorMessage(err);
        if (!manager.firstReport(options.sessionId, root, message)) continue;
        options.notify({
          kind: 'notice',
          level: 'warning',
          message: err instanceof CheckpointLabelError ? `Checkpoint ${request.reason}: ${message}.` : `No checkpoint taken ${request.reason}: ${message} The change goes ahead without one.`,
        });
      }
    }
  };
}
