import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { HearthError, errorMessage } from '../errors.js';
import { runGit, type ShadowLocation } from './git.js';
import { isInside } from './project-root.js';
import { literalIgnorePattern, scanProject, type ScanLimits } from './project-scan.js';

/** Checkpoint refs: `refs/hearth/cp/<zero-padded sequence>`, so sorting by name is sorting by age. */
export const REF_PREFIX = 'refs/hearth/cp/';
const SEQUENCE_WIDTH = 12;

export function refName(sequence: number): string {
  return `${REF_PREFIX}${String(sequence).padStart(SEQUENCE_WIDTH, '0')}`;
}

/** One checkpoint as stored: an unparented commit of the project's tree under its own ref. */
export interface StoredCheckpoint {
  ref: string;
  sequence: number;
  commit: string;
  tree: string;
  /** Seconds since the epoch. */
  time: number;
  reason: string;
  filesChanged: number;
  /** Later changes of the same turn this snapshot also covers (one is taken per turn: the state before it). */
  covers: string[];
}

export interface StagedState {
  tree: string;
  largeFiles: string[];
}

const FILES_CHANGED = 'Hearth-Files-Changed';
const COVERS = 'Hearth-Covers';

function excludesPath(location: ShadowLocation): string {
  return join(location.gitDir, 'info', 'exclude');
}

function largeFilesPath(location: ShadowLocation): string {
  return join(location.gitDir, 'info', 'large-files');
}

/**
 * Creates the shadow repository on first use. Its own settings: no reflog and no automatic gc (pruning is
 * explicit), no hooks, and the large-file list as the excludes file. `alsoExclude` are folders never to
 * snapshot when they sit inside the project (the Hearth home: its models and database do not belong in it).
 */
export async function ensureShadowRepo(location: ShadowLocation, alsoExclude: string[]): Promise<void> {
  if (!existsSync(join(location.gitDir, 'HEAD'))) {
    try {
      await mkdir(location.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new HearthError('checkpoint_failed', `Cannot create the checkpoint store ${location.dir}: ${errorMessage(err)}`, { cause: err });
    }
    await runGit(location, ['init', '--quiet', '--template=']);
    const settings: Array<[string, string]> = [
      ['core.logAllRefUpdates', 'false'],
      ['core.quotePath', 'false'],
      ['core.excludesFile', largeFilesPath(location)],
      ['gc.auto', '0'],
      ['commit.gpgSign', 'false'],
    ];
    for (const [key, value] of settings) await runGit(location, ['config', key, value]);
    await writeFile(join(location.dir, 'project.txt'), `${location.root}\n`);
  }
  const permanent = [location.dir, ...alsoExclude]
    .filter((folder) => isInside(location.root, folder) && folder !== location.root)
    .map((folder) => `${literalIgnorePattern(relative(location.root, folder))}/`);
  await mkdir(join(location.gitDir, 'info'), { recursive: true });
  await writeFile(excludesPath(location), `${permanent.join('\n')}\n`);
}

/**
 * Brings the shadow index to the project's current files and returns their tree. The project's own `.git`
 * is never read: git skips any `.git` entry of a work tree. Files now ignored or too large leave the index
 * first, so they are neither hashed nor kept.
 */
export async function stageCurrentFiles(location: ShadowLocation, limits: ScanLimits): Promise<StagedState> {
  const scan = await scanProject(location, limits, excludesPath(location));
  await writeFile(largeFilesPath(location), scan.largeFiles.map((path) => `${literalIgnorePattern(path)}\n`).join(''));
  const nowIgnored = await runGit(location, [
    'ls-files', '-z', '--cached', '--ignored',
    '--exclude-per-directory=.gitignore', `--exclude-from=${excludesPath(location)}`, `--exclude-from=${largeFilesPath(location)}`,
  ]);
  if (nowIgnored.stdout !== '') {
    // Plumbing, not `rm --cached`: this index is ours, so there is no staged work to protect.
    await runGit(location, ['update-index', '--force-remove', '-z', '--stdin'], { input: nowIgnored.stdout });
  }
  await runGit(location, ['add', '--all']);
  const tree = (await runGit(location, ['write-tree'])).stdout.trim();
  return { tree, largeFiles: scan.largeFiles };
}

/** Every checkpoint of the project, newest first. */
export async function storedCheckpoints(location: ShadowLocation): Promise<StoredCheckpoint[]> {
  const format = ['%(refname)', '%(objectname)', '%(tree)', '%(committerdate:unix)', '%(contents:subject)', '%(contents:body)'].join('%00');
  const { stdout } = await runGit(location, ['for-each-ref', '--sort=-refname', `--format=${format}%1e`, REF_PREFIX]);
  return stdout
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [ref = '', commit = '', tree = '', time = '0', reason = '', body = ''] = record.split('\0');
      const changed = new RegExp(`^${FILES_CHANGED}: (\\d+)$`, 'm').exec(body);
      const covers = [...body.matchAll(new RegExp(`^${COVERS}: (.*)$`, 'gm'))].map((m) => m[1] ?? '');
      return { ref, sequence: Number(ref.slice(REF_PREFIX.length)), commit, tree, time: Number(time), reason, filesChanged: Number(changed?.[1] ?? 0), covers };
    });
}

