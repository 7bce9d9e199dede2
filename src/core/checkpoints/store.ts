import { existsSync } from 'node:fs';
import { rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import type { CheckpointsSection } from '../config/schema-safety.js';
import { HearthError, errorMessage } from '../errors.js';
import { runGit, type ShadowLocation } from './git.js';
import { shadowLocation } from './project-root.js';
import {
  changedPaths,
  commitCheckpoint,
  dropCheckpoints,
  ensureShadowRepo,
  relabelCheckpoint,
  stageCurrentFiles,
  storedCheckpoints,
  treeFileCount,
  type StoredCheckpoint,
} from './shadow-repo.js';

export type CheckpointSettings = z.infer<typeof CheckpointsSection>;

/** A checkpoint as users see it: number 1 is the newest. */
export interface Checkpoint {
  number: number;
  /** The shadow commit; stable while numbers shift as checkpoints are added. */
  id: string;
  reason: string;
  time: Date;
  /** Files that differ from the checkpoint before it (all files for the first one). */
  filesChanged: number;
  /** Later changes of the same turn it also covers (its label: "before X; also covers Y, Z"). */
  covers: string[];
}

/** What a rollback to a checkpoint does to the project's files (root-relative paths). */
export interface RollbackPlan {
  /** Changed or deleted since the checkpoint: written back. */
  restore: string[];
  /** Created since the checkpoint: removed. */
  remove: string[];
}

export interface RollbackResult {
  restored: string[];
  removed: string[];
  /** The snapshot of the state just before the rollback (checkpoint 1 afterwards), or null when it matched the newest one. */
  undo: Checkpoint | null;
}

export interface CheckpointStoreOptions {
  /** HEARTH_HOME: shadow stores live under `<home>/checkpoints/`. */
  home: string;
  settings: Pick<CheckpointSettings, 'max_count' | 'max_age_days' | 'max_files' | 'max_file_mb'>;
  /** Milliseconds since the epoch; tests move it to age checkpoints. */
  now?: () => number;
}

const DAY_SECONDS = 86_400;
/** Most later changes one checkpoint's label lists (a turn rewriting a hundred files needs no hundred-line label). */
const MAX_COVERS = 20;

/**
 * Checkpoints of projects in shadow git repositories (one per project root), never in the project's own `.git`.
 * Each checkpoint is a parentless commit under `refs/hearth/cp/<n>`, so dropping the oldest is deleting a ref
 * and pruning unreachable objects — no history to rewrite. Operations on one project are serialised.
 */
export class CheckpointStore {
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(private readonly options: CheckpointStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Snapshots `root`; null when nothing changed since its newest checkpoint. Drops checkpoints past the limits. */
  snapshot(root: string, reason: string): Promise<Checkpoint | null> {
    return this.locked(root, (location) => this.snapshotUnlocked(location, reason));
  }

  /**
   * Records that `checkpoint` also covers a later change (`reason`, e.g. "before rm -rf build"), so its label says
   * everything it holds the state before. Returns it as relabelled (a new id); unchanged when it is gone (pruned).
   */
  cover(root: string, checkpoint: Checkpoint, reason: string): Promise<Checkpoint> {
    return this.locked(root, async (location) => {
      const all = await storedCheckpoints(location);
      const index = all.findIndex((stored) => stored.commit === checkpoint.id);
      const stored = all[index];
      const line = oneLine(reason);
      if (stored === undefined) return checkpoint;
      if (stored.reason === line || stored.covers.includes(line) || stored.covers.length >= MAX_COVERS) return toCheckpoint(stored, index);
      const covers = [...stored.covers, line];
      const commit = await relabelCheckpoint(location, stored, covers);
      return toCheckpoint({ ...stored, commit, covers }, index);
    });
  }

  /** Newest first, numbered from 1. */
  list(root: string): Promise<Checkpoint[]> {
    return this.locked(root, async (location) => (await storedCheckpoints(location)).map(toCheckpoint), () => []);
  }

  /** Unified diff from checkpoint `n` to the files as they are now; '' when they are the same. */
  diff(root: string, n: number): Promise<string> {
    return this.locked(root, async (location) => {
      const target = await this.find(location, n);
      const current = await stageCurrentFiles(location, this.options.settings);
      const args = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', target.commit, current.tree];
      return (await runGit(location, args)).stdout;
   }, () => {
      throw notFound(root, n, 0);
    });
  }

  /** What `rollback(root, n)` would change, changing nothing in the project. */
  preview(root: string, n: number): Promise<RollbackPlan> {
    return this.locked(root, async (location) => {
      const target = await this.find(location, n);
      const current = await stageCurrentFiles(location, this.options.settings);
      return planBetween(location, current.tree, target.tree);
   }, () => {
      throw notFound(root, n, 0);
    });
  }

  /**
   * Puts the project's files back as they were at checkpoint `n`: changed and deleted files are written back,
   * files created since are removed (only files a snapshot would hold: ignored ones are never touched). The
   * state before is snapshotted first, so the rollback itself can be undone with `rollback 1`.
   */
  rollback(root: string, n: number): Promise<RollbackResult> {
    return this.locked(root, async (location) => {
      const target = await this.find(location, n);
      const undo = await this.snapshotUnlocked(location, `before rollback to ${describeTarget(target)}`, target.ref);
      const current = (await storedCheckpoints(location))[0];
      if (current === undefined) throw new HearthError('checkpoint_failed', `The checkpoint store of ${location.root} lost its checkpoints during the rollback.`);
      const plan = await planBetween(location, current.tree, target.tree);
      for (const path of plan.remove) await removeFile(location.root, path);
      if (plan.restore.length > 0) {
        await runGit(location, ['checkout', target.commit, '--pathspec-from-file=-', '--pathspec-file-nul'], { input: plan.restore.map((p) => `${p}\0`).join('') });
      }
      return { restored: plan.restore, removed: plan.remove, undo };
   }, () => {
      throw notFound(root, n, 0);
    });
  }

  /** `protect`: a checkpoint ref pruning must keep (the target of a rollback in progress). */
  private async snapshotUnlocked(location: ShadowLocation, reason: string, protect?: string): Promise<Checkpoint | null> {
    const staged = await stageCurrentFiles(location, this.options.settings);
    const existing = await storedCheckpoints(location);
    const newest = existing[0];
    if (newest?.tree === staged.tree) return null;
    const filesChanged = newest === undefined ? await treeFileCount(location, staged.tree) : (await changedPaths(location, newest.tree, staged.tree)).length;
    const epochSeconds = Math.floor(this.now() / 1000);
    const summary = oneLine(reason);
    const commit = await commitCheckpoint(location, staged.tree, summary, filesChanged, (newest?.sequence ?? 0) + 1, epochSeconds);
    await this.prune(location, existing.filter((checkpoint) => checkpoint.ref !== protect), epochSeconds);
    return { number: 1, id: commit, reason: summary, time: new Date(epochSeconds * 1000), filesChanged, covers: [] };
  }

  /** Keeps the new checkpoint plus at most max_count − 1 older ones, none older than max_age_days. */
  private async prune(location: ShadowLocation, older: StoredCheckpoint[], nowSeconds: number): Promise<void> {
    const { max_count, max_age_days } = this.options.settings;
    const oldestKept = nowSeconds - max_age_days * DAY_SECONDS;
    const drop = older.filter((checkpoint, index) => index + 1 >= max_count || checkpoint.time < oldestKept);
    await dropCheckpoints(
      location,
      drop.map((checkpoint) => checkpoint.ref),
    );
  }

  private async find(location: ShadowLocation, n: number): Promise<StoredCheckpoint & { number: number }> {
    const all = await storedCheckpoints(location);
    const found = Number.isInteger(n) && n >= 1 ? all[n - 1] : undefined;
    if (found === undefined) throw notFound(location.root, n, all.length);
    return { ...found, number: n };
  }

  /** Runs `work` after earlier operations on the same project; `whenMissing` answers for a project with no store yet. */
  private async locked<T>(root: string, work: (location: ShadowLocation) => Promise<T>, whenMissing?: () => T): Promise<T> {
    const location = shadowLocation(this.options.home, resolve(root));
    // Stored promises never reject (see `settled`), so the chain runs on after a failed operation.
    const previous = this.locks.get(location.root) ?? Promise.resolve();
    const run = previous.then(async () => {
      // Only a snapshot creates a store: reading a project that has none must not leave an empty one behind.
      if (whenMissing !== undefined && !existsSync(location.gitDir)) return whenMissing();
      await ensureShadowRepo(location, [this.options.home]);
      return work(location);
    });
    // The failure reaches this operation's caller through `run`; the queue only needs to know it ended.
    const settled = run.catch(() => undefined);
    this.locks.set(location.root, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(location.root) === settled) this.locks.delete(location.root);
    }
  }
}

function notFound(root: string, n: number, count: number): HearthError {
  const have = count === 0 ? 'it has no checkpoints yet' : `its checkpoints are numbered 1 (newest) to ${count}`;
  return new HearthError('checkpoint_not_found', `No checkpoint ${n} for ${resolve(root)}: ${have}. \`hearth checkpoints list\` shows them.`, {
    details: { root: resolve(root), number: n, count },
  });
}

function toCheckpoint(stored: StoredCheckpoint, index: number): Checkpoint {
  return { number: index + 1, id: stored.commit, reason: stored.reason, time: new Date(stored.time * 1000), filesChanged: stored.filesChanged, covers: stored.covers };
}

function describeTarget(target: StoredCheckpoint & { number: number }): string {
  return `checkpoint ${target.number} (${target.commit.slice(0, 8)})`;
}

function oneLine(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return (line.length > 200 ? `${line.slice(0, 199)}…` : line) || 'checkpoint';
}

async function planBetween(location: ShadowLocation, currentTree: string, targetTree: string): Promise<RollbackPlan> {
  const changes = await changedPaths(location, currentTree, targetTree);
  return {
    restore: changes.filter((c) => c.status !== 'D').map((c) => c.path),
    remove: changes.filter((c) => c.status === 'D').map((c) => c.path),
  };
}

/** Removes a file created since the checkpoint, then the folders that removal left empty (up to the root). */
async function removeFile(root: string, path: string): Promise<void> {
  const absolute = join(root, path);
  try {
    await rm(absolute, { force: true });
  } catch (err) {
    throw new HearthError('checkpoint_failed', `Cannot remove ${absolute} while rolling back: ${errorMessage(err)}`, { cause: err });
  }
  for (let folder = dirname(absolute); folder !== root && folder.startsWith(root); folder = dirname(folder)) {
    try {
      await rmdir(folder);
    } catch (err) {
      // Not empty (other files live there) or already gone: the folder stays, and so do its parents.
      if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes((err as NodeJS.ErrnoException).code ?? '')) return;
      throw new HearthError('checkpoint_failed', `Cannot remove the empty folder ${folder} while rolling back: ${errorMessage(err)}`, { cause: err });
    }
  }
}