/** Records a tree as a new checkpoint; the commit has no parent so dropping old checkpoints needs no history rewrite. */
export async function commitCheckpoint(location: ShadowLocation, tree: string, reason: string, filesChanged: number, sequence: number, epochSeconds: number): Promise<string> {
  const commit = (await runGit(location, ['commit-tree', tree, '-F', '-'], { input: checkpointMessage(reason, filesChanged, []), epochSeconds })).stdout.trim();
  // The empty old value makes update-ref refuse to overwrite a ref another process created meanwhile.
  await runGit(location, ['update-ref', refName(sequence), commit, '']);
  return commit;
}

/**
 * Relabels a checkpoint with what else it covers: the same tree and time under a new commit message, swapped in
 * only if the ref still points at the old commit. Returns the new commit.
 */
export async function relabelCheckpoint(location: ShadowLocation, stored: StoredCheckpoint, covers: string[]): Promise<string> {
  const message = checkpointMessage(stored.reason, stored.filesChanged, covers);
  const commit = (await runGit(location, ['commit-tree', stored.tree, '-F', '-'], { input: message, epochSeconds: stored.time })).stdout.trim();
  await runGit(location, ['update-ref', stored.ref, commit, stored.commit]);
  return commit;
}

function checkpointMessage(reason: string, filesChanged: number, covers: string[]): string {
  return `${reason}\n\n${FILES_CHANGED}: ${filesChanged}\n${covers.map((line) => `${COVERS}: ${line}\n`).join('')}`;
}

/** Deletes checkpoint refs, then the objects only they held (never packed, so a loose-object prune frees them). */
export async function dropCheckpoints(location: ShadowLocation, refs: string[]): Promise<void> {
  if (refs.length === 0) return;
  await runGit(location, ['update-ref', '--stdin'], { input: refs.map((ref) => `delete ${ref}\n`).join('') });
  await runGit(location, ['prune', '--expire=now']);
}

/** `A`/`M`/`T`/`D` changes between two trees, as root-relative paths. */
export async function changedPaths(location: ShadowLocation, fromTree: string, toTree: string): Promise<Array<{ status: string; path: string }>> {
  const { stdout } = await runGit(location, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', fromTree, toTree]);
  const parts = stdout.split('\0');
  const changes: Array<{ status: string; path: string }> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ status: parts[i] ?? '', path: parts[i + 1] ?? '' });
  return changes;
}

/** Files in a tree (for the first checkpoint's "files changed"). */
export async function treeFileCount(location: ShadowLocation, tree: string): Promise<number> {
  const { stdout } = await runGit(location, ['ls-tree', '-r', '-z', '--name-only', tree]);
  return stdout.split('\0').filter((path) => path !== '').length;
}
